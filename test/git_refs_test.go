package test

import (
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/test/testserver"
	"github.com/matryer/is"
)

// refsFix is alice's repository "refs" with history pushed by the git CLI:
// main (two commits by alice), dev, feature/x, a lightweight tag v1, an
// annotated tag v2 and a note on main's head.
type refsFix struct {
	srv   *testserver.Server
	alice *gitea.Client
	work  string
	bare  string
	c1    string // first commit (AutoInit's)
	c2    string // main's head
}

// refsGit runs git in dir as alice (alice@example.com), which the API
// recognises as her account, and returns its trimmed output.
func refsGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	return strings.TrimSpace(gitRunWith(t, dir, aliceGitEnv, args...))
}

// refsSetup starts a server (with opts) holding alice's repository "refs".
func refsSetup(t *testing.T, private bool, opts ...testserver.Option) refsFix {
	t.Helper()
	srv := testserver.Start(t, opts...)
	_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	createRepo(t, alice, gitea.CreateRepoOption{Name: "refs", AutoInit: true, Private: private, DefaultBranch: "main"})
	f := refsFix{srv: srv, alice: alice, work: cloneRepo(t, srv, "alice", "refs"), bare: repoDir(srv, "alice", "refs")}
	f.c1 = refsGit(t, f.work, "rev-parse", "HEAD")
	if err := os.WriteFile(filepath.Join(f.work, "a.txt"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	refsGit(t, f.work, "add", "a.txt")
	refsGit(t, f.work, "commit", "-q", "-m", "Add a")
	f.c2 = refsGit(t, f.work, "rev-parse", "HEAD")
	refsGit(t, f.work, "branch", "dev", f.c1)
	refsGit(t, f.work, "branch", "feature/x")
	refsGit(t, f.work, "tag", "v1", f.c1)
	refsGit(t, f.work, "tag", "-a", "-m", "Version two", "v2")
	refsGit(t, f.work, "notes", "add", "-m", "reviewed", "HEAD")
	refsGit(t, f.work, "push", "-q", "--force", f.bare, "refs/heads/*:refs/heads/*", "refs/tags/*:refs/tags/*",
		"refs/notes/*:refs/notes/*")
	return f
}

// refsBareGit runs git on the server's bare repository.
func (f refsFix) refsBareGit(t *testing.T, args ...string) string {
	t.Helper()
	return strings.TrimSpace(gitRun(t, f.bare, args...))
}

func TestRefsListAndGetBranches(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	f := refsSetup(t, false)

	list, resp, err := f.alice.ListRepoBranches("alice", "refs", gitea.ListRepoBranchesOptions{ListOptions: gitea.ListOptions{Page: 1, PageSize: 2}})
	is.NoErr(err)
	is.Equal(resp.Header.Get("X-Total-Count"), "3")
	is.True(strings.Contains(resp.Header.Get("Link"), `rel="next"`))
	is.Equal(len(list), 2)
	is.Equal(list[0].Name, "dev") // by name
	is.Equal(list[1].Name, "feature/x")
	is.Equal(list[1].Commit.ID, f.c2)
	is.Equal(list[1].Commit.Message, "Add a\n")
	is.Equal(list[1].Commit.Author.UserName, "alice") // the author's address is alice's
	is.Equal(list[1].Commit.Author.Email, "alice@example.com")
	is.Equal(list[1].Commit.URL, f.srv.URL+"/alice/refs/commit/"+f.c2)
	is.True(list[1].Commit.Verification != nil && !list[1].Commit.Verification.Verified)
	is.True(list[1].UserCanPush && list[1].UserCanMerge)
	is.True(!list[1].Protected)
	is.Equal(list[1].StatusCheckContexts, []string{})

	list, _, err = f.alice.ListRepoBranches("alice", "refs", gitea.ListRepoBranchesOptions{ListOptions: gitea.ListOptions{Page: 2, PageSize: 2}})
	is.NoErr(err)
	is.Equal(len(list), 1)
	is.Equal(list[0].Name, "main")

	b, _, err := f.alice.GetRepoBranch("alice", "refs", "feature/x")
	is.NoErr(err)
	is.Equal(b.Commit.ID, f.refsBareGit(t, "rev-parse", "refs/heads/feature/x"))

	// Anonymous readers of a public repository see the branch but may not push.
	r := f.srv.Do("GET", "/repos/alice/refs/branches/dev", nil)
	is.Equal(r.Status, http.StatusOK)
	var anon gitea.Branch
	r.Decode(t, &anon)
	is.Equal(anon.Commit.ID, f.c1)
	is.True(!anon.UserCanPush && !anon.UserCanMerge)

	for _, absent := range []string{"nope", "feature", "feature/x/y"} {
		_, resp, err = f.alice.GetRepoBranch("alice", "refs", absent)
		is.True(err != nil)
		is.Equal(resp.StatusCode, http.StatusNotFound)
	}
}

func TestRefsEmptyRepository(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := testserver.Start(t)
	_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	createRepo(t, alice, gitea.CreateRepoOption{Name: "empty"})

	list, resp, err := alice.ListRepoBranches("alice", "empty", gitea.ListRepoBranchesOptions{})
	is.NoErr(err)
	is.Equal(len(list), 0)
	is.Equal(resp.Header.Get("X-Total-Count"), "0")
	tags, _, err := alice.ListRepoTags("alice", "empty", gitea.ListRepoTagsOptions{})
	is.NoErr(err)
	is.Equal(len(tags), 0)

	for _, path := range []string{"/branches/main", "/tags/v1", "/git/refs", "/git/refs/heads", "/git/notes/main",
		"/git/tags/" + strings.Repeat("a", 40)} {
		assertAPIError(t, srv.Do("GET", "/repos/alice/empty"+path, nil, basicAs("alice")...), http.StatusNotFound, "")
	}
	assertAPIError(t, srv.Do("POST", "/repos/alice/empty/branches", map[string]string{"new_branch_name": "x"}, basicAs("alice")...),
		http.StatusNotFound, "Git Repository is empty.")
	assertAPIError(t, srv.Do("PATCH", "/repos/alice/empty/branches/main", map[string]string{"name": "x"}, basicAs("alice")...),
		http.StatusNotFound, "Git Repository is empty.")
	assertAPIError(t, srv.Do("DELETE", "/repos/alice/empty/branches/main", nil, basicAs("alice")...),
		http.StatusNotFound, "Git Repository is empty.")
	assertAPIError(t, srv.Do("POST", "/repos/alice/empty/tags", map[string]string{"tag_name": "v1"}, basicAs("alice")...),
		http.StatusNotFound, "target not found: main")
	assertAPIError(t, srv.Do("DELETE", "/repos/alice/empty/tags/v1", nil, basicAs("alice")...), http.StatusNotFound, "")
}

func TestRefsCreateBranch(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	f := refsSetup(t, false)

	b, resp, err := f.alice.CreateBranch("alice", "refs", gitea.CreateBranchOption{BranchName: "from-default"})
	is.NoErr(err)
	is.Equal(resp.StatusCode, http.StatusCreated)
	is.Equal(b.Name, "from-default")
	is.Equal(b.Commit.ID, f.c2)
	is.Equal(f.refsBareGit(t, "rev-parse", "refs/heads/from-default"), f.c2)

	b, _, err = f.alice.CreateBranch("alice", "refs", gitea.CreateBranchOption{BranchName: "release/1.x", OldBranchName: "dev"})
	is.NoErr(err)
	is.Equal(f.refsBareGit(t, "rev-parse", "refs/heads/release/1.x"), f.c1)

	for ref, want := range map[string]string{"v2": f.c2, "v1": f.c1, f.c1[:10]: f.c1, "feature/x": f.c2} {
		name := "from-" + strings.ReplaceAll(ref, "/", "-")
		r := f.srv.Do("POST", "/repos/alice/refs/branches", map[string]string{"new_branch_name": name, "old_ref_name": ref}, basicAs("alice")...)
		is.Equal(r.Status, http.StatusCreated)
		var got gitea.Branch
		r.Decode(t, &got)
		is.Equal(got.Commit.ID, want)                                     // old_ref_name: branch, tag or commit
		is.Equal(f.refsBareGit(t, "rev-parse", "refs/heads/"+name), want) // git agrees
	}

	// Unicode and escaped names travel through the path intact.
	for _, name := range []string{"test-👀", "ünï/cødé", "100%"} {
		_, _, err = f.alice.CreateBranch("alice", "refs", gitea.CreateBranchOption{BranchName: name})
		is.NoErr(err)
		got, _, err := f.alice.GetRepoBranch("alice", "refs", name)
		is.NoErr(err)
		is.Equal(got.Name, name)
		is.Equal(f.refsBareGit(t, "rev-parse", "refs/heads/"+name), f.c2)
	}

	create := func(body map[string]string) testserver.Response {
		return f.srv.Do("POST", "/repos/alice/refs/branches", body, basicAs("alice")...)
	}
	assertAPIError(t, create(map[string]string{"new_branch_name": "dev"}), http.StatusConflict, "The branch already exists.")
	assertAPIError(t, create(map[string]string{"new_branch_name": "feature"}), http.StatusConflict,
		"The branch with the same name already exists.")
	assertAPIError(t, create(map[string]string{"new_branch_name": "v1"}), http.StatusConflict,
		"The branch with the same tag already exists.")
	assertAPIError(t, create(map[string]string{"new_branch_name": "x", "old_branch_name": "nope"}), http.StatusNotFound,
		"The old branch does not exist")
	assertAPIError(t, create(map[string]string{"new_branch_name": "x", "old_ref_name": "nope"}), http.StatusNotFound, "")
	for _, bad := range []string{"", "a..b", "-x", "x.lock", "has space", "a:b", strings.Repeat("n", 101)} {
		assertInvalid(t, create(map[string]string{"new_branch_name": bad}), "BranchName")
	}
	assertAPIError(t, create(nil), http.StatusUnprocessableEntity, "")
	assertAPIError(t, f.srv.Do("POST", "/repos/alice/refs/branches", "{", basicAs("alice")...), http.StatusBadRequest, "")
	f.refsBareGit(t, "fsck", "--strict")
}

func TestRefsRenameBranch(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		f := refsSetup(t, false, opts...)
		_, writer := newAccount(t, f.srv, "walt", gitea.VisibleTypePublic)
		write := gitea.AccessModeWrite
		_, err := f.alice.AddCollaborator("alice", "refs", "walt", gitea.AddCollaboratorOption{Permission: &write})
		is.NoErr(err)

		ok, _, err := writer.RenameRepoBranch("alice", "refs", "dev", gitea.RenameRepoBranchOption{Name: "develop"})
		is.NoErr(err)
		is.True(ok)
		is.Equal(f.refsBareGit(t, "rev-parse", "refs/heads/develop"), f.c1)
		is.Equal(f.refsBareGit(t, "for-each-ref", "--format=%(refname)", "refs/heads/dev"), "")

		// Only administrators rename the default branch.
		patch := func(who, branch, name string) testserver.Response {
			return f.srv.Do("PATCH", "/repos/alice/refs/branches/"+branch, map[string]string{"name": name}, basicAs(who)...)
		}
		assertAPIError(t, patch("walt", "main", "trunk"), http.StatusForbidden,
			"User must be a repo or site admin to rename default or protected branches.")
		r := patch("alice", "main", "trunk")
		is.Equal(r.Status, http.StatusNoContent)
		repo, _, err := f.alice.GetRepo("alice", "refs")
		is.NoErr(err)
		is.Equal(repo.DefaultBranch, "trunk") // the database follows
		is.Equal(f.refsBareGit(t, "symbolic-ref", "HEAD"), "refs/heads/trunk")
		is.Equal(f.refsBareGit(t, "rev-parse", "refs/heads/trunk"), f.c2)
		// A clone checks the new default branch out.
		clone := cloneRepo(t, f.srv, "alice", "refs")
		is.Equal(refsGit(t, clone, "symbolic-ref", "--short", "HEAD"), "trunk")

		msg := "Cannot rename a branch using the same name or rename to a branch that already exists."
		assertAPIError(t, patch("alice", "develop", "develop"), http.StatusUnprocessableEntity, msg)
		assertAPIError(t, patch("alice", "develop", "feature/x"), http.StatusUnprocessableEntity, msg)
		assertAPIError(t, patch("alice", "missing", "other"), http.StatusNotFound, "Branch doesn't exist.")
		assertAPIError(t, patch("alice", "develop", "feature"), http.StatusConflict, "The branch with the same name already exists.")
		assertInvalid(t, patch("alice", "develop", "bad..name"), "Name")
		assertInvalid(t, patch("alice", "develop", ""), "Name")
		f.refsBareGit(t, "fsck", "--strict")
	})
}

