package test

import (
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/test/testserver"
)

// changesB64 is s as the contents API takes it.
func changesB64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

// changesGit runs git on owner/name's bare repository and returns its trimmed output.
func changesGit(t *testing.T, srv *testserver.Server, owner, name string, args ...string) string {
	t.Helper()
	return strings.TrimSpace(gitRun(t, repoDir(srv, owner, name), args...))
}

// changesRefs lists every reference of the repository with its target.
func changesRefs(t *testing.T, srv *testserver.Server, owner, name string) string {
	t.Helper()
	return changesGit(t, srv, owner, name, "for-each-ref", "--format=%(refname) %(objectname)")
}

// changesFsck checks the bare repository with git's strictest check.
func changesFsck(t *testing.T, srv *testserver.Server, owner, name string) {
	t.Helper()
	changesGit(t, srv, owner, name, "fsck", "--strict", "--no-dangling")
}

// changesFilesResponse is Gitea's FilesResponse (the SDK has no type for it).
type changesFilesResponse struct {
	Files        []*gitea.ContentsResponse        `json:"files"`
	Commit       *gitea.FileCommitResponse        `json:"commit"`
	Verification *gitea.PayloadCommitVerification `json:"verification"`
}

// changesRepo makes alice (and her client) with an auto-initialised public
// repository "notes" holding README.md and LICENSE on main.
func changesRepo(t *testing.T, srv *testserver.Server) *gitea.Client {
	t.Helper()
	_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	createRepo(t, alice, gitea.CreateRepoOption{Name: "notes", AutoInit: true, Readme: "Default", License: "MIT"})
	return alice
}

