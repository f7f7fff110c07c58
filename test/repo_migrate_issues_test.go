package test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/test/testserver"
	"github.com/matryer/is"
)

// migrateTrackerSource fills alice/pub on p.src with an issue tracker:
// labels, an open and a closed milestone, issues open and closed with
// labels, milestone, assignees (bob, who has an account on both servers,
// and alice, who has none on the destination) and comments, and filler
// issues enough for the issue list to span two pages, one of them deleted
// to leave a gap in the numbers. It answers the
// source's issues by index.
func migrateTrackerSource(t *testing.T, p *mirrorPair) map[int64]*gitea.Issue {
	t.Helper()
	is := is.New(t)
	newAccount(t, p.src, "bob", gitea.VisibleTypePublic)
	_, err := p.alice.AddCollaborator("alice", "pub", "bob", gitea.AddCollaboratorOption{})
	is.NoErr(err)
	bug, _, err := p.alice.CreateLabel("alice", "pub", gitea.CreateLabelOption{Name: "bug", Color: "#ee0701", Description: "Something is not working"})
	is.NoErr(err)
	prio, _, err := p.alice.CreateLabel("alice", "pub", gitea.CreateLabelOption{Name: "Priority/High", Color: "#d32f2f", Description: "The priority is high", Exclusive: true})
	is.NoErr(err)
	due := time.Date(2031, 5, 6, 0, 0, 0, 0, time.UTC)
	v1, _, err := p.alice.CreateMilestone("alice", "pub", gitea.CreateMilestoneOption{Title: "v1", Description: "first", Deadline: &due})
	is.NoErr(err)
	v0, _, err := p.alice.CreateMilestone("alice", "pub", gitea.CreateMilestoneOption{Title: "v0", State: gitea.StateClosed})
	is.NoErr(err)

	_, _, err = p.alice.CreateIssue("alice", "pub", gitea.CreateIssueOption{Title: "Crash on start", Body: "It crashes.",
		Labels: []int64{bug.ID, prio.ID}, Milestone: v1.ID, Assignees: []string{"bob", "alice"}})
	is.NoErr(err)
	two, _, err := p.alice.CreateIssue("alice", "pub", gitea.CreateIssueOption{Title: "Old question", Body: "How?", Milestone: v0.ID})
	is.NoErr(err)
	bobC := p.src.Client(gitea.SetBasicAuth("bob", userPassword))
	for i, c := range []*gitea.Client{p.alice, bobC, p.alice} {
		_, _, err := c.CreateIssueComment("alice", "pub", two.Index, gitea.CreateIssueCommentOption{Body: fmt.Sprintf("answer %d", i+1)})
		is.NoErr(err)
	}
	closed := gitea.StateClosed
	_, _, err = p.alice.EditIssue("alice", "pub", two.Index, gitea.EditIssueOption{State: &closed})
	is.NoErr(err)
	for i := 3; i <= 53; i++ {
		_, _, err := p.alice.CreateIssue("alice", "pub", gitea.CreateIssueOption{Title: fmt.Sprintf("filler %d", i)})
		is.NoErr(err)
	}
	// A deleted issue leaves a gap in the numbers, as pull requests do.
	_, err = p.alice.DeleteIssue("alice", "pub", 3)
	is.NoErr(err)
	all := map[int64]*gitea.Issue{}
	for page := 1; ; page++ {
		list, _, err := p.alice.ListRepoIssues("alice", "pub", gitea.ListIssueOption{ListOptions: gitea.ListOptions{Page: page, PageSize: 50},
			State: gitea.StateAll, Type: gitea.IssueTypeIssue})
		is.NoErr(err)
		for _, i := range list {
			all[i.Index] = i
		}
		if len(list) < 50 {
			break
		}
	}
	is.Equal(len(all), 52)
	return all
}

