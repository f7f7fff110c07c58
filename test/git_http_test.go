package test

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha1"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/test/testserver"
	"github.com/matryer/is"
)

// httpGitURL is owner/name's clone URL, with credentials when user is set.
func httpGitURL(srv *testserver.Server, owner, name, user, password string) string {
	u, _ := url.Parse(srv.URL + "/" + owner + "/" + name + ".git")
	if user != "" {
		u.User = url.UserPassword(user, password)
	}
	return u.String()
}

// httpGitCmd runs git in dir with a clean configuration and no prompts, and
// returns its combined output and error.
func httpGitCmd(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_TERMINAL_PROMPT=0",
		"GIT_ASKPASS=", "SSH_ASKPASS=", "GIT_AUTHOR_NAME=test", "GIT_AUTHOR_EMAIL=test@example.com",
		"GIT_COMMITTER_NAME=test", "GIT_COMMITTER_EMAIL=test@example.com")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// httpGitOK runs git and fails the test when it fails.
func httpGitOK(t *testing.T, dir string, args ...string) string {
	t.Helper()
	return httpGitRunner(httpGitCmd).OK(t, dir, args...)
}

// httpGitFails runs git, fails the test when git succeeds, and returns its output.
func httpGitFails(t *testing.T, dir string, args ...string) string {
	t.Helper()
	return httpGitRunner(httpGitCmd).Fails(t, dir, args...)
}

// httpGitClone clones url into a new directory and returns it.
func httpGitClone(t *testing.T, url string, extra ...string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "clone")
	httpGitOK(t, t.TempDir(), append(append([]string{"clone", "-q"}, extra...), url, dst)...)
	return dst
}

// httpGitWork makes a fresh work tree on branch with one commit.
func httpGitWork(t *testing.T, branch string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "work")
	httpGitOK(t, t.TempDir(), "init", "-q", "-b", branch, dir)
	httpGitCommit(t, dir, "README.md", "hello\n", "first")
	return dir
}

// httpGitCommit writes a file and commits it, returning the new commit id.
func httpGitCommit(t *testing.T, dir, file, content, msg string) string {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, file), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	httpGitOK(t, dir, "add", file)
	httpGitOK(t, dir, "commit", "-q", "-m", msg)
	return strings.TrimSpace(httpGitOK(t, dir, "rev-parse", "HEAD"))
}

// httpGitFsck checks the server's copy of owner/name.
func httpGitFsck(t *testing.T, srv *testserver.Server, owner, name string) {
	t.Helper()
	httpGitOK(t, repoDir(srv, owner, name), "fsck", "--strict", "--no-progress")
}

// httpGitRef is the id a ref has in the server's copy, "" when absent.
func httpGitRef(t *testing.T, srv *testserver.Server, owner, name, ref string) string {
	t.Helper()
	out, err := httpGitCmd(repoDir(srv, owner, name), "rev-parse", "--verify", "-q", ref)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(out)
}

// httpGitSetup starts a server with alice (owner, public) and returns it
// with alice's client.
func httpGitSetup(t *testing.T, opts ...testserver.Option) (*testserver.Server, *gitea.Client) {
	t.Helper()
	srv := testserver.Start(t, opts...)
	_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	return srv, alice
}