func TestChangesCreateUpdateDeleteWithSDK(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := testserver.Start(t)
	alice := changesRepo(t, srv)
	git := func(args ...string) string { return changesGit(t, srv, "alice", "notes", args...) }
	start := git("rev-parse", "main")

	// Create, in new directories and with a unicode name.
	path := "docs/guide/ünï cödé.md"
	fr, resp, err := alice.CreateFile("alice", "notes", path, gitea.CreateFileOptions{Content: changesB64("hello\n")})
	is.NoErr(err)
	is.Equal(resp.StatusCode, http.StatusCreated)
	head := git("rev-parse", "main")
	is.True(head != start)
	is.Equal(fr.Commit.SHA, head)
	is.Equal(len(fr.Commit.Parents), 1)
	is.Equal(fr.Commit.Parents[0].SHA, start)
	is.Equal(fr.Commit.Message, "Add "+path+"\n")
	is.Equal(fr.Commit.Author.Name, "alice")
	is.Equal(fr.Commit.Author.Email, "alice@example.com")
	is.Equal(fr.Commit.Tree.SHA, git("rev-parse", "main^{tree}"))
	is.Equal(fr.Commit.URL, srv.API+"/repos/alice/notes/git/commits/"+head)
	is.Equal(fr.Verification.Verified, false)
	is.Equal(fr.Verification.Reason, "gpg.error.not_signed_commit")
	is.Equal(fr.Content.Path, path)
	is.Equal(fr.Content.Name, "ünï cödé.md")
	is.Equal(fr.Content.Type, "file")
	is.Equal(fr.Content.SHA, git("rev-parse", "main:"+path))
	is.Equal(*fr.Content.Content, changesB64("hello\n"))
	is.Equal(*fr.Content.LastCommitSha, head)
	is.Equal(git("show", "main:"+path), "hello")
	is.Equal(git("log", "-1", "--format=%an <%ae>|%cn <%ce>|%s"), "alice <alice@example.com>|alice <alice@example.com>|Add "+path)

	// Update with the current sha, a message, identities, dates and signoff.
	authorDate := time.Date(2021, 3, 4, 5, 6, 7, 0, time.UTC)
	committerDate := time.Date(2022, 3, 4, 5, 6, 7, 0, time.UTC)
	fr, resp, err = alice.UpdateFile("alice", "notes", path, gitea.UpdateFileOptions{
		SHA: fr.Content.SHA, Content: changesB64("hello again\n"),
		FileOptions: gitea.FileOptions{
			Message:   "Reword the guide",
			Author:    gitea.Identity{Name: "Ann Author", Email: "ann@example.com"},
			Committer: gitea.Identity{Name: "Cy Committer", Email: "cy@example.com"},
			Dates:     gitea.CommitDateOptions{Author: authorDate, Committer: committerDate},
			Signoff:   true,
		},
	})
	is.NoErr(err)
	is.Equal(resp.StatusCode, http.StatusOK)
	is.Equal(git("log", "-1", "--format=%an <%ae> %aI|%cn <%ce> %cI"),
		"Ann Author <ann@example.com> 2021-03-04T05:06:07+00:00|Cy Committer <cy@example.com> 2022-03-04T05:06:07+00:00")
	is.Equal(git("log", "-1", "--format=%B"), "Reword the guide\n\nSigned-off-by: Cy Committer <cy@example.com>")
	is.Equal(fr.Commit.Author.Date, "2021-03-04T05:06:07Z")
	is.Equal(fr.Commit.Committer.Name, "Cy Committer")
	is.Equal(git("show", "main:"+path), "hello again")

	// Only an author: it commits too (Gitea's rule).
	fr, _, err = alice.UpdateFile("alice", "notes", path, gitea.UpdateFileOptions{
		SHA: fr.Content.SHA, Content: changesB64("third\n"),
		FileOptions: gitea.FileOptions{Author: gitea.Identity{Name: "Ann Author", Email: "ann@example.com"}},
	})
	is.NoErr(err)
	is.Equal(git("log", "-1", "--format=%an|%cn|%s"), "Ann Author|Ann Author|Update "+path)

	// Update moving the file: from_path with its sha.
	fr, resp, err = alice.UpdateFile("alice", "notes", "moved.md", gitea.UpdateFileOptions{
		SHA: fr.Content.SHA, FromPath: path, Content: changesB64("moved\n"),
	})
	is.NoErr(err)
	is.Equal(resp.StatusCode, http.StatusOK)
	is.Equal(fr.Content.Path, "moved.md")
	is.Equal(git("ls-tree", "-r", "--name-only", "main"), "LICENSE\nREADME.md\nmoved.md")
	is.Equal(git("show", "main:moved.md"), "moved")

	// Delete with the sha: Gitea's FileDeleteResponse, content null.
	r := srv.Do("DELETE", "/repos/alice/notes/contents/moved.md", map[string]any{"sha": fr.Content.SHA}, basicAs("alice")...)
	is.Equal(r.Status, http.StatusOK)
	var del gitea.FileDeleteResponse
	r.Decode(t, &del)
	is.True(del.Content == nil)
	is.True(strings.Contains(string(r.Body), `"content":null`))
	is.Equal(del.Commit.SHA, git("rev-parse", "main"))
	is.Equal(del.Commit.Message, "Delete moved.md\n")
	is.Equal(git("ls-tree", "-r", "--name-only", "main"), "LICENSE\nREADME.md")
	is.Equal(git("rev-list", "--count", "main"), "6")

	// What the API wrote, a clone sees.
	work := cloneRepo(t, srv, "alice", "notes")
	is.Equal(strings.TrimSpace(gitRun(t, work, "log", "--format=%s")), strings.Join([]string{
		"Delete moved.md", "Update moved.md", "Update " + path, "Reword the guide", "Add " + path, "Initial commit",
	}, "\n"))
	_, err = os.Stat(filepath.Join(work, "docs"))
	is.True(os.IsNotExist(err)) // the emptied directory is gone
	changesFsck(t, srv, "alice", "notes")

	// The SDK's DeleteFile works too.
	fr, _, err = alice.CreateFile("alice", "notes", "tmp.txt", gitea.CreateFileOptions{Content: changesB64("x")})
	is.NoErr(err)
	_, err = alice.DeleteFile("alice", "notes", "tmp.txt", gitea.DeleteFileOptions{SHA: fr.Content.SHA})
	is.NoErr(err)
}

