package test

import (
	"net/http"
	"net/url"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// timelineEntry is Gitea's TimelineComment as the server answers it. The SDK's
// struct declares "label" an array where Gitea sends one object, so the
// test reads the JSON itself.
type timelineEntry struct {
	ID              int64            `json:"id"`
	Type            string           `json:"type"`
	Body            string           `json:"body"`
	User            *gitea.User      `json:"user"`
	IssueURL        string           `json:"issue_url"`
	HTMLURL         string           `json:"html_url"`
	Label           *gitea.Label     `json:"label"`
	Milestone       *gitea.Milestone `json:"milestone"`
	OldMilestone    *gitea.Milestone `json:"old_milestone"`
	OldTitle        string           `json:"old_title"`
	NewTitle        string           `json:"new_title"`
	RefIssue        *gitea.Issue     `json:"ref_issue"`
	RefComment      *gitea.Comment   `json:"ref_comment"`
	Assignee        *gitea.User      `json:"assignee"`
	RemovedAssignee bool             `json:"removed_assignee"`
}

// fetchTimeline reads an issue's timeline as the header's user.
func fetchTimeline(t *testing.T, srv *testserver.Server, path string, header ...string) []timelineEntry {
	t.Helper()
	r := srv.Do("GET", path, nil, header...)
	if r.Status != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, r.Status, r.Body)
	}
	var out []timelineEntry
	r.Decode(t, &out)
	return out
}

// entriesOfType returns the entries of one type.
func entriesOfType(list []timelineEntry, typ string) []timelineEntry {
	var out []timelineEntry
	for _, e := range list {
		if e.Type == typ {
			out = append(out, e)
		}
	}
	return out
}