func TestHTTPGitCloneFetch(t *testing.T) {
	srv, alice := httpGitSetup(t)
	createRepo(t, alice, gitea.CreateRepoOption{Name: "pub", AutoInit: true, Readme: "Default"})
	head := httpGitRef(t, srv, "alice", "pub", "refs/heads/main")

	t.Run("AnonymousPublic", func(t *testing.T) {
		is := is.New(t)
		for _, u := range []string{httpGitURL(srv, "alice", "pub", "", ""), srv.URL + "/alice/pub"} {
			dir := httpGitClone(t, u)
			is.Equal(strings.TrimSpace(httpGitOK(t, dir, "rev-parse", "HEAD")), head) // clone has the server's head
			is.Equal(strings.TrimSpace(httpGitOK(t, dir, "symbolic-ref", "HEAD")), "refs/heads/main")
		}
	})

	t.Run("Fetch", func(t *testing.T) {
		is := is.New(t)
		dir := httpGitClone(t, httpGitURL(srv, "alice", "pub", "", ""))
		work := httpGitClone(t, httpGitURL(srv, "alice", "pub", "alice", userPassword))
		id := httpGitCommit(t, work, "b.txt", "b\n", "second")
		httpGitOK(t, work, "push", "-q", "origin", "main")
		httpGitOK(t, dir, "fetch", "-q", "origin")
		is.Equal(strings.TrimSpace(httpGitOK(t, dir, "rev-parse", "origin/main")), id)
	})

	t.Run("ProtocolV2", func(t *testing.T) {
		is := is.New(t)
		dir := filepath.Join(t.TempDir(), "v2")
		cmd := exec.Command("git", "-c", "protocol.version=2", "clone", "-q", httpGitURL(srv, "alice", "pub", "", ""), dir)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_TRACE_PACKET=1")
		out, err := cmd.CombinedOutput()
		is.NoErr(err)
		is.True(strings.Contains(string(out), "version 2")) // the server spoke version 2
		// The advertisement itself, raw.
		r := srv.Do("GET", srv.URL+"/alice/pub.git/info/refs?service=git-upload-pack", nil, "Git-Protocol", "version=2")
		is.Equal(r.Status, http.StatusOK)
		is.True(strings.HasPrefix(string(r.Body), "000eversion 2\n")) // no "# service" line in v2
		r = srv.Do("GET", srv.URL+"/alice/pub.git/info/refs?service=git-upload-pack", nil)
		is.True(strings.HasPrefix(string(r.Body), "001e# service=git-upload-pack\n0000")) // v0 framing
		// A Git-Protocol value that is not plain parameters is dropped: v0.
		r = srv.Do("GET", srv.URL+"/alice/pub.git/info/refs?service=git-upload-pack", nil, "Git-Protocol", "version=2;x=$(id)")
		is.Equal(r.Status, http.StatusOK)
		is.True(strings.HasPrefix(string(r.Body), "001e# service=git-upload-pack\n0000"))
	})

	t.Run("Shallow", func(t *testing.T) {
		is := is.New(t)
		dir := httpGitClone(t, srv.URL+"/alice/pub.git", "--depth", "1")
		is.Equal(strings.TrimSpace(httpGitOK(t, dir, "rev-list", "--count", "HEAD")), "1")
		is.Equal(strings.TrimSpace(httpGitOK(t, dir, "rev-parse", "--is-shallow-repository")), "true")
	})

	t.Run("PartialClone", func(t *testing.T) {
		is := is.New(t)
		dir := httpGitClone(t, srv.URL+"/alice/pub.git", "--filter=blob:none")
		is.Equal(strings.TrimSpace(httpGitOK(t, dir, "config", "remote.origin.partialclonefilter")), "blob:none")
	})

	t.Run("Headers", func(t *testing.T) {
		is := is.New(t)
		r := srv.Do("GET", srv.URL+"/alice/pub/info/refs?service=git-upload-pack", nil)
		is.Equal(r.Status, http.StatusOK)
		is.Equal(r.Header.Get("Content-Type"), "application/x-git-upload-pack-advertisement")
		is.True(strings.HasPrefix(r.Header.Get("Cache-Control"), "no-cache"))
		r = srv.Do("GET", srv.URL+"/alice/pub/info/refs?service=git-receive-pack", nil)
		is.Equal(r.Status, http.StatusUnauthorized) // pushing needs an account
		is.Equal(r.Header.Get("WWW-Authenticate"), `Basic realm="Depot"`)
	})

	t.Run("GzipRequest", func(t *testing.T) {
		is := is.New(t)
		req := httpGitPkt("want "+head+" ofs-delta\n") + "0000" + httpGitPkt("done\n")
		var zb bytes.Buffer
		zw := gzip.NewWriter(&zb)
		_, _ = zw.Write([]byte(req))
		is.NoErr(zw.Close())
		r := srv.Do("POST", srv.URL+"/alice/pub.git/git-upload-pack", zb.Bytes(),
			"Content-Type", "application/x-git-upload-pack-request", "Content-Encoding", "gzip")
		is.Equal(r.Status, http.StatusOK)
		is.Equal(r.Header.Get("Content-Type"), "application/x-git-upload-pack-result")
		is.True(bytes.Contains(r.Body, []byte("PACK"))) // a pack came back
	})

	t.Run("Renamed", func(t *testing.T) {
		is := is.New(t)
		createRepo(t, alice, gitea.CreateRepoOption{Name: "old", AutoInit: true})
		name := "new"
		_, _, err := alice.EditRepo("alice", "old", gitea.EditRepoOption{Name: &name})
		is.NoErr(err)
		r := srv.Do("GET", srv.URL+"/alice/old.git/info/refs?service=git-upload-pack", nil)
		is.Equal(r.Status, http.StatusTemporaryRedirect)
		is.Equal(r.Header.Get("Location"), "/alice/new.git/info/refs?service=git-upload-pack")
		dir := httpGitClone(t, httpGitURL(srv, "alice", "old", "", ""))
		is.Equal(strings.TrimSpace(httpGitOK(t, dir, "rev-parse", "HEAD")), httpGitRef(t, srv, "alice", "new", "HEAD"))
	})
	httpGitFsck(t, srv, "alice", "pub")
}