func TestChangesPutWithoutShaCreates(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := testserver.Start(t)
	changesRepo(t, srv)
	body := map[string]any{"content": changesB64("new\n"), "message": "via put"}
	r := srv.Do("PUT", "/repos/alice/notes/contents/put.txt", body, basicAs("alice")...)
	is.Equal(r.Status, http.StatusCreated)
	var fr gitea.FileResponse
	r.Decode(t, &fr)
	is.Equal(fr.Content.Path, "put.txt")
	is.Equal(changesGit(t, srv, "alice", "notes", "show", "main:put.txt"), "new")

	// Again without a sha: the file exists now.
	before := changesRefs(t, srv, "alice", "notes")
	r = srv.Do("PUT", "/repos/alice/notes/contents/put.txt", body, basicAs("alice")...)
	assertAPIError(t, r, http.StatusUnprocessableEntity, "TreePath: repository file already exists [path: put.txt]")
	is.Equal(changesRefs(t, srv, "alice", "notes"), before)
}

func TestChangesChangeFilesInOneCommit(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := testserver.Start(t)
	alice := changesRepo(t, srv)
	git := func(args ...string) string { return changesGit(t, srv, "alice", "notes", args...) }
	start := git("rev-parse", "main")
	readme, license := git("rev-parse", "main:README.md"), git("rev-parse", "main:LICENSE")

	_, resp, err := alice.ChangeFiles("alice", "notes", gitea.ChangeFilesOptions{
		Files: []*gitea.ChangeFileOperation{
			{Operation: "create", Path: "src/main.go", Content: changesB64("package main\n")},
			{Operation: "update", Path: "README.md", Content: changesB64("# notes\n"), SHA: readme},
			{Operation: "delete", Path: "LICENSE", SHA: license},
			{Operation: "upload", Path: "src/data.bin", Content: base64.StdEncoding.EncodeToString([]byte{0, 1, 2, 0xff})},
		},
	})
	is.NoErr(err)
	is.Equal(resp.StatusCode, http.StatusCreated)
	is.Equal(git("rev-list", "--count", start+"..main"), "1") // one commit
	is.Equal(git("log", "-1", "--format=%B"), "Add src/main.go\nUpdate README.md, src/data.bin\nDelete LICENSE")
	is.Equal(git("show", "--format=", "--name-status", "main"), "D\tLICENSE\nM\tREADME.md\nA\tsrc/data.bin\nA\tsrc/main.go")
	is.Equal(git("show", "main:src/main.go"), "package main")

	// The body is a FilesResponse: one entry per change, null for the deletion.
	r := srv.Do("POST", "/repos/alice/notes/contents", map[string]any{
		"message": "rename and more",
		"branch":  "main", "new_branch": "feature/x",
		"files": []map[string]any{
			{"operation": "rename", "path": "lib/main.go", "from_path": "src/main.go", "sha": git("rev-parse", "main:src/main.go")},
			{"operation": "delete", "path": "README.md", "sha": git("rev-parse", "main:README.md")},
		},
	}, basicAs("alice")...)
	is.Equal(r.Status, http.StatusCreated)
	var fr changesFilesResponse
	r.Decode(t, &fr)
	is.Equal(len(fr.Files), 2)
	is.Equal(fr.Files[0].Path, "lib/main.go")
	is.Equal(*fr.Files[0].Content, changesB64("package main\n")) // a rename keeps the content
	is.True(fr.Files[1] == nil)
	is.True(strings.Contains(*fr.Files[0].URL, "?ref=feature%2Fx"))
	is.Equal(fr.Commit.SHA, git("rev-parse", "feature/x"))
	is.Equal(git("rev-parse", "feature/x^"), git("rev-parse", "main")) // main did not move
	is.Equal(git("ls-tree", "-r", "--name-only", "feature/x"), "lib/main.go\nsrc/data.bin")
	is.Equal(git("show", "-M", "--format=", "--name-status", "feature/x"), "D\tREADME.md\nR100\tsrc/main.go\tlib/main.go")
	changesFsck(t, srv, "alice", "notes")
}

