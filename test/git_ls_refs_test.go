package test

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/test/testserver"
	"github.com/matryer/is"
)

// v2Body is a protocol-v2 request for command with args as its arguments,
// as git's client sends it.
func v2Body(command string, args ...string) string {
	b := httpGitPkt("command="+command+"\n") + httpGitPkt("agent=git/2.39.5\n") + httpGitPkt("object-format=sha1\n") +
		"0001"
	for _, a := range args {
		b += httpGitPkt(a + "\n")
	}
	return b + "0000"
}

// lsRefsBody is a protocol-v2 ls-refs request with args as its arguments.
func lsRefsBody(args ...string) string { return v2Body("ls-refs", args...) }

// gitUploadPackDirect runs git upload-pack on the bare repository dir the
// way the server does, with the server's environment, and returns its
// output: what Depot must answer byte for byte.
func gitUploadPackDirect(t *testing.T, dir string, advertise bool, stdin string) []byte {
	t.Helper()
	args := []string{"-c", "uploadpack.allowFilter=true", "upload-pack", "--stateless-rpc"}
	if advertise {
		args = append(args, "--advertise-refs")
	}
	cmd := exec.Command("git", append(args, dir)...)
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") && !strings.HasPrefix(kv, "DEPOT_") {
			env = append(env, kv)
		}
	}
	cmd.Env = append(env, "GIT_PROTOCOL=version=2")
	cmd.Stdin = strings.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git upload-pack: %v\n%s", err, stderr.String())
	}
	return out
}

// lsRefsCompare posts body to owner/name's git-upload-pack with protocol
// version 2 (and header) and checks the answer against git's own.
func lsRefsCompare(t *testing.T, srv *testserver.Server, owner, name, body string, header ...string) {
	t.Helper()
	r := srv.Do("POST", srv.URL+"/"+owner+"/"+name+".git/git-upload-pack", body,
		append([]string{"Content-Type", "application/x-git-upload-pack-request", "Git-Protocol", "version=2"}, header...)...)
	if r.Status != http.StatusOK {
		t.Fatalf("ls-refs: status %d: %s", r.Status, r.Body)
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/x-git-upload-pack-result" {
		t.Fatalf("ls-refs: Content-Type %q", ct)
	}
	want := gitUploadPackDirect(t, repoDir(srv, owner, name), false, body)
	if !bytes.Equal(r.Body, want) {
		t.Fatalf("ls-refs %q:\n got %q\nwant %q", body, r.Body, want)
	}
}

// lsRefsArgumentSets are the argument lists compared with git's answers.
var lsRefsArgumentSets = [][]string{
	nil,
	{"peel"},
	{"symrefs"},
	{"peel", "symrefs"},
	{"unborn"},
	{"symrefs", "unborn"},
	{"peel", "symrefs", "unborn", "ref-prefix HEAD", "ref-prefix refs/heads/", "ref-prefix refs/tags/"},
	{"ref-prefix refs/tags/"},
	{"ref-prefix refs/heads/d", "ref-prefix refs/tags/v1"},
	{"symrefs", "ref-prefix HEAD"},
	{"ref-prefix refs/heads/[d]*"},
	{"ref-prefix "},
	{"ref-prefix refs/nothing/"},
	{"peel", "symrefs", "ref-prefix refs/remotes/"},
}

