package test

import (
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/domain/hook"
	"github.com/depothq/depot/test/testkit"
)

// hookevRelease is Gitea's ReleasePayload as a receiver decodes it.
type hookevRelease struct {
	Action     string            `json:"action"`
	Release    *gitea.Release    `json:"release"`
	Repository *gitea.Repository `json:"repository"`
	Sender     *gitea.User       `json:"sender"`
}

// releaseDeliveries are the release events path received, in order.
func releaseDeliveries(rec *deliveryReceiver, path string) []deliveryRequest {
	var out []deliveryRequest
	for _, g := range rec.requests(path) {
		if g.Header.Get("X-Gitea-Event") == hook.EventRelease {
			out = append(out, g)
		}
	}
	return out
}

// TestHookEventsRelease: releases written through the API are release
// events, when Gitea's release service sends them: a published release is
// "published" (by its publisher, also when another account publishes a
// draft so that its tag is made), an edit of a published release, or a
// draft published on a tag Git already has, is "updated" by the editor, a
// deleted published release is "deleted" with its assets; drafts send
// nothing. Hooks of the release event and hooks of every event hear them,
// push hooks do not.
func TestHookEventsRelease(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv, alice, work := deliverySetup(t)
	_, writer := newAccount(t, srv, "writer", gitea.VisibleTypePublic)
	mode := gitea.AccessModeWrite
	_, err := alice.AddCollaborator("alice", "repo", "writer", gitea.AddCollaboratorOption{Permission: &mode})
	is.NoErr(err)
	rec := deliveryNewReceiver(t, nil)
	deliveryHook(t, alice, rec.URL+"/release", []string{"release"}, func(o *gitea.CreateHookOption) {
		o.Config["secret"] = "s3cret"
	})
	deliveryHook(t, alice, rec.URL+"/all", hook.EventNames)
	deliveryHook(t, alice, rec.URL+"/push", []string{"push"})
	yes, no := true, false

	draft, _, err := alice.CreateRelease("alice", "repo", gitea.CreateReleaseOption{TagName: "v0", Title: "Draft", IsDraft: true})
	is.NoErr(err)
	_, _, err = alice.EditRelease("alice", "repo", draft.ID, gitea.EditReleaseOption{Title: "Still a draft"})
	is.NoErr(err)
	v1, _, err := alice.CreateRelease("alice", "repo", gitea.CreateReleaseOption{TagName: "v1", Title: "One", Note: "notes"})
	is.NoErr(err)
	_, _, err = alice.CreateReleaseAttachment("alice", "repo", v1.ID, strings.NewReader("bytes"), "tool.txt")
	is.NoErr(err) // an asset sends nothing
	_, _, err = writer.EditRelease("alice", "repo", v1.ID, gitea.EditReleaseOption{Title: "One!", IsPrerelease: &yes})
	is.NoErr(err)
	_, _, err = writer.EditRelease("alice", "repo", draft.ID, gitea.EditReleaseOption{IsDraft: &no})
	is.NoErr(err) // its tag is made: published, by its publisher

	httpGitOK(t, work, "tag", "pushed")
	httpGitOK(t, work, "push", "-q", "origin", "pushed")
	onTag, _, err := alice.CreateRelease("alice", "repo", gitea.CreateReleaseOption{TagName: "pushed", Title: "On tag", IsDraft: true})
	is.NoErr(err)
	_, _, err = alice.EditRelease("alice", "repo", onTag.ID, gitea.EditReleaseOption{IsDraft: &no})
	is.NoErr(err) // the tag was there: updated

	_, err = alice.DeleteRelease("alice", "repo", v1.ID)
	is.NoErr(err)
	gone, _, err := alice.CreateRelease("alice", "repo", gitea.CreateReleaseOption{TagName: "v9", Title: "Nine", IsDraft: true})
	is.NoErr(err)
	_, err = alice.DeleteRelease("alice", "repo", gone.ID)
	is.NoErr(err) // a draft's deletion sends nothing

	want := []struct{ action, tag, title, sender string }{
		{"published", "v1", "One", "alice"},
		{"updated", "v1", "One!", "writer"},
		{"published", "v0", "Still a draft", "alice"},
		{"updated", "pushed", "On tag", "alice"},
		{"deleted", "v1", "One!", "alice"},
	}
	got := rec.wait(t, "/release", len(want))
	testkit.Eventually(t, "the catch-all hook's release events", func() bool {
		return len(releaseDeliveries(rec, "/all")) >= len(want)
	})
	is.Equal(len(got), len(want))
	is.Equal(len(releaseDeliveries(rec, "/all")), len(want))
	testkit.Eventually(t, "the pushed tag's push event", func() bool { return len(rec.requests("/push")) == 1 })
	is.Equal(len(releaseDeliveries(rec, "/push")), 0)
	for i, w := range want {
		hookevHeaders(t, got[i], "release", "s3cret")
		p := deliveryDecode[hookevRelease](t, got[i].Body)
		is.Equal(p.Action, w.action)
		is.Equal(p.Release.TagName, w.tag)
		is.Equal(p.Release.Title, w.title)
		is.Equal(p.Release.Publisher.UserName, "alice")
		is.True(!p.Release.IsDraft)
		is.True(p.Release.PublishedAt.Unix() > 0)
		is.Equal(p.Repository.FullName, "alice/repo")
		is.Equal(p.Sender.UserName, w.sender)
		is.Equal(p.Repository.Permissions.Admin, w.sender == "alice") // the sender's access
		is.True(p.Repository.Permissions.Push)
		all := deliveryDecode[hookevRelease](t, releaseDeliveries(rec, "/all")[i].Body)
		is.Equal(all.Action, w.action)
	}
	up := deliveryDecode[hookevRelease](t, got[1].Body)
	is.True(up.Release.IsPrerelease)
	is.Equal(up.Release.ID, v1.ID)
	is.Equal(up.Release.URL, srv.URL+"/api/v1/repos/alice/repo/releases/"+itoa64(v1.ID))
	del := deliveryDecode[hookevRelease](t, got[4].Body)
	is.Equal(len(del.Release.Attachments), 1) // the assets as they were
	is.Equal(del.Release.Attachments[0].Name, "tool.txt")
}