func TestRefsDeleteBranch(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	f := refsSetup(t, false)

	ok, resp, err := f.alice.DeleteRepoBranch("alice", "refs", "feature/x")
	is.NoErr(err)
	is.True(ok)
	is.Equal(resp.StatusCode, http.StatusNoContent)
	is.Equal(f.refsBareGit(t, "for-each-ref", "--format=%(refname)", "refs/heads"), "refs/heads/dev\nrefs/heads/main")
	ls := gitRun(t, f.work, "ls-remote", "--heads", f.bare)
	is.True(!strings.Contains(ls, "feature/x"))

	assertAPIError(t, f.srv.Do("DELETE", "/repos/alice/refs/branches/feature/x", nil, basicAs("alice")...), http.StatusNotFound, "")
	assertAPIError(t, f.srv.Do("DELETE", "/repos/alice/refs/branches/main", nil, basicAs("alice")...),
		http.StatusForbidden, "can not delete default branch")
	is.Equal(f.refsBareGit(t, "rev-parse", "refs/heads/main"), f.c2)
}

func TestRefsTags(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	f := refsSetup(t, false)
	refsGit(t, f.work, "tag", "-a", "-m", "old", "ann-old", f.c1)
	refsGit(t, f.work, "tag", "light/z", f.c2)
	refsGit(t, f.work, "push", "-q", f.bare, "refs/tags/*:refs/tags/*")

	want := strings.Split(f.refsBareGit(t, "for-each-ref", "--sort=-*creatordate", "--format=%(refname:strip=2)", "refs/tags"), "\n")
	var got []string
	for page := 1; ; page++ {
		list, resp, err := f.alice.ListRepoTags("alice", "refs", gitea.ListRepoTagsOptions{ListOptions: gitea.ListOptions{Page: page, PageSize: 3}})
		is.NoErr(err)
		is.Equal(resp.Header.Get("X-Total-Count"), "4")
		if len(list) == 0 {
			break
		}
		for _, tag := range list {
			got = append(got, tag.Name)
		}
	}
	is.Equal(got, want) // Gitea's order: git for-each-ref --sort=-*creatordate

	v2, _, err := f.alice.GetTag("alice", "refs", "v2")
	is.NoErr(err)
	is.Equal(v2.ID, f.refsBareGit(t, "rev-parse", "refs/tags/v2"))
	is.Equal(v2.Message, "Version two")
	is.Equal(v2.Commit.SHA, f.c2)
	is.Equal(v2.ZipballURL, f.srv.URL+"/alice/refs/archive/v2.zip")
	is.Equal(v2.TarballURL, f.srv.URL+"/alice/refs/archive/v2.tar.gz")
	v1, _, err := f.alice.GetTag("alice", "refs", "v1")
	is.NoErr(err)
	is.Equal(v1.ID, f.c1) // a lightweight tag's id is its commit's
	is.Equal(v1.Commit.SHA, f.c1)
	slashed, _, err := f.alice.GetTag("alice", "refs", "light/z")
	is.NoErr(err)
	is.Equal(slashed.Commit.SHA, f.c2)
	assertAPIError(t, f.srv.Do("GET", "/repos/alice/refs/tags/nope", nil), http.StatusNotFound, "tag doesn't exist: nope")

	// The annotated tag object.
	at, _, err := f.alice.GetAnnotatedTag("alice", "refs", v2.ID)
	is.NoErr(err)
	is.Equal(at.Tag, "v2")
	is.Equal(at.SHA, v2.ID)
	is.Equal(at.Message, "Version two\n")
	is.Equal(at.Tagger.Email, "alice@example.com")
	is.Equal(at.Object.SHA, f.c2)
	is.Equal(at.Object.Type, "commit")
	is.Equal(at.URL, f.srv.URL+"/api/v1/repos/alice/refs/git/tags/"+v2.ID)
	assertAPIError(t, f.srv.Do("GET", "/repos/alice/refs/git/tags/"+f.c1, nil), http.StatusBadRequest, "")
	assertAPIError(t, f.srv.Do("GET", "/repos/alice/refs/git/tags/xyz", nil), http.StatusBadRequest, "")
	assertAPIError(t, f.srv.Do("GET", "/repos/alice/refs/git/tags/"+strings.Repeat("b", 40), nil), http.StatusNotFound, "")
}

