package test

import (
	"net/http"
	"os"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/test/testserver"
	"github.com/matryer/is"
)

// transferBody is the raw TransferRepoOption for srv.Do.
func transferBody(newOwner string) map[string]any { return map[string]any{"new_owner": newOwner} }

// noPendingTransfer is the 404 of accept and reject without an offer.
const noPendingTransfer = "no pending transfer"

// notRecipient is the 403 of accept and reject by someone the offer is not for.
const notRecipient = "user does not have enough permission to accept or reject the transfer"

// pathExistsOrFail checks whether a path exists.
func pathExistsOrFail(t *testing.T, path string) bool {
	t.Helper()
	_, err := os.Stat(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatalf("stat %s: %v", path, err)
	}
	return err == nil
}

// TestRepoTransferOffer covers a transfer that waits for its recipient:
// offering, seeing the offer, rejecting it, and accepting a new one.
func TestRepoTransferOffer(t *testing.T) {
	for _, b := range authBackends {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			transferOffer(t, testserver.Start(t, b.opts...))
		})
	}
}

func transferOffer(t *testing.T, srv *testserver.Server) {
	_, aliceC := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	_, bobC := newAccount(t, srv, "bob", gitea.VisibleTypePublic)
	newAccount(t, srv, "carol", gitea.VisibleTypePublic)
	_, readerC := newAccount(t, srv, "reader", gitea.VisibleTypePublic)
	createRepo(t, aliceC, gitea.CreateRepoOption{Name: "secret", Private: true, AutoInit: true})
	read := gitea.AccessModeRead
	if _, err := aliceC.AddCollaborator("alice", "secret", "reader", gitea.AddCollaboratorOption{Permission: &read}); err != nil {
		t.Fatalf("add collaborator: %v", err)
	}
	aliceLog := forkLog(t, cloneRepo(t, srv, "alice", "secret"))

	t.Run("recipient cannot see the repository before an offer", func(t *testing.T) {
		assertAPIError(t, srv.Do("GET", "/repos/alice/secret", nil, basicAs("bob")...), http.StatusNotFound, "repository does not exist")
		assertAPIError(t, srv.Do("POST", "/repos/alice/secret/transfer/accept", nil, basicAs("bob")...),
			http.StatusNotFound, "repository does not exist")
	})

	t.Run("accept without an offer", func(t *testing.T) {
		// Callers who can see the repository learn that no offer is pending.
		assertAPIError(t, srv.Do("POST", "/repos/alice/secret/transfer/accept", nil, basicAs("alice")...),
			http.StatusNotFound, noPendingTransfer)
		assertAPIError(t, srv.Do("POST", "/repos/alice/secret/transfer/reject", nil, basicAs("reader")...),
			http.StatusNotFound, noPendingTransfer)
	})

	t.Run("owner offers the repository", func(t *testing.T) {
		is := is.New(t)
		r, resp, err := aliceC.TransferRepo("alice", "secret", gitea.TransferRepoOption{NewOwner: "bob"})
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusCreated) // pending
		is.Equal(r.FullName, "alice/secret")
		is.Equal(r.Owner.UserName, "alice")
		is.True(r.RepoTransfer != nil)
		is.Equal(r.RepoTransfer.Doer.UserName, "alice")
		is.Equal(r.RepoTransfer.Recipient.UserName, "bob")

		got := mustGetRepo(t, aliceC, "alice", "secret")
		is.True(got.RepoTransfer != nil)
		is.Equal(got.RepoTransfer.Doer.UserName, "alice")
		is.Equal(got.RepoTransfer.Recipient.UserName, "bob")
		is.Equal(got.Owner.UserName, "alice") // nothing moved yet
		is.True(pathExistsOrFail(t, repoDir(srv, "alice", "secret")))
	})

	t.Run("a second offer while one is pending is a conflict", func(t *testing.T) {
		is := is.New(t)
		r := srv.Do("POST", "/repos/alice/secret/transfer", transferBody("carol"), basicAs("alice")...)
		assertAPIError(t, r, http.StatusConflict, "repository is already being transferred [uname: alice, name: secret]")
		is.Equal(mustGetRepo(t, aliceC, "alice", "secret").RepoTransfer.Recipient.UserName, "bob")
	})

	t.Run("recipient sees the offered repository", func(t *testing.T) {
		is := is.New(t)
		r, resp, err := bobC.GetRepo("alice", "secret")
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusOK)
		is.True(r.Private)
		is.True(r.RepoTransfer != nil)
		is.Equal(r.RepoTransfer.Recipient.UserName, "bob")
		// Others still do not.
		assertAPIError(t, srv.Do("GET", "/repos/alice/secret", nil, basicAs("carol")...), http.StatusNotFound, "repository does not exist")
		assertAPIError(t, srv.Do("GET", "/repos/alice/secret", nil), http.StatusNotFound, "repository does not exist")
	})

	t.Run("only the recipient answers", func(t *testing.T) {
		is := is.New(t)
		// A third user who cannot see the repository gets 404; one who can gets 403.
		assertAPIError(t, srv.Do("POST", "/repos/alice/secret/transfer/accept", nil, basicAs("carol")...),
			http.StatusNotFound, "repository does not exist")
		assertAPIError(t, srv.Do("POST", "/repos/alice/secret/transfer/accept", nil, basicAs("reader")...),
			http.StatusForbidden, notRecipient)
		_, resp, err := readerC.RejectRepoTransfer("alice", "secret")
		assertSDKStatus(t, resp, err, http.StatusForbidden)
		// Nor may the owner answer its own offer.
		assertAPIError(t, srv.Do("POST", "/repos/alice/secret/transfer/accept", nil, basicAs("alice")...),
			http.StatusForbidden, notRecipient)
		assertAPIError(t, srv.Do("POST", "/repos/alice/secret/transfer/reject", nil, basicAs("alice")...),
			http.StatusForbidden, notRecipient)
		// Anonymous callers cannot see the private repository at all.
		assertAPIError(t, srv.Do("POST", "/repos/alice/secret/transfer/accept", nil), http.StatusNotFound, "repository does not exist")
		assertAPIError(t, srv.Do("POST", "/repos/alice/secret/transfer/reject", nil), http.StatusNotFound, "repository does not exist")
		is.Equal(mustGetRepo(t, aliceC, "alice", "secret").RepoTransfer.Recipient.UserName, "bob") // still pending
	})

	t.Run("recipient token scopes", func(t *testing.T) {
		noRepo := srv.CreateToken("bob", userPassword, "write:user")
		r := srv.Do("POST", "/repos/alice/secret/transfer/accept", nil, "Authorization", "token "+noRepo)
		assertAPIError(t, r, http.StatusForbidden, scopeDenied+"write:repository], token scope=write:user")
		readOnly := srv.CreateToken("bob", userPassword, "read:repository")
		r = srv.Do("POST", "/repos/alice/secret/transfer/reject", nil, "Authorization", "token "+readOnly)
		assertAPIError(t, r, http.StatusForbidden, scopeDenied+"write:repository], token scope=read:repository")
		public := srv.CreateToken("bob", userPassword, "public-only", "write:repository")
		r = srv.Do("POST", "/repos/alice/secret/transfer/accept", nil, "Authorization", "token "+public)
		assertAPIError(t, r, http.StatusForbidden, "token scope is limited to public repos")
	})

	t.Run("recipient rejects", func(t *testing.T) {
		is := is.New(t)
		r, resp, err := bobC.RejectRepoTransfer("alice", "secret")
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusOK)
		is.Equal(r.FullName, "alice/secret")

		got := mustGetRepo(t, aliceC, "alice", "secret")
		is.True(got.RepoTransfer == nil) // offer gone
		is.Equal(got.Owner.UserName, "alice")
		// The offer no longer opens the repository to bob.
		assertAPIError(t, srv.Do("POST", "/repos/alice/secret/transfer/accept", nil, basicAs("bob")...),
			http.StatusNotFound, "repository does not exist")
		assertAPIError(t, srv.Do("GET", "/repos/alice/secret", nil, basicAs("bob")...), http.StatusNotFound, "repository does not exist")
		// A collaborator who can see it learns that nothing is pending.
		assertAPIError(t, srv.Do("POST", "/repos/alice/secret/transfer/accept", nil, basicAs("reader")...),
			http.StatusNotFound, noPendingTransfer)
	})

	t.Run("recipient accepts a new offer", func(t *testing.T) {
		is := is.New(t)
		_, resp, err := aliceC.TransferRepo("alice", "secret", gitea.TransferRepoOption{NewOwner: "bob"})
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusCreated)

		r, resp, err := bobC.AcceptRepoTransfer("alice", "secret")
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusAccepted)
		is.Equal(r.FullName, "bob/secret")
		is.Equal(r.Owner.UserName, "bob")
		is.True(r.RepoTransfer == nil)
		is.True(r.Permissions.Admin)

		got := mustGetRepo(t, bobC, "bob", "secret")
		is.Equal(got.Owner.UserName, "bob")
		is.Equal(got.ID, r.ID)
		is.True(got.Private)
		is.True(got.RepoTransfer == nil)

		// The Git directory moved with its history.
		is.True(!pathExistsOrFail(t, repoDir(srv, "alice", "secret")))
		is.True(pathExistsOrFail(t, repoDir(srv, "bob", "secret")))
		is.Equal(forkLog(t, cloneRepo(t, srv, "bob", "secret")), aliceLog)
	})

	t.Run("old path redirects for those who may see the repository", func(t *testing.T) {
		is := is.New(t)
		r := srv.Do("GET", "/repos/alice/secret", nil, basicAs("bob")...)
		is.Equal(r.Status, http.StatusMovedPermanently)
		is.Equal(r.Header.Get("Location"), "/api/v1/repos/bob/secret")
		r = srv.Do("GET", "/repos/alice/secret/collaborators?limit=5", nil, basicAs("bob")...)
		is.Equal(r.Status, http.StatusMovedPermanently)
		is.Equal(r.Header.Get("Location"), "/api/v1/repos/bob/secret/collaborators?limit=5")
		r = srv.Do("PATCH", "/repos/alice/secret", map[string]any{"description": "x"}, basicAs("bob")...)
		is.Equal(r.Status, http.StatusTemporaryRedirect)
		// The SDK follows the redirect.
		got, _, err := bobC.GetRepo("alice", "secret")
		is.NoErr(err)
		is.Equal(got.FullName, "bob/secret")
		// The former owner has no access to bob's private repository any more.
		assertAPIError(t, srv.Do("GET", "/repos/alice/secret", nil, basicAs("alice")...), http.StatusNotFound, "repository does not exist")
		assertAPIError(t, srv.Do("GET", "/repos/bob/secret", nil, basicAs("alice")...), http.StatusNotFound, "repository does not exist")
		// Collaborations carry over.
		is.Equal(srv.Do("GET", "/repos/bob/secret", nil, basicAs("reader")...).Status, http.StatusOK)
	})

	t.Run("accept after the move", func(t *testing.T) {
		assertAPIError(t, srv.Do("POST", "/repos/bob/secret/transfer/accept", nil, basicAs("bob")...),
			http.StatusNotFound, noPendingTransfer)
	})

	t.Run("the old name is free again", func(t *testing.T) {
		is := is.New(t)
		createRepo(t, aliceC, gitea.CreateRepoOption{Name: "secret"})
		got := mustGetRepo(t, aliceC, "alice", "secret")
		is.Equal(got.FullName, "alice/secret")
		is.Equal(got.Empty, true)
		is.Equal(mustGetRepo(t, bobC, "bob", "secret").Empty, false)
	})
}

