package test

import (
	"bufio"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// TestConditionalRequestsOnARepository polls a repository as a CI system
// does: the answer carries a strong ETag; asking again with it costs a 304
// without a body until the repository changes; the tag is per answer, so
// another caller's tag is no use.
func TestConditionalRequestsOnARepository(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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

// TestConditionalRequestsLastModified: an issue, a comment and a milestone
// say when they last changed; If-Modified-Since at or after that is a 304,
// a change (a comment, a label, an edit) answers in full again, and
// If-None-Match, when sent, decides alone. On both backends.
func TestConditionalRequestsLastModified(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		srv := testserver.Start(t, opts...)
		_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
		createRepo(t, alice, gitea.CreateRepoOption{Name: "polled"})
		issue := createIssueOK(t, alice, "alice", "polled", gitea.CreateIssueOption{Title: "watched"})
		c, _, err := alice.CreateIssueComment("alice", "polled", issue.Index, gitea.CreateIssueCommentOption{Body: "first"})
		is.NoErr(err)
		m, _, err := alice.CreateMilestone("alice", "polled", gitea.CreateMilestoneOption{Title: "v1"})
		is.NoErr(err)
		label, _, err := alice.CreateLabel("alice", "polled", gitea.CreateLabelOption{Name: "bug", Color: "#ff0000"})
		is.NoErr(err)

		since := func(path, ims string, extra ...string) testserver.Response {
			t.Helper()
			return srv.Do("GET", path, nil, append(append(basicAs("alice"), "If-Modified-Since", ims), extra...)...)
		}
		issuePath := "/repos/alice/polled/issues/" + strconv.FormatInt(issue.Index, 10)
		for _, path := range []string{issuePath, "/repos/alice/polled/issues/comments/" + strconv.FormatInt(c.ID, 10),
			"/repos/alice/polled/milestones/" + strconv.FormatInt(m.ID, 10)} {
			first := srv.Do("GET", path, nil, basicAs("alice")...)
			is.Equal(first.Status, http.StatusOK)
			lm := first.Header.Get("Last-Modified")
			at, err := http.ParseTime(lm)
			is.NoErr(err)
			is.Equal(since(path, lm).Status, http.StatusNotModified)
			is.Equal(since(path, at.Add(time.Hour).Format(http.TimeFormat)).Status, http.StatusNotModified)
			is.Equal(since(path, at.Add(-time.Second).Format(http.TimeFormat)).Status, http.StatusOK)
			// A tag that does not match wins over a date that would.
			is.Equal(since(path, lm, "If-None-Match", `"other"`).Status, http.StatusOK)
			// A date Depot cannot read is no condition.
			is.Equal(since(path, "yesterday").Status, http.StatusOK)
		}

		// Changes of what the issue shows move its time: a comment, a label.
		first := srv.Do("GET", issuePath, nil, basicAs("alice")...)
		lm := first.Header.Get("Last-Modified")
		time.Sleep(1100 * time.Millisecond) // the header counts seconds
		_, _, err = alice.CreateIssueComment("alice", "polled", issue.Index, gitea.CreateIssueCommentOption{Body: "second"})
		is.NoErr(err)
		after := since(issuePath, lm)
		is.Equal(after.Status, http.StatusOK)
		is.True(strings.Contains(string(after.Body), `"comments":2`))
		lm = after.Header.Get("Last-Modified")
		time.Sleep(1100 * time.Millisecond)
		_, _, err = alice.AddIssueLabels("alice", "polled", issue.Index, gitea.IssueLabelsOption{Labels: []int64{label.ID}})
		is.NoErr(err)
		after = since(issuePath, lm)
		is.Equal(after.Status, http.StatusOK)
		is.True(strings.Contains(string(after.Body), `"bug"`))
	})
}