func TestChangesApplyDiffPatch(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := testserver.Start(t)
	alice := changesRepo(t, srv)
	start := changesGit(t, srv, "alice", "notes", "rev-parse", "main")

	// The patch is what git diff makes in a clone; git's own tree is the oracle.
	work := cloneRepo(t, srv, "alice", "notes")
	is.NoErr(os.WriteFile(filepath.Join(work, "README.md"), []byte("# notes\n\npatched\n"), 0o644))
	is.NoErr(os.WriteFile(filepath.Join(work, "added.txt"), []byte("added\n"), 0o644))
	is.NoErr(os.Remove(filepath.Join(work, "LICENSE")))
	gitRun(t, work, "add", "-A")
	patch := gitRun(t, work, "diff", "--cached")
	want := strings.TrimSpace(gitRun(t, work, "write-tree"))

	fr, resp, err := alice.ApplyRepoDiffPatch("alice", "notes", gitea.ApplyDiffPatchFileOptions{
		Content: patch, FileOptions: gitea.FileOptions{Message: "Apply my patch"},
	})
	is.NoErr(err)
	is.Equal(resp.StatusCode, http.StatusCreated)
	is.True(fr.Content == nil)
	is.Equal(fr.Commit.Tree.SHA, want)
	is.Equal(fr.Commit.Parents[0].SHA, start)
	is.Equal(changesGit(t, srv, "alice", "notes", "rev-parse", "main^{tree}"), want)
	is.Equal(changesGit(t, srv, "alice", "notes", "log", "-1", "--format=%s"), "Apply my patch")
	changesFsck(t, srv, "alice", "notes")

	// The default message is Gitea's.
	r := srv.Do("POST", "/repos/alice/notes/diffpatch", map[string]any{
		"content": "diff --git a/x.txt b/x.txt\nnew file mode 100644\n--- /dev/null\n+++ b/x.txt\n@@ -0,0 +1 @@\n+x\n",
	}, basicAs("alice")...)
	is.Equal(r.Status, http.StatusCreated)
	is.Equal(changesGit(t, srv, "alice", "notes", "log", "-1", "--format=%s"), "apply-patch")

	// The same patch again no longer applies: 409, nothing moved.
	before := changesRefs(t, srv, "alice", "notes")
	r = srv.Do("POST", "/repos/alice/notes/diffpatch", map[string]any{"content": patch}, basicAs("alice")...)
	is.Equal(r.Status, http.StatusConflict)
	is.True(strings.HasPrefix(r.Message(), "patch does not apply: "))
	is.Equal(changesRefs(t, srv, "alice", "notes"), before)
}