func TestRefsCreateAndDeleteTags(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	f := refsSetup(t, false)

	light, resp, err := f.alice.CreateTag("alice", "refs", gitea.CreateTagOption{TagName: "light", Target: "dev"})
	is.NoErr(err)
	is.Equal(resp.StatusCode, http.StatusCreated)
	is.Equal(light.ID, f.c1)
	is.Equal(f.refsBareGit(t, "cat-file", "-t", "refs/tags/light"), "commit")

	ann, _, err := f.alice.CreateTag("alice", "refs", gitea.CreateTagOption{TagName: "release/v3", Message: "Release three\n\nNotes."})
	is.NoErr(err)
	is.Equal(ann.Message, "Release three\n\nNotes.")
	is.Equal(ann.Commit.SHA, f.c2) // the default branch
	is.Equal(ann.ID, f.refsBareGit(t, "rev-parse", "refs/tags/release/v3"))
	obj := f.refsBareGit(t, "cat-file", "-p", ann.ID)
	is.True(strings.HasPrefix(obj, "object "+f.c2+"\ntype commit\ntag release/v3\ntagger alice <alice@example.com> "))
	is.True(strings.HasSuffix(obj, "\n\nRelease three\n\nNotes."))
	f.refsBareGit(t, "fsck", "--strict")

	fromTag, _, err := f.alice.CreateTag("alice", "refs", gitea.CreateTagOption{TagName: "again", Target: "v1"})
	is.NoErr(err)
	is.Equal(fromTag.Commit.SHA, f.c1)
	fromSHA, _, err := f.alice.CreateTag("alice", "refs", gitea.CreateTagOption{TagName: "sha", Target: f.c1[:8]})
	is.NoErr(err)
	is.Equal(fromSHA.ID, f.c1)

	create := func(body map[string]string) testserver.Response {
		return f.srv.Do("POST", "/repos/alice/refs/tags", body, basicAs("alice")...)
	}
	assertAPIError(t, create(map[string]string{"tag_name": "v1"}), http.StatusConflict, "tag already exists [name: v1]")
	assertAPIError(t, create(map[string]string{"tag_name": "release"}), http.StatusConflict, "")
	assertAPIError(t, create(map[string]string{"tag_name": "x", "target": "nope"}), http.StatusNotFound, "target not found: nope")
	for _, bad := range []string{"", "a..b", "x.lock", "a b", strings.Repeat("t", 101)} {
		assertInvalid(t, create(map[string]string{"tag_name": bad}), "TagName")
	}

	_, err = f.alice.DeleteTag("alice", "refs", "release/v3")
	is.NoErr(err)
	is.True(!strings.Contains(gitRun(t, f.work, "ls-remote", "--tags", f.bare), "release/v3"))
	assertAPIError(t, f.srv.Do("DELETE", "/repos/alice/refs/tags/release/v3", nil, basicAs("alice")...), http.StatusNotFound, "")
	assertAPIError(t, f.srv.Do("GET", "/repos/alice/refs/tags/release/v3", nil), http.StatusNotFound, "")
}