// TestMigrateIssueTracker migrates a repository from one Depot server to
// another with the SDK's MigrateRepo as from a Gitea server, and checks
// that labels, milestones, issues and comments arrived with their fields;
// and that options that cannot be honoured are a 422 naming them, with
// nothing created.
func TestMigrateIssueTracker(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		p := mirrorSetup(t, opts...)
		srcIssues := migrateTrackerSource(t, p)
		token := p.src.CreateToken("alice", userPassword, "read:repository", "read:issue")
		srcPub := httpGitURL(p.src, "alice", "pub", "", "")

		t.Run("Refused options create nothing", func(t *testing.T) {
			for _, c := range []struct {
				name   string
				body   map[string]any
				fields string
			}{
				{"pull requests", map[string]any{"service": "gitea", "auth_token": token, "issues": true, "pull_requests": true}, "PullRequests"},
				{"wiki and releases", map[string]any{"service": "gitea", "auth_token": token, "wiki": true, "releases": true}, "Wiki, Releases"},
				{"lfs", map[string]any{"lfs": true}, "LFS"},
				{"issues from plain git", map[string]any{"service": "git", "issues": true, "labels": true}, "Labels, Issues"},
				{"issues from another service", map[string]any{"service": "github", "auth_token": "x", "milestones": true}, "Milestones"},
				{"issues into a mirror", map[string]any{"service": "gitea", "auth_token": token, "mirror": true, "issues": true}, "Issues"},
			} {
				t.Run(c.name, func(t *testing.T) {
					body := map[string]any{"clone_addr": srcPub, "repo_name": "refused"}
					for k, v := range c.body {
						body[k] = v
					}
					r := p.dst.Do("POST", "/repos/migrate", body, basicAs("bob")...)
					assertInvalid(t, r, c.fields)
					_, resp, err := p.bob.GetRepo("bob", "refused")
					assertSDKStatus(t, resp, err, http.StatusNotFound)
				})
			}
		})

		t.Run("Source refusing the token leaves nothing", func(t *testing.T) {
			is := is.New(t)
			r := p.dst.Do("POST", "/repos/migrate", map[string]any{"clone_addr": srcPub, "repo_name": "badtoken",
				"service": "gitea", "auth_token": "0123456789abcdef0123456789abcdef01234567", "labels": true}, basicAs("bob")...)
			assertInvalid(t, r, "CloneAddr")
			is.True(!strings.Contains(string(r.Body), "0123456789abcdef")) // the token is never quoted
			_, resp, err := p.bob.GetRepo("bob", "badtoken")
			assertSDKStatus(t, resp, err, http.StatusNotFound)
		})

		is := is.New(t)
		r, resp, err := p.bob.MigrateRepo(gitea.MigrateRepoOption{CloneAddr: srcPub, RepoName: "tracked",
			Service: gitea.GitServiceGitea, AuthToken: token, Labels: true, Milestones: true, Issues: true})
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusCreated)
		is.Equal(r.FullName, "bob/tracked")
		is.Equal(mirrorRefs(t, httpGitURL(p.dst, "bob", "tracked", "", "")), mirrorRefs(t, srcPub))

		t.Run("Labels", func(t *testing.T) {
			is := is.New(t)
			want, _, err := p.alice.ListRepoLabels("alice", "pub", gitea.ListLabelsOptions{})
			is.NoErr(err)
			got, _, err := p.bob.ListRepoLabels("bob", "tracked", gitea.ListLabelsOptions{})
			is.NoErr(err)
			is.Equal(len(got), len(want))
			for i := range want {
				is.Equal(got[i].Name, want[i].Name)
				is.Equal(got[i].Color, want[i].Color)
				is.Equal(got[i].Description, want[i].Description)
				is.Equal(got[i].Exclusive, want[i].Exclusive)
			}
		})

		t.Run("Milestones", func(t *testing.T) {
			is := is.New(t)
			got, _, err := p.bob.ListRepoMilestones("bob", "tracked", gitea.ListMilestoneOption{State: gitea.StateAll})
			is.NoErr(err)
			byTitle := map[string]*gitea.Milestone{}
			for _, m := range got {
				byTitle[m.Title] = m
			}
			is.Equal(len(got), 2)
			v1, v0 := byTitle["v1"], byTitle["v0"]
			is.True(v1 != nil && v0 != nil)
			is.Equal(v1.State, gitea.StateOpen)
			is.Equal(v1.Description, "first")
			is.True(v1.Deadline != nil && v1.Deadline.UTC().Format("2006-01-02") == "2031-05-06")
			is.Equal(v1.OpenIssues, 1)
			is.Equal(v0.State, gitea.StateClosed)
			is.True(v0.Closed != nil)
			is.Equal(v0.ClosedIssues, 1)
		})

		t.Run("Issues", func(t *testing.T) {
			is := is.New(t)
			got := map[int64]*gitea.Issue{}
			for page := 1; ; page++ {
				list, _, err := p.bob.ListRepoIssues("bob", "tracked", gitea.ListIssueOption{
					ListOptions: gitea.ListOptions{Page: page, PageSize: 50}, State: gitea.StateAll, Type: gitea.IssueTypeIssue})
				is.NoErr(err)
				for _, i := range list {
					got[i.Index] = i
				}
				if len(list) < 50 {
					break
				}
			}
			is.Equal(len(got), len(srcIssues))
			is.True(got[3] == nil) // the source's gap stays a gap: every issue keeps its number
			for idx, want := range srcIssues {
				g := got[idx]
				if g == nil {
					t.Fatalf("issue #%d did not arrive", idx)
				}
				is.Equal(g.Title, want.Title)
				is.Equal(g.State, want.State)
				is.True(g.Created.Equal(want.Created))
				is.True(g.Updated.Equal(want.Updated))
				is.Equal(g.Comments, want.Comments)
				is.Equal(g.Poster.UserName, "bob") // the migrating user posts the copy
				is.Equal(g.OriginalAuthor, "alice")
				is.Equal(g.OriginalAuthorID, want.Poster.ID)
				if idx != 1 {
					is.Equal(g.Body, want.Body)
				}
			}

			one := got[1]
			var labels []string
			for _, l := range one.Labels {
				labels = append(labels, l.Name)
			}
			is.Equal(labels, []string{"Priority/High", "bug"})
			is.Equal(one.Milestone.Title, "v1")
			is.Equal(len(one.Assignees), 1)
			is.Equal(one.Assignees[0].UserName, "bob") // bob has an account here
			is.Equal(one.Body, "It crashes.\n\n---\n_Assignees on the source without an account here: @alice._")

			two := got[2]
			is.Equal(two.State, gitea.StateClosed)
			is.True(two.Closed != nil && srcIssues[2].Closed != nil && two.Closed.Equal(*srcIssues[2].Closed))
			is.Equal(two.Milestone.Title, "v0")
			is.Equal(len(two.Assignees), 0)
		})

		t.Run("Comments", func(t *testing.T) {
			is := is.New(t)
			want, _, err := p.alice.ListIssueComments("alice", "pub", 2, gitea.ListIssueCommentOptions{})
			is.NoErr(err)
			got, _, err := p.bob.ListIssueComments("bob", "tracked", 2, gitea.ListIssueCommentOptions{})
			is.NoErr(err)
			is.Equal(len(got), 3)
			for i := range want {
				is.Equal(got[i].Body, want[i].Body)
				is.True(got[i].Created.Equal(want[i].Created))
				is.Equal(got[i].Poster.UserName, "bob")
				is.Equal(got[i].OriginalAuthor, want[i].Poster.UserName)
				is.Equal(got[i].OriginalAuthorID, want[i].Poster.ID)
			}
		})
	})
}