// TestRepoTransferRules covers the refusals of POST R/transfer and the
// transfers that happen at once.
func TestRepoTransferRules(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	_, aliceC := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	_, bobC := newAccount(t, srv, "bob", gitea.VisibleTypePublic)
	newAccount(t, srv, "carol", gitea.VisibleTypePublic)
	newAccount(t, srv, "boss", gitea.VisibleTypePublic)
	newAccount(t, srv, "writer", gitea.VisibleTypePublic)
	createRepo(t, aliceC, gitea.CreateRepoOption{Name: "demo", AutoInit: true})
	createRepo(t, bobC, gitea.CreateRepoOption{Name: "demo"})
	for who, mode := range map[string]gitea.AccessMode{"boss": gitea.AccessModeAdmin, "writer": gitea.AccessModeWrite} {
		if _, err := aliceC.AddCollaborator("alice", "demo", who, gitea.AddCollaboratorOption{Permission: &mode}); err != nil {
			t.Fatalf("add collaborator: %v", err)
		}
	}

	t.Run("anonymous", func(t *testing.T) {
		assertAPIError(t, srv.Do("POST", "/repos/alice/demo/transfer", transferBody("carol")), http.StatusUnauthorized, "token is required")
		assertAPIError(t, srv.Do("POST", "/repos/alice/demo/transfer/accept", nil), http.StatusUnauthorized, "token is required")
		assertAPIError(t, srv.Do("POST", "/repos/alice/demo/transfer/reject", nil), http.StatusUnauthorized, "token is required")
	})

	t.Run("only the owner transfers", func(t *testing.T) {
		is := is.New(t)
		for _, who := range []string{"boss", "writer", "carol"} {
			r := srv.Do("POST", "/repos/alice/demo/transfer", transferBody("carol"), basicAs(who)...)
			assertAPIError(t, r, http.StatusForbidden, "user should be the owner of the repo")
		}
		is.True(mustGetRepo(t, aliceC, "alice", "demo").RepoTransfer == nil)
	})

	t.Run("token scopes", func(t *testing.T) {
		noRepo := srv.CreateToken("alice", userPassword, "write:user")
		assertAPIError(t, srv.Do("POST", "/repos/alice/demo/transfer", transferBody("carol"), "Authorization", "token "+noRepo),
			http.StatusForbidden, scopeDenied+"write:repository], token scope=write:user")
		readOnly := srv.CreateToken("alice", userPassword, "read:repository")
		assertAPIError(t, srv.Do("POST", "/repos/alice/demo/transfer", transferBody("carol"), "Authorization", "token "+readOnly),
			http.StatusForbidden, scopeDenied+"write:repository], token scope=read:repository")
	})

	t.Run("unknown new owner", func(t *testing.T) {
		assertAPIError(t, srv.Do("POST", "/repos/alice/demo/transfer", transferBody("nobody"), basicAs("alice")...),
			http.StatusNotFound, "The new owner does not exist or cannot be found")
	})

	t.Run("missing new owner", func(t *testing.T) {
		assertInvalid(t, srv.Do("POST", "/repos/alice/demo/transfer", map[string]any{}, basicAs("alice")...), "NewOwner")
	})

	t.Run("to the current owner", func(t *testing.T) {
		assertInvalid(t, srv.Do("POST", "/repos/alice/demo/transfer", transferBody("alice"), basicAs("alice")...), "NewOwner")
		assertInvalid(t, srv.Do("POST", "/repos/alice/demo/transfer", transferBody("ALICE"), basicAs("alice")...), "NewOwner")
	})

	t.Run("recipient already has the name", func(t *testing.T) {
		is := is.New(t)
		r := srv.Do("POST", "/repos/alice/demo/transfer", transferBody("bob"), basicAs("alice")...)
		assertInvalid(t, r, "NewOwner")
		is.True(strings.Contains(r.Message(), "repository already exists"))
		is.True(mustGetRepo(t, aliceC, "alice", "demo").RepoTransfer == nil)
		// Nor can the site admin move it there.
		assertInvalid(t, srv.Do("POST", "/repos/alice/demo/transfer", transferBody("bob"),
			"Authorization", testserver.Basic("admin", srv.AdminPassword)), "NewOwner")
		is.Equal(mustGetRepo(t, aliceC, "alice", "demo").Owner.UserName, "alice")
	})

	t.Run("site admin transfers at once", func(t *testing.T) {
		is := is.New(t)
		_, _, err := srv.Client(gitea.SetBasicAuth("writer", userPassword)).CreateFork("alice", "demo", gitea.CreateForkOption{})
		is.NoErr(err)
		r, resp, err := srv.AdminClient().TransferRepo("alice", "demo", gitea.TransferRepoOption{NewOwner: "carol"})
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusAccepted)
		is.Equal(r.FullName, "carol/demo")
		is.Equal(r.Owner.UserName, "carol")
		is.True(r.RepoTransfer == nil)
		is.True(!pathExistsOrFail(t, repoDir(srv, "alice", "demo")))
		is.True(pathExistsOrFail(t, repoDir(srv, "carol", "demo")))
		gitRun(t, repoDir(srv, "carol", "demo"), "fsck")

		// Public repository: everyone follows the redirect.
		red := srv.Do("GET", "/repos/alice/demo", nil)
		is.Equal(red.Status, http.StatusMovedPermanently)
		is.Equal(red.Header.Get("Location"), "/api/v1/repos/carol/demo")
		// Collaborators kept their access; the former owner keeps none beyond public read.
		got := mustGetRepo(t, srv.Client(gitea.SetBasicAuth("boss", userPassword)), "carol", "demo")
		is.True(got.Permissions.Admin)
		got = mustGetRepo(t, aliceC, "carol", "demo")
		is.Equal(got.Permissions.Admin, false)
		is.Equal(got.Permissions.Push, false)
		is.Equal(got.Forks, 1)
		// Forks follow their parent to its new owner.
		fork := mustGetRepo(t, aliceC, "writer", "demo")
		is.Equal(fork.Parent.FullName, "carol/demo")
	})

	t.Run("the name is taken between offer and acceptance", func(t *testing.T) {
		is := is.New(t)
		createRepo(t, aliceC, gitea.CreateRepoOption{Name: "race", AutoInit: true})
		before := forkLog(t, cloneRepo(t, srv, "alice", "race"))
		_, resp, err := aliceC.TransferRepo("alice", "race", gitea.TransferRepoOption{NewOwner: "bob"})
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusCreated)
		createRepo(t, bobC, gitea.CreateRepoOption{Name: "race"})
		r := srv.Do("POST", "/repos/alice/race/transfer/accept", nil, basicAs("bob")...)
		assertInvalid(t, r, "NewOwner")
		// Nothing moved: both repositories and the offer are as they were.
		got := mustGetRepo(t, aliceC, "alice", "race")
		is.Equal(got.Owner.UserName, "alice")
		is.True(got.RepoTransfer != nil)
		is.Equal(forkLog(t, cloneRepo(t, srv, "alice", "race")), before)
		is.True(mustGetRepo(t, bobC, "bob", "race").Empty)
		is.Equal(strings.TrimSpace(gitRun(t, repoDir(srv, "bob", "race"), "for-each-ref")), "")
		// Rejecting still works.
		_, resp, err = bobC.RejectRepoTransfer("alice", "race")
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusOK)
	})

	t.Run("transfer of a public repository and a third user's answer", func(t *testing.T) {
		is := is.New(t)
		createRepo(t, aliceC, gitea.CreateRepoOption{Name: "open"})
		_, resp, err := aliceC.TransferRepo("alice", "open", gitea.TransferRepoOption{NewOwner: "carol"})
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusCreated)
		// Anyone sees the public repository and its offer, but only carol answers.
		r := srv.Do("GET", "/repos/alice/open", nil)
		is.Equal(r.Status, http.StatusOK)
		var repo gitea.Repository
		r.Decode(t, &repo)
		is.Equal(repo.RepoTransfer.Recipient.UserName, "carol")
		assertAPIError(t, srv.Do("POST", "/repos/alice/open/transfer/accept", nil, basicAs("bob")...), http.StatusForbidden, notRecipient)
		assertAPIError(t, srv.Do("POST", "/repos/alice/open/transfer/reject", nil, basicAs("writer")...), http.StatusForbidden, notRecipient)
		// The site admin may answer for the recipient.
		got, resp, err := srv.AdminClient().AcceptRepoTransfer("alice", "open")
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusAccepted)
		is.Equal(got.FullName, "carol/open")
	})

	t.Run("a collaborator recipient", func(t *testing.T) {
		is := is.New(t)
		// bob offers his repository to alice, one of its collaborators; bob
		// may not answer his own offer.
		createRepo(t, bobC, gitea.CreateRepoOption{Name: "gift"})
		write := gitea.AccessModeWrite
		_, err := bobC.AddCollaborator("bob", "gift", "alice", gitea.AddCollaboratorOption{Permission: &write})
		is.NoErr(err)
		_, resp, err := bobC.TransferRepo("bob", "gift", gitea.TransferRepoOption{NewOwner: "alice"})
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusCreated)
		assertAPIError(t, srv.Do("POST", "/repos/bob/gift/transfer/accept", nil, basicAs("bob")...), http.StatusForbidden, notRecipient)
		r, resp, err := aliceC.AcceptRepoTransfer("bob", "gift")
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusAccepted)
		is.Equal(r.FullName, "alice/gift")
		// A recipient that was a collaborator stops being one: it owns the repository now.
		collabs, _, err := aliceC.ListCollaborators("alice", "gift", gitea.ListCollaboratorsOptions{})
		is.NoErr(err)
		is.Equal(len(collabs), 0)
	})
}
