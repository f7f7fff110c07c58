package test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/test/testserver"
	"github.com/matryer/is"
)

// scopeDenied is the start of a token scope refusal (domain/token/scope.go).
const scopeDenied = "token does not have at least one of required scope(s), required=["

// pushCommit adds one commit writing file to owner/name's default branch
// through the git CLI: clone by file path, commit, push.
func pushCommit(t *testing.T, srv *testserver.Server, owner, name, file, content string) {
	t.Helper()
	dir := cloneRepo(t, srv, owner, name)
	if err := os.WriteFile(filepath.Join(dir, file), []byte(content), 0o644); err != nil {
		t.Fatalf("write %s: %v", file, err)
	}
	gitRun(t, dir, "add", file)
	gitRun(t, dir, "commit", "-q", "-m", "add "+file)
	gitRun(t, dir, "push", "-q", "origin", "HEAD")
}

// forkLog is the history of a work tree's HEAD: one "<hash> <parents> <subject>" per commit.
func forkLog(t *testing.T, dir string) string {
	t.Helper()
	return gitRun(t, dir, "log", "--format=%H %P %s")
}

// forkBody is the raw CreateForkOption for srv.Do.
func forkBody(name string) map[string]any {
	if name == "" {
		return map[string]any{}
	}
	return map[string]any{"name": name}
}

// mustGetRepo reads owner/name with c and fails the test on error.
func mustGetRepo(t *testing.T, c *gitea.Client, owner, name string) *gitea.Repository {
	t.Helper()
	r, _, err := c.GetRepo(owner, name)
	if err != nil {
		t.Fatalf("get %s/%s: %v", owner, name, err)
	}
	return r
}