func TestIssueTimeline(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		srv := testserver.Start(t, opts...)
		_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
		_, bob := newAccount(t, srv, "bob", gitea.VisibleTypePublic)
		createRepo(t, alice, gitea.CreateRepoOption{Name: "tools"})
		createRepo(t, alice, gitea.CreateRepoOption{Name: "secret", Private: true})
		const R = "/repos/alice/tools"
		one := openTestIssue(t, alice, "alice", "tools", "one", "")
		timeline := R + "/issues/" + formatID(one.Index) + "/timeline"

		t.Run("comments and events", func(t *testing.T) {
			is := is.New(t)
			c := postComment(t, bob, "alice", "tools", one.Index, "hello")
			label, _, err := alice.CreateLabel("alice", "tools", gitea.CreateLabelOption{Name: "bug", Color: "#ee0701"})
			is.NoErr(err)
			_, _, err = alice.AddIssueLabels("alice", "tools", one.Index, gitea.IssueLabelsOption{Labels: []int64{label.ID}})
			is.NoErr(err)
			title := "one, renamed"
			closed := gitea.StateClosed
			_, _, err = alice.EditIssue("alice", "tools", one.Index, gitea.EditIssueOption{Title: title, State: &closed})
			is.NoErr(err)
			_, err = alice.LockIssue("alice", "tools", one.Index, gitea.LockIssueOption{LockReason: "Resolved"})
			is.NoErr(err)

			list := fetchTimeline(t, srv, timeline)
			is.True(len(list) >= 4)
			is.Equal(list[0].Type, "comment") // oldest first
			is.Equal(list[0].ID, c.ID)
			is.Equal(list[0].Body, "hello")
			is.Equal(list[0].User.UserName, "bob")
			is.Equal(list[0].IssueURL, srv.URL+"/alice/tools/issues/"+formatID(one.Index))

			labels := entriesOfType(list, "label")
			is.Equal(len(labels), 1)
			is.Equal(labels[0].Label.Name, "bug") // the label is embedded
			is.Equal(labels[0].Body, "1")         // added, as Gitea writes it
			is.Equal(labels[0].User.UserName, "alice")
			titles := entriesOfType(list, "change_title")
			is.Equal(len(titles), 1)
			is.Equal(titles[0].OldTitle, "one")
			is.Equal(titles[0].NewTitle, title)
			is.Equal(len(entriesOfType(list, "close")), 1)
			is.Equal(len(entriesOfType(list, "lock")), 1)
			// An event is no comment: read and edited as one it answers 204.
			ev := R + "/issues/comments/" + formatID(labels[0].ID)
			is.Equal(srv.Do("GET", ev, nil).Status, http.StatusNoContent)
			is.Equal(srv.Do("PATCH", ev, map[string]string{"body": "x"}, basicAs("alice")...).Status, http.StatusNoContent)
			is.Equal(entriesOfType(fetchTimeline(t, srv, timeline), "label")[0].Body, "1") // unchanged

			// Paged, with the total.
			r := srv.Do("GET", timeline+"?page=1&limit=1", nil)
			is.Equal(r.Status, http.StatusOK)
			var page []timelineEntry
			r.Decode(t, &page)
			is.Equal(len(page), 1)
			is.Equal(page[0].ID, c.ID)
			is.True(r.Header.Get("X-Total-Count") != "1")
			// since and before bound the update time.
			future := url.QueryEscape(time.Now().Add(time.Hour).UTC().Format(time.RFC3339))
			is.Equal(len(fetchTimeline(t, srv, timeline+"?since="+future)), 0)
			is.Equal(len(fetchTimeline(t, srv, timeline+"?before="+future)), len(list))
			assertAPIError(t, srv.Do("GET", timeline+"?since=not-a-time", nil), http.StatusBadRequest, "")
		})

		t.Run("references", func(t *testing.T) {
			is := is.New(t)
			target := openTestIssue(t, alice, "alice", "tools", "target", "")
			path := R + "/issues/" + formatID(target.Index) + "/timeline"
			src := openTestIssue(t, bob, "alice", "tools", "source", "")
			ref := "see #" + formatID(target.Index) + " and #" + formatID(src.Index) + " and #999"
			c := postComment(t, bob, "alice", "tools", src.Index, ref)

			refs := entriesOfType(fetchTimeline(t, srv, path), "comment_ref")
			is.Equal(len(refs), 1)
			is.Equal(refs[0].User.UserName, "bob")
			is.True(refs[0].RefIssue != nil)
			is.Equal(refs[0].RefIssue.Index, src.Index)
			is.Equal(refs[0].RefIssue.Title, "source")
			is.True(refs[0].RefComment != nil)
			is.Equal(refs[0].RefComment.ID, c.ID)
			// Nothing on the source itself (a self-reference) nor on an absent issue.
			is.Equal(len(entriesOfType(fetchTimeline(t, srv, R+"/issues/"+formatID(src.Index)+"/timeline"), "comment_ref")), 0)

			// Editing the text adds no second reference; a new target gets one.
			third := openTestIssue(t, alice, "alice", "tools", "third", "")
			_, _, err := bob.EditIssueComment("alice", "tools", c.ID, gitea.EditIssueCommentOption{
				Body: ref + ", also alice/tools#" + formatID(third.Index)})
			is.NoErr(err)
			is.Equal(len(entriesOfType(fetchTimeline(t, srv, path), "comment_ref")), 1)
			is.Equal(len(entriesOfType(fetchTimeline(t, srv, R+"/issues/"+formatID(third.Index)+"/timeline"), "comment_ref")), 1)

			// An issue's text references too (issue_ref, without a comment).
			fix := openTestIssue(t, bob, "alice", "tools", "fix", "fixes #"+formatID(target.Index))
			issueRefs := entriesOfType(fetchTimeline(t, srv, path), "issue_ref")
			is.Equal(len(issueRefs), 1)
			is.Equal(issueRefs[0].RefIssue.Index, fix.Index)
			is.True(issueRefs[0].RefComment == nil)

			// A reference from a private repository shows only to who may read it.
			hidden := openTestIssue(t, alice, "alice", "secret", "hidden", "")
			postComment(t, alice, "alice", "secret", hidden.Index, "relates to alice/tools#"+formatID(target.Index))
			mine := entriesOfType(fetchTimeline(t, srv, path, basicAs("alice")...), "comment_ref")
			is.Equal(len(mine), 2)
			is.Equal(len(entriesOfType(fetchTimeline(t, srv, path, basicAs("bob")...), "comment_ref")), 1)
			is.Equal(len(entriesOfType(fetchTimeline(t, srv, path), "comment_ref")), 1)

			// bob cannot read the private repository, so his text references nothing there.
			postComment(t, bob, "alice", "tools", src.Index, "alice/secret#"+formatID(hidden.Index))
			is.Equal(len(entriesOfType(fetchTimeline(t, srv, "/repos/alice/secret/issues/"+formatID(hidden.Index)+"/timeline",
				basicAs("alice")...), "comment_ref")), 0)
		})

		t.Run("not found", func(t *testing.T) {
			hidden := openTestIssue(t, alice, "alice", "secret", "hidden too", "")
			assertAPIError(t, srv.Do("GET", R+"/issues/999/timeline", nil), http.StatusNotFound, "")
			assertAPIError(t, srv.Do("GET", R+"/issues/x/timeline", nil), http.StatusNotFound, "")
			assertAPIError(t, srv.Do("GET", "/repos/alice/secret/issues/"+formatID(hidden.Index)+"/timeline", nil),
				http.StatusNotFound, "")
			assertAPIError(t, srv.Do("GET", "/repos/alice/secret/issues/"+formatID(hidden.Index)+"/timeline", nil,
				basicAs("bob")...), http.StatusNotFound, "")
		})
	})
}