func TestRefsGitRefs(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	f := refsSetup(t, false)
	forEachRef := func(prefix string) []string {
		var out []string
		for _, line := range strings.Split(f.refsBareGit(t, "for-each-ref", "--format=%(refname) %(objectname) %(objecttype)"), "\n") {
			if strings.HasPrefix(line, prefix) {
				out = append(out, line)
			}
		}
		return out
	}
	render := func(refs []*gitea.Reference) []string {
		var out []string
		for _, r := range refs {
			out = append(out, r.Ref+" "+r.Object.SHA+" "+r.Object.Type)
		}
		return out
	}

	all, _, err := f.alice.ListAllGitRefs("alice", "refs")
	is.NoErr(err)
	is.Equal(render(all), forEachRef(""))
	is.True(slices.ContainsFunc(all, func(r *gitea.Reference) bool { return r.Ref == "refs/notes/commits" }))

	for _, filter := range []string{"heads", "heads/", "tags", "tags/v", "heads/feature"} {
		refs, _, err := f.alice.GetRepoRefs("alice", "refs", filter)
		is.NoErr(err)
		is.Equal(render(refs), forEachRef("refs/"+filter))
	}

	// A single exact match is an object, not a list, as in Gitea.
	r := f.srv.Do("GET", "/repos/alice/refs/git/refs/tags/v2", nil)
	is.Equal(r.Status, http.StatusOK)
	var one gitea.Reference
	r.Decode(t, &one)
	is.Equal(one.Ref, "refs/tags/v2")
	is.Equal(one.Object.Type, "tag")
	is.Equal(one.Object.SHA, f.refsBareGit(t, "rev-parse", "refs/tags/v2"))
	is.Equal(one.Object.URL, f.srv.URL+"/api/v1/repos/alice/refs/git/tags/"+one.Object.SHA)
	is.Equal(one.URL, f.srv.URL+"/api/v1/repos/alice/refs/git/refs/tags/v2")
	ref, _, err := f.alice.GetRepoRef("alice", "refs", "heads/feature/x")
	is.NoErr(err)
	is.Equal(ref.Object.SHA, f.c2)
	is.Equal(ref.Object.URL, f.srv.URL+"/api/v1/repos/alice/refs/git/commits/"+f.c2)

	// A prefix matching one reference that is not named exactly is still a list.
	r = f.srv.Do("GET", "/repos/alice/refs/git/refs/heads/fea", nil)
	is.Equal(r.Status, http.StatusOK)
	var list []gitea.Reference
	r.Decode(t, &list)
	is.Equal(len(list), 1)

	assertAPIError(t, f.srv.Do("GET", "/repos/alice/refs/git/refs/nothing", nil), http.StatusNotFound, "")
}