// TestRepoForkCreate covers POST R/forks on its success path: the fork's
// fields, its Git content, the parent's counter and the fork listing.
func TestRepoForkCreate(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	_, aliceC := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	_, bobC := newAccount(t, srv, "bob", gitea.VisibleTypePublic)
	_, carolC := newAccount(t, srv, "carol", gitea.VisibleTypePublic)
	createRepo(t, aliceC, gitea.CreateRepoOption{Name: "demo", Description: "the parent", AutoInit: true,
		DefaultBranch: "trunk", Readme: "Default"})
	pushCommit(t, srv, "alice", "demo", "extra.txt", "more content\n")
	parentLog := forkLog(t, cloneRepo(t, srv, "alice", "demo"))

	t.Run("fork by another user", func(t *testing.T) {
		is := is.New(t)
		is.Equal(len(strings.Split(strings.TrimSpace(parentLog), "\n")), 2) // initial commit and the pushed one

		fork, resp, err := bobC.CreateFork("alice", "demo", gitea.CreateForkOption{})
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusAccepted)
		is.Equal(fork.FullName, "bob/demo")
		is.Equal(fork.Owner.UserName, "bob")
		is.True(fork.Fork)
		is.True(fork.Parent != nil)
		is.Equal(fork.Parent.FullName, "alice/demo")
		is.Equal(fork.Parent.Owner.UserName, "alice")
		is.Equal(fork.DefaultBranch, "trunk")
		is.Equal(fork.Description, "the parent")
		is.Equal(fork.Private, false)
		is.Equal(fork.Empty, false)
		is.True(fork.Permissions != nil && fork.Permissions.Admin) // the forker owns the fork

		// GET shows the same.
		got := mustGetRepo(t, bobC, "bob", "demo")
		is.True(got.Fork)
		is.Equal(got.Parent.FullName, "alice/demo")
		is.Equal(got.DefaultBranch, "trunk")
	})

	t.Run("fork has the parent's history", func(t *testing.T) {
		is := is.New(t)
		dir := cloneRepo(t, srv, "bob", "demo")
		is.Equal(forkLog(t, dir), parentLog)
		is.Equal(strings.TrimSpace(gitRun(t, dir, "rev-parse", "--abbrev-ref", "HEAD")), "trunk")
		data, err := os.ReadFile(filepath.Join(dir, "extra.txt"))
		is.NoErr(err)
		is.Equal(string(data), "more content\n")
		// The fork is its own repository: no remote back to the parent.
		is.Equal(strings.TrimSpace(gitRun(t, repoDir(srv, "bob", "demo"), "remote")), "")
	})

	t.Run("parent counts and lists the fork", func(t *testing.T) {
		is := is.New(t)
		parent := mustGetRepo(t, aliceC, "alice", "demo")
		is.Equal(parent.Forks, 1)
		is.Equal(parent.Fork, false)

		forks, resp, err := srv.Client().ListForks("alice", "demo", gitea.ListForksOptions{})
		is.NoErr(err)
		is.Equal(resp.Header.Get("X-Total-Count"), "1")
		is.Equal(len(forks), 1)
		is.Equal(forks[0].FullName, "bob/demo")
		is.True(forks[0].Fork)
	})

	t.Run("custom name", func(t *testing.T) {
		is := is.New(t)
		name := "carols-demo"
		fork, resp, err := carolC.CreateFork("alice", "demo", gitea.CreateForkOption{Name: &name})
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusAccepted)
		is.Equal(fork.FullName, "carol/carols-demo")
		is.Equal(fork.Parent.FullName, "alice/demo")
		is.Equal(forkLog(t, cloneRepo(t, srv, "carol", "carols-demo")), parentLog)
		is.Equal(mustGetRepo(t, aliceC, "alice", "demo").Forks, 2)

		forks, _, err := aliceC.ListForks("alice", "demo", gitea.ListForksOptions{})
		is.NoErr(err)
		names := []string{}
		for _, f := range forks {
			names = append(names, f.FullName)
		}
		is.Equal(strings.Join(names, ","), "bob/demo,carol/carols-demo")
	})

	t.Run("forking again is a conflict", func(t *testing.T) {
		is := is.New(t)
		r := srv.Do("POST", "/repos/alice/demo/forks", forkBody(""), basicAs("bob")...)
		is.Equal(r.Status, http.StatusConflict)
		assertErrorShape(t, r)
		// Even under another name: one fork per account.
		r = srv.Do("POST", "/repos/alice/demo/forks", forkBody("second"), basicAs("bob")...)
		is.Equal(r.Status, http.StatusConflict)
		is.True(strings.Contains(r.Message(), "already forked"))
		_, resp, err := bobC.GetRepo("bob", "second")
		assertSDKStatus(t, resp, err, http.StatusNotFound)
		is.Equal(mustGetRepo(t, aliceC, "alice", "demo").Forks, 2)
	})

	t.Run("forking into the owner's own account is a conflict", func(t *testing.T) {
		r := srv.Do("POST", "/repos/alice/demo/forks", forkBody("mine"), basicAs("alice")...)
		assertAPIError(t, r, http.StatusConflict, "cannot fork a repository into its own owner")
		_, resp, err := aliceC.GetRepo("alice", "mine")
		assertSDKStatus(t, resp, err, http.StatusNotFound)
	})

	t.Run("a name taken in the target account is a conflict", func(t *testing.T) {
		is := is.New(t)
		_, daveC := newAccount(t, srv, "dave", gitea.VisibleTypePublic)
		createRepo(t, daveC, gitea.CreateRepoOption{Name: "demo"})
		r := srv.Do("POST", "/repos/alice/demo/forks", forkBody(""), basicAs("dave")...)
		assertAPIError(t, r, http.StatusConflict, "repository with the same name already exists")
		is.Equal(mustGetRepo(t, daveC, "dave", "demo").Fork, false) // untouched
		is.Equal(mustGetRepo(t, aliceC, "alice", "demo").Forks, 2)
	})

	t.Run("fork of an empty repository", func(t *testing.T) {
		is := is.New(t)
		createRepo(t, aliceC, gitea.CreateRepoOption{Name: "blank", DefaultBranch: "dev"})
		fork, resp, err := bobC.CreateFork("alice", "blank", gitea.CreateForkOption{})
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusAccepted)
		is.True(fork.Empty)
		is.Equal(fork.DefaultBranch, "dev")
		is.Equal(strings.TrimSpace(gitRun(t, repoDir(srv, "bob", "blank"), "symbolic-ref", "HEAD")), "refs/heads/dev")
		is.Equal(strings.TrimSpace(gitRun(t, repoDir(srv, "bob", "blank"), "for-each-ref")), "")
	})

	t.Run("invalid name", func(t *testing.T) {
		assertInvalid(t, srv.Do("POST", "/repos/alice/demo/forks", forkBody("bad name!"), basicAs("carol")...), "Name")
		assertInvalid(t, srv.Do("POST", "/repos/alice/demo/forks", forkBody("x.git"), basicAs("carol")...), "Name")
	})

	t.Run("missing parent", func(t *testing.T) {
		assertAPIError(t, srv.Do("POST", "/repos/alice/nothing/forks", forkBody(""), basicAs("bob")...),
			http.StatusNotFound, "repository does not exist")
		_, resp, err := srv.Client().ListForks("alice", "nothing", gitea.ListForksOptions{})
		assertSDKStatus(t, resp, err, http.StatusNotFound)
	})
}

