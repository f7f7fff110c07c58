package test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/test/testserver"
	"github.com/matryer/is"
)

// opTypes are the op_type of each activity, in the feed's order.
func opTypes(list []*gitea.Activity) []string {
	out := make([]string, len(list))
	for i, a := range list {
		out[i] = a.OpType
	}
	return out
}

// TestActivityFeeds covers the four feeds and the heatmap: records of
// repository creation, a push with the git CLI, issues, comments and pull
// requests, the filters, the access matrix and bad queries, on both backends.
func TestActivityFeeds(t *testing.T) {
	t.Parallel()
	backends(t, testActivityFeeds)
}

func testActivityFeeds(t *testing.T, opts ...testserver.Option) {
	srv := testserver.Start(t, opts...)
	socialAccounts(t, srv, "fern", "oscar", "reader")
	fern, oscar := userClient(srv, "fern"), userClient(srv, "oscar")
	createRepo(t, fern, gitea.CreateRepoOption{Name: "garden", AutoInit: true})
	createRepoAs(t, srv, "fern", "secret", true)
	socialCollab(t, srv, "fern", "secret", "reader", gitea.AccessModeRead)

	work := httpGitClone(t, httpGitURL(srv, "fern", "garden", "fern", userPassword))
	if err := os.WriteFile(filepath.Join(work, "seed.txt"), []byte("seed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	httpGitOK(t, work, "add", "seed.txt")
	httpGitOK(t, work, "commit", "-q", "-m", "seed")
	httpGitOK(t, work, "push", "-q", "origin", "HEAD")

	issue := createIssueOK(t, fern, "fern", "garden", gitea.CreateIssueOption{Title: "weeds"})
	_, _, err := oscar.CreateIssueComment("fern", "garden", issue.Index, gitea.CreateIssueCommentOption{Body: "pull them"})
	if err != nil {
		t.Fatalf("comment: %v", err)
	}
	closed := gitea.StateClosed
	if _, _, err := fern.EditIssue("fern", "garden", issue.Index, gitea.EditIssueOption{State: &closed}); err != nil {
		t.Fatalf("close: %v", err)
	}
	createIssueOK(t, fern, "fern", "secret", gitea.CreateIssueOption{Title: "hidden plans"})

	t.Run("repository feed", func(t *testing.T) {
		is := is.New(t)
		list, resp, err := oscar.ListRepoActivityFeeds("fern", "garden", gitea.ListRepoActivityFeedsOptions{})
		is.NoErr(err)
		is.Equal(opTypes(list), []string{"close_issue", "comment_issue", "create_issue", "commit_repo", "create_repo"})
		is.Equal(resp.Header.Get("X-Total-Count"), "5")
		push := list[3]
		is.Equal(push.RefName, "refs/heads/main")
		is.Equal(push.ActUser.UserName, "fern")
		is.Equal(push.Repo.FullName, "fern/garden")
		is.True(strings.Contains(push.Content, "HeadCommit"))
		is.Equal(list[2].Content, "1|weeds")
		is.Equal(list[1].ActUser.UserName, "oscar")
		is.True(list[1].CommentID > 0)

		page, resp, err := oscar.ListRepoActivityFeeds("fern", "garden",
			gitea.ListRepoActivityFeedsOptions{ListOptions: gitea.ListOptions{Page: 2, PageSize: 2}})
		is.NoErr(err)
		is.Equal(opTypes(page), []string{"create_issue", "commit_repo"})
		is.Equal(resp.Header.Get("X-Total-Count"), "5")
	})

	t.Run("private repository's feed", func(t *testing.T) {
		is := is.New(t)
		_, resp, err := oscar.ListRepoActivityFeeds("fern", "secret", gitea.ListRepoActivityFeedsOptions{})
		assertSDKStatus(t, resp, err, http.StatusNotFound)
		list, _, err := userClient(srv, "reader").ListRepoActivityFeeds("fern", "secret", gitea.ListRepoActivityFeedsOptions{})
		is.NoErr(err)
		is.Equal(opTypes(list), []string{"create_issue", "create_repo"})
		is.True(list[0].IsPrivate)
	})

	t.Run("user feed hides private repositories from others", func(t *testing.T) {
		is := is.New(t)
		own, _, err := fern.ListUserActivityFeeds("fern", gitea.ListUserActivityFeedsOptions{})
		is.NoErr(err)
		is.Equal(len(own), 7)
		other, resp, err := oscar.ListUserActivityFeeds("fern", gitea.ListUserActivityFeedsOptions{})
		is.NoErr(err)
		is.Equal(len(other), 5)
		is.Equal(resp.Header.Get("X-Total-Count"), "5")
		for _, a := range other {
			is.Equal(a.Repo.FullName, "fern/garden")
		}
		anon := srv.Do("GET", "/users/fern/activities/feeds", nil)
		is.Equal(anon.Status, http.StatusOK)
		is.True(!strings.Contains(string(anon.Body), "hidden plans"))
		// only-performed-by keeps fern's own records: oscar's comment goes.
		mine, _, err := fern.ListUserActivityFeeds("fern", gitea.ListUserActivityFeedsOptions{OnlyPerformedBy: true})
		is.NoErr(err)
		is.Equal(len(mine), 6)
	})

	t.Run("date filter", func(t *testing.T) {
		is := is.New(t)
		today := time.Now().UTC().Format(time.DateOnly)
		list, _, err := oscar.ListRepoActivityFeeds("fern", "garden", gitea.ListRepoActivityFeedsOptions{Date: today})
		is.NoErr(err)
		is.Equal(len(list), 5)
		list, _, err = oscar.ListRepoActivityFeeds("fern", "garden", gitea.ListRepoActivityFeedsOptions{Date: "2001-01-01"})
		is.NoErr(err)
		is.Equal(len(list), 0)
	})

	t.Run("bad queries", func(t *testing.T) {
		is := is.New(t)
		is.Equal(srv.Do("GET", "/repos/fern/garden/activities/feeds?date=yesterday", nil).Status, http.StatusBadRequest)
		is.Equal(srv.Do("GET", "/users/fern/activities/feeds?only-performed-by=maybe", nil).Status, http.StatusBadRequest)
		is.Equal(srv.Do("GET", "/users/nobody/activities/feeds", nil).Status, http.StatusNotFound)
	})

	t.Run("heatmap", func(t *testing.T) {
		is := is.New(t)
		own, _, err := fern.GetUserHeatmap("fern")
		is.NoErr(err)
		var sum int64
		for _, b := range own {
			is.Equal(b.Timestamp%900, int64(0))
			sum += b.Contributions
		}
		is.Equal(sum, int64(6))
		other, _, err := oscar.GetUserHeatmap("fern")
		is.NoErr(err)
		sum = 0
		for _, b := range other {
			sum += b.Contributions
		}
		is.Equal(sum, int64(4))
	})

	t.Run("organisation and team feeds", func(t *testing.T) {
		is := is.New(t)
		orgCreate(t, fern, "grove", gitea.VisibleTypePublic)
		createRepo(t, fern, gitea.CreateRepoOption{Name: "open"})
		if _, _, err := fern.CreateOrgRepo("grove", gitea.CreateRepoOption{Name: "open"}); err != nil {
			t.Fatalf("org repo: %v", err)
		}
		if _, _, err := fern.CreateOrgRepo("grove", gitea.CreateRepoOption{Name: "closed", Private: true}); err != nil {
			t.Fatalf("org repo: %v", err)
		}
		owner, _, err := fern.ListOrgActivityFeeds("grove", gitea.ListOrgActivityFeedsOptions{})
		is.NoErr(err)
		is.Equal(len(owner), 2)
		outsider, _, err := oscar.ListOrgActivityFeeds("grove", gitea.ListOrgActivityFeedsOptions{})
		is.NoErr(err)
		is.Equal(len(outsider), 1)
		is.Equal(outsider[0].Repo.FullName, "grove/open")
		teams, _, err := fern.ListOrgTeams("grove", gitea.ListTeamsOptions{})
		is.NoErr(err)
		is.True(len(teams) > 0)
		feed, _, err := fern.ListTeamActivityFeeds(teams[0].ID, gitea.ListTeamActivityFeedsOptions{})
		is.NoErr(err)
		is.Equal(len(feed), 2)
		_, resp, err := oscar.ListTeamActivityFeeds(teams[0].ID, gitea.ListTeamActivityFeedsOptions{})
		is.True(err != nil)
		is.True(resp.StatusCode == http.StatusForbidden || resp.StatusCode == http.StatusNotFound)
	})
}