// httpGitPkt frames s as a pkt-line.
func httpGitPkt(s string) string { return fmt.Sprintf("%04x%s", len(s)+4, s) }

func TestHTTPGitPrivate(t *testing.T) {
	srv, alice := httpGitSetup(t)
	newAccount(t, srv, "bob", gitea.VisibleTypePublic)
	createRepo(t, alice, gitea.CreateRepoOption{Name: "secret", AutoInit: true, Private: true})
	info := srv.URL + "/alice/secret.git/info/refs?service=git-upload-pack"

	t.Run("AnonymousAsked", func(t *testing.T) {
		is := is.New(t)
		r := srv.Do("GET", info, nil)
		is.Equal(r.Status, http.StatusUnauthorized)
		is.Equal(r.Header.Get("WWW-Authenticate"), `Basic realm="Depot"`)
		// The same for a repository that does not exist: nothing is revealed.
		r = srv.Do("GET", srv.URL+"/alice/nothing.git/info/refs?service=git-upload-pack", nil)
		is.Equal(r.Status, http.StatusUnauthorized)
		out := httpGitFails(t, t.TempDir(), "clone", "-q", httpGitURL(srv, "alice", "secret", "", ""), "x")
		is.True(strings.Contains(out, "terminal prompts disabled") || strings.Contains(out, "Authentication failed"))
	})

	t.Run("PasswordInURL", func(t *testing.T) {
		is := is.New(t)
		dir := httpGitClone(t, httpGitURL(srv, "alice", "secret", "alice", userPassword))
		is.Equal(strings.TrimSpace(httpGitOK(t, dir, "rev-parse", "HEAD")), httpGitRef(t, srv, "alice", "secret", "HEAD"))
	})

	t.Run("Token", func(t *testing.T) {
		is := is.New(t)
		tok := srv.CreateToken("alice", userPassword, "read:repository")
		httpGitClone(t, httpGitURL(srv, "alice", "secret", "alice", tok)) // token as the password
		httpGitClone(t, httpGitURL(srv, "alice", "secret", tok, ""))      // token as the user
		for _, scheme := range []string{"token ", "Bearer "} {
			r := srv.Do("GET", info, nil, "Authorization", scheme+tok)
			is.Equal(r.Status, http.StatusOK)
		}
		// A token without repository scope cannot read code.
		other := srv.CreateToken("alice", userPassword, "read:user")
		r := srv.Do("GET", info, nil, "Authorization", "token "+other)
		is.Equal(r.Status, http.StatusForbidden)
	})

	t.Run("OtherUserNotFound", func(t *testing.T) {
		is := is.New(t)
		r := srv.Do("GET", info, nil, "Authorization", testserver.Basic("bob", userPassword))
		is.Equal(r.Status, http.StatusNotFound)
		is.Equal(r.Header.Get("WWW-Authenticate"), "")
	})

	t.Run("WrongPassword", func(t *testing.T) {
		is := is.New(t)
		r := srv.Do("GET", info, nil, "Authorization", testserver.Basic("alice", "nope"))
		is.Equal(r.Status, http.StatusUnauthorized)
		httpGitFails(t, t.TempDir(), "clone", "-q", httpGitURL(srv, "alice", "secret", "alice", "nope"), "x")
	})

	t.Run("TwoFactorPasswordRefused", func(t *testing.T) {
		is := is.New(t)
		_, carol := newAccount(t, srv, "carol", gitea.VisibleTypePublic)
		createRepo(t, carol, gitea.CreateRepoOption{Name: "c", AutoInit: true, Private: true})
		tok := srv.CreateToken("carol", userPassword, "write:repository")
		_, err := srv.App.Users.EnableTOTP(context.Background(), "carol")
		is.NoErr(err)
		httpGitFails(t, t.TempDir(), "clone", "-q", httpGitURL(srv, "carol", "c", "carol", userPassword), "x")
		httpGitClone(t, httpGitURL(srv, "carol", "c", "carol", tok)) // a token still works
	})
}

