package test

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/test/testserver"
	"github.com/matryer/is"
)

// decodeRepo checks a raw answer's status and decodes the repository it holds.
func decodeRepo(t *testing.T, r testserver.Response, status int) *gitea.Repository {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status %d, want %d (body %s)", r.Status, status, r.Body)
	}
	var repo gitea.Repository
	r.Decode(t, &repo)
	return &repo
}

// pathExists reports whether path exists on disk.
func pathExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// repoHEAD is the symbolic HEAD of owner/name's bare repository.
func repoHEAD(t *testing.T, srv *testserver.Server, owner, name string) string {
	t.Helper()
	return strings.TrimSpace(gitRun(t, t.TempDir(), "--git-dir", repoDir(srv, owner, name), "symbolic-ref", "HEAD"))
}

// pushBranch clones owner/name, commits one file on a new branch and pushes it back.
func pushBranch(t *testing.T, srv *testserver.Server, owner, name, branch string) {
	t.Helper()
	work := cloneRepo(t, srv, owner, name)
	gitRun(t, work, "checkout", "-q", "-b", branch)
	if err := os.WriteFile(filepath.Join(work, branch+".txt"), []byte(branch+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitRun(t, work, "add", ".")
	gitRun(t, work, "commit", "-q", "-m", "on "+branch)
	gitRun(t, work, "push", "-q", "origin", branch)
}

// permissionOf is a permissions object for comparisons.
func permissionOf(admin, push, pull bool) gitea.Permission {
	return gitea.Permission{Admin: admin, Push: push, Pull: pull}
}

// wantPerm checks a repository's permissions object.
func wantPerm(t *testing.T, r *gitea.Repository, want gitea.Permission) {
	t.Helper()
	if r.Permissions == nil {
		t.Fatalf("%s: no permissions object", r.FullName)
	}
	if *r.Permissions != want {
		t.Fatalf("%s: permissions %+v, want %+v", r.FullName, *r.Permissions, want)
	}
}

// addCollaborator makes user a collaborator of owner/name with perm.
func addCollaborator(t *testing.T, srv *testserver.Server, owner, name, user, perm string) {
	t.Helper()
	r := srv.Do("PUT", "/repos/"+owner+"/"+name+"/collaborators/"+user, map[string]string{"permission": perm}, basicAs(owner)...)
	if r.Status != http.StatusNoContent {
		t.Fatalf("add collaborator %s to %s/%s: %d %s", user, owner, name, r.Status, r.Body)
	}
}

func TestLifeCreate(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	alice, aliceC := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	newAccount(t, srv, "bob", gitea.VisibleTypePublic)

	t.Run("fields of a new repository", func(t *testing.T) {
		is := is.New(t)
		r := srv.Do("POST", "/user/repos", map[string]any{"name": "First", "description": "the first"}, basicAs("alice")...)
		repo := decodeRepo(t, r, http.StatusCreated)
		is.True(repo.ID > 0)
		is.Equal(repo.Name, "First")
		is.Equal(repo.FullName, "alice/First")
		is.Equal(repo.Description, "the first")
		is.True(repo.Owner != nil)
		is.Equal(repo.Owner.ID, alice.ID)
		is.Equal(repo.Owner.UserName, "alice")
		is.Equal(repo.Private, false)
		is.Equal(repo.Empty, true)
		is.Equal(repo.Fork, false)
		is.Equal(repo.Mirror, false)
		is.Equal(repo.Template, false)
		is.Equal(repo.Archived, false)
		is.Equal(repo.DefaultBranch, "main")
		is.Equal(repo.ObjectFormatName, "sha1")
		wantPerm(t, repo, permissionOf(true, true, true))
		is.Equal(repo.CloneURL, srv.URL+"/alice/First.git")
		is.Equal(repo.HTMLURL, srv.URL+"/alice/First")
		is.Equal(repo.URL, srv.API+"/repos/alice/First")
		is.True(strings.HasSuffix(repo.SSHURL, ":alice/First.git"))
		is.True(repo.HasIssues)
		is.True(repo.HasWiki)
		is.True(repo.HasPullRequests)
		is.True(repo.HasProjects)
		is.True(repo.HasReleases)
		is.True(repo.HasPackages)
		is.True(repo.HasActions)
		is.True(repo.InternalTracker != nil)
		is.True(repo.ExternalTracker == nil)
		is.True(!repo.Created.IsZero())
		is.True(bytes.Contains(r.Body, []byte(`"archived_at":"1970-01-01T00:00:00Z"`)))
		is.Equal(repo.Stars, 0)
		is.Equal(repo.Forks, 0)
		is.True(repo.Topics != nil) // [] rather than null
		is.Equal(len(repo.Topics), 0)
		is.True(bytes.Contains(r.Body, []byte(`"topics":[]`)))

		is.True(pathExists(repoDir(srv, "alice", "First")))
		is.Equal(repoHEAD(t, srv, "alice", "First"), "refs/heads/main")

		// the SDK reads the same repository back
		got, _, err := aliceC.GetRepo("alice", "first")
		is.NoErr(err)
		is.Equal(got.ID, repo.ID)
		is.Equal(got.Name, "First")
	})

	t.Run("auto_init writes one initial commit", func(t *testing.T) {
		is := is.New(t)
		repo := createRepo(t, aliceC, gitea.CreateRepoOption{
			Name: "inited", Description: "A repository made for testing", AutoInit: true,
			Readme: "Default", License: "MIT", Gitignores: "Go,Node",
		})
		is.Equal(repo.Empty, false)
		is.Equal(repo.DefaultBranch, "main")

		work := cloneRepo(t, srv, "alice", "inited")
		log := strings.TrimSpace(gitRun(t, work, "log", "--format=%s"))
		is.Equal(log, "Initial commit")
		is.Equal(strings.TrimSpace(gitRun(t, work, "log", "--format=%an <%ae>")), "alice <alice@example.com>")
		is.Equal(strings.TrimSpace(gitRun(t, work, "rev-parse", "--abbrev-ref", "HEAD")), "main")

		readme, err := os.ReadFile(filepath.Join(work, "README.md"))
		is.NoErr(err)
		is.True(strings.Contains(string(readme), "# inited"))
		is.True(strings.Contains(string(readme), "A repository made for testing"))
		lic, err := os.ReadFile(filepath.Join(work, "LICENSE"))
		is.NoErr(err)
		is.True(strings.Contains(string(lic), "Permission is hereby granted"))
		year := strconv.Itoa(time.Now().Year())
		is.True(strings.HasPrefix(string(lic), "MIT License\n\nCopyright (c) "+year+" alice\n\n")) // the notice, filled in
		ignore, err := os.ReadFile(filepath.Join(work, ".gitignore"))
		is.NoErr(err)
		is.True(strings.Contains(string(ignore), "Go"))
		is.True(strings.Contains(string(ignore), "Node"))
		is.True(strings.Contains(string(ignore), "node_modules"))
		files := strings.Fields(gitRun(t, work, "ls-files"))
		is.Equal(strings.Join(files, " "), ".gitignore LICENSE README.md")
	})

	t.Run("custom default branch", func(t *testing.T) {
		is := is.New(t)
		repo := createRepo(t, aliceC, gitea.CreateRepoOption{Name: "trunked", AutoInit: true, DefaultBranch: "trunk"})
		is.Equal(repo.DefaultBranch, "trunk")
		is.Equal(repoHEAD(t, srv, "alice", "trunked"), "refs/heads/trunk")
		work := cloneRepo(t, srv, "alice", "trunked")
		is.Equal(strings.TrimSpace(gitRun(t, work, "rev-parse", "--abbrev-ref", "HEAD")), "trunk")

		repo = createRepo(t, aliceC, gitea.CreateRepoOption{Name: "empty-dev", DefaultBranch: "develop"})
		is.Equal(repo.DefaultBranch, "develop")
		is.True(repo.Empty)
		is.Equal(repoHEAD(t, srv, "alice", "empty-dev"), "refs/heads/develop")
	})

	t.Run("private and template", func(t *testing.T) {
		is := is.New(t)
		repo := createRepo(t, aliceC, gitea.CreateRepoOption{Name: "hidden", Private: true, Template: true})
		is.True(repo.Private)
		is.True(repo.Template)
		wantPerm(t, repo, permissionOf(true, true, true))
	})

	t.Run("taken name is 409, case-insensitively", func(t *testing.T) {
		is := is.New(t)
		createRepo(t, aliceC, gitea.CreateRepoOption{Name: "Taken", AutoInit: true})
		for _, name := range []string{"Taken", "taken", "TAKEN"} {
			r := srv.Do("POST", "/user/repos", map[string]any{"name": name}, basicAs("alice")...)
			assertAPIError(t, r, http.StatusConflict, "The repository with the same name already exists.")
		}
		_, resp, err := aliceC.CreateRepo(gitea.CreateRepoOption{Name: "tAkEn"})
		assertSDKStatus(t, resp, err, http.StatusConflict)
		// the first repository is untouched
		work := cloneRepo(t, srv, "alice", "Taken")
		is.Equal(strings.TrimSpace(gitRun(t, work, "log", "--format=%s")), "Initial commit")
		// another owner may use the name
		r := srv.Do("POST", "/user/repos", map[string]any{"name": "taken"}, basicAs("bob")...)
		is.Equal(decodeRepo(t, r, http.StatusCreated).FullName, "bob/taken")
	})

	t.Run("invalid bodies are 422 and leave nothing behind", func(t *testing.T) {
		cases := []struct {
			name  string
			body  map[string]any
			field string
		}{
			{"empty name", map[string]any{"name": ""}, "Name"},
			{"missing name", map[string]any{"description": "x"}, "Name"},
			{"space", map[string]any{"name": "bad name"}, "Name"},
			{"slash", map[string]any{"name": "bad/name"}, "Name"},
			{"non-ascii", map[string]any{"name": "ümlaut"}, "Name"},
			{"bang", map[string]any{"name": "bang!"}, "Name"},
			{"too long", map[string]any{"name": strings.Repeat("n", 101)}, "Name"},
			{"api", map[string]any{"name": "api"}, "Name"},
			{"API", map[string]any{"name": "API"}, "Name"},
			{"dot", map[string]any{"name": "."}, "Name"},
			{"dotdot", map[string]any{"name": ".."}, "Name"},
			{"git suffix", map[string]any{"name": "x.git"}, "Name"},
			{"wiki suffix", map[string]any{"name": "x.wiki"}, "Name"},
			{"rss suffix", map[string]any{"name": "x.rss"}, "Name"},
			{"description too long", map[string]any{"name": "desc", "description": strings.Repeat("d", 2049)}, "Description"},
			{"unknown license", map[string]any{"name": "lic", "auto_init": true, "license": "No-Such-License"}, "License"},
			{"unknown gitignore", map[string]any{"name": "ign", "auto_init": true, "gitignores": "Go,NoSuchIgnore"}, "Gitignores"},
			{"unknown readme", map[string]any{"name": "rdm", "auto_init": true, "readme": "NoSuchReadme"}, "Readme"},
			{"unknown issue labels", map[string]any{"name": "lbl", "issue_labels": "NoSuchLabels"}, "IssueLabels"},
			{"bad default branch", map[string]any{"name": "br", "default_branch": "bad..branch"}, "DefaultBranch"},
			{"branch with space", map[string]any{"name": "br2", "default_branch": "a b"}, "DefaultBranch"},
			{"sha256", map[string]any{"name": "sha", "object_format_name": "sha256"}, "ObjectFormatName"},
			{"bad trust model", map[string]any{"name": "trust", "trust_model": "nobody"}, "TrustModel"},
			{"name of wrong type", map[string]any{"name": 12}, "Name"},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				assertInvalid(t, srv.Do("POST", "/user/repos", c.body, basicAs("alice")...), c.field)
				if n, ok := c.body["name"].(string); ok && n != "" && !strings.Contains(n, "/") && n != "." && n != ".." {
					if pathExists(repoDir(srv, "alice", n)) {
						t.Fatalf("directory of %q left behind", n)
					}
				}
			})
		}
		// Only the repositories created by the other subtests are on disk.
		entries, err := os.ReadDir(filepath.Join(srv.DataDir, "repos", "alice"))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			switch e.Name() {
			case "first.git", "inited.git", "trunked.git", "empty-dev.git", "hidden.git", "taken.git", "tokened.git", "raced.git", "orphan.git":
			default:
				t.Fatalf("unexpected entry %s in alice's directory", e.Name())
			}
		}
	})

	t.Run("malformed JSON is 400", func(t *testing.T) {
		for _, body := range []string{`{"name":`, `not json`, `[1]`} {
			assertAPIError(t, srv.Do("POST", "/user/repos", body, basicAs("alice")...), http.StatusBadRequest, "")
		}
	})

	t.Run("anonymous is 401", func(t *testing.T) {
		assertAPIError(t, srv.Do("POST", "/user/repos", map[string]any{"name": "anon"}), http.StatusUnauthorized, "token is required")
		_, resp, err := srv.Client().CreateRepo(gitea.CreateRepoOption{Name: "anon"})
		assertSDKStatus(t, resp, err, http.StatusUnauthorized)
	})

	t.Run("token scopes", func(t *testing.T) {
		is := is.New(t)
		scopeWantDenied(is, srv.Do("POST", "/user/repos", map[string]any{"name": "scoped"}, tokenHeader(srv, "alice", "write:user")...),
			"write:repository", "write:user")
		scopeWantDenied(is, srv.Do("POST", "/user/repos", map[string]any{"name": "scoped"}, tokenHeader(srv, "alice", "read:repository")...),
			"write:repository", "read:repository")
		is.True(!pathExists(repoDir(srv, "alice", "scoped")))
		r := srv.Do("POST", "/user/repos", map[string]any{"name": "tokened"}, tokenHeader(srv, "alice", "write:repository")...)
		is.Equal(decodeRepo(t, r, http.StatusCreated).FullName, "alice/tokened")
	})

	t.Run("concurrent creations of one name", func(t *testing.T) {
		is := is.New(t)
		const n = 6
		statuses := make([]int, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				req, _ := http.NewRequest("POST", srv.API+"/user/repos", strings.NewReader(`{"name":"raced","auto_init":true}`))
				req.Header.Set("Content-Type", "application/json")
				req.SetBasicAuth("alice", userPassword)
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					return
				}
				resp.Body.Close()
				statuses[i] = resp.StatusCode
			}()
		}
		wg.Wait()
		created, conflicts := 0, 0
		for _, s := range statuses {
			switch s {
			case http.StatusCreated:
				created++
			case http.StatusConflict:
				conflicts++
			}
		}
		is.Equal(created, 1)
		is.Equal(conflicts, n-1)
		work := cloneRepo(t, srv, "alice", "raced")
		is.Equal(strings.TrimSpace(gitRun(t, work, "log", "--format=%s")), "Initial commit")
	})

	t.Run("an orphaned directory does not block the name", func(t *testing.T) {
		is := is.New(t)
		dir := repoDir(srv, "alice", "orphan")
		is.NoErr(os.MkdirAll(dir, 0o755))
		is.NoErr(os.WriteFile(filepath.Join(dir, "junk"), []byte("left by a crash"), 0o644))
		repo := createRepo(t, aliceC, gitea.CreateRepoOption{Name: "orphan", AutoInit: true})
		is.Equal(repo.Name, "orphan")
		is.True(!pathExists(filepath.Join(dir, "junk")))
		work := cloneRepo(t, srv, "alice", "orphan")
		is.Equal(strings.TrimSpace(gitRun(t, work, "log", "--format=%s")), "Initial commit")
	})
}

