package test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/test/testserver"
)

// changesBatchBody is a POST R/contents body creating n small files under
// dir, without a message (so the default one is written).
func changesBatchBody(t *testing.T, dir string, n int) []byte {
	t.Helper()
	files := make([]map[string]any, n)
	for i := range files {
		files[i] = map[string]any{"operation": "create", "path": fmt.Sprintf("%s/file-%05d.txt", dir, i),
			"content": changesB64(fmt.Sprintf("line %d\n", i))}
	}
	body, err := json.Marshal(map[string]any{"files": files})
	if err != nil {
		t.Fatal(err)
	}
	return body
}

func TestChangesFileCountCapWritesNothing(t *testing.T) {
	is := is.New(t)
	srv := testserver.Start(t, testserver.WithSettings(func(s *site.Settings) { s.MaxChangeFiles = 5 }))
	changesRepo(t, srv)
	before := changesRefs(t, srv, "alice", "notes")

	r := srv.Do("POST", "/repos/alice/notes/contents", changesBatchBody(t, "over", 6), basicAs("alice")...)
	assertAPIError(t, r, http.StatusUnprocessableEntity, "Files: a write may change at most 5 files, got 6")
	is.Equal(changesRefs(t, srv, "alice", "notes"), before) // the branch tip did not move
	changesFsck(t, srv, "alice", "notes")

	// At the cap the write goes through, as one commit.
	r = srv.Do("POST", "/repos/alice/notes/contents", changesBatchBody(t, "at", 5), basicAs("alice")...)
	is.Equal(r.Status, http.StatusCreated)
	var fr changesFilesResponse
	r.Decode(t, &fr)
	is.Equal(len(fr.Files), 5)
	is.Equal(changesGit(t, srv, "alice", "notes", "rev-list", "--count", "main"), "2")
}

// changesBatchAnswer posts a batch of n files and returns the answer's size.
func changesBatchAnswer(t *testing.T, srv *testserver.Server, dir string, n int) (int, changesFilesResponse) {
	t.Helper()
	r := srv.Do("POST", "/repos/alice/notes/contents", changesBatchBody(t, dir, n), basicAs("alice")...)
	if r.Status != http.StatusCreated {
		t.Fatalf("batch of %d: status %d, body %.300s", n, r.Status, r.Body)
	}
	var fr changesFilesResponse
	r.Decode(t, &fr)
	return len(r.Body), fr
}

// TestChangesBatchAnswerLinear is the regression test of a batch write whose
// answer grew with the square of its files: the default message named every
// path and every entry of the answer repeated it (2,000 files answered
// 68 MB). Now the message is bounded and told once, in the commit object.
func TestChangesBatchAnswerLinear(t *testing.T) {
	is := is.New(t)
	srv := testserver.Start(t)
	changesRepo(t, srv)

	small, _ := changesBatchAnswer(t, srv, "small", 500)
	size, fr := changesBatchAnswer(t, srv, "large", 2000)
	perSmall, perLarge := small/500, size/2000
	t.Logf("answer bytes per file: %d at 500 files, %d at 2,000", perSmall, perLarge)
	// An entry is its name, its URLs and its content: under 2 KB.
	is.True(perLarge < 2000)
	is.True(perLarge <= perSmall+perSmall/10) // linear: four times the files, four times the bytes

	head := changesGit(t, srv, "alice", "notes", "rev-parse", "main")
	is.Equal(len(fr.Files), 2000)
	is.Equal(fr.Commit.SHA, head)
	for i, f := range fr.Files {
		is.Equal(f.Path, fmt.Sprintf("large/file-%05d.txt", i))
		is.Equal(*f.LastCommitSha, head)
		is.True(f.LastCommitMessage == nil) // the message is the commit object's, told once
	}

	// The default message names the first paths and counts the others.
	want := "Add large/file-00000.txt, large/file-00001.txt, large/file-00002.txt, large/file-00003.txt, " +
		"large/file-00004.txt, large/file-00005.txt, large/file-00006.txt, large/file-00007.txt, large/file-00008.txt " +
		"and 1991 more files"
	is.Equal(changesGit(t, srv, "alice", "notes", "log", "-1", "--format=%B"), want)
	is.Equal(fr.Commit.Message, want+"\n")
	is.Equal(changesGit(t, srv, "alice", "notes", "ls-tree", "-r", "--name-only", "main", "large/file-01999.txt"),
		"large/file-01999.txt")
	changesFsck(t, srv, "alice", "notes")
}

