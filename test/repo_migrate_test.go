package test

import (
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/test/testserver"
	"github.com/matryer/is"
)

// mirrorPair is a source server, where alice keeps repositories, and a
// destination server allowed to reach loopback addresses, where bob
// migrates and mirrors them.
type mirrorPair struct {
	src, dst *testserver.Server
	alice    *gitea.Client
	bob      *gitea.Client
	bobUser  *gitea.User
	// aliceToken may read and write alice's repositories on src.
	aliceToken string
	// work is a work tree whose origin is src's alice/pub (main and dev, tag v1).
	work string
}

// mirrorLoopback lets a server's outbound requests reach loopback addresses.
func mirrorLoopback() testserver.Option {
	return testserver.WithSettings(func(s *site.Settings) { s.AllowedHosts = "loopback" })
}

// mirrorSetup starts both servers (dst with opts) and fills src: alice/pub
// (public: main, dev, tag v1) and alice/priv (private, one commit on main).
func mirrorSetup(t *testing.T, opts ...testserver.Option) *mirrorPair {
	t.Helper()
	src := testserver.Start(t)
	dst := testserver.Start(t, append([]testserver.Option{mirrorLoopback()}, opts...)...)
	_, alice := newAccount(t, src, "alice", gitea.VisibleTypePublic)
	bobUser, bob := newAccount(t, dst, "bob", gitea.VisibleTypePublic)
	p := &mirrorPair{src: src, dst: dst, alice: alice, bob: bob, bobUser: bobUser,
		aliceToken: src.CreateToken("alice", userPassword, "write:repository")}

	createRepo(t, alice, gitea.CreateRepoOption{Name: "pub"})
	p.work = httpGitWork(t, "main")
	httpGitCommit(t, p.work, "b.txt", "b\n", "second")
	httpGitOK(t, p.work, "tag", "-a", "v1", "-m", "version 1")
	httpGitOK(t, p.work, "branch", "dev")
	httpGitOK(t, p.work, "remote", "add", "origin", httpGitURL(src, "alice", "pub", "alice", userPassword))
	httpGitOK(t, p.work, "push", "-q", "origin", "main", "dev", "v1")

	createRepo(t, alice, gitea.CreateRepoOption{Name: "priv", Private: true})
	priv := httpGitWork(t, "main")
	httpGitOK(t, priv, "push", "-q", httpGitURL(src, "alice", "priv", "alice", userPassword), "main")
	return p
}

// mirrorRefs lists the branches and tags a repository advertises at url
// ("<id> <ref>" lines, sorted).
func mirrorRefs(t *testing.T, url string) []string {
	t.Helper()
	var refs []string
	for _, line := range strings.Split(strings.TrimSpace(httpGitOK(t, t.TempDir(), "ls-remote", url)), "\n") {
		id, ref, ok := strings.Cut(line, "\t")
		if ok && (strings.HasPrefix(ref, "refs/heads/") || strings.HasPrefix(ref, "refs/tags/")) {
			refs = append(refs, id+" "+ref)
		}
	}
	sort.Strings(refs)
	return refs
}

