package test

import (
	"bytes"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/test/testserver"
)

// packCacheCounts reads the pack cache's hits and misses from /metrics.
func packCacheCounts(t *testing.T, srv *testserver.Server) (hits, misses float64) {
	t.Helper()
	f := scrapeMetrics(t, srv)["depot_cache_requests_total"]
	if m := labelled(f, map[string]string{"cache": "git_packs", "result": "hit"}); m != nil {
		hits = m.GetCounter().GetValue()
	}
	if m := labelled(f, map[string]string{"cache": "git_packs", "result": "miss"}); m != nil {
		misses = m.GetCounter().GetValue()
	}
	return hits, misses
}

// packCacheFiles lists the pack cache's directory; nil when it is absent.
func packCacheFiles(t *testing.T, srv *testserver.Server) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(srv.DataDir, "cache", "git-packs"))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	names := []string{}
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// indexPack has git index pack (a thin one too) in a new repository, which
// it returns; the test fails unless git takes it whole.
func indexPack(t *testing.T, pack []byte) string {
	t.Helper()
	dst := t.TempDir()
	gitRun(t, dst, "init", "-q", "--bare", ".")
	index := exec.Command("git", "index-pack", "--stdin", "--fix-thin")
	index.Dir = dst
	index.Stdin = bytes.NewReader(pack)
	if out, err := index.CombinedOutput(); err != nil {
		t.Fatalf("git index-pack: %v: %s", err, out)
	}
	return dst
}

