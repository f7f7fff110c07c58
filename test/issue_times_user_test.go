package test

import (
	"net/http"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// TestMyTrackedTimesAcrossRepos checks /user/times and /user/stopwatches
// over times in several repositories (a user's, a private one, an
// organisation's), read in batches: every time with its issue and that
// issue's repository, and the issue hidden once the caller may not read it.
func TestMyTrackedTimesAcrossRepos(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		w := trackerSetup(t, opts...)
		write := gitea.AccessModeWrite
		createRepo(t, w.owner, gitea.CreateRepoOption{Name: "r2"})
		createRepo(t, w.owner, gitea.CreateRepoOption{Name: "p", Private: true})
		_, _, err := w.owner.CreateOrg(gitea.CreateOrgOption{Name: "exorg", Visibility: gitea.VisibleTypePublic})
		is.NoErr(err)
		_, _, err = w.owner.CreateOrgRepo("exorg", gitea.CreateRepoOption{Name: "o"})
		is.NoErr(err)
		for _, r := range [][2]string{{"exowner", "r2"}, {"exowner", "p"}, {"exorg", "o"}} {
			_, err := w.owner.AddCollaborator(r[0], r[1], "exwriter", gitea.AddCollaboratorOption{Permission: &write})
			is.NoErr(err)
		}
		type place struct{ owner, repo string }
		places := []place{{"exowner", "r"}, {"exowner", "r2"}, {"exowner", "p"}, {"exorg", "o"}}
		for n, p := range places {
			i, _, err := w.owner.CreateIssue(p.owner, p.repo, gitea.CreateIssueOption{Title: "in " + p.repo})
			is.NoErr(err)
			_, _, err = w.writer.AddTime(p.owner, p.repo, i.Index, gitea.AddTimeOption{Time: int64(60 * (n + 1))})
			if err != nil {
				t.Fatalf("add time in %s/%s: %v", p.owner, p.repo, err)
			}
		}
		_, _, err = w.owner.AddTime("exowner", "r", 1, gitea.AddTimeOption{Time: 5}) // not the writer's
		is.NoErr(err)

		list, resp, err := w.writer.ListMyTrackedTimes(gitea.ListTrackedTimesOptions{})
		is.NoErr(err)
		is.Equal(resp.Header.Get("X-Total-Count"), "4")
		is.Equal(len(list), 4)
		for n, tt := range list {
			is.Equal(tt.UserName, "exwriter")
			is.Equal(tt.Time, int64(60*(n+1)))
			is.True(tt.Issue != nil)
			is.Equal(tt.Issue.Title, "in "+places[n].repo)
			is.Equal(tt.Issue.Repository.FullName, places[n].owner+"/"+places[n].repo)
		}

		// Paged in SQL.
		list, resp, err = w.writer.ListMyTrackedTimes(gitea.ListTrackedTimesOptions{ListOptions: gitea.ListOptions{Page: 2, PageSize: 3}})
		is.NoErr(err)
		is.Equal(resp.Header.Get("X-Total-Count"), "4")
		is.Equal(len(list), 1)
		is.Equal(list[0].Issue.Repository.FullName, "exorg/o")

		// Out of the private repository, the writer still sees the time
		// (it is theirs) but no longer its issue.
		_, err = w.owner.DeleteCollaborator("exowner", "p", "exwriter")
		is.NoErr(err)
		list, _, err = w.writer.ListMyTrackedTimes(gitea.ListTrackedTimesOptions{})
		is.NoErr(err)
		is.Equal(len(list), 4)
		is.Equal(list[2].Time, int64(180))
		is.Equal(list[2].Issue, nil)
		is.Equal(list[3].Issue.Repository.FullName, "exorg/o")

		// The site admin sees every issue, its own times only.
		list, _, err = w.admin.ListMyTrackedTimes(gitea.ListTrackedTimesOptions{})
		is.NoErr(err)
		is.Equal(len(list), 0)

		// Anonymous callers have no times.
		wantStatus(t, w.srv.Do("GET", "/user/times", nil), http.StatusUnauthorized)

		// Stopwatches name the repository they run in.
		_, err = w.writer.StartIssueStopWatch("exorg", "o", 1)
		is.NoErr(err)
		sws, resp, err := w.writer.ListMyStopwatches(gitea.ListStopwatchesOptions{})
		is.NoErr(err)
		is.Equal(resp.Header.Get("X-Total-Count"), "1")
		is.Equal(len(sws), 1)
		is.Equal(sws[0].RepoOwnerName, "exorg")
		is.Equal(sws[0].RepoName, "o")
		is.Equal(sws[0].IssueIndex, int64(1))
		is.Equal(sws[0].IssueTitle, "in o")

		// Starting another stops the first: one runs at a time.
		_, err = w.writer.StartIssueStopWatch("exowner", "r2", 1)
		is.NoErr(err)
		sws, _, err = w.writer.ListMyStopwatches(gitea.ListStopwatchesOptions{})
		is.NoErr(err)
		is.Equal(len(sws), 1)
		is.Equal(sws[0].RepoOwnerName, "exowner")
		is.Equal(sws[0].RepoName, "r2")
		is.Equal(sws[0].IssueTitle, "in r2")

		others, _, err := w.owner.ListMyStopwatches(gitea.ListStopwatchesOptions{})
		is.NoErr(err)
		is.Equal(len(others), 0)
		wantStatus(t, w.srv.Do("GET", "/user/stopwatches", nil), http.StatusUnauthorized)
	})
}
