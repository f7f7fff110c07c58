package test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// isI names the assertion type where a local "is" shadows the package.
type isI = is.I

// TestIssueListAssets checks that an issue's own attachments (not its
// comments') show as its assets in the listing, the cross-repository
// search and the single issue, and that an issue without any shows [].
func TestIssueListAssets(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		srv := testserver.Start(t, opts...)
		_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
		createRepo(t, alice, gitea.CreateRepoOption{Name: "tools"})
		with := openTestIssue(t, alice, "alice", "tools", "with files", "")
		bare := openTestIssue(t, alice, "alice", "tools", "without files", "")
		a1, _, err := alice.CreateIssueAttachment("alice", "tools", with.Index, strings.NewReader("one\n"), "one.txt")
		is.NoErr(err)
		a2, _, err := alice.CreateIssueAttachment("alice", "tools", with.Index, strings.NewReader("two!\n"), "two.txt")
		is.NoErr(err)
		c, _, err := alice.CreateIssueComment("alice", "tools", with.Index, gitea.CreateIssueCommentOption{Body: "see"})
		is.NoErr(err)
		_, _, err = alice.CreateIssueCommentAttachment("alice", "tools", c.ID, strings.NewReader("c\n"), "c.txt")
		is.NoErr(err)

		check := func(is *isI, got issueAssetsB) {
			switch got.Index {
			case with.Index:
				is.Equal(len(got.Assets), 2) // the comment's file is not the issue's
				is.Equal(got.Assets[0].ID, a1.ID)
				is.Equal(got.Assets[0].Name, "one.txt")
				is.Equal(got.Assets[0].Size, int64(4))
				is.Equal(got.Assets[0].UUID, a1.UUID)
				is.Equal(got.Assets[0].DownloadURL, srv.URL+"/attachments/"+a1.UUID)
				is.Equal(got.Assets[1].ID, a2.ID)
			case bare.Index:
				is.True(got.Assets != nil) // [] rather than null
				is.Equal(len(got.Assets), 0)
			default:
				t.Fatalf("unexpected issue %d", got.Index)
			}
		}
		for _, path := range []string{"/repos/alice/tools/issues?state=all", "/repos/issues/search?q=files"} {
			t.Run(path, func(t *testing.T) {
				is := is.New(t)
				r := srv.Do("GET", path, nil, basicAs("alice")...)
				is.Equal(r.Status, http.StatusOK)
				var list []issueAssetsB
				r.Decode(t, &list)
				is.Equal(len(list), 2)
				for _, i := range list {
					check(is, i)
				}
			})
		}
		t.Run("get", func(t *testing.T) {
			is := is.New(t)
			for _, idx := range []int64{with.Index, bare.Index} {
				r := srv.Do("GET", "/repos/alice/tools/issues/"+strconv.FormatInt(idx, 10), nil)
				is.Equal(r.Status, http.StatusOK)
				var got issueAssetsB
				r.Decode(t, &got)
				check(is, got)
			}
		})
	})
}

// issueAssetsB is the part of Gitea's Issue JSON these tests read (the
// SDK's Issue has no assets).
type issueAssetsB struct {
	Index  int64              `json:"number"`
	Assets []gitea.Attachment `json:"assets"`
}

// TestIssueListTotals pins the listing's pages and totals on the paths
// the store takes: the prepared default listing (totals from the
// counters), a keyword search (the page counts its matches), a filtered
// listing (a count) and a page past the end of each.
func TestIssueListTotals(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		srv := testserver.Start(t, opts...)
		_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
		createRepo(t, alice, gitea.CreateRepoOption{Name: "tools"})
		// 7 issues: the even ones mention "steps", 0, 3 and 6 are closed.
		for k := 0; k < 7; k++ {
			body := "plain"
			if k%2 == 0 {
				body = "first steps here"
			}
			i := openTestIssue(t, alice, "alice", "tools", "issue "+strconv.Itoa(k)+" rarewords", body)
			if k%3 == 0 {
				closed := gitea.StateClosed
				_, _, err := alice.EditIssue("alice", "tools", i.Index, gitea.EditIssueOption{State: &closed})
				if err != nil {
					t.Fatal(err)
				}
			}
		}
		for _, c := range []struct {
			name, query string
			total       int
			numbers     []int64 // on page 2 of size 2
		}{
			{"open", "state=open", 4, []int64{3, 2}},
			{"all", "state=all", 7, []int64{5, 4}},
			{"closed", "state=closed", 3, []int64{1}},
			{"all issues", "state=all&type=issues", 7, []int64{5, 4}},
			{"pulls", "state=all&type=pulls", 0, nil},
			{"keyword", "state=all&q=steps", 4, []int64{3, 1}},
			{"two words", "state=all&q=rarewords+steps", 4, []int64{3, 1}},
			{"keyword open", "state=open&q=steps", 2, nil},
			{"keyword none", "state=all&q=nothinglikethis", 0, nil},
			{"filtered", "state=all&created_by=alice", 7, []int64{5, 4}},
		} {
			t.Run(c.name, func(t *testing.T) {
				is := is.New(t)
				r := srv.Do("GET", "/repos/alice/tools/issues?limit=2&page=2&"+c.query, nil)
				is.Equal(r.Status, http.StatusOK)
				is.Equal(r.Header.Get("X-Total-Count"), strconv.Itoa(c.total))
				var page []gitea.Issue
				r.Decode(t, &page)
				var got []int64
				for _, i := range page {
					got = append(got, i.Index)
				}
				is.Equal(got, c.numbers)
				// Past the last page: no issues, the same total.
				r = srv.Do("GET", "/repos/alice/tools/issues?limit=2&page=9&"+c.query, nil)
				is.Equal(r.Status, http.StatusOK)
				is.Equal(r.Header.Get("X-Total-Count"), strconv.Itoa(c.total))
				r.Decode(t, &page)
				is.Equal(len(page), 0)
			})
		}
	})
}