func TestLifeGet(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	_, aliceC := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	_, bobC := newAccount(t, srv, "bob", gitea.VisibleTypePublic)
	newAccount(t, srv, "carol", gitea.VisibleTypePublic)
	newAccount(t, srv, "dave", gitea.VisibleTypePublic)
	newAccount(t, srv, "erin", gitea.VisibleTypePublic)
	_, limC := newAccount(t, srv, "limo", gitea.VisibleTypeLimited)
	_, privC := newAccount(t, srv, "privo", gitea.VisibleTypePrivate)
	pub := createRepo(t, aliceC, gitea.CreateRepoOption{Name: "pub", AutoInit: true})
	priv := createRepo(t, aliceC, gitea.CreateRepoOption{Name: "priv", Private: true})
	createRepo(t, limC, gitea.CreateRepoOption{Name: "lim-pub"})
	createRepo(t, privC, gitea.CreateRepoOption{Name: "priv-pub"})
	addCollaborator(t, srv, "alice", "priv", "carol", "read")
	addCollaborator(t, srv, "alice", "priv", "dave", "write")
	addCollaborator(t, srv, "alice", "priv", "erin", "admin")
	anon := srv.Client()
	admin := srv.AdminClient()
	missing := srv.Do("GET", "/repos/alice/nothing-here", nil, basicAs("bob")...)

	t.Run("owner", func(t *testing.T) {
		is := is.New(t)
		for _, name := range []string{"pub", "priv", "PUB"} {
			r, _, err := aliceC.GetRepo("alice", name)
			is.NoErr(err)
			wantPerm(t, r, permissionOf(true, true, true))
		}
		r, _, err := aliceC.GetRepo("ALICE", "priv")
		is.NoErr(err)
		is.Equal(r.ID, priv.ID)
		is.Equal(r.FullName, "alice/priv")
	})

	t.Run("public repository to everyone", func(t *testing.T) {
		is := is.New(t)
		r, _, err := anon.GetRepo("alice", "pub")
		is.NoErr(err)
		is.Equal(r.ID, pub.ID)
		wantPerm(t, r, permissionOf(false, false, true))
		r, _, err = bobC.GetRepo("alice", "pub")
		is.NoErr(err)
		wantPerm(t, r, permissionOf(false, false, true))
		r, _, err = admin.GetRepo("alice", "pub")
		is.NoErr(err)
		wantPerm(t, r, permissionOf(true, true, true))
	})

	t.Run("private repository is 404 to strangers", func(t *testing.T) {
		is := is.New(t)
		_, resp, err := anon.GetRepo("alice", "priv")
		assertSDKStatus(t, resp, err, http.StatusNotFound)
		_, resp, err = bobC.GetRepo("alice", "priv")
		assertSDKStatus(t, resp, err, http.StatusNotFound)
		// hidden looks exactly like missing
		assertAPIError(t, srv.Do("GET", "/repos/alice/priv", nil, basicAs("bob")...), http.StatusNotFound, missing.Message())
		assertAPIError(t, srv.Do("GET", "/repos/alice/priv", nil), http.StatusNotFound, missing.Message())
		is.Equal(missing.Message(), msgNoRepo)
	})

	t.Run("private repository to admin and collaborators", func(t *testing.T) {
		is := is.New(t)
		r, _, err := admin.GetRepo("alice", "priv")
		is.NoErr(err)
		is.True(r.Private)
		wantPerm(t, r, permissionOf(true, true, true))
		for _, c := range []struct {
			user string
			want gitea.Permission
		}{
			{"carol", permissionOf(false, false, true)},
			{"dave", permissionOf(false, true, true)},
			{"erin", permissionOf(true, true, true)},
		} {
			r := decodeRepo(t, srv.Do("GET", "/repos/alice/priv", nil, basicAs(c.user)...), http.StatusOK)
			wantPerm(t, r, c.want)
		}
	})

	t.Run("public-only token", func(t *testing.T) {
		is := is.New(t)
		h := tokenHeader(srv, "alice", "public-only", "read:repository")
		assertAPIError(t, srv.Do("GET", "/repos/alice/priv", nil, h...), http.StatusForbidden, "token scope is limited to public repos")
		r := decodeRepo(t, srv.Do("GET", "/repos/alice/pub", nil, h...), http.StatusOK)
		is.Equal(r.ID, pub.ID)
		assertAPIError(t, srv.Do("GET", "/repositories/"+strconv.FormatInt(priv.ID, 10), nil, h...),
			http.StatusForbidden, "token scope is limited to public repos")
		// a public-only token of a stranger learns nothing either
		bh := tokenHeader(srv, "bob", "public-only", "read:repository")
		assertAPIError(t, srv.Do("GET", "/repos/alice/priv", nil, bh...), http.StatusNotFound, msgNoRepo)
	})

	t.Run("token without the repository scope", func(t *testing.T) {
		is := is.New(t)
		h := tokenHeader(srv, "alice", "read:user")
		scopeWantDenied(is, srv.Do("GET", "/repos/alice/priv", nil, h...), "read:repository", "read:user")
		scopeWantDenied(is, srv.Do("GET", "/repos/alice/pub", nil, h...), "read:repository", "read:user")
		r := decodeRepo(t, srv.Do("GET", "/repos/alice/priv", nil, tokenHeader(srv, "alice", "read:repository")...), http.StatusOK)
		wantPerm(t, r, permissionOf(true, true, true))
	})

	t.Run("owner visibility", func(t *testing.T) {
		// a limited owner's public repository needs a signed-in caller
		assertAPIError(t, srv.Do("GET", "/repos/limo/lim-pub", nil), http.StatusNotFound, msgNoRepo)
		r := decodeRepo(t, srv.Do("GET", "/repos/limo/lim-pub", nil, basicAs("bob")...), http.StatusOK)
		wantPerm(t, r, permissionOf(false, false, true))
		// a private owner's public repository is for the owner and admins
		assertAPIError(t, srv.Do("GET", "/repos/privo/priv-pub", nil), http.StatusNotFound, msgNoRepo)
		assertAPIError(t, srv.Do("GET", "/repos/privo/priv-pub", nil, basicAs("bob")...), http.StatusNotFound, msgNoRepo)
		decodeRepo(t, srv.Do("GET", "/repos/privo/priv-pub", nil, basicAs("privo")...), http.StatusOK)
		decodeRepo(t, srv.Do("GET", "/repos/privo/priv-pub", nil, adminHeader(srv)...), http.StatusOK)
	})

	t.Run("unknown owner or repository", func(t *testing.T) {
		assertAPIError(t, srv.Do("GET", "/repos/nobody/pub", nil), http.StatusNotFound, msgNoRepo)
		assertAPIError(t, srv.Do("GET", "/repos/alice/nope", nil), http.StatusNotFound, msgNoRepo)
		assertAPIError(t, srv.Do("GET", "/repos/nobody/nope", nil, adminHeader(srv)...), http.StatusNotFound, msgNoRepo)
	})

	t.Run("by id", func(t *testing.T) {
		is := is.New(t)
		pubPath := "/repositories/" + strconv.FormatInt(pub.ID, 10)
		privPath := "/repositories/" + strconv.FormatInt(priv.ID, 10)
		assertAPIError(t, srv.Do("GET", pubPath, nil), http.StatusUnauthorized, "token is required")
		assertAPIError(t, srv.Do("GET", privPath, nil), http.StatusUnauthorized, "token is required")
		assertAPIError(t, srv.Do("GET", "/repositories/abc", nil), http.StatusUnauthorized, "token is required")
		_, resp, err := anon.GetRepoByID(pub.ID)
		assertSDKStatus(t, resp, err, http.StatusUnauthorized)

		r, _, err := bobC.GetRepoByID(pub.ID)
		is.NoErr(err)
		is.Equal(r.FullName, "alice/pub")
		wantPerm(t, r, permissionOf(false, false, true))
		r, _, err = aliceC.GetRepoByID(priv.ID)
		is.NoErr(err)
		is.Equal(r.FullName, "alice/priv")
		wantPerm(t, r, permissionOf(true, true, true))
		r, _, err = admin.GetRepoByID(priv.ID)
		is.NoErr(err)
		is.Equal(r.ID, priv.ID)
		decodeRepo(t, srv.Do("GET", privPath, nil, basicAs("carol")...), http.StatusOK)

		assertAPIError(t, srv.Do("GET", privPath, nil, basicAs("bob")...), http.StatusNotFound, msgNoRepo)
		assertAPIError(t, srv.Do("GET", "/repositories/999999", nil, basicAs("bob")...), http.StatusNotFound, msgNoRepo)
		for _, id := range []string{"abc", "-1", "0", "1.5"} {
			r := srv.Do("GET", "/repositories/"+id, nil, basicAs("bob")...)
			if r.Status != http.StatusBadRequest && r.Status != http.StatusNotFound {
				t.Fatalf("id %q: status %d, want 400 or 404", id, r.Status)
			}
			assertErrorShape(t, r)
		}
		scopeWantDenied(is, srv.Do("GET", pubPath, nil, tokenHeader(srv, "bob", "read:user")...), "read:repository", "read:user")
	})
}

