package test

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// requestFixture is acme/app (private, acme an organisation alice owns)
// with a pull request of alice's from "feature"; bob reads it as a
// collaborator, carol through the "reviewers" team (every repository, pull
// requests and code read), the "others" team reaches no repository, dave
// is an outsider.
type requestFixture struct {
	srv   *testserver.Server
	alice *gitea.Client
	pr    *gitea.PullRequest
}

func newRequestFixture(t *testing.T, opts ...testserver.Option) *requestFixture {
	t.Helper()
	srv := testserver.Start(t, opts...)
	_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	for _, name := range []string{"bob", "carol", "dave"} {
		newAccount(t, srv, name, gitea.VisibleTypePublic)
	}
	orgCreate(t, alice, "acme", gitea.VisibleTypePublic)
	orgTeam(t, alice, "acme", gitea.CreateTeamOption{Name: "reviewers", Permission: gitea.AccessModeRead,
		IncludesAllRepositories: true, Units: []gitea.RepoUnitType{gitea.RepoUnitCode, gitea.RepoUnitPulls}}, "carol")
	orgTeam(t, alice, "acme", gitea.CreateTeamOption{Name: "others", Permission: gitea.AccessModeRead,
		Units: []gitea.RepoUnitType{gitea.RepoUnitCode, gitea.RepoUnitPulls}}, "dave")
	if _, _, err := alice.CreateOrgRepo("acme", gitea.CreateRepoOption{Name: "app", Private: true, AutoInit: true,
		Readme: "Default"}); err != nil {
		t.Fatalf("create acme/app: %v", err)
	}
	read := gitea.AccessModeRead
	if _, err := alice.AddCollaborator("acme", "app", "bob", gitea.AddCollaboratorOption{Permission: &read}); err != nil {
		t.Fatalf("add bob: %v", err)
	}
	if _, _, err := alice.CreateFile("acme", "app", "feature.txt", gitea.CreateFileOptions{
		FileOptions: gitea.FileOptions{NewBranchName: "feature", Message: "feature"},
		Content:     base64.StdEncoding.EncodeToString([]byte("one\ntwo\n"))}); err != nil {
		t.Fatalf("create feature: %v", err)
	}
	pr, _, err := alice.CreatePullRequest("acme", "app", gitea.CreatePullRequestOption{Head: "feature", Base: "main",
		Title: "Feature"})
	if err != nil {
		t.Fatalf("open pull request: %v", err)
	}
	// The repository is private: wait for the check as alice.
	deadline := time.Now().Add(20 * time.Second)
	for {
		var raw struct {
			State string `json:"mergeable_state"`
		}
		srv.Do("GET", "/repos/acme/app/pulls/"+itoaTest(pr.Index), nil, basicAs("alice")...).Decode(t, &raw)
		if raw.State != "checking" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("pull request still checking")
		}
		time.Sleep(50 * time.Millisecond)
	}
	return &requestFixture{srv: srv, alice: alice, pr: pr}
}

// request posts (or deletes) a review request body as user.
func (f *requestFixture) request(t *testing.T, method, user, body string) (int, string) {
	t.Helper()
	r := f.srv.Do(method, "/repos/acme/app/pulls/"+itoaTest(f.pr.Index)+"/requested_reviewers", body, basicAs(user)...)
	return r.Status, string(r.Body)
}

// reviews lists the pull request's reviews as user.
func (f *requestFixture) reviews(t *testing.T, user string) []*gitea.PullReview {
	t.Helper()
	r := f.srv.Do("GET", "/repos/acme/app/pulls/"+itoaTest(f.pr.Index)+"/reviews", nil, basicAs(user)...)
	if r.Status != http.StatusOK {
		t.Fatalf("list reviews: %d %s", r.Status, r.Body)
	}
	var list []*gitea.PullReview
	r.Decode(t, &list)
	return list
}

// reviewStates names each review "state:user-or-team".
func reviewStates(list []*gitea.PullReview) []string {
	var out []string
	for _, r := range list {
		who := ""
		if r.Reviewer != nil {
			who = r.Reviewer.UserName
		}
		if r.ReviewerTeam != nil {
			who = "team " + r.ReviewerTeam.Name
		}
		out = append(out, string(r.State)+":"+who)
	}
	return out
}