func TestHTTPGitPush(t *testing.T) {
	srv, alice := httpGitSetup(t)
	createRepo(t, alice, gitea.CreateRepoOption{Name: "code", AutoInit: true})
	origin := httpGitURL(srv, "alice", "code", "alice", userPassword)
	remote := httpGitRemote{srv: srv, owner: "alice", name: "code", run: httpGitCmd,
		clone: func(t *testing.T) string { return httpGitClone(t, origin) }}
	work := remote.clone(t)

	t.Run("NewBranch", func(t *testing.T) { remote.pushNewBranch(t, alice, work) })
	t.Run("ForcePush", func(t *testing.T) { remote.forcePush(t, work) })
	t.Run("Tags", func(t *testing.T) { remote.pushTags(t, work) })

	t.Run("DeleteBranch", func(t *testing.T) {
		is := is.New(t)
		httpGitOK(t, work, "push", "-q", "origin", "--delete", "feature")
		is.Equal(httpGitRef(t, srv, "alice", "code", "refs/heads/feature"), "")
		_, resp, err := alice.GetRepoBranch("alice", "code", "feature")
		is.True(err != nil)
		is.Equal(resp.StatusCode, http.StatusNotFound)
	})

	t.Run("DefaultBranchKept", func(t *testing.T) {
		is := is.New(t)
		out := httpGitFails(t, work, "push", "origin", "--delete", "main")
		is.True(strings.Contains(out, "default branch and cannot be deleted"))
		is.True(httpGitRef(t, srv, "alice", "code", "refs/heads/main") != "")
	})

	t.Run("WriteToken", func(t *testing.T) {
		is := is.New(t)
		tok := srv.CreateToken("alice", userPassword, "write:repository")
		dir := httpGitClone(t, httpGitURL(srv, "alice", "code", "alice", tok))
		id := httpGitCommit(t, dir, "t.txt", "t\n", "by token")
		httpGitOK(t, dir, "push", "-q", "origin", "HEAD:main")
		is.Equal(httpGitRef(t, srv, "alice", "code", "refs/heads/main"), id)
	})

	t.Run("Concurrent", func(t *testing.T) { remote.pushConcurrently(t, 4) })

	t.Run("Large", func(t *testing.T) {
		is := is.New(t)
		remote.pushLarge(t, work, 20<<20)
		r, _, err := alice.GetRepo("alice", "code")
		is.NoErr(err)
		is.True(r.Size >= 20<<10) // the size (KiB) was refreshed after the push
	})
	httpGitFsck(t, srv, "alice", "code")
}

func TestHTTPGitFirstPush(t *testing.T) {
	backends(t, httpGitFirstPush)
}