func TestLifeEdit(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	_, aliceC := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	_, bobC := newAccount(t, srv, "bob", gitea.VisibleTypePublic)
	newAccount(t, srv, "carol", gitea.VisibleTypePublic)
	newAccount(t, srv, "dave", gitea.VisibleTypePublic)
	admin := srv.AdminClient()
	str := func(s string) *string { return &s }
	yes, no := true, false

	t.Run("settings round-trip", func(t *testing.T) {
		is := is.New(t)
		createRepo(t, aliceC, gitea.CreateRepoOption{Name: "knobs"})
		got, _, err := aliceC.EditRepo("alice", "knobs", gitea.EditRepoOption{
			Description: str("turned"), Website: str("https://example.com/knobs"), Private: &yes, Template: &yes,
			HasIssues: &no, HasWiki: &no, HasPullRequests: &no, HasProjects: &no,
			HasReleases: &no, HasPackages: &no, HasActions: &no,
		})
		is.NoErr(err)
		check := func(r *gitea.Repository) {
			is.Helper()
			is.Equal(r.Name, "knobs")
			is.Equal(r.Description, "turned")
			is.Equal(r.Website, "https://example.com/knobs")
			is.True(r.Private)
			is.True(r.Template)
			is.True(!r.HasIssues)
			is.True(r.InternalTracker == nil)
			is.True(!r.HasWiki)
			is.True(!r.HasPullRequests)
			is.True(!r.HasProjects)
			is.True(!r.HasReleases)
			is.True(!r.HasPackages)
			is.True(!r.HasActions)
			wantPerm(t, r, permissionOf(true, true, true))
		}
		check(got)
		again, _, err := aliceC.GetRepo("alice", "knobs")
		is.NoErr(err)
		check(again)
		// the change is visible to others too: now private, so hidden from bob
		_, resp, err := bobC.GetRepo("alice", "knobs")
		assertSDKStatus(t, resp, err, http.StatusNotFound)

		// fields left out stay as they are; others switch back
		got, _, err = aliceC.EditRepo("alice", "knobs", gitea.EditRepoOption{Private: &no, HasIssues: &yes, HasWiki: &yes})
		is.NoErr(err)
		is.Equal(got.Description, "turned")
		is.Equal(got.Website, "https://example.com/knobs")
		is.True(!got.Private)
		is.True(got.Template)
		is.True(got.HasIssues)
		is.True(got.InternalTracker != nil)
		is.True(got.HasWiki)
		is.True(!got.HasPullRequests)
		r, _, err := bobC.GetRepo("alice", "knobs")
		is.NoErr(err)
		is.Equal(r.Description, "turned")

		// an empty body changes nothing
		r = decodeRepo(t, srv.Do("PATCH", "/repos/alice/knobs", map[string]any{}, basicAs("alice")...), http.StatusOK)
		is.Equal(r.Description, "turned")
		// clearing the website
		r = decodeRepo(t, srv.Do("PATCH", "/repos/alice/knobs", map[string]any{"website": ""}, basicAs("alice")...), http.StatusOK)
		is.Equal(r.Website, "")
	})

	t.Run("invalid edits are 422", func(t *testing.T) {
		is := is.New(t)
		createRepo(t, aliceC, gitea.CreateRepoOption{Name: "strict", Description: "kept"})
		for _, c := range []struct {
			body  map[string]any
			field string
		}{
			{map[string]any{"website": "not a url"}, "Website"},
			{map[string]any{"website": "ftp://example.com"}, "Website"},
			{map[string]any{"website": "https://"}, "Website"},
			{map[string]any{"description": strings.Repeat("d", 2049)}, "Description"},
			{map[string]any{"name": "bad name"}, "Name"},
			{map[string]any{"name": ""}, "Name"},
			{map[string]any{"name": "api"}, "Name"},
			{map[string]any{"name": "x.git"}, "Name"},
			{map[string]any{"default_branch": "bad..branch"}, "DefaultBranch"},
			{map[string]any{"private": "yes"}, "Private"},
		} {
			assertInvalid(t, srv.Do("PATCH", "/repos/alice/strict", c.body, basicAs("alice")...), c.field)
		}
		assertAPIError(t, srv.Do("PATCH", "/repos/alice/strict", `{"name":`, basicAs("alice")...), http.StatusBadRequest, "")
		r, _, err := aliceC.GetRepo("alice", "strict")
		is.NoErr(err)
		is.Equal(r.Description, "kept")
		is.Equal(r.Website, "")
		is.True(pathExists(repoDir(srv, "alice", "strict")))
	})

	t.Run("rename", func(t *testing.T) {
		is := is.New(t)
		old := createRepo(t, aliceC, gitea.CreateRepoOption{Name: "old-name", AutoInit: true})
		got, _, err := aliceC.EditRepo("alice", "old-name", gitea.EditRepoOption{Name: str("new-name")})
		is.NoErr(err)
		is.Equal(got.ID, old.ID)
		is.Equal(got.Name, "new-name")
		is.Equal(got.FullName, "alice/new-name")
		is.Equal(got.CloneURL, srv.URL+"/alice/new-name.git")
		is.True(pathExists(repoDir(srv, "alice", "new-name")))
		is.True(!pathExists(repoDir(srv, "alice", "old-name")))
		work := cloneRepo(t, srv, "alice", "new-name")
		is.Equal(strings.TrimSpace(gitRun(t, work, "log", "--format=%s")), "Initial commit")

		r := srv.Do("GET", "/repos/alice/old-name", nil, basicAs("alice")...)
		is.Equal(r.Status, http.StatusMovedPermanently)
		is.Equal(r.Header.Get("Location"), "/api/v1/repos/alice/new-name")
		r = srv.Do("GET", "/repos/alice/old-name", nil) // public, so anonymous callers are sent on too
		is.Equal(r.Status, http.StatusMovedPermanently)
		is.Equal(r.Header.Get("Location"), "/api/v1/repos/alice/new-name")
		r = srv.Do("GET", "/repos/alice/old-name/topics?x=1", nil)
		is.Equal(r.Status, http.StatusMovedPermanently)
		is.Equal(r.Header.Get("Location"), "/api/v1/repos/alice/new-name/topics?x=1")
		r = srv.Do("PATCH", "/repos/alice/old-name", map[string]any{"description": "via old"}, basicAs("alice")...)
		is.Equal(r.Status, http.StatusTemporaryRedirect)
		is.Equal(r.Header.Get("Location"), "/api/v1/repos/alice/new-name")
		r = srv.Do("DELETE", "/repos/alice/old-name", nil, basicAs("alice")...)
		is.Equal(r.Status, http.StatusTemporaryRedirect)
		is.Equal(r.Header.Get("Location"), "/api/v1/repos/alice/new-name")
		// neither the PATCH nor the DELETE acted on the repository itself
		again, _, err := aliceC.GetRepo("alice", "new-name")
		is.NoErr(err)
		is.Equal(again.Description, "")
		is.Equal(again.ID, old.ID)
		// the SDK follows the redirect
		viaOld, _, err := aliceC.GetRepo("alice", "old-name")
		is.NoErr(err)
		is.Equal(viaOld.ID, old.ID)

		// the old name is free again, and then no longer redirects
		reused := createRepo(t, aliceC, gitea.CreateRepoOption{Name: "old-name"})
		is.True(reused.ID != old.ID)
		r = srv.Do("GET", "/repos/alice/old-name", nil, basicAs("alice")...)
		is.Equal(decodeRepo(t, r, http.StatusOK).ID, reused.ID)
	})

	t.Run("redirect of a private repository is hidden from strangers", func(t *testing.T) {
		is := is.New(t)
		createRepo(t, aliceC, gitea.CreateRepoOption{Name: "secret-old", Private: true})
		_, _, err := aliceC.EditRepo("alice", "secret-old", gitea.EditRepoOption{Name: str("secret-new")})
		is.NoErr(err)
		assertAPIError(t, srv.Do("GET", "/repos/alice/secret-old", nil, basicAs("bob")...), http.StatusNotFound, msgNoRepo)
		assertAPIError(t, srv.Do("GET", "/repos/alice/secret-old", nil), http.StatusNotFound, msgNoRepo)
		r := srv.Do("GET", "/repos/alice/secret-old", nil, basicAs("alice")...)
		is.Equal(r.Status, http.StatusMovedPermanently)
	})

	t.Run("rename onto a taken name is 422", func(t *testing.T) {
		is := is.New(t)
		createRepo(t, aliceC, gitea.CreateRepoOption{Name: "occupant", AutoInit: true})
		mover := createRepo(t, aliceC, gitea.CreateRepoOption{Name: "mover"})
		for _, name := range []string{"occupant", "OCCUPANT"} {
			assertInvalid(t, srv.Do("PATCH", "/repos/alice/mover", map[string]any{"name": name}, basicAs("alice")...), "Name")
		}
		is.True(pathExists(repoDir(srv, "alice", "mover")))
		work := cloneRepo(t, srv, "alice", "occupant")
		is.Equal(strings.TrimSpace(gitRun(t, work, "log", "--format=%s")), "Initial commit")
		r, _, err := aliceC.GetRepo("alice", "mover")
		is.NoErr(err)
		is.Equal(r.ID, mover.ID)
		// a change of case only keeps the directory
		got, _, err := aliceC.EditRepo("alice", "mover", gitea.EditRepoOption{Name: str("Mover")})
		is.NoErr(err)
		is.Equal(got.Name, "Mover")
		is.True(pathExists(repoDir(srv, "alice", "Mover")))
		r, _, err = aliceC.GetRepo("alice", "mover")
		is.NoErr(err)
		is.Equal(r.Name, "Mover")
	})

	t.Run("default branch", func(t *testing.T) {
		is := is.New(t)
		createRepo(t, aliceC, gitea.CreateRepoOption{Name: "branchy", AutoInit: true})
		pushBranch(t, srv, "alice", "branchy", "dev")
		got, _, err := aliceC.EditRepo("alice", "branchy", gitea.EditRepoOption{DefaultBranch: str("dev")})
		is.NoErr(err)
		is.Equal(got.DefaultBranch, "dev")
		is.Equal(repoHEAD(t, srv, "alice", "branchy"), "refs/heads/dev")
		work := cloneRepo(t, srv, "alice", "branchy")
		is.Equal(strings.TrimSpace(gitRun(t, work, "rev-parse", "--abbrev-ref", "HEAD")), "dev")

		// a branch that does not exist is ignored
		got, _, err = aliceC.EditRepo("alice", "branchy", gitea.EditRepoOption{DefaultBranch: str("no-such-branch")})
		is.NoErr(err)
		is.Equal(got.DefaultBranch, "dev")
		is.Equal(repoHEAD(t, srv, "alice", "branchy"), "refs/heads/dev")
		r, _, err := aliceC.GetRepo("alice", "branchy")
		is.NoErr(err)
		is.Equal(r.DefaultBranch, "dev")

		got, _, err = aliceC.EditRepo("alice", "branchy", gitea.EditRepoOption{DefaultBranch: str("main")})
		is.NoErr(err)
		is.Equal(got.DefaultBranch, "main")
		is.Equal(repoHEAD(t, srv, "alice", "branchy"), "refs/heads/main")

		// an empty repository takes any valid name: its first push creates the branch
		createRepo(t, aliceC, gitea.CreateRepoOption{Name: "unborn"})
		got, _, err = aliceC.EditRepo("alice", "unborn", gitea.EditRepoOption{DefaultBranch: str("trunk")})
		is.NoErr(err)
		is.Equal(got.DefaultBranch, "trunk")
		is.Equal(repoHEAD(t, srv, "alice", "unborn"), "refs/heads/trunk")
	})

	t.Run("archived repositories refuse writes", func(t *testing.T) {
		is := is.New(t)
		createRepo(t, aliceC, gitea.CreateRepoOption{Name: "attic", AutoInit: true})
		got, _, err := aliceC.EditRepo("alice", "attic", gitea.EditRepoOption{Archived: &yes})
		is.NoErr(err)
		is.True(got.Archived)
		is.True(!got.ArchivedAt.IsZero())
		r, _, err := bobC.GetRepo("alice", "attic")
		is.NoErr(err)
		is.True(r.Archived)

		const msg = "alice/attic is archived"
		key := "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl test@example"
		writes := []struct {
			method, path string
			body         any
		}{
			{"PUT", "/repos/alice/attic/topics", map[string]any{"topics": []string{"go"}}},
			{"PUT", "/repos/alice/attic/topics/go", nil},
			{"POST", "/repos/alice/attic/keys", map[string]any{"title": "k", "key": key}},
			{"PUT", "/repos/alice/attic/collaborators/bob", map[string]any{"permission": "read"}},
			{"PATCH", "/repos/alice/attic/issue-tracker", map[string]any{"enable_issues": false}},
		}
		for _, w := range writes {
			assertAPIError(t, srv.Do(w.method, w.path, w.body, basicAs("alice")...), http.StatusLocked, msg)
			assertAPIError(t, srv.Do(w.method, w.path, w.body, adminHeader(srv)...), http.StatusLocked, msg)
		}
		// reads still work
		decodeRepo(t, srv.Do("GET", "/repos/alice/attic", nil), http.StatusOK)
		is.Equal(srv.Do("GET", "/repos/alice/attic/topics", nil).Status, http.StatusOK)

		// the repository's own settings may still be changed, and unarchived
		got, _, err = aliceC.EditRepo("alice", "attic", gitea.EditRepoOption{Description: str("dusty")})
		is.NoErr(err)
		is.Equal(got.Description, "dusty")
		is.True(got.Archived)
		got, _, err = aliceC.EditRepo("alice", "attic", gitea.EditRepoOption{Archived: &no})
		is.NoErr(err)
		is.True(!got.Archived)
		is.Equal(got.ArchivedAt.Unix(), int64(0)) // Gitea's zero timestamp
		is.Equal(srv.Do("PUT", "/repos/alice/attic/topics", map[string]any{"topics": []string{"go"}}, basicAs("alice")...).Status,
			http.StatusNoContent)
		is.Equal(srv.Do("PATCH", "/repos/alice/attic/issue-tracker", map[string]any{"enable_issues": true}, basicAs("alice")...).Status,
			http.StatusNoContent)
	})

	t.Run("access", func(t *testing.T) {
		is := is.New(t)
		createRepo(t, aliceC, gitea.CreateRepoOption{Name: "guarded"})
		createRepo(t, aliceC, gitea.CreateRepoOption{Name: "guarded-priv", Private: true})
		addCollaborator(t, srv, "alice", "guarded", "carol", "admin")
		addCollaborator(t, srv, "alice", "guarded", "dave", "write")
		body := map[string]any{"description": "changed"}

		assertAPIError(t, srv.Do("PATCH", "/repos/alice/guarded", body), http.StatusUnauthorized, "token is required")
		// the repository is resolved first, so a private one is 404 before sign-in is asked for
		assertAPIError(t, srv.Do("PATCH", "/repos/alice/guarded-priv", body), http.StatusNotFound, msgNoRepo)
		assertAPIError(t, srv.Do("PATCH", "/repos/alice/guarded", body, basicAs("bob")...), http.StatusForbidden, msgRepoAdmin)
		_, resp, err := bobC.EditRepo("alice", "guarded", gitea.EditRepoOption{Description: str("x")})
		assertSDKStatus(t, resp, err, http.StatusForbidden)
		assertAPIError(t, srv.Do("PATCH", "/repos/alice/guarded-priv", body, basicAs("bob")...), http.StatusNotFound, msgNoRepo)
		assertAPIError(t, srv.Do("PATCH", "/repos/alice/guarded", body, basicAs("dave")...), http.StatusForbidden, msgRepoAdmin)
		scopeWantDenied(is, srv.Do("PATCH", "/repos/alice/guarded", body, tokenHeader(srv, "alice", "read:repository")...),
			"write:repository", "read:repository")
		scopeWantDenied(is, srv.Do("PATCH", "/repos/alice/guarded", body, tokenHeader(srv, "alice", "write:user")...),
			"write:repository", "write:user")
		assertAPIError(t, srv.Do("PATCH", "/repos/alice/guarded-priv", body, tokenHeader(srv, "alice", "public-only", "write:repository")...),
			http.StatusForbidden, "token scope is limited to public repos")

		r := decodeRepo(t, srv.Do("PATCH", "/repos/alice/guarded", map[string]any{"description": "by carol"}, basicAs("carol")...), http.StatusOK)
		is.Equal(r.Description, "by carol")
		wantPerm(t, r, permissionOf(true, true, true))
		got, _, err := admin.EditRepo("alice", "guarded-priv", gitea.EditRepoOption{Description: str("by admin")})
		is.NoErr(err)
		is.Equal(got.Description, "by admin")
		r = decodeRepo(t, srv.Do("PATCH", "/repos/alice/guarded", map[string]any{"description": "by token"},
			tokenHeader(srv, "alice", "write:repository")...), http.StatusOK)
		is.Equal(r.Description, "by token")
		assertAPIError(t, srv.Do("PATCH", "/repos/alice/nope", body, basicAs("alice")...), http.StatusNotFound, msgNoRepo)
	})
}