// TestHTTPGitPackCache checks that a clone over HTTP is answered from the
// pack cache when an identical one was answered before over the same refs:
// the same bytes git wrote, counted and sent as git's own are; and that a
// push, a force push, a deleted tag, access rules and a client gone part
// way are all honoured.
func TestHTTPGitPackCache(t *testing.T) {
	srv, alice := httpGitSetup(t, testserver.WithSettings(func(s *site.Settings) {
		s.Metrics = site.Metrics{Enabled: true, Token: metricsToken}
	}))
	createRepo(t, alice, gitea.CreateRepoOption{Name: "pub", AutoInit: true, Readme: "Default"})
	createRepo(t, alice, gitea.CreateRepoOption{Name: "secret", AutoInit: true, Private: true})
	work := httpGitClone(t, httpGitURL(srv, "alice", "pub", "alice", userPassword))
	first := strings.TrimSpace(httpGitOK(t, work, "rev-parse", "HEAD"))
	httpGitCommit(t, work, "big.txt", strings.Repeat("depot pack data\n", 40000), "big")
	head := httpGitCommit(t, work, "c.txt", "c\n", "third")
	httpGitOK(t, work, "tag", "-a", "v1", "-m", "one")
	httpGitOK(t, work, "push", "-q", "origin", "main", "v1")
	tagID := strings.TrimSpace(httpGitOK(t, work, "rev-parse", "v1"))

	t.Run("CloneAgainFromTheCache", func(t *testing.T) {
		is := is.New(t)
		files0 := len(packCacheFiles(t, srv)) // the first clone's, before the push
		hits0, misses0 := packCacheCounts(t, srv)
		a := httpGitClone(t, httpGitURL(srv, "alice", "pub", "", ""))
		hits1, misses1 := packCacheCounts(t, srv)
		is.Equal(hits1-hits0, 0.0)
		is.Equal(misses1-misses0, 1.0)
		is.Equal(len(packCacheFiles(t, srv)), files0) // asked for once: not kept
		b := httpGitClone(t, httpGitURL(srv, "alice", "pub", "", ""))
		hits2, misses2 := packCacheCounts(t, srv)
		is.Equal(hits2, hits1)
		is.Equal(misses2-misses1, 1.0)
		is.Equal(len(packCacheFiles(t, srv)), files0+1) // the second time: kept as it was sent
		c := httpGitClone(t, httpGitURL(srv, "alice", "pub", "", ""))
		hits3, misses3 := packCacheCounts(t, srv)
		is.Equal(hits3-hits2, 1.0) // the third clone came from the file
		is.Equal(misses3, misses2)
		for _, dir := range []string{a, b, c} {
			is.Equal(strings.TrimSpace(httpGitOK(t, dir, "rev-parse", "HEAD")), head)
			is.Equal(strings.TrimSpace(httpGitOK(t, dir, "rev-parse", "v1")), tagID)
			httpGitOK(t, dir, "fsck", "--strict")
		}
		is.Equal(len(packCacheFiles(t, srv)), files0+1) // one answer, kept once
	})

	t.Run("SameBytesAsGit", func(t *testing.T) {
		is := is.New(t)
		body := fetchBody("thin-pack", "ofs-delta", "include-tag", "want "+head, "done")
		postFetch(t, srv, "alice", "pub", body)
		// git's answer the second time is kept as it is sent (git may pack
		// the same objects otherwise from one run to the next: its delta
		// search runs in threads, and the housekeeping repacks).
		_, fromGit := postFetch(t, srv, "alice", "pub", body)
		hits0, _ := packCacheCounts(t, srv)
		outBefore := gitHTTPBytesOut(t, srv)
		resp, kept := postFetch(t, srv, "alice", "pub", body)
		hits1, _ := packCacheCounts(t, srv)
		is.Equal(hits1-hits0, 1.0)
		is.Equal(resp.StatusCode, http.StatusOK)
		is.Equal(resp.Header.Get("Content-Type"), "application/x-git-upload-pack-result")
		is.Equal(resp.Header.Get("Cache-Control"), "no-cache, max-age=0, must-revalidate")
		is.True(resp.Close)
		is.Equal(len(resp.TransferEncoding), 0)
		is.True(bytes.Equal(kept, fromGit))
		lines, pack, progress, flushed := sideBand(t, kept)
		is.Equal(lines, []string{"packfile\n"})
		is.True(flushed)
		is.True(len(progress) > 0)
		dst := indexPack(t, pack)
		is.Equal(strings.TrimSpace(gitRun(t, dst, "cat-file", "-t", tagID)), "tag") // include-tag
		is.True(gitHTTPBytesOut(t, srv)-outBefore >= float64(len(kept)))
		// Without progress it is another answer.
		_, quiet := postFetch(t, srv, "alice", "pub", fetchBody("thin-pack", "ofs-delta", "include-tag", "no-progress",
			"want "+head, "done"))
		_, _, progress, _ = sideBand(t, quiet)
		is.Equal(len(progress), 0)
	})

	t.Run("PushChangesTheAnswer", func(t *testing.T) {
		is := is.New(t)
		next := httpGitCommit(t, work, "d.txt", "d\n", "fourth")
		httpGitOK(t, work, "push", "-q", "origin", "main")
		_, misses0 := packCacheCounts(t, srv)
		dir := httpGitClone(t, httpGitURL(srv, "alice", "pub", "", ""))
		_, misses1 := packCacheCounts(t, srv)
		is.Equal(misses1-misses0, 1.0)
		is.Equal(strings.TrimSpace(httpGitOK(t, dir, "rev-parse", "HEAD")), next)
		httpGitOK(t, dir, "fsck", "--strict")
	})

	t.Run("ForcePushForgets", func(t *testing.T) {
		is := is.New(t)
		// main goes back to the first commit and the tag is deleted: the
		// later commits are reached by no ref.
		httpGitOK(t, work, "push", "-q", "-f", "origin", first+":refs/heads/main", ":refs/tags/v1")
		dir := httpGitClone(t, httpGitURL(srv, "alice", "pub", "", ""))
		is.Equal(strings.TrimSpace(httpGitOK(t, dir, "rev-parse", "HEAD")), first)
		_, err := httpGitCmd(dir, "cat-file", "-e", head)
		is.True(err != nil) // no answer kept from before held it
		hits0, _ := packCacheCounts(t, srv)
		// A want that is no ref's tip any more is git's to answer.
		postFetch(t, srv, "alice", "pub", fetchBody("ofs-delta", "want "+head, "done"))
		hits1, _ := packCacheCounts(t, srv)
		is.Equal(hits1, hits0)
	})

	t.Run("Access", func(t *testing.T) {
		is := is.New(t)
		secretHead := httpGitRef(t, srv, "alice", "secret", "refs/heads/main")
		body := fetchBody("ofs-delta", "want "+secretHead, "done")
		for range 3 { // asked for, kept, sent from the file
			resp, answer := postFetch(t, srv, "alice", "secret", body, basicAs("alice")...)
			is.Equal(resp.StatusCode, http.StatusOK)
			is.True(bytes.Contains(answer, []byte("PACK")))
		}
		hits0, misses0 := packCacheCounts(t, srv)
		resp, answer := postFetch(t, srv, "alice", "secret", body)
		is.Equal(resp.StatusCode, http.StatusUnauthorized)
		is.True(!bytes.Contains(answer, []byte("PACK")))
		newAccount(t, srv, "bob", gitea.VisibleTypePublic)
		resp, answer = postFetch(t, srv, "alice", "secret", body, basicAs("bob")...)
		is.Equal(resp.StatusCode, http.StatusNotFound)
		is.True(!bytes.Contains(answer, []byte("PACK")))
		// The same want asked of another repository is not answered from
		// the secret one's entry.
		resp, answer = postFetch(t, srv, "alice", "pub", body, basicAs("bob")...)
		is.Equal(resp.StatusCode, http.StatusOK)
		is.True(strings.Contains(string(answer), "ERR upload-pack: not our ref"))
		hits1, misses1 := packCacheCounts(t, srv)
		is.Equal(hits1, hits0)
		is.Equal(misses1, misses0)
	})

	t.Run("ClientGoneKeepsNothing", func(t *testing.T) {
		is := is.New(t)
		noise := httpGitNoiseRepo(t, srv, alice, "noise")
		body := fetchBody("no-progress", "ofs-delta", "want "+noise, "done")
		before := packCacheFiles(t, srv)
		// cut reads the start of an answer and goes.
		cut := func() {
			resp := sendFetch(t, srv, "alice", "noise", body)
			_, err := io.ReadFull(resp.Body, make([]byte, 4096))
			is.NoErr(err)
			is.NoErr(resp.Body.Close())
			is.Equal(waitNoUploadPacks(t, 10*time.Second), []string{}) // git ended with the connection
		}
		postFetch(t, srv, "alice", "noise", body) // asked for once
		cut()                                     // the second time, kept as sent: cut off
		is.Equal(packCacheFiles(t, srv), before)  // the half answer is gone, nothing kept
		hits0, _ := packCacheCounts(t, srv)
		postFetch(t, srv, "alice", "noise", body)             // counted again from the start
		_, whole := postFetch(t, srv, "alice", "noise", body) // then kept
		is.Equal(len(packCacheFiles(t, srv)), len(before)+1)
		_, again := postFetch(t, srv, "alice", "noise", body)
		hits1, _ := packCacheCounts(t, srv)
		is.Equal(hits1-hits0, 1.0)
		is.True(bytes.Equal(again, whole))
		_, pack, _, _ := sideBand(t, again)
		is.True(len(pack) > noiseBytes)
		// A client that goes while the answer comes from the file.
		resp := sendFetch(t, srv, "alice", "noise", body)
		_, err := io.ReadFull(resp.Body, make([]byte, 4096))
		is.NoErr(err)
		is.NoErr(resp.Body.Close())
		_, last := postFetch(t, srv, "alice", "noise", body)
		is.True(bytes.Equal(last, whole))
	})
}