// changesRSSAnon reads this process's resident anonymous memory (Linux), or
// 0 where /proc is not there. The server runs in the test's process.
func changesRSSAnon() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "RssAnon:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// changesBatchAllocated posts a prepared batch and returns how many bytes
// the process allocated meanwhile (server and client: the server runs in
// the test's process). Allocation is an upper bound of the heap's growth,
// and is counted exactly, not sampled.
func changesBatchAllocated(t *testing.T, srv *testserver.Server, body []byte) uint64 {
	t.Helper()
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	rss := changesRSSAnon()
	r := srv.Do("POST", "/repos/alice/notes/contents", body, basicAs("alice")...)
	runtime.ReadMemStats(&after)
	if r.Status != http.StatusCreated {
		t.Fatalf("status %d, body %.300s", r.Status, r.Body)
	}
	allocated := after.TotalAlloc - before.TotalAlloc
	t.Logf("%d body bytes, %d answer bytes: %.1f MB allocated, heap in use %+.1f MB, anonymous RSS %+.1f MB",
		len(body), len(r.Body), float64(allocated)/1e6,
		float64(int64(after.HeapInuse)-int64(before.HeapInuse))/1e6, float64(changesRSSAnon()-rss)/1e6)
	return allocated
}

// TestChangesBatchMemoryBounded measures the memory a write of the largest
// batch the site allows costs: it stays a small multiple of the request
// (before the fix, 2,000 files cost hundreds of megabytes and 16,000 took
// 13 GB), and grows in step with the number of files. A memory bound, not
// a timing; not parallel, so that no other test's allocations count.
func TestChangesBatchMemoryBounded(t *testing.T) {
	is := is.New(t)
	srv := testserver.Start(t)
	changesRepo(t, srv)
	largest := site.Defaults().MaxChangeFiles

	small := changesBatchBody(t, "small", largest/4)
	large := changesBatchBody(t, "large", largest)
	perSmall := changesBatchAllocated(t, srv, small) / uint64(largest/4)
	total := changesBatchAllocated(t, srv, large)
	perLarge := total / uint64(largest)
	t.Logf("allocated per file: %d bytes at %d files, %d at %d", perSmall, largest/4, perLarge, largest)
	is.True(total < 64<<20)                 // a few MB of request, tens of MB at most
	is.True(perLarge < perSmall+perSmall/2) // linear in the files, not quadratic
}

// changesDeepPath is a file under its own chain of depth directories.
func changesDeepPath(root string, depth int) string {
	return root + strings.Repeat("/d", depth-1) + "/f.txt"
}

// TestChangesDirectoryCapWritesNothing checks the bound on the directories
// one write passes through (each is a tree rewritten): a few files each in
// its own deep chain of directories made millions of trees from a small
// request. Past 10,000 distinct directories a batch or a diff is refused
// with 422 and writes nothing; a diff also counts its files against the
// site's max_change_files.
func TestChangesDirectoryCapWritesNothing(t *testing.T) {
	srv := testserver.Start(t, testserver.WithSettings(func(s *site.Settings) { s.MaxChangeFiles = 20 }))
	changesRepo(t, srv)
	deepFiles := make([]map[string]any, 11) // 11 chains of 1,000 directories
	var patch strings.Builder
	for i := range deepFiles {
		p := changesDeepPath(fmt.Sprintf("chain%02d", i), 1000)
		deepFiles[i] = map[string]any{"operation": "create", "path": p, "content": changesB64("x\n")}
		fmt.Fprintf(&patch, "diff --git a/%s b/%s\nnew file mode 100644\n--- /dev/null\n+++ b/%s\n@@ -0,0 +1 @@\n+x\n", p, p, p)
	}
	var manyPatch strings.Builder
	for i := range 21 {
		fmt.Fprintf(&manyPatch, "diff --git a/m%02d.txt b/m%02d.txt\nnew file mode 100644\n--- /dev/null\n+++ b/m%02d.txt\n@@ -0,0 +1 @@\n+x\n", i, i, i)
	}
	cases := []struct {
		name, path string
		body       any
		msg        string
	}{
		{"batch through too many directories", "/repos/alice/notes/contents", map[string]any{"files": deepFiles},
			"Files: a write may pass through at most 10000 directories"},
		{"diff through too many directories", "/repos/alice/notes/diffpatch", map[string]any{"content": patch.String()},
			"Content: a write may pass through at most 10000 directories"},
		{"diff of too many files", "/repos/alice/notes/diffpatch", map[string]any{"content": manyPatch.String()},
			"Content: a write may change at most 20 files, got 21"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			before := changesRefs(t, srv, "alice", "notes")
			r := srv.Do("POST", tc.path, tc.body, basicAs("alice")...)
			assertAPIError(t, r, http.StatusUnprocessableEntity, tc.msg)
			is.Equal(changesRefs(t, srv, "alice", "notes"), before)
		})
	}

	// Ten chains, 10,000 directories, are within the bound.
	is := is.New(t)
	r := srv.Do("POST", "/repos/alice/notes/contents", map[string]any{"files": deepFiles[:10]}, basicAs("alice")...)
	is.Equal(r.Status, http.StatusCreated)
	is.Equal(changesGit(t, srv, "alice", "notes", "show", "main:"+changesDeepPath("chain09", 1000)), "x")
	changesFsck(t, srv, "alice", "notes")
}