func TestRefsNotes(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	f := refsSetup(t, false)
	notesHead := f.refsBareGit(t, "rev-parse", "refs/notes/commits")

	for _, ref := range []string{f.c2, "main", f.c2[:10]} {
		n, _, err := f.alice.GetRepoNote("alice", "refs", ref, gitea.GetRepoNoteOptions{})
		is.NoErr(err)
		is.Equal(n.Message, "reviewed\n")
		// The commit is the one of the notes history that wrote this note, as in Gitea.
		is.Equal(n.Commit.SHA, notesHead)
		is.Equal(n.Commit.RepoCommit.Author.Email, "alice@example.com")
		is.Equal(n.Commit.Author.UserName, "alice")
		is.Equal(len(n.Commit.Files), 1)
		is.Equal(n.Commit.Files[0].Filename, f.c2)
		is.Equal(n.Commit.Stats.Additions, 1)
		is.True(n.Commit.RepoCommit.Verification != nil)
	}
	no := false
	n, _, err := f.alice.GetRepoNote("alice", "refs", "main", gitea.GetRepoNoteOptions{Verification: &no, Files: &no})
	is.NoErr(err)
	is.True(n.Commit.RepoCommit.Verification == nil)
	is.Equal(len(n.Commit.Files), 0)

	assertAPIError(t, f.srv.Do("GET", "/repos/alice/refs/git/notes/"+f.c1, nil), http.StatusNotFound, "")
	assertAPIError(t, f.srv.Do("GET", "/repos/alice/refs/git/notes/nope", nil), http.StatusNotFound, "")
	assertAPIError(t, f.srv.Do("GET", "/repos/alice/refs/git/notes/a..b", nil), http.StatusUnprocessableEntity, "no valid ref or sha: a..b")
	assertAPIError(t, f.srv.Do("GET", "/repos/alice/refs/git/notes/main?files=maybe", nil), http.StatusBadRequest, "")
}

