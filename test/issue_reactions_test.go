package test

import (
	"net/http"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

func TestIssueReactions(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		srv := testserver.Start(t, opts...)
		_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
		_, bob := newAccount(t, srv, "bob", gitea.VisibleTypePublic)
		_, carol := newAccount(t, srv, "carol", gitea.VisibleTypePublic)
		createRepo(t, alice, gitea.CreateRepoOption{Name: "tools"})
		createRepo(t, alice, gitea.CreateRepoOption{Name: "other"})
		addTestCollaborator(t, alice, "alice", "tools", "carol", gitea.AccessModeWrite)
		i := openTestIssue(t, alice, "alice", "tools", "react to me", "")
		c := postComment(t, alice, "alice", "tools", i.Index, "and to me")
		const R = "/repos/alice/tools"
		issuePath := R + "/issues/" + formatID(i.Index) + "/reactions"
		commentPath := R + "/issues/comments/" + formatID(c.ID) + "/reactions"

		t.Run("issue reactions", func(t *testing.T) {
			is := is.New(t)
			r := srv.Do("POST", issuePath, map[string]string{"content": "+1"}, basicAs("bob")...)
			is.Equal(r.Status, http.StatusCreated)
			var first gitea.Reaction
			r.Decode(t, &first)
			is.Equal(first.Reaction, "+1")
			is.Equal(first.User.UserName, "bob")
			// Reacting again answers the existing reaction with 200.
			r = srv.Do("POST", issuePath, map[string]string{"content": "+1"}, basicAs("bob")...)
			is.Equal(r.Status, http.StatusOK)
			var again gitea.Reaction
			r.Decode(t, &again)
			is.True(again.Created.Equal(first.Created))
			_, _, err := alice.PostIssueReaction("alice", "tools", i.Index, "heart")
			is.NoErr(err)

			list, resp, err := alice.ListIssueReactions("alice", "tools", i.Index, gitea.ListIssueReactionsOptions{})
			is.NoErr(err)
			is.Equal(len(list), 2)
			is.Equal(list[0].User.UserName, "bob") // oldest first
			is.Equal(list[1].Reaction, "heart")
			is.Equal(resp.Header.Get("X-Total-Count"), "2")
			// The comment's reactions are its own.
			cl, _, err := alice.GetIssueCommentReactions("alice", "tools", c.ID)
			is.NoErr(err)
			is.Equal(len(cl), 0)

			_, err = bob.DeleteIssueReaction("alice", "tools", i.Index, "+1")
			is.NoErr(err)
			// Removing a reaction never given still answers 200, as Gitea.
			r = srv.Do("DELETE", issuePath, map[string]string{"content": "rocket"}, basicAs("bob")...)
			is.Equal(r.Status, http.StatusOK)
			list, _, err = alice.ListIssueReactions("alice", "tools", i.Index, gitea.ListIssueReactionsOptions{})
			is.NoErr(err)
			is.Equal(len(list), 1)
		})

		t.Run("comment reactions", func(t *testing.T) {
			is := is.New(t)
			got, _, err := bob.PostIssueCommentReaction("alice", "tools", c.ID, "eyes")
			is.NoErr(err)
			is.Equal(got.Reaction, "eyes")
			list, _, err := alice.GetIssueCommentReactions("alice", "tools", c.ID)
			is.NoErr(err)
			is.Equal(len(list), 1)
			is.Equal(list[0].User.UserName, "bob")
			r := srv.Do("GET", commentPath, nil)
			is.Equal(r.Status, http.StatusOK)
			_, err = bob.DeleteIssueCommentReaction("alice", "tools", c.ID, "eyes")
			is.NoErr(err)
			list, _, err = alice.GetIssueCommentReactions("alice", "tools", c.ID)
			is.NoErr(err)
			is.Equal(len(list), 0)
		})

		t.Run("refused", func(t *testing.T) {
			// Outside Gitea's allowed set: 403 with its message.
			assertAPIError(t, srv.Do("POST", issuePath, map[string]string{"content": "smile"}, basicAs("bob")...),
				http.StatusForbidden, "'smile' is not an allowed reaction")
			assertAPIError(t, srv.Do("POST", commentPath, map[string]string{}, basicAs("bob")...),
				http.StatusForbidden, "'' is not an allowed reaction")
			assertAPIError(t, srv.Do("POST", issuePath, map[string]string{"content": "+1"}), http.StatusUnauthorized, "")
			assertAPIError(t, srv.Do("DELETE", commentPath, map[string]string{"content": "+1"}), http.StatusUnauthorized, "")
			assertAPIError(t, srv.Do("POST", issuePath, "{", basicAs("bob")...), http.StatusBadRequest, "")
			assertAPIError(t, srv.Do("GET", R+"/issues/999/reactions", nil), http.StatusNotFound, "")
			assertAPIError(t, srv.Do("GET", R+"/issues/comments/999999/reactions", nil), http.StatusNotFound, "")
			o := openTestIssue(t, alice, "alice", "other", "o", "")
			oc := postComment(t, alice, "alice", "other", o.Index, "o")
			assertAPIError(t, srv.Do("POST", R+"/issues/comments/"+formatID(oc.ID)+"/reactions",
				map[string]string{"content": "+1"}, basicAs("bob")...), http.StatusNotFound, "")
		})

		t.Run("locked issue", func(t *testing.T) {
			is := is.New(t)
			l := openTestIssue(t, alice, "alice", "tools", "locked", "")
			lc := postComment(t, alice, "alice", "tools", l.Index, "x")
			_, err := alice.LockIssue("alice", "tools", l.Index, gitea.LockIssueOption{})
			is.NoErr(err)
			assertAPIError(t, srv.Do("POST", R+"/issues/"+formatID(l.Index)+"/reactions", map[string]string{"content": "+1"},
				basicAs("bob")...), http.StatusForbidden, "no permission to change reaction")
			assertAPIError(t, srv.Do("POST", R+"/issues/comments/"+formatID(lc.ID)+"/reactions",
				map[string]string{"content": "+1"}, basicAs("bob")...), http.StatusForbidden, "no permission to change reaction")
			_, _, err = carol.PostIssueReaction("alice", "tools", l.Index, "+1") // writers still may
			is.NoErr(err)
		})

		t.Run("private repository", func(t *testing.T) {
			is := is.New(t)
			createRepo(t, alice, gitea.CreateRepoOption{Name: "secret", Private: true})
			p := openTestIssue(t, alice, "alice", "secret", "hidden", "")
			_, _, err := alice.PostIssueReaction("alice", "secret", p.Index, "heart")
			is.NoErr(err)
			path := "/repos/alice/secret/issues/" + formatID(p.Index) + "/reactions"
			assertAPIError(t, srv.Do("GET", path, nil), http.StatusNotFound, "")
			assertAPIError(t, srv.Do("POST", path, map[string]string{"content": "+1"}, basicAs("bob")...), http.StatusNotFound, "")
		})
	})
}
