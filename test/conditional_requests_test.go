package test

import (
	"bufio"
	"net/http"
	"os"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// TestConditionalRequestsOnARepository polls a repository as a CI system
// does: the answer carries a strong ETag; asking again with it costs a 304
// without a body until the repository changes; the tag is per answer, so
// another caller's tag is no use.
func TestConditionalRequestsOnARepository(t *testing.T) {
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		srv := testserver.Start(t, opts...)
		_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
		newAccount(t, srv, "bob", gitea.VisibleTypePublic)
		createRepo(t, alice, gitea.CreateRepoOption{Name: "polled"})

		first := srv.Do("GET", "/repos/alice/polled", nil, basicAs("alice")...)
		is.Equal(first.Status, http.StatusOK)
		etag := first.Header.Get("ETag")
		is.True(strings.HasPrefix(etag, `"`) && len(etag) > 10) // strong: no W/
		is.Equal(first.Header.Get("Cache-Control"), "private, no-cache")

		again := srv.Do("GET", "/repos/alice/polled", nil, append(basicAs("alice"), "If-None-Match", etag)...)
		is.Equal(again.Status, http.StatusNotModified)
		is.Equal(len(again.Body), 0)
		is.Equal(again.Header.Get("ETag"), etag)
		// Weak comparison, and a list of tags.
		again = srv.Do("GET", "/repos/alice/polled", nil, append(basicAs("alice"), "If-None-Match", `"other", W/`+etag)...)
		is.Equal(again.Status, http.StatusNotModified)

		// Another caller sees another answer (alice's permissions), so
		// alice's tag gets bob the whole answer.
		bobs := srv.Do("GET", "/repos/alice/polled", nil, append(basicAs("bob"), "If-None-Match", etag)...)
		is.Equal(bobs.Status, http.StatusOK)
		is.True(bobs.Header.Get("ETag") != etag)

		// Anonymous answers may be kept by shared caches, which revalidate.
		anon := srv.Do("GET", "/repos/alice/polled", nil)
		is.Equal(anon.Status, http.StatusOK)
		is.Equal(anon.Header.Get("Cache-Control"), "no-cache")

		// A change: the old tag gets the new answer with a new tag.
		desc := "changed"
		_, _, err := alice.EditRepo("alice", "polled", gitea.EditRepoOption{Description: &desc})
		is.NoErr(err)
		changed := srv.Do("GET", "/repos/alice/polled", nil, append(basicAs("alice"), "If-None-Match", etag)...)
		is.Equal(changed.Status, http.StatusOK)
		is.True(strings.Contains(string(changed.Body), `"description":"changed"`))
		is.True(changed.Header.Get("ETag") != etag)

		// Errors and writes carry no tag.
		missing := srv.Do("GET", "/repos/alice/absent", nil, basicAs("alice")...)
		is.Equal(missing.Status, http.StatusNotFound)
		is.Equal(missing.Header.Get("ETag"), "")
		patched := srv.Do("PATCH", "/repos/alice/polled", map[string]string{"website": "https://example.com"}, basicAs("alice")...)
		is.Equal(patched.Status, http.StatusOK)
		is.Equal(patched.Header.Get("ETag"), "")
	})
}

// TestConditionalRequestsOnEveryStaticGET round-trips If-None-Match on
// every GET route of the spec that has no path variable and that Depot
// serves, as the site administrator: each JSON answer is tagged and its tag
// answers 304.
func TestConditionalRequestsOnEveryStaticGET(t *testing.T) {
	is := is.New(t)
	srv := testserver.Start(t)
	missing := map[string]bool{}
	for _, line := range readTSV(t, "../docs/spec-routes-missing.tsv") {
		missing[line[0]+" "+line[1]] = true
	}
	admin := adminHeader(srv)
	checked := 0
	for _, line := range readTSV(t, "../docs/spec-routes.tsv") {
		method, path := line[0], line[1]
		if method != "GET" || strings.Contains(path, "{") || missing[method+" "+path] {
			continue
		}
		first := srv.Do("GET", path, nil, admin...)
		if first.Status != http.StatusOK || !strings.HasPrefix(first.Header.Get("Content-Type"), "application/json") {
			continue
		}
		etag := first.Header.Get("ETag")
		if etag == "" {
			t.Errorf("GET %s: no ETag", path)
			continue
		}
		again := srv.Do("GET", path, nil, append(admin, "If-None-Match", etag)...)
		if again.Status != http.StatusNotModified || len(again.Body) != 0 {
			t.Errorf("GET %s with its ETag: %d %q", path, again.Status, again.Body)
		}
		checked++
	}
	is.True(checked >= 20)
}

// readTSV reads a tab-separated file's rows after its header.
func readTSV(t *testing.T, name string) [][]string {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows [][]string
	sc := bufio.NewScanner(f)
	for first := true; sc.Scan(); first = false {
		if first || strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		rows = append(rows, strings.Split(sc.Text(), "\t"))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}
