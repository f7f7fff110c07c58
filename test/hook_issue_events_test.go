package test

import (
	"net/http"
	"strconv"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/domain/hook"
	"github.com/depothq/depot/test/testserver"
)

// hookChanges is Gitea's ChangesPayload of issues, pull requests and
// comments.
type hookChanges struct {
	Title *struct {
		From string `json:"from"`
	} `json:"title"`
	Body *struct {
		From string `json:"from"`
	} `json:"body"`
	Ref *struct {
		From string `json:"from"`
	} `json:"ref"`
}

// hookIssuePayload is Gitea's IssuePayload (the SDK has no type for it),
// made of the SDK's types.
type hookIssuePayload struct {
	Action     string            `json:"action"`
	Index      int64             `json:"number"`
	Changes    *hookChanges      `json:"changes"`
	Issue      *gitea.Issue      `json:"issue"`
	Repository *gitea.Repository `json:"repository"`
	Sender     *gitea.User       `json:"sender"`
	CommitID   string            `json:"commit_id"`
}

// hookCommentPayload is Gitea's IssueCommentPayload; PullRequest is set
// for a comment on a pull request.
type hookCommentPayload struct {
	Action      string             `json:"action"`
	Issue       *gitea.Issue       `json:"issue"`
	PullRequest *gitea.PullRequest `json:"pull_request"`
	Comment     *gitea.Comment     `json:"comment"`
	Changes     *hookChanges       `json:"changes"`
	Repository  *gitea.Repository  `json:"repository"`
	Sender      *gitea.User        `json:"sender"`
	IsPull      bool               `json:"is_pull"`
}

// hookIssueHeaders checks a delivery's event headers: the event group
// (X-Gitea-Event) and the fine type (X-Gitea-Event-Type), signed with secret.
func hookIssueHeaders(t *testing.T, got deliveryRequest, event, eventType, secret string) {
	t.Helper()
	is := is.NewRelaxed(t)
	for _, prefix := range []string{"X-Service-", "X-Gitea-"} {
		is.Equal(got.Header.Get(prefix+"Event"), event)
		is.Equal(got.Header.Get(prefix+"Event-Type"), eventType)
	}
	is.Equal(got.Header.Get("X-GitHub-Event"), event)
	is.True(deliveryUUID.MatchString(got.Header.Get("X-Service-Delivery")))
	if secret != "" {
		is.Equal(got.Header.Get("X-Service-Signature"), deliveryHMAC(secret, got.Body))
		is.Equal(got.Header.Get("X-Hub-Signature-256"), "sha256="+deliveryHMAC(secret, got.Body))
	}
}

// hookIssueUsers are the accounts' logins, which the API shows as the
// caller sees them and payloads as anybody does.
func hookIssueUsers(list []*gitea.User) []string {
	out := []string{}
	for _, u := range list {
		out = append(out, u.UserName)
	}
	return out
}

// hookIssueSame checks that a payload's issue (the "issue" member of body)
// is the API's record of it (GET as the caller): the same fields and
// values, but for how accounts show (payloads show them as anybody sees
// them) and timestamps within a second.
func hookIssueSame(t *testing.T, srv *testserver.Server, body []byte, path, caller string) {
	t.Helper()
	is := is.NewRelaxed(t)
	got := deliveryDecode[map[string]any](t, body)["issue"].(map[string]any)
	r := srv.Do("GET", path, nil, basicAs(caller)...)
	is.Equal(r.Status, http.StatusOK)
	var want map[string]any
	r.Decode(t, &want)
	login := func(v any) any {
		if m, ok := v.(map[string]any); ok {
			return m["login"]
		}
		return v
	}
	logins := func(v any) []any {
		list, _ := v.([]any)
		out := []any{}
		for _, u := range list {
			out = append(out, login(u))
		}
		return out
	}
	stamp := func(v any) time.Time {
		s, _ := v.(string)
		ts, _ := time.Parse(time.RFC3339Nano, s)
		return ts
	}
	is.Equal(login(got["user"]), login(want["user"]))
	is.Equal(login(got["assignee"]), login(want["assignee"]))
	is.Equal(logins(got["assignees"]), logins(want["assignees"]))
	for _, k := range []string{"created_at", "updated_at"} {
		is.True(stamp(got[k]).Sub(stamp(want[k])).Abs() < time.Second)
	}
	for _, k := range []string{"user", "assignee", "assignees", "created_at", "updated_at"} {
		delete(got, k)
		delete(want, k)
	}
	is.Equal(got, want)
}