// httpGitFirstPush checks what the post-receive hook records, on one backend.
func httpGitFirstPush(t *testing.T, opts ...testserver.Option) {
	srv, alice := httpGitSetup(t, opts...)

	t.Run("NewBranchBecomesDefault", func(t *testing.T) {
		is := is.New(t)
		createRepo(t, alice, gitea.CreateRepoOption{Name: "empty"})
		r, _, err := alice.GetRepo("alice", "empty")
		is.NoErr(err)
		is.True(r.Empty)
		work := httpGitWork(t, "trunk")
		id := httpGitCommit(t, work, "a.txt", "a\n", "second")
		httpGitOK(t, work, "push", "-q", httpGitURL(srv, "alice", "empty", "alice", userPassword), "trunk")
		r, _, err = alice.GetRepo("alice", "empty")
		is.NoErr(err)
		is.True(!r.Empty)                  // the first push fills the repository
		is.Equal(r.DefaultBranch, "trunk") // and names its default branch
		stored, err := srv.App.DB.Stores().Repos.GetByFullName(context.Background(), "alice", "empty")
		is.NoErr(err)
		is.True(stored.Size > 0) // whose size is known
		head := strings.TrimSpace(httpGitOK(t, repoDir(srv, "alice", "empty"), "symbolic-ref", "HEAD"))
		is.Equal(head, "refs/heads/trunk") // HEAD follows
		dir := httpGitClone(t, httpGitURL(srv, "alice", "empty", "", ""))
		is.Equal(strings.TrimSpace(httpGitOK(t, dir, "rev-parse", "HEAD")), id)
		httpGitFsck(t, srv, "alice", "empty")
	})

	t.Run("DefaultKeptWhenPushed", func(t *testing.T) {
		is := is.New(t)
		createRepo(t, alice, gitea.CreateRepoOption{Name: "empty2"})
		work := httpGitWork(t, "main")
		httpGitOK(t, work, "branch", "aaa")
		httpGitOK(t, work, "push", "-q", httpGitURL(srv, "alice", "empty2", "alice", userPassword), "aaa", "main")
		r, _, err := alice.GetRepo("alice", "empty2")
		is.NoErr(err)
		is.True(!r.Empty)
		is.Equal(r.DefaultBranch, "main")
	})

	t.Run("TagsOnlyStaysEmpty", func(t *testing.T) {
		is := is.New(t)
		createRepo(t, alice, gitea.CreateRepoOption{Name: "empty3"})
		work := httpGitWork(t, "main")
		httpGitOK(t, work, "tag", "v1")
		httpGitOK(t, work, "push", "-q", httpGitURL(srv, "alice", "empty3", "alice", userPassword), "v1")
		r, _, err := alice.GetRepo("alice", "empty3")
		is.NoErr(err)
		is.True(r.Empty) // no branch yet
	})
}

