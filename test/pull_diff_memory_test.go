package test

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// largeDiff is the shape of the pull request TestPullDiffStreamsLargeDiff
// builds: files × lines lines of lineLen bytes added, about 100 MB of diff.
const (
	largeDiffFiles   = 200
	largeDiffLines   = 8000
	largeDiffLineLen = 64
)

// fastImportLargeBranch writes, with git fast-import in the work tree w, a
// branch "feature" on main adding largeDiffFiles generated text files, and
// returns the size in bytes of what they add. The lines differ (each names
// its file and number), so that git can neither delta them against one
// another nor libgit2 diff them cheaply.
func fastImportLargeBranch(t *testing.T, w string) int64 {
	t.Helper()
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir = w
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out := &strings.Builder{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	bw := bufio.NewWriterSize(in, 1<<20)
	msg := "generated files\n"
	fmt.Fprintf(bw, "commit refs/heads/feature\ncommitter test <test@example.com> 1700000000 +0000\ndata %d\n%sfrom refs/heads/main\n",
		len(msg), msg)
	var total int64
	line := make([]byte, 0, largeDiffLineLen)
	for f := 0; f < largeDiffFiles; f++ {
		fmt.Fprintf(bw, "M 100644 inline gen/file%03d.txt\ndata %d\n", f, largeDiffLines*largeDiffLineLen)
		for n := 0; n < largeDiffLines; n++ {
			line = line[:0]
			line = append(line, "file "...)
			line = strconv.AppendInt(line, int64(f), 10)
			line = append(line, " line "...)
			line = strconv.AppendInt(line, int64(n), 10)
			line = append(line, ' ')
			for len(line) < largeDiffLineLen-1 {
				line = append(line, byte('a'+(n+f+len(line))%26))
			}
			line = append(line, '\n')
			_, _ = bw.Write(line)
		}
		total += largeDiffLines * largeDiffLineLen
	}
	if err := bw.Flush(); err != nil {
		t.Fatal(err)
	}
	_ = in.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("git fast-import: %v\n%s", err, out)
	}
	return total
}

// anonRSS is this process's anonymous resident memory in bytes
// (/proc/self/status RssAnon): the Go heap, the C heap libgit2 allocates
// from, stacks. The pages of the packs libgit2 maps are left out: they are
// the page cache, shared with every reader and given back under pressure.
func anonRSS(t *testing.T) int64 {
	t.Helper()
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "RssAnon:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatal("no RssAnon in /proc/self/status")
	return 0
}

// streamedGrowth requests url, reads the answer as it comes and drops it,
// sampling the anonymous resident memory of this process (the server runs
// in it)
// meanwhile. It returns how many bytes came and the highest growth of the
// resident set over what it was before the request.
func streamedGrowth(t *testing.T, url string) (int64, int64) {
	t.Helper()
	runtime.GC()
	debug.FreeOSMemory()
	before := anonRSS(t)
	var (
		peak int64
		mu   sync.Mutex
		done = make(chan struct{})
		wg   sync.WaitGroup
	)
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			rss := anonRSS(t)
			mu.Lock()
			peak = max(peak, rss)
			mu.Unlock()
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s", url, resp.Status)
	}
	n, err := io.CopyBuffer(io.Discard, resp.Body, make([]byte, 32<<10))
	_ = resp.Body.Close()
	close(done)
	wg.Wait()
	if err != nil {
		t.Fatalf("read %s: %v", url, err)
	}
	mu.Lock()
	defer mu.Unlock()
	return n, peak - before
}

// TestPullDiffStreamsLargeDiff reads the .diff and .patch of a pull
// request whose diff is about 100 MB (200 added files of 500 KB) and checks
// that the server streams them: the resident memory of the process grows
// by less than 20 MB while the whole diff goes through. What a stream
// holds at once is one file's contents and patch text, so the bound holds
// for diffs of many files, not for one file of 100 MB (libgit2, like git,
// loads a file whole to diff it).
func TestPullDiffStreamsLargeDiff(t *testing.T) {
	is := is.New(t)
	srv := testserver.Start(t)
	_, c := srv.CreateUser("alice", "password-123")
	createRepo(t, c, gitea.CreateRepoOption{Name: "huge", AutoInit: true})
	w := cloneRepo(t, srv, "alice", "huge")
	added := fastImportLargeBranch(t, w)
	// No delta search: the generated blobs share nothing worth it, and it
	// would cost seconds.
	gitRun(t, w, "-c", "pack.window=0", "push", "-q", repoDir(srv, "alice", "huge"), "feature")
	_, _, err := c.CreatePullRequest("alice", "huge", gitea.CreatePullRequestOption{Head: "feature", Base: "main", Title: "Huge"})
	is.NoErr(err)
	waitPullChecked(t, srv, c, "alice", "huge", 1)

	const bound = 20 << 20
	for _, suffix := range []string{".diff", ".patch"} {
		n, growth := streamedGrowth(t, srv.API+"/repos/alice/huge/pulls/1"+suffix)
		t.Logf("%s: %d MB streamed, resident memory grew by %.1f MB", suffix, n>>20, float64(growth)/(1<<20))
		is.True(n > added)      // the whole diff came: every added line and more
		is.True(growth < bound) // and it was never held whole
	}
}