func TestGitLsRefs(t *testing.T) {
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		srv, alice := httpGitSetup(t, opts...)
		createRepo(t, alice, gitea.CreateRepoOption{Name: "refs", AutoInit: true, Readme: "Default"})
		createRepo(t, alice, gitea.CreateRepoOption{Name: "empty"})
		dir := repoDir(srv, "alice", "refs")

		// Branches, a lightweight tag, annotated tags (one of a tag), and HEAD on
		// a branch other than main, pushed over HTTP.
		work := httpGitClone(t, httpGitURL(srv, "alice", "refs", "alice", userPassword))
		httpGitOK(t, work, "checkout", "-q", "-b", "dev")
		httpGitCommit(t, work, "d.txt", "d\n", "on dev")
		httpGitOK(t, work, "tag", "v1.0")
		httpGitOK(t, work, "tag", "-a", "-m", "annotated", "v1.1")
		httpGitOK(t, work, "tag", "-a", "-m", "of a tag", "v1.1-outer", "v1.1")
		httpGitOK(t, work, "push", "-q", "origin", "dev", "v1.0", "v1.1", "v1.1-outer")
		dev := "dev"
		_, _, err := alice.EditRepo("alice", "refs", gitea.EditRepoOption{DefaultBranch: &dev})
		is.New(t).NoErr(err)
		// A symbolic ref besides HEAD.
		httpGitOK(t, dir, "symbolic-ref", "refs/remotes/mirror/HEAD", "refs/heads/main")

		t.Run("Advertisement", func(t *testing.T) {
			is := is.New(t)
			want := gitUploadPackDirect(t, dir, true, "")
			for range 2 { // asked of git, then kept
				r := srv.Do("GET", srv.URL+"/alice/refs.git/info/refs?service=git-upload-pack", nil, "Git-Protocol", "version=2")
				is.Equal(r.Status, http.StatusOK)
				is.Equal(r.Header.Get("Content-Type"), "application/x-git-upload-pack-advertisement")
				is.Equal(string(r.Body), string(want))
			}
			// A change of the repository's configuration is seen at once;
			// git's session id is new with every answer.
			httpGitOK(t, dir, "config", "transfer.advertiseSID", "true")
			defer httpGitOK(t, dir, "config", "--unset", "transfer.advertiseSID")
			var ids []string
			for range 2 {
				r := srv.Do("GET", srv.URL+"/alice/refs.git/info/refs?service=git-upload-pack", nil, "Git-Protocol", "version=2")
				_, id, ok := strings.Cut(string(r.Body), "session-id=")
				is.True(ok)
				ids = append(ids, id)
			}
			is.True(ids[0] != ids[1])
			lsRefsCompare(t, srv, "alice", "refs", lsRefsBody("symrefs")) // a request without a session id
			lsRefsCompare(t, srv, "alice", "refs", strings.Replace(lsRefsBody("symrefs"), "0001",
				httpGitPkt("session-id=client-1\n")+"0001", 1))
		})

		t.Run("Loose", func(t *testing.T) {
			for _, args := range lsRefsArgumentSets {
				lsRefsCompare(t, srv, "alice", "refs", lsRefsBody(args...))
			}
		})

		t.Run("Packed", func(t *testing.T) {
			httpGitOK(t, dir, "pack-refs", "--all")
			for _, args := range lsRefsArgumentSets {
				lsRefsCompare(t, srv, "alice", "refs", lsRefsBody(args...))
			}
		})

		t.Run("AfterPush", func(t *testing.T) {
			// New objects and refs show at once (the refs are read on every
			// request; a kept repository handle rereads its packs).
			httpGitCommit(t, work, "e.txt", "e\n", "later")
			httpGitOK(t, work, "tag", "-a", "-m", "later", "v2.0")
			httpGitOK(t, work, "push", "-q", "origin", "dev:later", "v2.0")
			for _, args := range lsRefsArgumentSets {
				lsRefsCompare(t, srv, "alice", "refs", lsRefsBody(args...))
			}
		})

		t.Run("EmptyRepository", func(t *testing.T) {
			for _, args := range lsRefsArgumentSets {
				lsRefsCompare(t, srv, "alice", "empty", lsRefsBody(args...))
			}
		})

		t.Run("UnbornIgnored", func(t *testing.T) {
			empty := repoDir(srv, "alice", "empty")
			httpGitOK(t, empty, "config", "lsrefs.unborn", "ignore")
			defer httpGitOK(t, empty, "config", "--unset", "lsrefs.unborn")
			lsRefsCompare(t, srv, "alice", "empty", lsRefsBody("symrefs", "unborn"))
		})

		t.Run("HiddenRefs", func(t *testing.T) {
			httpGitOK(t, dir, "config", "uploadpack.hideRefs", "refs/tags/")
			defer httpGitOK(t, dir, "config", "--unset", "uploadpack.hideRefs")
			lsRefsCompare(t, srv, "alice", "refs", lsRefsBody("peel", "symrefs"))
		})

		t.Run("ManyPrefixes", func(t *testing.T) {
			for _, n := range []int{99, 100, 150, 5000} {
				args := []string{"symrefs"}
				for i := range n {
					args = append(args, fmt.Sprintf("ref-prefix refs/heads/x%d", i))
				}
				lsRefsCompare(t, srv, "alice", "refs", lsRefsBody(args...))
			}
		})

		t.Run("UnusualRequests", func(t *testing.T) {
			// Requests git answers in its own way are given to git: the
			// answers still match, whatever they are.
			for _, body := range []string{
				httpGitPkt("command=ls-refs\n") + "0000",
				httpGitPkt("command=ls-refs") + "0001" + httpGitPkt("peel") + "0000",
				httpGitPkt("agent=x\n") + httpGitPkt("command=ls-refs\n") + "0001" + httpGitPkt("symrefs\n") + "0000",
			} {
				lsRefsCompare(t, srv, "alice", "refs", body)
			}
			for _, body := range []string{
				httpGitPkt("command=ls-refs\n") + "0001" + httpGitPkt("bogus\n") + "0000",
				httpGitPkt("command=ls-refs\n") + httpGitPkt("object-format=sha256\n") + "0001" + "0000",
				httpGitPkt("command=ls-refs\n") + "0001" + httpGitPkt("peel\n"),
				httpGitPkt("command=ls-refs\n") + "zzzz",
				"0001",
			} {
				r := srv.Do("POST", srv.URL+"/alice/refs.git/git-upload-pack", body,
					"Content-Type", "application/x-git-upload-pack-request", "Git-Protocol", "version=2")
				is.New(t).Equal(r.Status, http.StatusBadRequest) // git's refusal, as before
			}
		})

		t.Run("Clients", func(t *testing.T) {
			is := is.New(t)
			url := httpGitURL(srv, "alice", "refs", "", "")
			clone := httpGitClone(t, url, "-c", "protocol.version=2")
			is.Equal(strings.TrimSpace(httpGitOK(t, clone, "symbolic-ref", "HEAD")), "refs/heads/dev")
			is.Equal(strings.TrimSpace(httpGitOK(t, clone, "rev-parse", "v1.1-outer^{commit}")),
				strings.TrimSpace(httpGitOK(t, dir, "rev-parse", "dev")))
			httpGitOK(t, clone, "tag", "-d", "v1.0")
			httpGitOK(t, clone, "-c", "protocol.version=2", "fetch", "-q", "--tags", "origin")
			is.Equal(strings.TrimSpace(httpGitOK(t, clone, "rev-parse", "v1.0")), strings.TrimSpace(httpGitOK(t, dir, "rev-parse", "v1.0")))
			for _, c := range []struct{ opts, patterns []string }{
				{nil, nil}, {nil, []string{"refs/tags/*"}}, {nil, []string{"v1.1*", "main"}},
				{[]string{"--heads"}, nil}, {[]string{"--symref"}, []string{"HEAD"}},
			} {
				ls := func(remote string) string {
					args := append(append([]string{"-c", "protocol.version=2", "ls-remote"}, c.opts...), remote)
					return httpGitOK(t, clone, append(args, c.patterns...)...)
				}
				is.Equal(ls(url), ls(dir))
			}
			empty := httpGitClone(t, httpGitURL(srv, "alice", "empty", "", ""), "-c", "protocol.version=2")
			is.Equal(strings.TrimSpace(httpGitOK(t, empty, "symbolic-ref", "HEAD")), "refs/heads/main")
		})

		t.Run("BrokenRefs", func(t *testing.T) {
			// A ref naming a missing object is listed, a symbolic ref naming
			// no ref is not, as git does.
			is := is.New(t)
			broken := filepath.Join(dir, "refs", "heads", "broken")
			dangling := filepath.Join(dir, "refs", "heads", "dangling")
			is.NoErr(os.WriteFile(broken, []byte(strings.Repeat("1", 40)+"\n"), 0o644))
			is.NoErr(os.WriteFile(dangling, []byte("ref: refs/heads/nothing\n"), 0o644))
			defer func() { is.NoErr(errors.Join(os.Remove(broken), os.Remove(dangling))) }()
			for _, args := range lsRefsArgumentSets {
				lsRefsCompare(t, srv, "alice", "refs", lsRefsBody(args...))
			}
		})

		t.Run("DetachedHeadAndTagOfATree", func(t *testing.T) {
			createRepo(t, alice, gitea.CreateRepoOption{Name: "odd", AutoInit: true, Readme: "Default"})
			odd := repoDir(srv, "alice", "odd")
			httpGitOK(t, odd, "tag", "-a", "-m", "a tree", "tree-tag", "main^{tree}")
			httpGitOK(t, odd, "update-ref", "--no-deref", "HEAD", "main")
			for _, args := range lsRefsArgumentSets {
				lsRefsCompare(t, srv, "alice", "odd", lsRefsBody(args...))
			}
		})

		t.Run("Private", func(t *testing.T) {
			is := is.New(t)
			newAccount(t, srv, "bob", gitea.VisibleTypePublic)
			createRepo(t, alice, gitea.CreateRepoOption{Name: "secret", AutoInit: true, Private: true})
			post := func(header ...string) int {
				return srv.Do("POST", srv.URL+"/alice/secret.git/git-upload-pack", lsRefsBody("symrefs"),
					append([]string{"Content-Type", "application/x-git-upload-pack-request", "Git-Protocol", "version=2"}, header...)...).Status
			}
			get := func(header ...string) int {
				return srv.Do("GET", srv.URL+"/alice/secret.git/info/refs?service=git-upload-pack", nil,
					append([]string{"Git-Protocol", "version=2"}, header...)...).Status
			}
			is.Equal(get("Authorization", testserver.Basic("alice", userPassword)), http.StatusOK) // kept for alice
			is.Equal(get(), http.StatusUnauthorized)
			is.Equal(post(), http.StatusUnauthorized)
			is.Equal(get("Authorization", testserver.Basic("bob", userPassword)), http.StatusNotFound)
			is.Equal(post("Authorization", testserver.Basic("bob", userPassword)), http.StatusNotFound)
			lsRefsCompare(t, srv, "alice", "secret", lsRefsBody("symrefs"), "Authorization", testserver.Basic("alice", userPassword))
		})
	})
}