func TestRefsAccess(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	f := refsSetup(t, true)
	newAccount(t, f.srv, "reader", gitea.VisibleTypePublic)
	read := gitea.AccessModeRead
	_, err := f.alice.AddCollaborator("alice", "refs", "reader", gitea.AddCollaboratorOption{Permission: &read})
	is.NoErr(err)
	v2 := f.refsBareGit(t, "rev-parse", "refs/tags/v2")

	reads := []string{"/branches", "/branches/main", "/tags", "/tags/v1", "/git/refs", "/git/refs/heads",
		"/git/tags/" + v2, "/git/notes/main"}
	for _, path := range reads {
		// Anonymous callers do not learn that a private repository exists.
		assertAPIError(t, f.srv.Do("GET", "/repos/alice/refs"+path, nil), http.StatusNotFound, "")
		is.Equal(f.srv.Do("GET", "/repos/alice/refs"+path, nil, basicAs("reader")...).Status, http.StatusOK) // path
	}
	// A reader sees branches as not writable.
	var b gitea.Branch
	f.srv.Do("GET", "/repos/alice/refs/branches/main", nil, basicAs("reader")...).Decode(t, &b)
	is.True(!b.UserCanPush && !b.UserCanMerge)

	type write struct {
		method, path string
		body         any
	}
	writes := []write{
		{"POST", "/branches", map[string]string{"new_branch_name": "x"}},
		{"PATCH", "/branches/dev", map[string]string{"name": "y"}},
		{"DELETE", "/branches/dev", nil},
		{"POST", "/tags", map[string]string{"tag_name": "t"}},
		{"DELETE", "/tags/v1", nil},
	}
	for _, w := range writes {
		assertAPIError(t, f.srv.Do(w.method, "/repos/alice/refs"+w.path, w.body, basicAs("reader")...), http.StatusForbidden, "")
		assertAPIError(t, f.srv.Do(w.method, "/repos/alice/refs"+w.path, w.body), http.StatusNotFound, "")
	}

	// Archived: every write is locked, reads go on.
	yes := true
	_, _, err = f.alice.EditRepo("alice", "refs", gitea.EditRepoOption{Archived: &yes})
	is.NoErr(err)
	for _, w := range writes {
		assertAPIError(t, f.srv.Do(w.method, "/repos/alice/refs"+w.path, w.body, basicAs("alice")...), http.StatusLocked, "")
	}
	is.Equal(f.srv.Do("GET", "/repos/alice/refs/branches", nil, basicAs("alice")...).Status, http.StatusOK)
	is.Equal(f.refsBareGit(t, "for-each-ref", "--format=%(refname)", "refs/heads"), "refs/heads/dev\nrefs/heads/feature/x\nrefs/heads/main")
}

func TestRefsAnonymousWriteOnPublicNeedsSignIn(t *testing.T) {
	t.Parallel()
	f := refsSetup(t, false)
	assertAPIError(t, f.srv.Do("POST", "/repos/alice/refs/branches", map[string]string{"new_branch_name": "x"}), http.StatusUnauthorized, "")
	assertAPIError(t, f.srv.Do("DELETE", "/repos/alice/refs/tags/v1", nil), http.StatusUnauthorized, "")
}