// TestRepoForkAccess covers who may fork what: T and RR(code), private
// parents, token scopes and the organization field.
func TestRepoForkAccess(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	_, aliceC := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	newAccount(t, srv, "bob", gitea.VisibleTypePublic)
	_, readerC := newAccount(t, srv, "reader", gitea.VisibleTypePublic)
	newAccount(t, srv, "carol", gitea.VisibleTypePublic)
	createRepo(t, aliceC, gitea.CreateRepoOption{Name: "pub", AutoInit: true})
	createRepo(t, aliceC, gitea.CreateRepoOption{Name: "secret", AutoInit: true, Private: true})
	read := gitea.AccessModeRead
	if _, err := aliceC.AddCollaborator("alice", "secret", "reader", gitea.AddCollaboratorOption{Permission: &read}); err != nil {
		t.Fatalf("add collaborator: %v", err)
	}

	t.Run("anonymous", func(t *testing.T) {
		assertAPIError(t, srv.Do("POST", "/repos/alice/pub/forks", forkBody("")), http.StatusUnauthorized, "token is required")
		// The repository is resolved before T: a private one is a 404.
		assertAPIError(t, srv.Do("POST", "/repos/alice/secret/forks", forkBody("")), http.StatusNotFound, "repository does not exist")
	})

	t.Run("private parent hidden from strangers", func(t *testing.T) {
		is := is.New(t)
		hidden := srv.Do("POST", "/repos/alice/secret/forks", forkBody(""), basicAs("bob")...)
		missing := srv.Do("POST", "/repos/alice/nothing/forks", forkBody(""), basicAs("bob")...)
		assertAPIError(t, hidden, http.StatusNotFound, missing.Message())
		_, resp, err := srv.Client(gitea.SetBasicAuth("bob", userPassword)).GetRepo("bob", "secret")
		assertSDKStatus(t, resp, err, http.StatusNotFound)
		is.Equal(mustGetRepo(t, aliceC, "alice", "secret").Forks, 0)
	})

	t.Run("read collaborator forks a private repository privately", func(t *testing.T) {
		is := is.New(t)
		fork, resp, err := readerC.CreateFork("alice", "secret", gitea.CreateForkOption{})
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusAccepted)
		is.Equal(fork.FullName, "reader/secret")
		is.True(fork.Private)
		is.True(fork.Fork)
		is.Equal(fork.Parent.FullName, "alice/secret")
		is.Equal(forkLog(t, cloneRepo(t, srv, "reader", "secret")), forkLog(t, cloneRepo(t, srv, "alice", "secret")))
		is.Equal(mustGetRepo(t, aliceC, "alice", "secret").Forks, 1)

		// The private fork is as hidden as any private repository.
		assertAPIError(t, srv.Do("GET", "/repos/reader/secret", nil, basicAs("bob")...), http.StatusNotFound, "repository does not exist")
		assertAPIError(t, srv.Do("GET", "/repos/reader/secret", nil), http.StatusNotFound, "repository does not exist")
		// Listing the parent's forks shows only forks the caller may see.
		forks, _, err := aliceC.ListForks("alice", "secret", gitea.ListForksOptions{})
		is.NoErr(err)
		is.Equal(len(forks), 0) // alice has no access to reader's private fork
		forks, _, err = readerC.ListForks("alice", "secret", gitea.ListForksOptions{})
		is.NoErr(err)
		is.Equal(len(forks), 1)
		forks, _, err = srv.AdminClient().ListForks("alice", "secret", gitea.ListForksOptions{})
		is.NoErr(err)
		is.Equal(len(forks), 1)
	})

	t.Run("site admin forks a private repository", func(t *testing.T) {
		is := is.New(t)
		fork, resp, err := srv.AdminClient().CreateFork("alice", "secret", gitea.CreateForkOption{})
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusAccepted)
		is.Equal(fork.FullName, "admin/secret")
		is.True(fork.Private)
	})

	t.Run("token scopes", func(t *testing.T) {
		is := is.New(t)
		noRepo := srv.CreateToken("carol", userPassword, "write:user")
		r := srv.Do("POST", "/repos/alice/pub/forks", forkBody(""), "Authorization", "token "+noRepo)
		assertAPIError(t, r, http.StatusForbidden, scopeDenied+"write:repository], token scope=write:user")

		readOnly := srv.CreateToken("carol", userPassword, "read:repository")
		r = srv.Do("POST", "/repos/alice/pub/forks", forkBody(""), "Authorization", "token "+readOnly)
		assertAPIError(t, r, http.StatusForbidden, scopeDenied+"write:repository], token scope=read:repository")

		readerPublic := srv.CreateToken("reader", userPassword, "public-only", "write:repository")
		r = srv.Do("POST", "/repos/alice/secret/forks", forkBody("again"), "Authorization", "token "+readerPublic)
		assertAPIError(t, r, http.StatusForbidden, "token scope is limited to public repos")

		// A public-only token may fork a public repository.
		carolPublic := srv.CreateToken("carol", userPassword, "public-only", "write:repository")
		fork, resp, err := srv.Client(gitea.SetToken(carolPublic)).CreateFork("alice", "pub", gitea.CreateForkOption{})
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusAccepted)
		is.Equal(fork.FullName, "carol/pub")
		is.Equal(mustGetRepo(t, aliceC, "alice", "pub").Forks, 1)
	})

	t.Run("organization naming a plain user", func(t *testing.T) {
		is := is.New(t)
		// Depot has no organisations yet: naming another user is refused as
		// creating a repository in an account the caller may not create in.
		r := srv.Do("POST", "/repos/alice/pub/forks", map[string]any{"organization": "reader"}, basicAs("bob")...)
		assertAPIError(t, r, http.StatusForbidden, "you may only create repositories for yourself or an organization you belong to")
		_, resp, err := readerC.GetRepo("reader", "pub")
		assertSDKStatus(t, resp, err, http.StatusNotFound)
		// An unknown account is a validation error on the field.
		r = srv.Do("POST", "/repos/alice/pub/forks", map[string]any{"organization": "no-such-org"}, basicAs("bob")...)
		assertInvalid(t, r, "organization")
		// Naming oneself is the same as naming nobody.
		r = srv.Do("POST", "/repos/alice/pub/forks", map[string]any{"organization": "bob"}, basicAs("bob")...)
		is.Equal(r.Status, http.StatusAccepted)
		var fork gitea.Repository
		r.Decode(t, &fork)
		is.Equal(fork.FullName, "bob/pub")
	})
}