func TestHookIssueEvents(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		srv := deliveryServer(t, opts...)
		_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
		createRepo(t, alice, gitea.CreateRepoOption{Name: "repo"})
		rec := deliveryNewReceiver(t, nil)
		// "issues" is every issue event; "issues_only" the issue itself.
		deliveryHook(t, alice, rec.URL+"/all", []string{"issues"}, func(o *gitea.CreateHookOption) {
			o.Config["secret"] = "s3cret"
		})
		deliveryHook(t, alice, rec.URL+"/only", []string{"issues_only"})
		deliveryHook(t, alice, rec.URL+"/comments", []string{"issue_comment"})
		deliveryHook(t, alice, rec.URL+"/meta", []string{"issue_label", "issue_milestone", "issue_assign"})
		pushHook := deliveryHook(t, alice, rec.URL+"/push", []string{"push"})

		// opened
		created, _, err := alice.CreateIssue("alice", "repo", gitea.CreateIssueOption{Title: "first", Body: "b1"})
		is.NoErr(err)
		got := rec.wait(t, "/only", 1)[0]
		hookIssueHeaders(t, got, "issues", "issues", "")
		p := deliveryDecode[hookIssuePayload](t, got.Body)
		is.Equal(p.Action, "opened")
		is.Equal(p.Index, created.Index)
		is.True(p.Changes == nil)
		is.Equal(p.Sender.UserName, "alice")
		is.Equal(p.Repository.FullName, "alice/repo")
		is.Equal(p.Repository.OpenIssues, 1) // counted in the same transaction
		hookIssueSame(t, srv, got.Body, "/repos/alice/repo/issues/1", "alice")

		// edited: the title, then the body, each with what it was.
		_, _, err = alice.EditIssue("alice", "repo", created.Index, gitea.EditIssueOption{Title: "second"})
		is.NoErr(err)
		p = deliveryDecode[hookIssuePayload](t, rec.wait(t, "/only", 2)[1].Body)
		is.Equal(p.Action, "edited")
		is.True(p.Changes != nil && p.Changes.Title != nil)
		is.Equal(p.Changes.Title.From, "first")
		is.True(p.Changes.Body == nil)
		is.Equal(p.Issue.Title, "second")
		body := "b2"
		_, _, err = alice.EditIssue("alice", "repo", created.Index, gitea.EditIssueOption{Body: &body})
		is.NoErr(err)
		p = deliveryDecode[hookIssuePayload](t, rec.wait(t, "/only", 3)[2].Body)
		is.Equal(p.Action, "edited")
		is.True(p.Changes != nil && p.Changes.Body != nil)
		is.Equal(p.Changes.Body.From, "b1")
		is.True(p.Changes.Title == nil)
		is.Equal(p.Issue.Body, "b2")

		// closed, reopened
		closed, open := gitea.StateClosed, gitea.StateOpen
		_, _, err = alice.EditIssue("alice", "repo", created.Index, gitea.EditIssueOption{State: &closed})
		is.NoErr(err)
		p = deliveryDecode[hookIssuePayload](t, rec.wait(t, "/only", 4)[3].Body)
		is.Equal(p.Action, "closed")
		is.Equal(p.Issue.State, gitea.StateClosed)
		is.True(p.Issue.Closed != nil)
		is.Equal(p.Repository.OpenIssues, 0)
		_, _, err = alice.EditIssue("alice", "repo", created.Index, gitea.EditIssueOption{State: &open})
		is.NoErr(err)
		p = deliveryDecode[hookIssuePayload](t, rec.wait(t, "/only", 5)[4].Body)
		is.Equal(p.Action, "reopened")
		is.Equal(p.Issue.State, gitea.StateOpen)

		// issue_label: label_updated
		label, _, err := alice.CreateLabel("alice", "repo", gitea.CreateLabelOption{Name: "bug", Color: "#ee0701"})
		is.NoErr(err)
		_, _, err = alice.AddIssueLabels("alice", "repo", created.Index, gitea.IssueLabelsOption{Labels: []int64{label.ID}})
		is.NoErr(err)
		got = rec.wait(t, "/meta", 1)[0]
		hookIssueHeaders(t, got, "issues", "issue_label", "")
		p = deliveryDecode[hookIssuePayload](t, got.Body)
		is.Equal(p.Action, "label_updated")
		is.Equal(len(p.Issue.Labels), 1)
		is.Equal(p.Issue.Labels[0].ID, label.ID)
		is.Equal(p.Issue.Labels[0].Name, "bug")

		// issue_milestone: milestoned
		ms, _, err := alice.CreateMilestone("alice", "repo", gitea.CreateMilestoneOption{Title: "v1"})
		is.NoErr(err)
		_, _, err = alice.EditIssue("alice", "repo", created.Index, gitea.EditIssueOption{Milestone: &ms.ID})
		is.NoErr(err)
		got = rec.wait(t, "/meta", 2)[1]
		hookIssueHeaders(t, got, "issues", "issue_milestone", "")
		p = deliveryDecode[hookIssuePayload](t, got.Body)
		is.Equal(p.Action, "milestoned")
		is.True(p.Issue.Milestone != nil)
		is.Equal(p.Issue.Milestone.ID, ms.ID)

		// issue_assign: assigned
		_, _, err = alice.EditIssue("alice", "repo", created.Index, gitea.EditIssueOption{Assignees: []string{"alice"}})
		is.NoErr(err)
		got = rec.wait(t, "/meta", 3)[2]
		hookIssueHeaders(t, got, "issues", "issue_assign", "")
		p = deliveryDecode[hookIssuePayload](t, got.Body)
		is.Equal(p.Action, "assigned")
		is.Equal(hookIssueUsers(p.Issue.Assignees), []string{"alice"})
		// Labels, milestone and assignees as the API shows them.
		hookIssueSame(t, srv, got.Body, "/repos/alice/repo/issues/1", "alice")

		// issue_comment: created, edited, deleted, with the comment.
		c, _, err := alice.CreateIssueComment("alice", "repo", created.Index, gitea.CreateIssueCommentOption{Body: "hello"})
		is.NoErr(err)
		got = rec.wait(t, "/comments", 1)[0]
		hookIssueHeaders(t, got, "issue_comment", "issue_comment", "")
		cp := deliveryDecode[hookCommentPayload](t, got.Body)
		is.Equal(cp.Action, "created")
		is.True(!cp.IsPull)
		is.True(cp.Changes == nil)
		is.Equal(cp.Issue.Index, created.Index)
		is.Equal(cp.Issue.Comments, 1)
		is.Equal(cp.Comment.ID, c.ID)
		is.Equal(cp.Comment.Body, "hello")
		is.Equal(cp.Comment.HTMLURL, c.HTMLURL)
		is.Equal(cp.Comment.IssueURL, c.IssueURL)
		is.Equal(cp.Comment.Poster.UserName, "alice")
		is.Equal(cp.Sender.UserName, "alice")
		is.Equal(cp.Repository.FullName, "alice/repo")
		// The comment is the API's record of it.
		r := srv.Do("GET", "/repos/alice/repo/issues/comments/"+strconv.FormatInt(c.ID, 10), nil, basicAs("alice")...)
		is.Equal(r.Status, http.StatusOK)
		var apiComment map[string]any
		r.Decode(t, &apiComment)
		payloadComment := deliveryDecode[map[string]any](t, got.Body)["comment"].(map[string]any)
		for _, k := range []string{"user", "created_at", "updated_at"} {
			delete(apiComment, k)
			delete(payloadComment, k)
		}
		is.Equal(payloadComment, apiComment)
		_, _, err = alice.EditIssueComment("alice", "repo", c.ID, gitea.EditIssueCommentOption{Body: "hello!"})
		is.NoErr(err)
		cp = deliveryDecode[hookCommentPayload](t, rec.wait(t, "/comments", 2)[1].Body)
		is.Equal(cp.Action, "edited")
		is.Equal(cp.Comment.Body, "hello!")
		is.True(cp.Changes != nil && cp.Changes.Body != nil)
		is.Equal(cp.Changes.Body.From, "hello")
		_, err = alice.DeleteIssueComment("alice", "repo", c.ID)
		is.NoErr(err)
		cp = deliveryDecode[hookCommentPayload](t, rec.wait(t, "/comments", 3)[2].Body)
		is.Equal(cp.Action, "deleted")
		is.Equal(cp.Comment.ID, c.ID)

		// The "issues" hook heard everything, in order, signed.
		all := rec.wait(t, "/all", 11)
		wantTypes := []string{"issues", "issues", "issues", "issues", "issues", "issue_label", "issue_milestone",
			"issue_assign", "issue_comment", "issue_comment", "issue_comment"}
		for i, g := range all {
			if i < len(wantTypes) {
				hookIssueHeaders(t, g, map[bool]string{true: "issue_comment", false: "issues"}[wantTypes[i] == "issue_comment"],
					wantTypes[i], "s3cret")
			}
		}
		// Nothing else arrived anywhere.
		is.Equal(len(rec.requests("/all")), 11)
		is.Equal(len(rec.requests("/only")), 5)
		is.Equal(len(rec.requests("/meta")), 3)
		is.Equal(len(rec.requests("/comments")), 3)
		is.Equal(len(rec.requests("/push")), 0)
		is.Equal(len(deliveryRecords(t, srv, pushHook.ID)), 0)
	})
}

