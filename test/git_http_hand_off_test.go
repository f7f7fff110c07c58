package test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/rand"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/test/testserver"
	"github.com/matryer/is"
)

// fetchBody is a protocol-v2 fetch request with args as its arguments.
func fetchBody(args ...string) string { return v2Body("fetch", args...) }

// sendFetch posts body to owner/name's git-upload-pack with protocol
// version 2 and returns the answer as it starts, its body unread.
func sendFetch(t *testing.T, srv *testserver.Server, owner, name, body string, header ...string) *http.Response {
	t.Helper()
	req, err := http.NewRequest("POST", srv.URL+"/"+owner+"/"+name+".git/git-upload-pack", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-git-upload-pack-request")
	req.Header.Set("Git-Protocol", "version=2")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// postFetch is sendFetch with the answer read to its end.
func postFetch(t *testing.T, srv *testserver.Server, owner, name, body string, header ...string) (*http.Response, []byte) {
	t.Helper()
	resp := sendFetch(t, srv, owner, name, body, header...)
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, data
}

// sideBand splits a fetch answer into its sections: the lines before the
// pack, the pack (band 1), the progress (band 2), and whether it ended in a
// flush.
func sideBand(t *testing.T, answer []byte) (lines []string, pack, progress []byte, flushed bool) {
	t.Helper()
	r := bufio.NewReader(bytes.NewReader(answer))
	inPack := false
	for {
		var head [4]byte
		if _, err := io.ReadFull(r, head[:]); err != nil {
			if errors.Is(err, io.EOF) {
				return lines, pack, progress, flushed
			}
			t.Fatalf("truncated pkt-line: %v", err)
		}
		n, err := strconv.ParseUint(string(head[:]), 16, 16)
		if err != nil {
			t.Fatalf("bad pkt-line length %q", head)
		}
		if n == 0 {
			flushed = true
			continue
		}
		data := make([]byte, n-4)
		if _, err := io.ReadFull(r, data); err != nil {
			t.Fatalf("truncated pkt-line: %v", err)
		}
		switch {
		case !inPack:
			lines = append(lines, string(data))
			inPack = string(data) == "packfile\n"
		case data[0] == 1:
			pack = append(pack, data[1:]...)
		case data[0] == 2:
			progress = append(progress, data[1:]...)
		default:
			t.Fatalf("band %d: %q", data[0], data[1:])
		}
	}
}

// TestHTTPGitFetchHandedToGit checks the answer git writes on the client's
// connection itself to a fetch request that ends the negotiation: a whole
// pack that git indexes, ending with the connection (no chunks,
// Connection: close), counted in the metrics; the negotiation rounds before
// it and whatever is not in the plain form keep the connection, and
// access is checked as before.
func TestHTTPGitFetchHandedToGit(t *testing.T) {
	srv, alice := httpGitSetup(t, testserver.WithSettings(func(s *site.Settings) {
		s.Metrics = site.Metrics{Enabled: true, Token: metricsToken}
		s.PackCacheBytes = 0 // git answers every time (the cache: git_http_pack_cache_test.go)
	}))
	createRepo(t, alice, gitea.CreateRepoOption{Name: "pub", AutoInit: true, Readme: "Default"})
	createRepo(t, alice, gitea.CreateRepoOption{Name: "secret", AutoInit: true, Private: true})
	work := httpGitClone(t, httpGitURL(srv, "alice", "pub", "alice", userPassword))
	first := strings.TrimSpace(httpGitOK(t, work, "rev-parse", "HEAD"))
	httpGitCommit(t, work, "big.txt", strings.Repeat("depot pack data\n", 40000), "big")
	head := httpGitCommit(t, work, "c.txt", "c\n", "third")
	httpGitOK(t, work, "push", "-q", "origin", "main")
	outBytes := func() float64 {
		m := scrapeMetrics(t, srv)
		c := labelled(m["depot_git_http_bytes_total"], map[string]string{"service": "upload-pack", "direction": "out"})
		if c == nil {
			return 0
		}
		return c.GetCounter().GetValue()
	}

	t.Run("Clone", func(t *testing.T) {
		is := is.New(t)
		before := outBytes()
		resp, answer := postFetch(t, srv, "alice", "pub", fetchBody("thin-pack", "ofs-delta", "want "+head, "done"))
		is.Equal(resp.StatusCode, http.StatusOK)
		is.Equal(resp.Header.Get("Content-Type"), "application/x-git-upload-pack-result")
		is.Equal(resp.Header.Get("Cache-Control"), "no-cache, max-age=0, must-revalidate")
		is.True(resp.Close)                     // Connection: close
		is.Equal(len(resp.TransferEncoding), 0) // not chunked: it ends with the connection
		is.Equal(resp.ContentLength, int64(-1))
		lines, pack, progress, flushed := sideBand(t, answer)
		is.Equal(lines, []string{"packfile\n"})
		is.True(flushed)
		is.True(len(progress) > 0) // progress was not turned off
		is.True(bytes.HasPrefix(pack, []byte("PACK")))

		// The pack holds the history: git indexes it and finds the head's tree.
		dst := indexPack(t, pack)
		is.Equal(strings.TrimSpace(gitRun(t, dst, "cat-file", "-t", head+"^{tree}")), "tree")

		// The bytes git wrote are counted, from the socket's counters.
		is.True(outBytes()-before >= float64(len(answer)))
	})

	t.Run("FetchWithHaves", func(t *testing.T) {
		is := is.New(t)
		resp, answer := postFetch(t, srv, "alice", "pub", fetchBody("thin-pack", "no-progress", "ofs-delta",
			"want "+head, "have "+first, "done"))
		is.Equal(resp.StatusCode, http.StatusOK)
		is.True(resp.Close)
		lines, pack, progress, flushed := sideBand(t, answer)
		is.Equal(lines, []string{"packfile\n"})
		is.True(flushed)
		is.Equal(len(progress), 0) // no-progress
		is.True(bytes.HasPrefix(pack, []byte("PACK")))
	})

	t.Run("GzipRequest", func(t *testing.T) {
		is := is.New(t)
		// Git compresses a request of over 1 KiB (a clone of many branches).
		var zipped bytes.Buffer
		zw := gzip.NewWriter(&zipped)
		_, _ = zw.Write([]byte(fetchBody("ofs-delta", "no-progress", "want "+head, "want "+first, "done")))
		is.NoErr(zw.Close())
		resp, answer := postFetch(t, srv, "alice", "pub", zipped.String(), "Content-Encoding", "gzip")
		is.Equal(resp.StatusCode, http.StatusOK)
		is.True(resp.Close)
		lines, pack, _, flushed := sideBand(t, answer)
		is.Equal(lines, []string{"packfile\n"})
		is.True(flushed)
		is.True(bytes.HasPrefix(pack, []byte("PACK")))
	})

	t.Run("GitClientsThroughIt", func(t *testing.T) {
		is := is.New(t)
		dir := httpGitClone(t, httpGitURL(srv, "alice", "pub", "", ""))
		is.Equal(strings.TrimSpace(httpGitOK(t, dir, "rev-parse", "HEAD")), head)
		httpGitOK(t, dir, "fsck", "--strict")
		next := httpGitCommit(t, work, "d.txt", "d\n", "fourth")
		httpGitOK(t, work, "push", "-q", "origin", "main")
		httpGitOK(t, dir, "fetch", "-q", "origin")
		is.Equal(strings.TrimSpace(httpGitOK(t, dir, "rev-parse", "origin/main")), next)
		private := httpGitClone(t, httpGitURL(srv, "alice", "secret", "alice", userPassword))
		httpGitOK(t, private, "fsck", "--strict")
	})

	t.Run("NegotiationKeepsTheConnection", func(t *testing.T) {
		is := is.New(t)
		// Without "done", git answers with acknowledgments and the client
		// asks again, on the same connection.
		resp, answer := postFetch(t, srv, "alice", "pub", fetchBody("want "+head, "have "+first))
		is.Equal(resp.StatusCode, http.StatusOK)
		is.True(!resp.Close)
		is.True(strings.HasPrefix(string(answer), httpGitPkt("acknowledgments\n")))
		// A filter is left to the streamed path too.
		resp, answer = postFetch(t, srv, "alice", "pub", fetchBody("want "+head, "filter blob:none", "done"))
		is.Equal(resp.StatusCode, http.StatusOK)
		is.True(!resp.Close)
		lines, _, _, flushed := sideBand(t, answer)
		is.Equal(lines, []string{"packfile\n"})
		is.True(flushed)
	})

	t.Run("UnknownWant", func(t *testing.T) {
		is := is.New(t)
		// Git refuses it in-band, after the status.
		resp, answer := postFetch(t, srv, "alice", "pub", fetchBody("want "+strings.Repeat("1", 40), "done"))
		is.Equal(resp.StatusCode, http.StatusOK)
		is.True(resp.Close)
		is.True(strings.Contains(string(answer), "ERR upload-pack: not our ref"))
	})

	t.Run("Access", func(t *testing.T) {
		is := is.New(t)
		body := fetchBody("want "+head, "done")
		resp, answer := postFetch(t, srv, "alice", "secret", body)
		is.Equal(resp.StatusCode, http.StatusUnauthorized) // asked to sign in, as before
		is.True(!bytes.Contains(answer, []byte("PACK")))
		newAccount(t, srv, "bob", gitea.VisibleTypePublic)
		resp, answer = postFetch(t, srv, "alice", "secret", body, "Authorization", basicAs("bob")[1])
		is.Equal(resp.StatusCode, http.StatusNotFound)
		is.True(!bytes.Contains(answer, []byte("PACK")))
		resp, _ = postFetch(t, srv, "alice", "secret", body, "Content-Type", "text/plain",
			"Authorization", basicAs("alice")[1])
		is.Equal(resp.StatusCode, http.StatusUnsupportedMediaType)
	})
}

// TestHTTPGitHandedFetchEnds checks how an answer git writes on the
// client's connection ends when the client goes away part way (git ends at
// once), and when the server is stopped part way: the HTTP server's
// Shutdown no longer tracks that connection, but the server still waits
// for the answer to end before it stops git.
func TestHTTPGitHandedFetchEnds(t *testing.T) {
	srv, alice := httpGitSetup(t, testserver.WithSettings(func(s *site.Settings) { s.PackCacheBytes = 0 }))
	// More than the socket's buffers hold: git is still writing when the
	// client goes or the server is told to stop.
	head := httpGitNoiseRepo(t, srv, alice, "pub")
	// start posts the fetch and reads the start of the answer.
	start := func(is *is.I) (*http.Response, []byte) {
		resp := sendFetch(t, srv, "alice", "pub", fetchBody("no-progress", "ofs-delta", "want "+head, "done"))
		is.True(resp.Close)
		first := make([]byte, 4096)
		_, err := io.ReadFull(resp.Body, first)
		is.NoErr(err)
		return resp, first
	}

	t.Run("ClientGone", func(t *testing.T) {
		is := is.New(t)
		resp, _ := start(is)
		is.True(len(gitUploadPacks(t)) > 0) // git upload-pack is writing
		is.NoErr(resp.Body.Close())
		is.Equal(waitNoUploadPacks(t, 10*time.Second), []string{}) // git ended with the connection
	})

	t.Run("Shutdown", func(t *testing.T) {
		is := is.New(t)
		resp, first := start(is)
		defer resp.Body.Close()
		stopped := make(chan struct{})
		go func() {
			srv.Stop()
			close(stopped)
		}()
		time.Sleep(300 * time.Millisecond) // the shutdown under way, git blocked on the socket
		rest, err := io.ReadAll(resp.Body)
		is.NoErr(err)
		_, pack, _, flushed := sideBand(t, append(first, rest...))
		is.True(flushed)
		is.True(len(pack) > noiseBytes/2)
		indexPack(t, pack) // a whole pack
		<-stopped
	})
}

// gitUploadPacks lists the git upload-pack processes this test process
// started (the in-process server's), by their command lines.
func gitUploadPacks(t *testing.T) []string {
	t.Helper()
	stats, err := filepath.Glob("/proc/[0-9]*/stat")
	if err != nil {
		t.Fatal(err)
	}
	self := strconv.Itoa(os.Getpid())
	found := []string{}
	for _, p := range stats {
		data, err := os.ReadFile(p)
		if err != nil {
			continue // gone meanwhile
		}
		// pid (comm) state ppid ...: comm may hold spaces, so read after ")".
		i := bytes.LastIndexByte(data, ')')
		if i < 0 {
			continue
		}
		if fields := strings.Fields(string(data[i+1:])); len(fields) < 2 || fields[1] != self {
			continue
		}
		cmdline, _ := os.ReadFile(filepath.Join(filepath.Dir(p), "cmdline"))
		if line := strings.ReplaceAll(string(cmdline), "\x00", " "); strings.Contains(line, "upload-pack") {
			found = append(found, line)
		}
	}
	return found
}

// noiseBytes is the size of the file httpGitNoiseRepo commits.
const noiseBytes = 16 << 20

// httpGitNoiseRepo creates alice's public repository name with a commit of
// noiseBytes of random data (incompressible: a pack larger than the
// sockets' buffers hold) pushed over HTTP, and returns that commit's id.
func httpGitNoiseRepo(t *testing.T, srv *testserver.Server, alice *gitea.Client, name string) string {
	t.Helper()
	createRepo(t, alice, gitea.CreateRepoOption{Name: name, AutoInit: true})
	work := httpGitClone(t, httpGitURL(srv, "alice", name, "alice", userPassword))
	noise := make([]byte, noiseBytes)
	_, _ = rand.Read(noise)
	if err := os.WriteFile(filepath.Join(work, "noise.bin"), noise, 0o644); err != nil {
		t.Fatal(err)
	}
	httpGitOK(t, work, "add", "noise.bin")
	httpGitOK(t, work, "commit", "-q", "-m", "noise")
	httpGitOK(t, work, "push", "-q", "origin", "main")
	return strings.TrimSpace(httpGitOK(t, work, "rev-parse", "HEAD"))
}

// waitNoUploadPacks waits until no git upload-pack of this process runs.
func waitNoUploadPacks(t *testing.T, within time.Duration) []string {
	t.Helper()
	deadline := time.Now().Add(within)
	for len(gitUploadPacks(t)) > 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	return gitUploadPacks(t)
}