func TestChangesBadInputChangesNothing(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t, testserver.WithSettings(func(s *site.Settings) { s.MaxFileBytes = 1024 }))
	changesRepo(t, srv)
	git := func(args ...string) string { return changesGit(t, srv, "alice", "notes", args...) }
	git("branch", "taken", "main")
	readme := git("rev-parse", "main:README.md")
	stale := strings.Repeat("0", 40)
	big := changesB64(strings.Repeat("x", 1025))
	c := "/repos/alice/notes/contents/"
	cases := []struct {
		name, method, path string
		body               any
		status             int
		msg                string
	}{
		{"parent segment", "POST", c + "%2E%2E%2Fescape.txt", map[string]any{"content": ""}, 422, "TreePath: path has a '..' segment [path: ../escape.txt]"},
		{"nested parent", "POST", c + "a%2F..%2F..%2Fb", map[string]any{"content": ""}, 422, "TreePath: path has a '..' segment [path: a/../../b]"},
		{"absolute", "POST", c + "%2Fetc%2Fpasswd", map[string]any{"content": ""}, 422, "TreePath: path is absolute [path: /etc/passwd]"},
		{"empty segment", "POST", c + "a%2F%2Fb", map[string]any{"content": ""}, 422, "TreePath: path has an empty segment [path: a//b]"},
		{"nul", "POST", c + "a%00b", map[string]any{"content": ""}, 400, "malformed path"},
		{"not utf-8", "POST", c + "a%FFb", map[string]any{"content": ""}, 422, `TreePath: path is not valid UTF-8 [path: a\xffb]`},
		{"dot git", "POST", c + ".git/config", map[string]any{"content": changesB64("[core]\n")}, 422, "TreePath: path has a .git component [path: .git/config]"},
		{"dot git any case", "PUT", c + "sub/.GiT/hooks/post-checkout", map[string]any{"content": ""}, 422, "TreePath: path has a .git component [path: sub/.GiT/hooks/post-checkout]"},
		{"no path", "POST", c, map[string]any{"content": ""}, 422, "TreePath: Required"},
		{"bad base64", "POST", c + "x.txt", map[string]any{"content": "!!notbase64"}, 422, "Content: illegal base64 data at input byte 0"},
		{"under a file", "POST", c + "README.md/x", map[string]any{"content": ""}, 422, "TreePath: a file exists where you're trying to create a subdirectory [path: README.md]"},
		{"where a file is", "POST", c + "README.md", map[string]any{"content": ""}, 422, "TreePath: repository file already exists [path: README.md]"},
		{"stale sha", "PUT", c + "README.md", map[string]any{"content": "", "sha": stale}, 422, "SHA: sha does not match [given: " + stale + ", expected: " + readme + "]"},
		{"missing sha on move", "PUT", c + "b.md", map[string]any{"content": "", "from_path": "README.md"}, 422, "SHA: the SHA of the current file must be given to update it [path: README.md]"},
		{"missing sha on delete", "DELETE", c + "README.md", map[string]any{}, 422, "SHA: the SHA of the current file must be given to delete it [path: README.md]"},
		{"delete absent", "DELETE", c + "nope.md", map[string]any{"sha": readme}, 404, "repository file does not exist [path: nope.md]"},
		{"absent branch", "POST", c + "x.txt", map[string]any{"content": "", "branch": "nope"}, 404, "branch does not exist [name: nope]"},
		{"invalid branch", "POST", c + "x.txt", map[string]any{"content": "", "branch": "a..b"}, 422, ""},
		{"existing new branch", "POST", c + "x.txt", map[string]any{"content": "", "new_branch": "taken"}, 422, "NewBranchName: branch already exists [name: taken]"},
		{"oversize", "POST", c + "big.txt", map[string]any{"content": big}, 413, "file big.txt is 1025 bytes, over the limit of 1024 bytes"},
		{"bad date", "POST", c + "x.txt", map[string]any{"content": "", "dates": map[string]any{"author": "yesterday"}}, 422, "Dates: must be an RFC 3339 date"},
		{"bad author", "POST", c + "x.txt", map[string]any{"content": "", "author": map[string]any{"name": "A", "email": "nope"}}, 422, "Author: invalid email address"},
		{"malformed json", "POST", c + "x.txt", "{", 400, ""},
		{"no files", "POST", "/repos/alice/notes/contents", map[string]any{"files": []any{}}, 422, "Files: Required"},
		{"bad operation", "POST", "/repos/alice/notes/contents", map[string]any{"files": []map[string]any{{"operation": "chmod", "path": "a"}}}, 422, ""},
		{"bad path in files", "POST", "/repos/alice/notes/contents", map[string]any{"files": []map[string]any{{"operation": "create", "path": ".git/hooks/x"}}}, 422, "TreePath: path has a .git component [path: .git/hooks/x]"},
		{"nul in files", "POST", "/repos/alice/notes/contents", map[string]any{"files": []map[string]any{{"operation": "create", "path": "a\x00b"}}}, 422, "Path: must not contain NUL characters"},
		{"one bad file stops all", "POST", "/repos/alice/notes/contents", map[string]any{"files": []map[string]any{
			{"operation": "create", "path": "fine.txt"}, {"operation": "update", "path": "README.md", "sha": stale}}}, 422, ""},
		{"patch not a diff", "POST", "/repos/alice/notes/diffpatch", map[string]any{"content": "hello"}, 422, ""},
		{"patch into .git", "POST", "/repos/alice/notes/diffpatch", map[string]any{
			"content": "diff --git a/.git/config b/.git/config\nnew file mode 100644\n--- /dev/null\n+++ b/.git/config\n@@ -0,0 +1 @@\n+x\n"}, 422,
			"Content: the patch touches a path that may not be written [path: .git/config]"},
		{"patch absent branch", "POST", "/repos/alice/notes/diffpatch", map[string]any{"branch": "nope",
			"content": "diff --git a/x b/x\nnew file mode 100644\n--- /dev/null\n+++ b/x\n@@ -0,0 +1 @@\n+x\n"}, 404, "branch does not exist [name: nope]"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			before := changesRefs(t, srv, "alice", "notes")
			r := srv.Do(tc.method, tc.path, tc.body, basicAs("alice")...)
			assertAPIError(t, r, tc.status, tc.msg)
			is.Equal(changesRefs(t, srv, "alice", "notes"), before)
			changesFsck(t, srv, "alice", "notes")
		})
	}
	_, err := os.Stat(filepath.Join(srv.DataDir, "repos", "alice", "escape.txt"))
	is.New(t).True(os.IsNotExist(err))
}