func TestPullReviewRequests(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		f := newRequestFixture(t, opts...)

		// A user and a team, asked by the poster.
		status, body := f.request(t, "POST", "alice", `{"reviewers":["bob"],"team_reviewers":["reviewers"]}`)
		is.Equal(status, http.StatusCreated)
		var made []*gitea.PullReview
		is.NoErr(json.Unmarshal([]byte(body), &made))
		is.Equal(reviewStates(made), []string{"REQUEST_REVIEW:bob", "REQUEST_REVIEW:team reviewers"})
		is.True(!made[0].Official) // bob only reads: his verdicts would not count
		is.True(made[1].Official)  // a team's request is official when its asker's verdicts are
		// The pull request shows who is asked.
		pr, _, err := f.alice.GetPullRequest("acme", "app", f.pr.Index)
		is.NoErr(err)
		is.Equal(len(pr.RequestedReviewers), 1)
		is.Equal(pr.RequestedReviewers[0].UserName, "bob")
		is.Equal(len(pr.RequestedReviewersTeams), 1)
		is.Equal(pr.RequestedReviewersTeams[0].Name, "reviewers")
		// Asking again adds nothing.
		status, body = f.request(t, "POST", "alice", `{"reviewers":["bob"],"team_reviewers":["reviewers"]}`)
		is.Equal(status, http.StatusCreated)
		is.Equal(strings.TrimSpace(body), "[]")

		// Refusals.
		for _, tc := range []struct {
			user, body string
			status     int
			msg        string
		}{
			{"alice", `{"reviewers":["alice"]}`, http.StatusUnprocessableEntity, "poster of pr can't be reviewer"},
			{"alice", `{"reviewers":["dave"]}`, http.StatusUnprocessableEntity, "Reviewer can't read"},
			{"alice", `{"reviewers":["acme"]}`, http.StatusUnprocessableEntity, "Organization can't be added as reviewer"},
			{"alice", `{"reviewers":["nobody"]}`, http.StatusNotFound, "User 'nobody' not exist"},
			{"alice", `{"team_reviewers":["nobody"]}`, http.StatusNotFound, "Team 'nobody' not exist"},
			{"alice", `{"team_reviewers":["others"]}`, http.StatusUnprocessableEntity, "Reviewing team can't read repo"},
			{"alice", `{"reviewers":`, http.StatusBadRequest, ""},
			{"dave", `{"reviewers":["bob"]}`, http.StatusNotFound, ""}, // cannot see the repository
		} {
			status, body := f.request(t, "POST", tc.user, tc.body)
			is.Equal(status, tc.status)
			is.True(strings.Contains(body, tc.msg))
		}

		// A collaborator who only reads may ask too (Gitea's rule).
		status, _ = f.request(t, "POST", "bob", `{"reviewers":["carol"]}`)
		is.Equal(status, http.StatusCreated)
		is.Equal(reviewStates(f.reviews(t, "alice")),
			[]string{"REQUEST_REVIEW:bob", "REQUEST_REVIEW:team reviewers", "REQUEST_REVIEW:carol"})

		// Who may be asked: the collaborators and the members of teams that
		// read the pull requests (the owners' team included).
		r := f.srv.Do("GET", "/repos/acme/app/reviewers", nil, basicAs("bob")...)
		is.Equal(r.Status, http.StatusOK)
		var reviewers []*gitea.User
		r.Decode(t, &reviewers)
		var names []string
		for _, u := range reviewers {
			names = append(names, u.UserName)
		}
		is.Equal(names, []string{"alice", "bob", "carol"})

		// A review answers the reviewer's request, and carol's answers her team's.
		bob := f.srv.Client(gitea.SetBasicAuth("bob", userPassword))
		_, _, err = bob.CreatePullReview("acme", "app", f.pr.Index, gitea.CreatePullReviewOptions{
			State: gitea.ReviewStateComment, Body: "read it"})
		is.NoErr(err)
		carol := f.srv.Client(gitea.SetBasicAuth("carol", userPassword))
		_, _, err = carol.CreatePullReview("acme", "app", f.pr.Index, gitea.CreatePullReviewOptions{
			State: gitea.ReviewStateApproved})
		is.NoErr(err)
		is.Equal(reviewStates(f.reviews(t, "alice")), []string{"COMMENT:bob", "APPROVED:carol"})
		pr, _, err = f.alice.GetPullRequest("acme", "app", f.pr.Index)
		is.NoErr(err)
		is.Equal(len(pr.RequestedReviewers)+len(pr.RequestedReviewersTeams), 0)

		// Asking bob again, then withdrawing; withdrawing what was never
		// asked changes nothing.
		status, _ = f.request(t, "POST", "alice", `{"reviewers":["bob"]}`)
		is.Equal(status, http.StatusCreated)
		status, _ = f.request(t, "DELETE", "alice", `{"reviewers":["bob","dave"],"team_reviewers":["reviewers"]}`)
		is.Equal(status, http.StatusNoContent)
		is.Equal(reviewStates(f.reviews(t, "alice")), []string{"COMMENT:bob", "APPROVED:carol"})

		// The timeline tells the requests, the team's by its team.
		r = f.srv.Do("GET", "/repos/acme/app/issues/"+itoaTest(f.pr.Index)+"/timeline", nil, basicAs("alice")...)
		is.Equal(r.Status, http.StatusOK)
		// Gitea's TimelineComment fields the SDK's type lacks.
		var timeline []struct {
			Type            string      `json:"type"`
			Assignee        *gitea.User `json:"assignee"`
			AssigneeTeam    *gitea.Team `json:"assignee_team"`
			RemovedAssignee bool        `json:"removed_assignee"`
			ReviewID        int64       `json:"review_id"`
		}
		r.Decode(t, &timeline)
		var got []string
		for _, e := range timeline {
			if e.Type != "review_request" {
				continue
			}
			who := ""
			if e.Assignee != nil {
				who = e.Assignee.UserName
			}
			if e.AssigneeTeam != nil {
				who = "team " + e.AssigneeTeam.Name
			}
			if e.RemovedAssignee {
				who = "-" + who
			} else {
				is.True(e.ReviewID != 0) // the request it made
			}
			got = append(got, who)
		}
		is.Equal(got, []string{"bob", "team reviewers", "carol", "bob", "-bob"})
	})
}