func TestLifeIssueTracker(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	_, aliceC := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	newAccount(t, srv, "bob", gitea.VisibleTypePublic)
	newAccount(t, srv, "carol", gitea.VisibleTypePublic)
	createRepo(t, aliceC, gitea.CreateRepoOption{Name: "tracked"})
	createRepo(t, aliceC, gitea.CreateRepoOption{Name: "tracked-priv", Private: true})
	addCollaborator(t, srv, "alice", "tracked", "carol", "admin")
	const path = "/repos/alice/tracked/issue-tracker"

	t.Run("external tracker round-trip", func(t *testing.T) {
		is := is.New(t)
		r := srv.Do("PATCH", path, map[string]any{
			"enable_issues": true, "enable_external_tracker": true,
			"external_tracker_url": "https://tracker.example.com/alice",
			"tracker_url_format":   "https://tracker.example.com/{user}/{repo}/issues/{index}",
			"tracker_issue_style":  "alphanumeric",
		}, basicAs("alice")...)
		is.Equal(r.Status, http.StatusNoContent)
		is.Equal(len(r.Body), 0)
		repo, _, err := aliceC.GetRepo("alice", "tracked")
		is.NoErr(err)
		is.True(repo.HasIssues)
		is.True(repo.InternalTracker == nil)
		is.True(repo.ExternalTracker != nil)
		is.Equal(repo.ExternalTracker.ExternalTrackerURL, "https://tracker.example.com/alice")
		is.Equal(repo.ExternalTracker.ExternalTrackerFormat, "https://tracker.example.com/{user}/{repo}/issues/{index}")
		is.Equal(repo.ExternalTracker.ExternalTrackerStyle, "alphanumeric")

		// only the style changes; the rest is kept
		is.Equal(srv.Do("PATCH", path, map[string]any{"tracker_issue_style": "numeric"}, basicAs("alice")...).Status, http.StatusNoContent)
		repo, _, err = aliceC.GetRepo("alice", "tracked")
		is.NoErr(err)
		is.True(repo.ExternalTracker != nil)
		is.Equal(repo.ExternalTracker.ExternalTrackerStyle, "numeric")
		is.Equal(repo.ExternalTracker.ExternalTrackerURL, "https://tracker.example.com/alice")

		// back to the internal tracker
		is.Equal(srv.Do("PATCH", path, map[string]any{"enable_external_tracker": false}, basicAs("alice")...).Status, http.StatusNoContent)
		repo, _, err = aliceC.GetRepo("alice", "tracked")
		is.NoErr(err)
		is.True(repo.HasIssues)
		is.True(repo.InternalTracker != nil)
		is.True(repo.ExternalTracker == nil)

		// issues off altogether
		is.Equal(srv.Do("PATCH", path, map[string]any{"enable_issues": false}, basicAs("alice")...).Status, http.StatusNoContent)
		repo, _, err = aliceC.GetRepo("alice", "tracked")
		is.NoErr(err)
		is.True(!repo.HasIssues)
		is.True(repo.InternalTracker == nil)
		is.True(repo.ExternalTracker == nil)
		is.Equal(srv.Do("PATCH", path, map[string]any{"enable_issues": true}, basicAs("alice")...).Status, http.StatusNoContent)
		repo, _, err = aliceC.GetRepo("alice", "tracked")
		is.NoErr(err)
		is.True(repo.HasIssues)
		is.True(repo.InternalTracker != nil)
	})

	t.Run("invalid settings are 422", func(t *testing.T) {
		is := is.New(t)
		createRepo(t, aliceC, gitea.CreateRepoOption{Name: "fresh"})
		fresh := "/repos/alice/fresh/issue-tracker"
		assertInvalid(t, srv.Do("PATCH", fresh, map[string]any{"tracker_issue_style": "roman"}, basicAs("alice")...), "TrackerIssueStyle")
		assertInvalid(t, srv.Do("PATCH", fresh, map[string]any{"external_tracker_url": "not a url"}, basicAs("alice")...), "ExternalTrackerURL")
		assertInvalid(t, srv.Do("PATCH", fresh, map[string]any{"external_tracker_url": "javascript:alert(1)"}, basicAs("alice")...), "ExternalTrackerURL")
		assertInvalid(t, srv.Do("PATCH", fresh, map[string]any{"tracker_url_format": "nope {index}"}, basicAs("alice")...), "TrackerURLFormat")
		assertInvalid(t, srv.Do("PATCH", fresh, map[string]any{"enable_issues": true, "enable_external_tracker": true}, basicAs("alice")...),
			"ExternalTrackerURL")
		assertInvalid(t, srv.Do("PATCH", fresh, map[string]any{"enable_issues": "yes"}, basicAs("alice")...), "EnableIssues")
		assertAPIError(t, srv.Do("PATCH", fresh, `{"enable_issues":`, basicAs("alice")...), http.StatusBadRequest, "")
		// nothing changed
		repo, _, err := aliceC.GetRepo("alice", "fresh")
		is.NoErr(err)
		is.True(repo.HasIssues)
		is.True(repo.InternalTracker != nil)
		is.True(repo.ExternalTracker == nil)
	})

	t.Run("access", func(t *testing.T) {
		is := is.New(t)
		body := map[string]any{"enable_issues": false}
		assertAPIError(t, srv.Do("PATCH", path, body), http.StatusUnauthorized, "token is required")
		assertAPIError(t, srv.Do("PATCH", path, body, basicAs("bob")...), http.StatusForbidden, msgRepoAdmin)
		assertAPIError(t, srv.Do("PATCH", "/repos/alice/tracked-priv/issue-tracker", body, basicAs("bob")...), http.StatusNotFound, msgNoRepo)
		assertAPIError(t, srv.Do("PATCH", "/repos/alice/nope/issue-tracker", body, basicAs("alice")...), http.StatusNotFound, msgNoRepo)
		scopeWantDenied(is, srv.Do("PATCH", path, body, tokenHeader(srv, "alice", "read:repository")...), "write:repository", "read:repository")
		is.Equal(srv.Do("PATCH", path, body, basicAs("carol")...).Status, http.StatusNoContent)
		is.Equal(srv.Do("PATCH", "/repos/alice/tracked-priv/issue-tracker", body, adminHeader(srv)...).Status, http.StatusNoContent)
		repo, _, err := aliceC.GetRepo("alice", "tracked-priv")
		is.NoErr(err)
		is.True(!repo.HasIssues)
	})
}