func TestChangesAccess(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	newAccount(t, srv, "rita", gitea.VisibleTypePublic)
	newAccount(t, srv, "olga", gitea.VisibleTypePublic)
	createRepo(t, alice, gitea.CreateRepoOption{Name: "pub", AutoInit: true})
	createRepo(t, alice, gitea.CreateRepoOption{Name: "priv", AutoInit: true, Private: true})
	createRepo(t, alice, gitea.CreateRepoOption{Name: "old", AutoInit: true})
	read := gitea.AccessModeRead
	for _, repo := range []string{"pub", "priv"} {
		_, err := alice.AddCollaborator("alice", repo, "rita", gitea.AddCollaboratorOption{Permission: &read})
		if err != nil {
			t.Fatal(err)
		}
	}
	archived := true
	if _, _, err := alice.EditRepo("alice", "old", gitea.EditRepoOption{Archived: &archived}); err != nil {
		t.Fatal(err)
	}
	routes := []struct {
		method, path string
		body         any
	}{
		{"POST", "/contents/new.txt", map[string]any{"content": ""}},
		{"PUT", "/contents/README.md", map[string]any{"content": "", "sha": strings.Repeat("a", 40)}},
		{"DELETE", "/contents/README.md", map[string]any{"sha": strings.Repeat("a", 40)}},
		{"POST", "/contents", map[string]any{"files": []map[string]any{{"operation": "create", "path": "x"}}}},
		{"POST", "/diffpatch", map[string]any{"content": "diff --git a/x b/x\n"}},
	}
	cases := []struct {
		who, repo string
		status    int
	}{
		{"", "pub", http.StatusUnauthorized},
		{"", "priv", http.StatusNotFound},
		{"rita", "pub", http.StatusForbidden},  // a reader
		{"rita", "priv", http.StatusForbidden}, // a reader
		{"olga", "pub", http.StatusForbidden},  // a stranger on a public repository
		{"olga", "priv", http.StatusNotFound},  // a stranger on a private one
		{"alice", "old", http.StatusLocked},    // archived
	}
	for _, rt := range routes {
		for _, c := range cases {
			t.Run(fmt.Sprintf("%s %s as %q on %s", rt.method, rt.path, c.who, c.repo), func(t *testing.T) {
				is := is.New(t)
				var hdr []string
				if c.who != "" {
					hdr = basicAs(c.who)
				}
				before := changesRefs(t, srv, "alice", c.repo)
				r := srv.Do(rt.method, "/repos/alice/"+c.repo+rt.path, rt.body, hdr...)
				is.Equal(r.Status, c.status)
				is.Equal(changesRefs(t, srv, "alice", c.repo), before)
			})
		}
	}
	// A wrong method on the contents paths lists the ones allowed.
	r := srv.Do("PATCH", "/repos/alice/pub/contents/README.md", nil, basicAs("alice")...)
	is.New(t).Equal(r.Status, http.StatusMethodNotAllowed)
	is.New(t).Equal(r.Header.Get("Allow"), "DELETE, GET, POST, PUT")
}