// TestHookIssueEventsRecorded: another account's change is sent as that
// account's, recorded with its event and type; hooks of accounts that do
// not own the repository hear nothing.
func TestHookIssueEventsRecorded(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		srv := deliveryServer(t, opts...)
		_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
		_, bob := newAccount(t, srv, "bob", gitea.VisibleTypePublic)
		createRepo(t, alice, gitea.CreateRepoOption{Name: "repo"})
		rec := deliveryNewReceiver(t, nil)
		h := deliveryHook(t, alice, rec.URL+"/h", []string{"issues_only", "issue_comment"})
		// bob's own hook does not hear about alice's repository.
		bobHook := hookevMyHook(t, bob, hookevOpt(rec.URL+"/bob", "issues"))

		// bob, who may read the public repository, opens an issue: he is
		// the sender, and the repository shows with no permissions.
		i, _, err := bob.CreateIssue("alice", "repo", gitea.CreateIssueOption{Title: "from bob"})
		is.NoErr(err)
		p := deliveryDecode[hookIssuePayload](t, rec.wait(t, "/h", 1)[0].Body)
		is.Equal(p.Sender.UserName, "bob")
		is.Equal(p.Issue.Poster.UserName, "bob")
		is.True(p.Repository.Permissions == nil || !p.Repository.Permissions.Admin)
		d := deliveryRecorded(t, srv, h.ID, 1)
		is.Equal(d.Event, hook.EventIssues)
		is.Equal(d.EventType, hook.EventIssues)
		is.True(d.Last.Success)

		_, _, err = bob.CreateIssueComment("alice", "repo", i.Index, gitea.CreateIssueCommentOption{Body: "me too"})
		is.NoErr(err)
		cp := deliveryDecode[hookCommentPayload](t, rec.wait(t, "/h", 2)[1].Body)
		is.Equal(cp.Sender.UserName, "bob")
		is.Equal(cp.Comment.Poster.UserName, "bob")
		d = deliveryRecorded(t, srv, h.ID, 1)
		is.Equal(d.Event, hook.EventIssueComment)
		is.Equal(d.EventType, hook.EventIssueComment)

		// Deleting the issue (alice, the owner) sends it as it was.
		_, err = alice.DeleteIssue("alice", "repo", i.Index)
		is.NoErr(err)
		p = deliveryDecode[hookIssuePayload](t, rec.wait(t, "/h", 3)[2].Body)
		is.Equal(p.Action, "deleted")
		is.Equal(p.Index, i.Index)
		is.Equal(p.Issue.Title, "from bob")
		is.Equal(p.Sender.UserName, "alice")
		is.True(p.Repository.Permissions != nil && p.Repository.Permissions.Admin) // as its owner sees it
		// Deliveries are queued in the change's transaction: none for bob's.
		is.Equal(len(deliveryRecords(t, srv, bobHook.ID)), 0)
	})
}
