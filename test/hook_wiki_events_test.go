package test

import (
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"
)

// hookevWiki is Gitea's WikiPayload as a receiver decodes it.
type hookevWiki struct {
	Action     string            `json:"action"`
	Repository *gitea.Repository `json:"repository"`
	Sender     *gitea.User       `json:"sender"`
	Page       string            `json:"page"`
	Comment    string            `json:"comment"`
}

// TestHookEventsWiki: a page created, edited and deleted through the API is
// a wiki event (created, edited, deleted) to the hooks that hear it.
func TestHookEventsWiki(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv, alice, _ := deliverySetup(t)
	rec := deliveryNewReceiver(t, nil)
	deliveryHook(t, alice, rec.URL+"/wiki", []string{"wiki"})
	deliveryHook(t, alice, rec.URL+"/push", []string{"push"})

	wikiPage(t, alice, "alice", "repo", "Home Page", "home")
	_, _, err := alice.EditWikiPage("alice", "repo", "Home-Page", gitea.CreateWikiPageOptions{ContentBase64: b64("v2"), Message: "second"})
	is.NoErr(err)
	_, err = alice.DeleteWikiPage("alice", "repo", "Home-Page")
	is.NoErr(err)

	got := rec.wait(t, "/wiki", 3)
	hookevHeaders(t, got[0], "wiki", "")
	want := []struct{ action, comment string }{{"created", "Add 'Home Page'"}, {"edited", "second"}, {"deleted", ""}}
	for i, w := range want {
		p := deliveryDecode[hookevWiki](t, got[i].Body)
		is.Equal(p.Action, w.action)
		is.Equal(p.Page, "Home-Page")
		is.Equal(p.Comment, w.comment)
		is.Equal(p.Repository.FullName, "alice/repo")
		is.Equal(p.Sender.UserName, "alice")
	}
	is.Equal(len(rec.requests("/push")), 0) // the wiki's commits are no push of the repository
	_ = srv
}