// gitHTTPBytesOut is what the metrics count of upload-pack answers' bytes.
func gitHTTPBytesOut(t *testing.T, srv *testserver.Server) float64 {
	t.Helper()
	m := labelled(scrapeMetrics(t, srv)["depot_git_http_bytes_total"],
		map[string]string{"service": "upload-pack", "direction": "out"})
	if m == nil {
		return 0
	}
	return m.GetCounter().GetValue()
}

// TestHTTPGitPackCacheOff checks that with repository.pack_cache_bytes at
// 0 clones are answered by git every time and nothing is kept.
func TestHTTPGitPackCacheOff(t *testing.T) {
	is := is.New(t)
	srv, alice := httpGitSetup(t, testserver.WithSettings(func(s *site.Settings) {
		s.Metrics = site.Metrics{Enabled: true, Token: metricsToken}
		s.PackCacheBytes = 0
	}))
	createRepo(t, alice, gitea.CreateRepoOption{Name: "pub", AutoInit: true})
	head := httpGitRef(t, srv, "alice", "pub", "refs/heads/main")
	for range 2 {
		dir := httpGitClone(t, httpGitURL(srv, "alice", "pub", "", ""))
		is.Equal(strings.TrimSpace(httpGitOK(t, dir, "rev-parse", "HEAD")), head)
	}
	is.True(packCacheFiles(t, srv) == nil)
	hits, misses := packCacheCounts(t, srv)
	is.Equal(hits+misses, 0.0)
}