func TestLifeDelete(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	_, aliceC := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	_, bobC := newAccount(t, srv, "bob", gitea.VisibleTypePublic)
	newAccount(t, srv, "carol", gitea.VisibleTypePublic)

	t.Run("owner deletes", func(t *testing.T) {
		is := is.New(t)
		old := createRepo(t, aliceC, gitea.CreateRepoOption{Name: "doomed", AutoInit: true})
		is.True(pathExists(repoDir(srv, "alice", "doomed")))
		r := srv.Do("DELETE", "/repos/alice/doomed", nil, basicAs("alice")...)
		is.Equal(r.Status, http.StatusNoContent)
		is.Equal(len(r.Body), 0)
		is.True(!pathExists(repoDir(srv, "alice", "doomed")))
		assertAPIError(t, srv.Do("GET", "/repos/alice/doomed", nil, basicAs("alice")...), http.StatusNotFound, msgNoRepo)
		assertAPIError(t, srv.Do("GET", "/repositories/"+strconv.FormatInt(old.ID, 10), nil, basicAs("alice")...),
			http.StatusNotFound, msgNoRepo)
		assertAPIError(t, srv.Do("DELETE", "/repos/alice/doomed", nil, basicAs("alice")...), http.StatusNotFound, msgNoRepo)
		list, _, err := aliceC.ListMyRepos(gitea.ListReposOptions{})
		is.NoErr(err)
		for _, x := range list {
			is.True(x.Name != "doomed")
		}

		// the name is free again, for a fresh, empty repository
		again := createRepo(t, aliceC, gitea.CreateRepoOption{Name: "doomed"})
		is.True(again.ID != old.ID)
		is.True(again.Empty)
		is.True(pathExists(repoDir(srv, "alice", "doomed")))
		out := gitRun(t, t.TempDir(), "--git-dir", repoDir(srv, "alice", "doomed"), "for-each-ref")
		is.Equal(strings.TrimSpace(out), "")

		// the SDK's delete
		_, err = aliceC.DeleteRepo("alice", "doomed")
		is.NoErr(err)
		is.True(!pathExists(repoDir(srv, "alice", "doomed")))
	})

	t.Run("renamed then deleted", func(t *testing.T) {
		is := is.New(t)
		createRepo(t, aliceC, gitea.CreateRepoOption{Name: "first-name"})
		n := "second-name"
		_, _, err := aliceC.EditRepo("alice", "first-name", gitea.EditRepoOption{Name: &n})
		is.NoErr(err)
		is.Equal(srv.Do("DELETE", "/repos/alice/second-name", nil, basicAs("alice")...).Status, http.StatusNoContent)
		assertAPIError(t, srv.Do("GET", "/repos/alice/first-name", nil, basicAs("alice")...), http.StatusNotFound, msgNoRepo)
		assertAPIError(t, srv.Do("GET", "/repos/alice/second-name", nil, basicAs("alice")...), http.StatusNotFound, msgNoRepo)
		is.True(!pathExists(repoDir(srv, "alice", "first-name")))
		is.True(!pathExists(repoDir(srv, "alice", "second-name")))
	})

	t.Run("access", func(t *testing.T) {
		is := is.New(t)
		createRepo(t, aliceC, gitea.CreateRepoOption{Name: "kept"})
		createRepo(t, aliceC, gitea.CreateRepoOption{Name: "kept-priv", Private: true})
		addCollaborator(t, srv, "alice", "kept", "carol", "admin")

		assertAPIError(t, srv.Do("DELETE", "/repos/alice/kept", nil), http.StatusUnauthorized, "token is required")
		assertAPIError(t, srv.Do("DELETE", "/repos/alice/kept", nil, basicAs("bob")...), http.StatusForbidden, msgRepoOwner)
		resp, err := bobC.DeleteRepo("alice", "kept")
		assertSDKStatus(t, resp, err, http.StatusForbidden)
		assertAPIError(t, srv.Do("DELETE", "/repos/alice/kept-priv", nil, basicAs("bob")...), http.StatusNotFound, msgNoRepo)
		// a collaborator with admin rights is still not the owner
		assertAPIError(t, srv.Do("DELETE", "/repos/alice/kept", nil, basicAs("carol")...), http.StatusForbidden, msgRepoOwner)
		scopeWantDenied(is, srv.Do("DELETE", "/repos/alice/kept", nil, tokenHeader(srv, "alice", "read:repository")...),
			"write:repository", "read:repository")
		scopeWantDenied(is, srv.Do("DELETE", "/repos/alice/kept", nil, tokenHeader(srv, "alice", "write:user")...),
			"write:repository", "write:user")
		assertAPIError(t, srv.Do("DELETE", "/repos/alice/kept-priv", nil, tokenHeader(srv, "alice", "public-only", "write:repository")...),
			http.StatusForbidden, "token scope is limited to public repos")
		is.True(pathExists(repoDir(srv, "alice", "kept")))
		is.True(pathExists(repoDir(srv, "alice", "kept-priv")))
		_, _, err = aliceC.GetRepo("alice", "kept")
		is.NoErr(err)

		// the site admin may delete anyone's
		is.Equal(srv.Do("DELETE", "/repos/alice/kept-priv", nil, adminHeader(srv)...).Status, http.StatusNoContent)
		is.True(!pathExists(repoDir(srv, "alice", "kept-priv")))
		// and a token with the repository write scope works for the owner
		is.Equal(srv.Do("DELETE", "/repos/alice/kept", nil, tokenHeader(srv, "alice", "write:repository")...).Status, http.StatusNoContent)
		is.True(!pathExists(repoDir(srv, "alice", "kept")))
	})
}