func TestChangesEmptyRepository(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		srv := testserver.Start(t, opts...)
		_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
		createRepo(t, alice, gitea.CreateRepoOption{Name: "blank"})
		createRepo(t, alice, gitea.CreateRepoOption{Name: "other"})
		repo, _, err := alice.GetRepo("alice", "blank")
		is.NoErr(err)
		is.True(repo.Empty)

		// Nothing to delete yet.
		r := srv.Do("DELETE", "/repos/alice/blank/contents/a.txt", map[string]any{"sha": strings.Repeat("a", 40)}, basicAs("alice")...)
		is.Equal(r.Status, http.StatusNotFound)

		// The first write creates the default branch.
		fr, resp, err := alice.CreateFile("alice", "blank", "first.txt", gitea.CreateFileOptions{Content: changesB64("first\n")})
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusCreated)
		is.Equal(len(fr.Commit.Parents), 0)
		is.Equal(changesGit(t, srv, "alice", "blank", "rev-parse", "main"), fr.Commit.SHA)
		repo, _, err = alice.GetRepo("alice", "blank")
		is.NoErr(err)
		is.True(!repo.Empty)
		is.Equal(repo.DefaultBranch, "main")
		work := cloneRepo(t, srv, "alice", "blank")
		data, err := os.ReadFile(filepath.Join(work, "first.txt"))
		is.NoErr(err)
		is.Equal(string(data), "first\n")
		changesFsck(t, srv, "alice", "blank")

		// A first write to another branch makes it the default branch, as in Gitea.
		_, _, err = alice.CreateFile("alice", "other", "x.txt", gitea.CreateFileOptions{
			Content: changesB64("x"), FileOptions: gitea.FileOptions{BranchName: "trunk"}})
		is.NoErr(err)
		repo, _, err = alice.GetRepo("alice", "other")
		is.NoErr(err)
		is.True(!repo.Empty)
		is.Equal(repo.DefaultBranch, "trunk")
		is.Equal(changesGit(t, srv, "alice", "other", "symbolic-ref", "HEAD"), "refs/heads/trunk")
	})
}

func TestChangesRefreshSize(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := testserver.Start(t)
	alice := changesRepo(t, srv)
	before, _, err := alice.GetRepo("alice", "notes")
	is.NoErr(err)
	noise := make([]byte, 256<<10) // random, so it does not compress
	_, err = rand.Read(noise)
	is.NoErr(err)
	_, _, err = alice.CreateFile("alice", "notes", "noise.bin", gitea.CreateFileOptions{Content: base64.StdEncoding.EncodeToString(noise)})
	is.NoErr(err)
	after, _, err := alice.GetRepo("alice", "notes")
	is.NoErr(err)
	is.True(after.Size >= before.Size+200) // in KiB
}

func TestChangesParallelWritesLoseNothing(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := testserver.Start(t)
	alice := changesRepo(t, srv)
	start := changesGit(t, srv, "alice", "notes", "rev-parse", "main")
	const n = 12
	var wg sync.WaitGroup
	errs := make([]error, n)
	statuses := make([]int, n)
	for i := range n {
		wg.Go(func() {
			_, resp, err := alice.CreateFile("alice", "notes", fmt.Sprintf("par/%02d.txt", i), gitea.CreateFileOptions{
				Content: changesB64(fmt.Sprintf("file %d\n", i)),
			})
			errs[i] = err
			if resp != nil {
				statuses[i] = resp.StatusCode
			}
		})
	}
	wg.Wait()
	for i := range n {
		is.NoErr(errs[i])
		is.Equal(statuses[i], http.StatusCreated)
	}
	is.Equal(changesGit(t, srv, "alice", "notes", "rev-list", "--count", start+"..main"), fmt.Sprint(n))
	work := cloneRepo(t, srv, "alice", "notes")
	for i := range n {
		data, err := os.ReadFile(filepath.Join(work, "par", fmt.Sprintf("%02d.txt", i)))
		is.NoErr(err)
		is.Equal(string(data), fmt.Sprintf("file %d\n", i))
	}
	changesFsck(t, srv, "alice", "notes")
}