// TestRepoForkLifecycle covers deleting a parent (its forks are detached
// and keep working, as in Gitea) and deleting a fork (the parent's counter
// drops).
func TestRepoForkLifecycle(t *testing.T) {
	for _, b := range authBackends {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			forkLifecycle(t, testserver.Start(t, b.opts...))
		})
	}
}

func forkLifecycle(t *testing.T, srv *testserver.Server) {
	_, aliceC := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	_, bobC := newAccount(t, srv, "bob", gitea.VisibleTypePublic)
	_, carolC := newAccount(t, srv, "carol", gitea.VisibleTypePublic)
	createRepo(t, aliceC, gitea.CreateRepoOption{Name: "demo", AutoInit: true})
	pushCommit(t, srv, "alice", "demo", "more.txt", "x\n")
	parentLog := forkLog(t, cloneRepo(t, srv, "alice", "demo"))
	for _, c := range []*gitea.Client{bobC, carolC} {
		if _, _, err := c.CreateFork("alice", "demo", gitea.CreateForkOption{}); err != nil {
			t.Fatalf("fork: %v", err)
		}
	}

	t.Run("deleting a fork decrements the parent's forks_count", func(t *testing.T) {
		is := is.New(t)
		is.Equal(mustGetRepo(t, aliceC, "alice", "demo").Forks, 2)
		resp, err := carolC.DeleteRepo("carol", "demo")
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusNoContent)
		is.Equal(mustGetRepo(t, aliceC, "alice", "demo").Forks, 1)
		forks, _, err := aliceC.ListForks("alice", "demo", gitea.ListForksOptions{})
		is.NoErr(err)
		is.Equal(len(forks), 1)
		is.Equal(forks[0].FullName, "bob/demo")
		_, err = os.Stat(repoDir(srv, "carol", "demo"))
		is.True(os.IsNotExist(err))
		// The parent's Git directory is untouched.
		is.Equal(forkLog(t, cloneRepo(t, srv, "alice", "demo")), parentLog)
	})

	t.Run("deleting the parent detaches the fork", func(t *testing.T) {
		is := is.New(t)
		resp, err := aliceC.DeleteRepo("alice", "demo")
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusNoContent)
		_, err = os.Stat(repoDir(srv, "alice", "demo"))
		is.True(os.IsNotExist(err))

		fork, resp, err := bobC.GetRepo("bob", "demo")
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusOK)
		is.Equal(fork.Fork, false) // Gitea detaches the forks of a deleted repository
		is.True(fork.Parent == nil)
		// Its Git content survives: the clone shared objects by hard links, not alternates.
		dir := cloneRepo(t, srv, "bob", "demo")
		is.Equal(forkLog(t, dir), parentLog)
		gitRun(t, repoDir(srv, "bob", "demo"), "fsck", "--full")

		// The fork can be forked itself now, and a new alice/demo has no forks.
		createRepo(t, aliceC, gitea.CreateRepoOption{Name: "demo"})
		is.Equal(mustGetRepo(t, aliceC, "alice", "demo").Forks, 0)
		f2, _, err := carolC.CreateFork("bob", "demo", gitea.CreateForkOption{})
		is.NoErr(err)
		is.Equal(f2.Parent.FullName, "bob/demo")
		is.Equal(mustGetRepo(t, bobC, "bob", "demo").Forks, 1)
	})
}