// TestLifePostgres runs the whole life of a repository on Postgres.
func TestLifePostgres(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := testserver.Start(t, testserver.OnPostgres())
	_, aliceC := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	_, bobC := newAccount(t, srv, "bob", gitea.VisibleTypePublic)

	created := createRepo(t, aliceC, gitea.CreateRepoOption{Name: "Journey", Description: "on pg", AutoInit: true, License: "MIT"})
	is.Equal(created.FullName, "alice/Journey")
	is.Equal(created.Empty, false)
	assertAPIError(t, srv.Do("POST", "/user/repos", map[string]any{"name": "journey"}, basicAs("alice")...),
		http.StatusConflict, "The repository with the same name already exists.")
	work := cloneRepo(t, srv, "alice", "Journey")
	is.Equal(strings.TrimSpace(gitRun(t, work, "log", "--format=%s")), "Initial commit")

	got, _, err := bobC.GetRepo("alice", "journey")
	is.NoErr(err)
	is.Equal(got.ID, created.ID)
	wantPerm(t, got, permissionOf(false, false, true))
	got, _, err = bobC.GetRepoByID(created.ID)
	is.NoErr(err)
	is.Equal(got.Description, "on pg")

	newName := "voyage"
	edited, _, err := aliceC.EditRepo("alice", "Journey", gitea.EditRepoOption{Name: &newName})
	is.NoErr(err)
	is.Equal(edited.FullName, "alice/voyage")
	is.True(pathExists(repoDir(srv, "alice", "voyage")))
	is.True(!pathExists(repoDir(srv, "alice", "Journey")))
	r := srv.Do("GET", "/repos/alice/Journey", nil)
	is.Equal(r.Status, http.StatusMovedPermanently)
	is.Equal(r.Header.Get("Location"), "/api/v1/repos/alice/voyage")

	assertAPIError(t, srv.Do("DELETE", "/repos/alice/voyage", nil, basicAs("bob")...), http.StatusForbidden, msgRepoOwner)
	_, err = aliceC.DeleteRepo("alice", "voyage")
	is.NoErr(err)
	is.True(!pathExists(repoDir(srv, "alice", "voyage")))
	assertAPIError(t, srv.Do("GET", "/repos/alice/voyage", nil), http.StatusNotFound, msgNoRepo)
	assertAPIError(t, srv.Do("GET", "/repos/alice/Journey", nil), http.StatusNotFound, msgNoRepo)
	again := createRepo(t, aliceC, gitea.CreateRepoOption{Name: "voyage"})
	is.True(again.ID != created.ID)
}