func TestHTTPGitPushRefused(t *testing.T) {
	srv, alice := httpGitSetup(t)
	newAccount(t, srv, "reader", gitea.VisibleTypePublic)
	newAccount(t, srv, "writer", gitea.VisibleTypePublic)
	createRepo(t, alice, gitea.CreateRepoOption{Name: "code", AutoInit: true})
	read, write := gitea.AccessModeRead, gitea.AccessModeWrite
	_, err := alice.AddCollaborator("alice", "code", "reader", gitea.AddCollaboratorOption{Permission: &read})
	if err != nil {
		t.Fatal(err)
	}
	_, err = alice.AddCollaborator("alice", "code", "writer", gitea.AddCollaboratorOption{Permission: &write})
	if err != nil {
		t.Fatal(err)
	}
	work := httpGitClone(t, httpGitURL(srv, "alice", "code", "", ""))
	before := httpGitRef(t, srv, "alice", "code", "refs/heads/main")
	httpGitCommit(t, work, "x.txt", "x\n", "attempt")
	push := func(user, password string, refspec string) (string, error) {
		return httpGitCmd(work, "push", httpGitURL(srv, "alice", "code", user, password), refspec)
	}

	t.Run("Anonymous", func(t *testing.T) {
		is := is.New(t)
		_, err := push("", "", "HEAD:main")
		is.True(err != nil)
		r := srv.Do("POST", srv.URL+"/alice/code.git/git-receive-pack", "0000",
			"Content-Type", "application/x-git-receive-pack-request")
		is.Equal(r.Status, http.StatusUnauthorized)
		is.Equal(r.Header.Get("WWW-Authenticate"), `Basic realm="Depot"`)
	})

	t.Run("Reader", func(t *testing.T) {
		is := is.New(t)
		_, err := push("reader", userPassword, "HEAD:main")
		is.True(err != nil)
		r := srv.Do("GET", srv.URL+"/alice/code.git/info/refs?service=git-receive-pack", nil, basicAs("reader")...)
		is.Equal(r.Status, http.StatusForbidden)
		is.True(strings.Contains(string(r.Body), "permission to push"))
		// The reader may still clone.
		httpGitClone(t, httpGitURL(srv, "alice", "code", "reader", userPassword))
	})

	t.Run("ReadToken", func(t *testing.T) {
		is := is.New(t)
		tok := srv.CreateToken("alice", userPassword, "read:repository")
		_, err := push("alice", tok, "HEAD:main")
		is.True(err != nil)
		r := srv.Do("GET", srv.URL+"/alice/code.git/info/refs?service=git-receive-pack", nil, "Authorization", "token "+tok)
		is.Equal(r.Status, http.StatusForbidden)
	})

	t.Run("ForbiddenRefs", func(t *testing.T) {
		is := is.New(t)
		for _, ref := range []string{"refs/heads/-x", "refs/pull/1/head", "refs/heads/HEAD", "refs/notes/x"} {
			out, err := push("writer", userPassword, "HEAD:"+ref)
			is.True(err != nil) // refused by the pre-receive hook
			is.True(strings.Contains(out, "refusing"))
			is.Equal(httpGitRef(t, srv, "alice", "code", ref), "")
		}
	})

	t.Run("Archived", func(t *testing.T) {
		is := is.New(t)
		createRepo(t, alice, gitea.CreateRepoOption{Name: "old", AutoInit: true})
		yes := true
		_, _, err := alice.EditRepo("alice", "old", gitea.EditRepoOption{Archived: &yes})
		is.NoErr(err)
		w := httpGitClone(t, httpGitURL(srv, "alice", "old", "alice", userPassword)) // clone still works
		httpGitCommit(t, w, "y.txt", "y\n", "late")
		out := httpGitFails(t, w, "push", "origin", "HEAD:main")
		is.True(strings.Contains(out, "archived"))
	})

	t.Run("Mirror", func(t *testing.T) {
		is := is.New(t)
		createRepo(t, alice, gitea.CreateRepoOption{Name: "mirror", AutoInit: true})
		ctx := context.Background()
		st := srv.App.DB.Stores()
		r, err := st.Repos.GetByFullName(ctx, "alice", "mirror")
		is.NoErr(err)
		r.IsMirror = true
		is.NoErr(st.Repos.Update(ctx, r))
		w := httpGitClone(t, httpGitURL(srv, "alice", "mirror", "alice", userPassword))
		httpGitCommit(t, w, "y.txt", "y\n", "late")
		out := httpGitFails(t, w, "push", "origin", "HEAD:main")
		is.True(strings.Contains(out, "mirror repository is read-only"))
	})

	t.Run("WriterAllowed", func(t *testing.T) {
		is := is.New(t)
		_, err := push("writer", userPassword, "HEAD:refs/heads/from-writer")
		is.NoErr(err)
		is.True(httpGitRef(t, srv, "alice", "code", "refs/heads/from-writer") != "")
	})
	is.New(t).Equal(httpGitRef(t, srv, "alice", "code", "refs/heads/main"), before) // main never moved
	httpGitFsck(t, srv, "alice", "code")
}

// httpGitEmptyPack is a valid pack with no objects.
func httpGitEmptyPack() string {
	head := []byte("PACK\x00\x00\x00\x02\x00\x00\x00\x00")
	sum := sha1.Sum(head)
	return string(head) + string(sum[:])
}