// generateBody is the raw GenerateRepoOption for srv.Do.
func generateBody(owner, name string) map[string]any {
	return map[string]any{"owner": owner, "name": name, "git_content": true, "topics": true}
}

// forkTree is the recursive tree listing of a work tree's HEAD.
func forkTree(t *testing.T, dir string) string {
	t.Helper()
	return gitRun(t, dir, "ls-tree", "-r", "HEAD")
}

// TestRepoGenerate covers POST R/generate: a new repository from a
// template, with one parentless commit holding the template's tree.
func TestRepoGenerate(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	_, aliceC := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	_, bobC := newAccount(t, srv, "bob", gitea.VisibleTypePublic)
	newAccount(t, srv, "carol", gitea.VisibleTypePublic)
	_, readerC := newAccount(t, srv, "reader", gitea.VisibleTypePublic)
	createRepo(t, aliceC, gitea.CreateRepoOption{Name: "tpl", Template: true, AutoInit: true,
		Gitignores: "Go", License: "MIT", DefaultBranch: "base"})
	pushCommit(t, srv, "alice", "tpl", "extra.txt", "template content\n")
	if _, err := aliceC.SetRepoTopics("alice", "tpl", []string{"golang", "starter"}); err != nil {
		t.Fatalf("set topics: %v", err)
	}
	createRepo(t, aliceC, gitea.CreateRepoOption{Name: "plain", AutoInit: true})
	createRepo(t, aliceC, gitea.CreateRepoOption{Name: "hidden-tpl", Template: true, AutoInit: true, Private: true})
	read := gitea.AccessModeRead
	if _, err := aliceC.AddCollaborator("alice", "hidden-tpl", "reader", gitea.AddCollaboratorOption{Permission: &read}); err != nil {
		t.Fatalf("add collaborator: %v", err)
	}
	tplDir := cloneRepo(t, srv, "alice", "tpl")
	tplTree := forkTree(t, tplDir)

	t.Run("generate with git content and topics", func(t *testing.T) {
		is := is.New(t)
		r, resp, err := aliceC.CreateRepoFromTemplate("alice", "tpl", gitea.CreateRepoFromTemplateOption{
			Owner: "alice", Name: "fromtpl", Description: "made from tpl", GitContent: true, Topics: true})
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusCreated)
		is.Equal(r.FullName, "alice/fromtpl")
		is.Equal(r.Owner.UserName, "alice")
		is.Equal(r.Description, "made from tpl")
		is.Equal(r.Template, false) // the copy is no template itself
		is.Equal(r.Fork, false)
		is.True(r.Parent == nil)
		is.Equal(r.Empty, false)
		is.Equal(r.Private, false)
		is.Equal(r.DefaultBranch, "base")
		is.Equal(strings.Join(r.Topics, ","), "golang,starter")
		got := mustGetRepo(t, aliceC, "alice", "fromtpl")
		is.Equal(strings.Join(got.Topics, ","), "golang,starter")
		topics, _, err := aliceC.ListRepoTopics("alice", "fromtpl", gitea.ListRepoTopicsOptions{})
		is.NoErr(err)
		is.Equal(strings.Join(topics, ","), "golang,starter")

		dir := cloneRepo(t, srv, "alice", "fromtpl")
		log := strings.Split(strings.TrimSpace(gitRun(t, dir, "log", "--format=%H|%P|%s")), "\n")
		is.Equal(len(log), 1) // exactly one commit
		parts := strings.Split(log[0], "|")
		is.Equal(parts[1], "") // without a parent
		is.Equal(parts[2], "Initial commit")
		is.Equal(forkTree(t, dir), tplTree) // holding the template's tree
		is.True(strings.Contains(tplTree, "extra.txt"))
		is.True(parts[0] != strings.TrimSpace(gitRun(t, tplDir, "rev-parse", "HEAD")))
		is.Equal(strings.TrimSpace(gitRun(t, dir, "rev-parse", "--abbrev-ref", "HEAD")), "base")
		// The objects were copied: the new repository stands alone.
		gitRun(t, repoDir(srv, "alice", "fromtpl"), "fsck", "--full")
		_, err = os.Stat(filepath.Join(repoDir(srv, "alice", "fromtpl"), "objects", "info", "alternates"))
		is.True(os.IsNotExist(err))
		// The template is unchanged.
		tpl := mustGetRepo(t, aliceC, "alice", "tpl")
		is.True(tpl.Template)
		is.Equal(tpl.Forks, 0)
	})

	t.Run("another user generates into its own account", func(t *testing.T) {
		is := is.New(t)
		r := srv.Do("POST", "/repos/alice/tpl/generate", map[string]any{"owner": "bob", "name": "mine",
			"git_content": true, "private": true, "default_branch": "trunk"}, basicAs("bob")...)
		is.Equal(r.Status, http.StatusCreated)
		var repo gitea.Repository
		r.Decode(t, &repo)
		is.Equal(repo.FullName, "bob/mine")
		is.True(repo.Private)
		is.Equal(repo.DefaultBranch, "trunk")
		is.Equal(len(repo.Topics), 0) // topics not asked for
		is.True(repo.Permissions.Admin)
		dir := cloneRepo(t, srv, "bob", "mine")
		is.Equal(forkTree(t, dir), tplTree)
		is.Equal(strings.TrimSpace(gitRun(t, dir, "rev-parse", "--abbrev-ref", "HEAD")), "trunk")
		is.Equal(strings.Count(gitRun(t, dir, "log", "--format=%H"), "\n"), 1)
		// The commit is bob's.
		is.Equal(strings.TrimSpace(gitRun(t, dir, "log", "-1", "--format=%an <%ae>")), "bob <bob@example.com>")
		_, resp, err := srv.Client().GetRepo("bob", "mine")
		assertSDKStatus(t, resp, err, http.StatusNotFound)
	})

	t.Run("topics only", func(t *testing.T) {
		is := is.New(t)
		r := srv.Do("POST", "/repos/alice/tpl/generate", map[string]any{"owner": "bob", "name": "topics-only", "topics": true},
			basicAs("bob")...)
		is.Equal(r.Status, http.StatusCreated)
		var repo gitea.Repository
		r.Decode(t, &repo)
		is.True(repo.Empty)
		is.Equal(strings.Join(repo.Topics, ","), "golang,starter")
		is.Equal(strings.TrimSpace(gitRun(t, repoDir(srv, "bob", "topics-only"), "for-each-ref")), "")
	})

	t.Run("not a template", func(t *testing.T) {
		assertAPIError(t, srv.Do("POST", "/repos/alice/plain/generate", generateBody("alice", "x1"), basicAs("alice")...),
			http.StatusUnprocessableEntity, "template: this is not a template repo")
	})

	t.Run("nothing selected", func(t *testing.T) {
		assertAPIError(t, srv.Do("POST", "/repos/alice/tpl/generate", map[string]any{"owner": "alice", "name": "x2"}, basicAs("alice")...),
			http.StatusUnprocessableEntity, "git_content: must select at least one template item")
		_, resp, err := aliceC.GetRepo("alice", "x2")
		assertSDKStatus(t, resp, err, http.StatusNotFound)
	})

	t.Run("invalid input", func(t *testing.T) {
		assertInvalid(t, srv.Do("POST", "/repos/alice/tpl/generate", generateBody("", "x3"), basicAs("alice")...), "Owner")
		assertInvalid(t, srv.Do("POST", "/repos/alice/tpl/generate", generateBody("alice", ""), basicAs("alice")...), "Name")
		assertInvalid(t, srv.Do("POST", "/repos/alice/tpl/generate", generateBody("alice", "bad name"), basicAs("alice")...), "Name")
		assertInvalid(t, srv.Do("POST", "/repos/alice/tpl/generate", generateBody("nobody-here", "x3"), basicAs("alice")...), "Owner")
	})

	t.Run("another user's account", func(t *testing.T) {
		is := is.New(t)
		assertAPIError(t, srv.Do("POST", "/repos/alice/tpl/generate", generateBody("carol", "forcarol"), basicAs("bob")...),
			http.StatusForbidden, "Only admin can generate repository for other user.")
		_, resp, err := bobC.GetRepo("carol", "forcarol")
		assertSDKStatus(t, resp, err, http.StatusNotFound)
		// A site admin may.
		r, resp, err := srv.AdminClient().CreateRepoFromTemplate("alice", "tpl", gitea.CreateRepoFromTemplateOption{
			Owner: "carol", Name: "forcarol", GitContent: true})
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusCreated)
		is.Equal(r.FullName, "carol/forcarol")
		is.Equal(forkTree(t, cloneRepo(t, srv, "carol", "forcarol")), tplTree)
	})

	t.Run("taken name", func(t *testing.T) {
		is := is.New(t)
		assertAPIError(t, srv.Do("POST", "/repos/alice/tpl/generate", generateBody("alice", "fromtpl"), basicAs("alice")...),
			http.StatusConflict, "The repository with the same name already exists.")
		assertAPIError(t, srv.Do("POST", "/repos/alice/tpl/generate", generateBody("alice", "FROMTPL"), basicAs("alice")...),
			http.StatusConflict, "The repository with the same name already exists.")
		// The existing repository is untouched.
		is.Equal(strings.Count(gitRun(t, cloneRepo(t, srv, "alice", "fromtpl"), "log", "--format=%H"), "\n"), 1)
	})

	t.Run("private template", func(t *testing.T) {
		is := is.New(t)
		hidden := srv.Do("POST", "/repos/alice/hidden-tpl/generate", generateBody("bob", "peek"), basicAs("bob")...)
		assertAPIError(t, hidden, http.StatusNotFound, "repository does not exist")
		// A read collaborator reads its code, so it may use it.
		r, resp, err := readerC.CreateRepoFromTemplate("alice", "hidden-tpl", gitea.CreateRepoFromTemplateOption{
			Owner: "reader", Name: "peek", GitContent: true})
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusCreated)
		is.Equal(r.FullName, "reader/peek")
		is.Equal(r.Private, false) // visibility is the caller's choice
	})

	t.Run("anonymous", func(t *testing.T) {
		assertAPIError(t, srv.Do("POST", "/repos/alice/tpl/generate", generateBody("alice", "anon")), http.StatusUnauthorized, "token is required")
	})

	t.Run("token scopes", func(t *testing.T) {
		is := is.New(t)
		noRepo := srv.CreateToken("bob", userPassword, "write:user")
		assertAPIError(t, srv.Do("POST", "/repos/alice/tpl/generate", generateBody("bob", "tok1"), "Authorization", "token "+noRepo),
			http.StatusForbidden, scopeDenied+"write:repository], token scope=write:user")
		readOnly := srv.CreateToken("bob", userPassword, "read:repository")
		assertAPIError(t, srv.Do("POST", "/repos/alice/tpl/generate", generateBody("bob", "tok1"), "Authorization", "token "+readOnly),
			http.StatusForbidden, scopeDenied+"write:repository], token scope=read:repository")
		public := srv.CreateToken("reader", userPassword, "public-only", "write:repository")
		assertAPIError(t, srv.Do("POST", "/repos/alice/hidden-tpl/generate", generateBody("reader", "tok2"), "Authorization", "token "+public),
			http.StatusForbidden, "token scope is limited to public repos")
		r := srv.Do("POST", "/repos/alice/tpl/generate", generateBody("reader", "tok3"), "Authorization", "token "+public)
		is.Equal(r.Status, http.StatusCreated)
	})
}