// mirrorEventually polls cond until it holds or the deadline passes.
func mirrorEventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// mirrorNotStored checks that secret appears in no file of the server's
// data directory outside the Git repositories (the database above all).
func mirrorNotStored(t *testing.T, srv *testserver.Server, secret string) {
	t.Helper()
	err := filepath.WalkDir(srv.DataDir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			if d != nil && d.IsDir() && d.Name() == "repos" {
				return filepath.SkipDir
			}
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if strings.Contains(string(data), secret) {
			t.Errorf("%s holds a secret in plain text", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestMigrate(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		p := mirrorSetup(t, opts...)
		srcPub := httpGitURL(p.src, "alice", "pub", "", "")

		t.Run("Public", func(t *testing.T) {
			is := is.New(t)
			r, resp, err := p.bob.MigrateRepo(gitea.MigrateRepoOption{
				CloneAddr: srcPub, RepoName: "copy", Description: "a copy", Service: gitea.GitServicePlain,
			})
			is.NoErr(err)
			is.Equal(resp.StatusCode, http.StatusCreated)
			is.Equal(r.FullName, "bob/copy")
			is.Equal(r.Owner.UserName, "bob")
			is.Equal(r.Description, "a copy")
			is.True(!r.Mirror)
			is.True(!r.Empty)
			is.True(!r.Private)
			is.Equal(r.DefaultBranch, "main")
			is.Equal(r.OriginalURL, srcPub)
			is.True(r.Permissions != nil && r.Permissions.Admin)
			is.Equal(mirrorRefs(t, httpGitURL(p.dst, "bob", "copy", "", "")), mirrorRefs(t, srcPub))
			httpGitFsck(t, p.dst, "bob", "copy")

			got, _, err := p.bob.GetRepo("bob", "copy")
			is.NoErr(err)
			is.True(got.Size > 0)
			is.Equal(got.DefaultBranch, "main")
			// The copy is a repository like any other: it takes pushes.
			httpGitOK(t, p.work, "push", "-q", httpGitURL(p.dst, "bob", "copy", "bob", userPassword), "main:pushed")
		})

		t.Run("PrivateWithCredentials", func(t *testing.T) {
			is := is.New(t)
			srcPriv := httpGitURL(p.src, "alice", "priv", "", "")
			want := mirrorRefs(t, httpGitURL(p.src, "alice", "priv", "alice", userPassword))
			cases := []struct {
				name string
				opt  gitea.MigrateRepoOption
			}{
				{"password", gitea.MigrateRepoOption{CloneAddr: srcPriv, AuthUsername: "alice", AuthPassword: userPassword}},
				{"token", gitea.MigrateRepoOption{CloneAddr: srcPriv, AuthToken: p.aliceToken}},
				{"userinfo", gitea.MigrateRepoOption{CloneAddr: httpGitURL(p.src, "alice", "priv", "alice", userPassword)}},
			}
			for _, c := range cases {
				c.opt.RepoName, c.opt.Private = "priv-"+c.name, true
				r, _, err := p.bob.MigrateRepo(c.opt)
				is.NoErr(err)
				is.True(r.Private)
				is.Equal(r.OriginalURL, srcPriv) // never with credentials
				is.Equal(mirrorRefs(t, httpGitURL(p.dst, "bob", r.Name, "bob", userPassword)), want)
			}
			mirrorNotStored(t, p.dst, userPassword)
			mirrorNotStored(t, p.dst, p.aliceToken)
		})

		t.Run("RemoteRefusesOrFails", func(t *testing.T) {
			is := is.New(t)
			srcPriv := httpGitURL(p.src, "alice", "priv", "", "")
			for _, opt := range []gitea.MigrateRepoOption{
				{CloneAddr: srcPriv, RepoName: "nocreds"},
				{CloneAddr: srcPriv, RepoName: "badcreds", AuthUsername: "alice", AuthPassword: "wrong-secret-77"},
				{CloneAddr: httpGitURL(p.src, "alice", "absent", "", ""), RepoName: "absent"},
			} {
				resp := p.dst.Do("POST", "/repos/migrate", opt, basicAs("bob")...)
				assertInvalid(t, resp, "CloneAddr")
				is.True(!strings.Contains(string(resp.Body), "wrong-secret-77")) // credentials never echoed
				// Nothing is left behind, and the name is free again.
				is.Equal(p.dst.Do("GET", "/repos/bob/"+opt.RepoName, nil, basicAs("bob")...).Status, http.StatusNotFound)
				_, err := os.Stat(repoDir(p.dst, "bob", opt.RepoName))
				is.True(os.IsNotExist(err))
			}
			_, _, err := p.bob.MigrateRepo(gitea.MigrateRepoOption{CloneAddr: srcPriv, RepoName: "nocreds", AuthToken: p.aliceToken})
			is.NoErr(err)
		})

		t.Run("EmptySource", func(t *testing.T) {
			is := is.New(t)
			createRepo(t, p.alice, gitea.CreateRepoOption{Name: "empty"})
			r, _, err := p.bob.MigrateRepo(gitea.MigrateRepoOption{
				CloneAddr: httpGitURL(p.src, "alice", "empty", "", ""), RepoName: "empty-copy"})
			is.NoErr(err)
			is.True(r.Empty)
		})
	})
}

func TestMigrateOtherDefaultBranch(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	p := mirrorSetup(t)
	createRepo(t, p.alice, gitea.CreateRepoOption{Name: "trunk", DefaultBranch: "trunk"})
	work := httpGitWork(t, "trunk")
	httpGitOK(t, work, "push", "-q", httpGitURL(p.src, "alice", "trunk", "alice", userPassword), "trunk")
	r, _, err := p.bob.MigrateRepo(gitea.MigrateRepoOption{CloneAddr: httpGitURL(p.src, "alice", "trunk", "", ""), RepoName: "trunk"})
	is.NoErr(err)
	is.Equal(r.DefaultBranch, "trunk") // the main the new repository started on is no branch of the source
	head := strings.TrimSpace(httpGitOK(t, repoDir(p.dst, "bob", "trunk"), "symbolic-ref", "HEAD"))
	is.Equal(head, "refs/heads/trunk")
}

func TestMigrateRefusesDisallowedHosts(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	src := testserver.Start(t)
	dst := testserver.Start(t) // default allow list: no loopback
	_, alice := newAccount(t, src, "alice", gitea.VisibleTypePublic)
	createRepo(t, alice, gitea.CreateRepoOption{Name: "pub", AutoInit: true})
	newAccount(t, dst, "bob", gitea.VisibleTypePublic)

	for _, addr := range []string{httpGitURL(src, "alice", "pub", "", ""), "http://localhost:1/x.git", "http://[::1]/x.git"} {
		resp := dst.Do("POST", "/repos/migrate", map[string]any{"clone_addr": addr, "repo_name": "copy"}, basicAs("bob")...)
		assertInvalid(t, resp, "CloneAddr")
	}
	is.Equal(dst.Do("GET", "/repos/bob/copy", nil, basicAs("bob")...).Status, http.StatusNotFound)
}

func TestMigrateBadInput(t *testing.T) {
	t.Parallel()
	p := mirrorSetup(t)
	srcPub := httpGitURL(p.src, "alice", "pub", "", "")
	bob := basicAs("bob")

	t.Run("Unauthenticated", func(t *testing.T) {
		assertAPIError(t, p.dst.Do("POST", "/repos/migrate", map[string]any{"clone_addr": srcPub, "repo_name": "x"}),
			http.StatusUnauthorized, "token is required")
	})
	t.Run("MalformedJSON", func(t *testing.T) {
		is := is.New(t)
		is.Equal(p.dst.Do("POST", "/repos/migrate", `{"clone_addr":`, bob...).Status, http.StatusBadRequest)
	})
	t.Run("Invalid", func(t *testing.T) {
		for _, c := range []struct {
			field string
			body  map[string]any
		}{
			{"CloneAddr", map[string]any{"repo_name": "x"}},
			{"CloneAddr", map[string]any{"clone_addr": "not a url", "repo_name": "x"}},
			{"CloneAddr", map[string]any{"clone_addr": "file:///etc", "repo_name": "x"}},
			{"CloneAddr", map[string]any{"clone_addr": "/srv/repos/alice/pub.git", "repo_name": "x"}},
			{"CloneAddr", map[string]any{"clone_addr": "ftp://127.0.0.1/x.git", "repo_name": "x"}},
			{"CloneAddr", map[string]any{"clone_addr": "git://127.0.0.1/x.git", "repo_name": "x"}},
			{"RepoName", map[string]any{"clone_addr": srcPub}},
			{"RepoName", map[string]any{"clone_addr": srcPub, "repo_name": "bad name"}},
			{"RepoName", map[string]any{"clone_addr": srcPub, "repo_name": strings.Repeat("x", 101)}},
			{"MirrorInterval", map[string]any{"clone_addr": srcPub, "repo_name": "x", "mirror": true, "mirror_interval": "5m"}},
			{"MirrorInterval", map[string]any{"clone_addr": srcPub, "repo_name": "x", "mirror": true, "mirror_interval": "often"}},
			{"Uid", map[string]any{"clone_addr": srcPub, "repo_name": "x", "uid": "bob"}},
			{"Private", map[string]any{"clone_addr": srcPub, "repo_name": "x", "private": "yes"}},
		} {
			assertInvalid(t, p.dst.Do("POST", "/repos/migrate", c.body, bob...), c.field)
		}
		is.New(t).Equal(p.dst.Do("GET", "/repos/bob/x", nil, bob...).Status, http.StatusNotFound)
	})
}

func TestMigrateOwnerRules(t *testing.T) {
	t.Parallel()
	p := mirrorSetup(t)
	srcPub := httpGitURL(p.src, "alice", "pub", "", "")
	carol, _ := newAccount(t, p.dst, "carol", gitea.VisibleTypePublic)
	body := func(extra map[string]any) map[string]any {
		b := map[string]any{"clone_addr": srcPub, "repo_name": "copy"}
		for k, v := range extra {
			b[k] = v
		}
		return b
	}

	t.Run("OthersAccountIsForbidden", func(t *testing.T) {
		for _, extra := range []map[string]any{{"repo_owner": "carol"}, {"uid": carol.ID}} {
			assertAPIError(t, p.dst.Do("POST", "/repos/migrate", body(extra), basicAs("bob")...),
				http.StatusForbidden, "Given user is not an organization.")
		}
	})
	t.Run("UnknownOwner", func(t *testing.T) {
		assertInvalid(t, p.dst.Do("POST", "/repos/migrate", body(map[string]any{"repo_owner": "nobody"}), basicAs("bob")...), "RepoOwner")
		assertInvalid(t, p.dst.Do("POST", "/repos/migrate", body(map[string]any{"uid": 4242}), basicAs("bob")...), "RepoOwnerID")
	})
	t.Run("OwnAccountByUID", func(t *testing.T) {
		is := is.New(t)
		resp := p.dst.Do("POST", "/repos/migrate", body(map[string]any{"uid": p.bobUser.ID}), basicAs("bob")...)
		is.Equal(resp.Status, http.StatusCreated)
		var r gitea.Repository
		resp.Decode(t, &r)
		is.Equal(r.FullName, "bob/copy")
	})
	t.Run("NameTaken", func(t *testing.T) {
		assertAPIError(t, p.dst.Do("POST", "/repos/migrate", body(nil), basicAs("bob")...),
			http.StatusConflict, "The repository with the same name already exists.")
	})
	t.Run("AdminIntoAnyAccount", func(t *testing.T) {
		is := is.New(t)
		r, resp, err := p.dst.AdminClient().MigrateRepo(gitea.MigrateRepoOption{CloneAddr: srcPub, RepoName: "copy", RepoOwner: "carol"})
		is.NoErr(err)
		is.Equal(resp.StatusCode, http.StatusCreated)
		is.Equal(r.FullName, "carol/copy")
		_, _, err = p.dst.Client(gitea.SetBasicAuth("carol", userPassword)).GetRepo("carol", "copy")
		is.NoErr(err)
	})
}