func TestHTTPGitBadInput(t *testing.T) {
	srv, alice := httpGitSetup(t)
	createRepo(t, alice, gitea.CreateRepoOption{Name: "code", AutoInit: true})
	head := httpGitRef(t, srv, "alice", "code", "refs/heads/main")
	base := srv.URL + "/alice/code.git"
	auth := basicAs("alice")
	zero := strings.Repeat("0", 40)

	cases := []struct {
		name, method, path, body string
		header                   []string
		status                   int
	}{
		{"UnknownService", "GET", "/info/refs?service=git-upload-archive", "", nil, http.StatusForbidden},
		{"BogusService", "GET", "/info/refs?service=--upload-pack=touch", "", nil, http.StatusForbidden},
		{"NoService", "GET", "/info/refs", "", nil, http.StatusForbidden},
		{"PostInfoRefs", "POST", "/info/refs?service=git-upload-pack", "x", nil, http.StatusMethodNotAllowed},
		{"GetUploadPack", "GET", "/git-upload-pack", "", nil, http.StatusMethodNotAllowed},
		{"WrongContentType", "POST", "/git-upload-pack", "0000", []string{"Content-Type", "text/plain"}, http.StatusUnsupportedMediaType},
		{"BadGzip", "POST", "/git-upload-pack", "not gzip", []string{"Content-Type", "application/x-git-upload-pack-request",
			"Content-Encoding", "gzip"}, http.StatusBadRequest},
		{"UnknownEncoding", "POST", "/git-upload-pack", "0000", []string{"Content-Type", "application/x-git-upload-pack-request",
			"Content-Encoding", "br"}, http.StatusUnsupportedMediaType},
		{"MalformedPktLine", "POST", "/git-upload-pack", "zzzzgarbage", []string{"Content-Type",
			"application/x-git-upload-pack-request"}, http.StatusBadRequest},
		{"MalformedReceive", "POST", "/git-receive-pack", "zzzzgarbage", append([]string{"Content-Type",
			"application/x-git-receive-pack-request"}, auth...), http.StatusBadRequest},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			var body any
			if tc.body != "" {
				body = tc.body
			}
			r := srv.Do(tc.method, base+tc.path, body, tc.header...)
			is.Equal(r.Status, tc.status)
		})
	}

	t.Run("EncodedSlash", func(t *testing.T) {
		is := is.New(t)
		for _, p := range []string{"/alice%2Fcode/x.git", "/alice/..%2Fcode.git", "/alice/code%00.git"} {
			r := srv.Do("GET", srv.URL+p+"/info/refs?service=git-upload-pack", nil)
			is.Equal(r.Status, http.StatusNotFound)
		}
	})

	t.Run("FunnyRefs", func(t *testing.T) {
		is := is.New(t)
		// A raw push of names git itself refuses, and of a name that reads as an option.
		for _, ref := range []string{"refs/heads/a..b", "refs/heads/-x", "refs/heads/x.lock", "refs/heads/ a"} {
			cmd := httpGitPkt(zero+" "+head+" "+ref+"\x00 report-status\n") + "0000" + httpGitEmptyPack()
			r := srv.Do("POST", base+"/git-receive-pack", cmd, append([]string{"Content-Type",
				"application/x-git-receive-pack-request"}, auth...)...)
			is.True(r.Status < 500)
			is.True(!bytes.Contains(r.Body, []byte("ok "+ref))) // never accepted
			is.Equal(httpGitRef(t, srv, "alice", "code", ref), "")
		}
	})

	t.Run("TruncatedPack", func(t *testing.T) {
		is := is.New(t)
		work := httpGitClone(t, base)
		id := httpGitCommit(t, work, "z.txt", strings.Repeat("z", 10000), "z")
		packCmd := exec.Command("git", "pack-objects", "--stdout", "--revs", "-q")
		packCmd.Dir = work
		packCmd.Stdin = strings.NewReader(id + "\n^" + head + "\n")
		data, err := packCmd.Output()
		is.NoErr(err)
		cmd := httpGitPkt(head+" "+id+" refs/heads/main\x00 report-status\n") + "0000" + string(data[:len(data)/2])
		r := srv.Do("POST", base+"/git-receive-pack", cmd, append([]string{"Content-Type",
			"application/x-git-receive-pack-request"}, auth...)...)
		is.True(r.Status < 500)
		is.True(!bytes.Contains(r.Body, []byte("ok refs/heads/main")))
		is.Equal(httpGitRef(t, srv, "alice", "code", "refs/heads/main"), head) // nothing moved
	})

	t.Run("HookEndpointHidden", func(t *testing.T) {
		is := is.New(t)
		body := `{"repo_id":1,"pusher_id":1,"changes":[]}`
		r := srv.Do("POST", srv.URL+"/api/internal/hook/pre-receive", body)
		is.Equal(r.Status, http.StatusNotFound) // no secret
		r = srv.Do("POST", srv.URL+"/api/internal/hook/post-receive", body, "Authorization", "Bearer nope")
		is.Equal(r.Status, http.StatusNotFound) // wrong secret
	})

	t.Run("HookOutsideService", func(t *testing.T) {
		is := is.New(t)
		// The hook scripts refuse to run without the service's environment.
		cmd := exec.Command(filepath.Join(srv.DataDir, "hooks", "pre-receive"))
		cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
		cmd.Stdin = strings.NewReader(zero + " " + head + " refs/heads/x\n")
		out, err := cmd.CombinedOutput()
		is.True(err != nil)
		is.True(strings.Contains(string(out), "not run by the Depot service"))
	})
	httpGitFsck(t, srv, "alice", "code")
}
