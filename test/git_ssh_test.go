package test

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"
	"golang.org/x/crypto/ssh"

	"github.com/depothq/depot/adapters/sshd"
	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/test/testserver"
)

// sshGitKey is a key pair made for a test: the private half in a 0600 file
// for the ssh CLI, the signer for the Go client, the authorized-keys line
// for the API.
type sshGitKey struct {
	Path       string
	Signer     ssh.Signer
	Authorized string
}

// sshGitNewKey makes an ed25519 key pair.
func sshGitNewKey(t *testing.T) sshGitKey {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	block, err := ssh.MarshalPrivateKey(priv, "test")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "id_ed25519")
	if err := os.WriteFile(path, pem.EncodeToMemory(block), 0o600); err != nil {
		t.Fatal(err)
	}
	signer, err := ssh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return sshGitKey{Path: path, Signer: signer,
		Authorized: strings.TrimSpace(string(ssh.MarshalAuthorizedKey(signer.PublicKey())))}
}

// sshGitUserKey makes a key and registers it with POST /user/keys.
func sshGitUserKey(t *testing.T, c *gitea.Client, title string) (sshGitKey, *gitea.PublicKey) {
	t.Helper()
	k := sshGitNewKey(t)
	pk, _, err := c.CreatePublicKey(gitea.CreateKeyOption{Title: title, Key: k.Authorized})
	if err != nil {
		t.Fatalf("add key %s: %v", title, err)
	}
	return k, pk
}

// sshGitDeployKey makes a key and adds it to owner/repo with POST R/keys.
func sshGitDeployKey(t *testing.T, c *gitea.Client, owner, repo, title string, readOnly bool) (sshGitKey, *gitea.DeployKey) {
	t.Helper()
	k := sshGitNewKey(t)
	dk, _, err := c.CreateDeployKey(owner, repo, gitea.CreateKeyOption{Title: title, Key: k.Authorized, ReadOnly: readOnly})
	if err != nil {
		t.Fatalf("add deploy key %s: %v", title, err)
	}
	return k, dk
}

// sshGitURL is owner/name's SSH clone URL on srv.
func sshGitURL(srv *testserver.Server, owner, name string) string {
	return "ssh://git@" + srv.SSHAddr + "/" + owner + "/" + name + ".git"
}

// sshGitCmd runs git in dir with a clean configuration, speaking SSH with
// key only, and returns its combined output and error.
func sshGitCmd(srv *testserver.Server, key sshGitKey, dir string, extraEnv []string, args ...string) (string, error) {
	_, port, _ := net.SplitHostPort(srv.SSHAddr)
	sshCmd := "ssh -F /dev/null -i " + key.Path + " -o IdentitiesOnly=yes -o IdentityAgent=none -o BatchMode=yes" +
		" -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -p " + port
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_TERMINAL_PROMPT=0",
		"GIT_SSH_COMMAND="+sshCmd, "GIT_AUTHOR_NAME=test", "GIT_AUTHOR_EMAIL=test@example.com",
		"GIT_COMMITTER_NAME=test", "GIT_COMMITTER_EMAIL=test@example.com")
	cmd.Env = append(cmd.Env, extraEnv...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// sshGitRunner runs git over SSH with key.
func sshGitRunner(srv *testserver.Server, key sshGitKey) httpGitRunner {
	return func(dir string, args ...string) (string, error) { return sshGitCmd(srv, key, dir, nil, args...) }
}

// sshGitOK runs git over SSH and fails the test when it fails.
func sshGitOK(t *testing.T, srv *testserver.Server, key sshGitKey, dir string, args ...string) string {
	t.Helper()
	return sshGitRunner(srv, key).OK(t, dir, args...)
}

// sshGitFails runs git over SSH, fails the test when git succeeds, and
// returns its output.
func sshGitFails(t *testing.T, srv *testserver.Server, key sshGitKey, dir string, args ...string) string {
	t.Helper()
	return sshGitRunner(srv, key).Fails(t, dir, args...)
}

// sshGitClone clones owner/name over SSH into a new directory.
func sshGitClone(t *testing.T, srv *testserver.Server, key sshGitKey, owner, name string, extra ...string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "clone")
	sshGitOK(t, srv, key, t.TempDir(), append(append([]string{"clone", "-q"}, extra...), sshGitURL(srv, owner, name), dst)...)
	return dst
}

// sshGitRemote is owner/name reached over SSH with key.
func sshGitRemote(srv *testserver.Server, key sshGitKey, owner, name string) httpGitRemote {
	return httpGitRemote{srv: srv, owner: owner, name: name, run: sshGitRunner(srv, key),
		clone: func(t *testing.T) string { return sshGitClone(t, srv, key, owner, name) }}
}

// sshGitPushes clones owner/name with key, commits and pushes the commit to
// branch, and checks that the server has it. It answers the clone.
func sshGitPushes(t *testing.T, srv *testserver.Server, key sshGitKey, owner, name, branch string) string {
	t.Helper()
	work := sshGitClone(t, srv, key, owner, name)
	id := httpGitCommit(t, work, branch+".txt", branch+"\n", "to "+branch)
	sshGitOK(t, srv, key, work, "push", "-q", "origin", "HEAD:refs/heads/"+branch)
	is.New(t).Equal(httpGitRef(t, srv, owner, name, "refs/heads/"+branch), id)
	return work
}

// sshGitPushRefused clones owner/name with key, commits, and checks that the
// push to branch is refused saying says and that the branch stays absent.
func sshGitPushRefused(t *testing.T, srv *testserver.Server, key sshGitKey, owner, name, branch, says string) {
	t.Helper()
	is := is.New(t)
	work := sshGitClone(t, srv, key, owner, name)
	httpGitCommit(t, work, branch+".txt", branch+"\n", "to "+branch)
	out := sshGitFails(t, srv, key, work, "push", "origin", "HEAD:refs/heads/"+branch)
	is.True(strings.Contains(out, says))
	is.Equal(httpGitRef(t, srv, owner, name, "refs/heads/"+branch), "")
}

// sshGitHostKey is the public host key the server keeps in its data directory.
func sshGitHostKey(t *testing.T, srv *testserver.Server) ssh.PublicKey {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(srv.DataDir, "ssh", sshd.HostKeyFile))
	if err != nil {
		t.Fatal(err)
	}
	signer, err := ssh.ParsePrivateKey(data)
	if err != nil {
		t.Fatal(err)
	}
	return signer.PublicKey()
}

// sshGitDial connects with the Go client as user with key, checking the host key.
func sshGitDial(t *testing.T, srv *testserver.Server, user string, key sshGitKey) (*ssh.Client, error) {
	t.Helper()
	c, err := ssh.Dial("tcp", srv.SSHAddr, &ssh.ClientConfig{
		User: user, Auth: []ssh.AuthMethod{ssh.PublicKeys(key.Signer)},
		HostKeyCallback: ssh.FixedHostKey(sshGitHostKey(t, srv)), Timeout: 10 * time.Second,
	})
	if err == nil {
		t.Cleanup(func() { _ = c.Close() })
	}
	return c, err
}

// sshGitExec runs command on a new session and returns its exit status and stderr.
func sshGitExec(t *testing.T, c *ssh.Client, command string) (int, string) {
	t.Helper()
	sess, err := c.NewSession()
	if err != nil {
		t.Fatalf("session: %v", err)
	}
	defer sess.Close()
	var stderr bytes.Buffer
	sess.Stderr = &stderr
	err = sess.Run(command)
	var exit *ssh.ExitError
	switch {
	case err == nil:
		return 0, stderr.String()
	case errors.As(err, &exit):
		return exit.ExitStatus(), stderr.String()
	}
	t.Fatalf("run %q: %v", command, err)
	return -1, ""
}

func TestSSHGitCloneFetchPush(t *testing.T) {
	t.Parallel()
	backends(t, sshGitCloneFetchPush)
}

// sshGitCloneFetchPush is the everyday Git work over SSH, on one backend.
func sshGitCloneFetchPush(t *testing.T, opts ...testserver.Option) {
	srv := testserver.Start(t, append(opts, testserver.WithSSH())...)
	_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	createRepo(t, alice, gitea.CreateRepoOption{Name: "code", AutoInit: true, Readme: "Default"})
	key, pk := sshGitUserKey(t, alice, "laptop")
	remote := sshGitRemote(srv, key, "alice", "code")
	work := remote.clone(t)

	t.Run("CloneURL", func(t *testing.T) {
		is := is.New(t)
		r, _, err := alice.GetRepo("alice", "code")
		is.NoErr(err)
		is.Equal(r.SSHURL, sshGitURL(srv, "alice", "code")) // the SSH server's port
		dir := filepath.Join(t.TempDir(), "byurl")
		sshGitOK(t, srv, key, t.TempDir(), "clone", "-q", r.SSHURL, dir)
		is.Equal(strings.TrimSpace(httpGitOK(t, dir, "rev-parse", "HEAD")), httpGitRef(t, srv, "alice", "code", "refs/heads/main"))
		// The path without .git, and without the leading slash (scp form,
		// the port coming from the ssh command), works too.
		out := sshGitOK(t, srv, key, t.TempDir(), "ls-remote", "ssh://git@"+srv.SSHAddr+"/alice/code")
		is.True(strings.Contains(out, "refs/heads/main"))
		host, _, _ := net.SplitHostPort(srv.SSHAddr)
		out = sshGitOK(t, srv, key, t.TempDir(), "ls-remote", "git@"+host+":alice/code.git")
		is.True(strings.Contains(out, "refs/heads/main"))
	})

	t.Run("LastUsed", func(t *testing.T) {
		is := is.New(t)
		r := srv.Do("GET", fmt.Sprintf("/user/keys/%d", pk.ID), nil, basicAs("alice")...)
		is.Equal(r.Status, http.StatusOK)
		var got struct {
			LastUsed time.Time `json:"last_used_at"`
		}
		r.Decode(t, &got)
		is.True(time.Since(got.LastUsed) < time.Hour) // the clone signed in with it
	})

	t.Run("PushNewBranchAndFetch", func(t *testing.T) {
		is := is.New(t)
		remote.pushNewBranch(t, alice, work)
		other := remote.clone(t)
		id2 := httpGitCommit(t, other, "o.txt", "o\n", "from another clone")
		sshGitOK(t, srv, key, other, "push", "-q", "origin", "main")
		sshGitOK(t, srv, key, work, "fetch", "-q", "origin")
		is.Equal(strings.TrimSpace(httpGitOK(t, work, "rev-parse", "origin/main")), id2)
	})

	t.Run("ForcePush", func(t *testing.T) { remote.forcePush(t, work) })
	t.Run("Tags", func(t *testing.T) { remote.pushTags(t, work) })

	t.Run("DeleteBranch", func(t *testing.T) {
		is := is.New(t)
		sshGitOK(t, srv, key, work, "push", "-q", "origin", "--delete", "feature")
		is.Equal(httpGitRef(t, srv, "alice", "code", "refs/heads/feature"), "")
		out := sshGitFails(t, srv, key, work, "push", "origin", "--delete", "main")
		is.True(strings.Contains(out, "default branch and cannot be deleted")) // the hooks run over SSH too
	})

	t.Run("Shallow", func(t *testing.T) {
		is := is.New(t)
		dir := sshGitClone(t, srv, key, "alice", "code", "--depth", "1", "--no-single-branch")
		is.Equal(strings.TrimSpace(httpGitOK(t, dir, "rev-list", "--count", "HEAD")), "1")
		_, err := os.Stat(filepath.Join(dir, ".git", "shallow"))
		is.NoErr(err)
		sshGitOK(t, srv, key, dir, "fetch", "-q", "--deepen", "1")
		is.Equal(strings.TrimSpace(httpGitOK(t, dir, "rev-list", "--count", "HEAD")), "2")
	})

	t.Run("ProtocolV2", func(t *testing.T) {
		is := is.New(t)
		url := sshGitURL(srv, "alice", "code")
		trace := []string{"GIT_TRACE_PACKET=1"}
		out, err := sshGitCmd(srv, key, t.TempDir(), trace, "-c", "protocol.version=2", "ls-remote", url)
		is.NoErr(err)
		is.True(strings.Contains(out, "< version 2"))       // GIT_PROTOCOL reached git
		is.True(strings.Contains(out, "> command=ls-refs")) // and the client spoke version 2
		is.True(strings.Contains(out, "refs/heads/main"))
		out, err = sshGitCmd(srv, key, t.TempDir(), trace, "-c", "protocol.version=0", "ls-remote", url)
		is.NoErr(err)
		is.True(!strings.Contains(out, "< version 2"))
		is.True(!strings.Contains(out, "command=ls-refs"))
		dir := filepath.Join(t.TempDir(), "v2")
		sshGitOK(t, srv, key, t.TempDir(), "-c", "protocol.version=2", "clone", "-q", url, dir)
		is.Equal(strings.TrimSpace(httpGitOK(t, dir, "rev-parse", "HEAD")), httpGitRef(t, srv, "alice", "code", "refs/heads/main"))
	})

	t.Run("Concurrent", func(t *testing.T) { remote.pushConcurrently(t, 4) })
	t.Run("Large", func(t *testing.T) { remote.pushLarge(t, work, 8<<20) })
	httpGitFsck(t, srv, "alice", "code")
}

func TestSSHGitAccess(t *testing.T) {
	t.Parallel()
	backends(t, sshGitAccess)
}

// sshGitAccess checks who may do what over SSH, on one backend: the same
// answers as Git over HTTP for accounts, and deploy keys bound to their
// repository.
func sshGitAccess(t *testing.T, opts ...testserver.Option) {
	srv := testserver.Start(t, append(opts, testserver.WithSSH())...)
	_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	_, bob := newAccount(t, srv, "bob", gitea.VisibleTypePublic)
	_, carol := newAccount(t, srv, "carol", gitea.VisibleTypePublic)
	_, dave := newAccount(t, srv, "dave", gitea.VisibleTypePublic)
	createRepo(t, alice, gitea.CreateRepoOption{Name: "secret", AutoInit: true, Private: true})
	createRepo(t, alice, gitea.CreateRepoOption{Name: "other", AutoInit: true, Private: true})
	createRepo(t, alice, gitea.CreateRepoOption{Name: "pub", AutoInit: true})
	read, write := gitea.AccessModeRead, gitea.AccessModeWrite
	if _, err := alice.AddCollaborator("alice", "secret", "bob", gitea.AddCollaboratorOption{Permission: &read}); err != nil {
		t.Fatal(err)
	}
	if _, err := alice.AddCollaborator("alice", "secret", "carol", gitea.AddCollaboratorOption{Permission: &write}); err != nil {
		t.Fatal(err)
	}
	aliceKey, _ := sshGitUserKey(t, alice, "alice")
	bobKey, _ := sshGitUserKey(t, bob, "bob")
	carolKey, _ := sshGitUserKey(t, carol, "carol")
	daveKey, _ := sshGitUserKey(t, dave, "dave")
	roKey, _ := sshGitDeployKey(t, alice, "alice", "secret", "ci-read", true)
	rwKey, rwDeploy := sshGitDeployKey(t, alice, "alice", "secret", "ci-write", false)

	t.Run("OwnerPrivate", func(t *testing.T) { sshGitPushes(t, srv, aliceKey, "alice", "secret", "alice") })

	t.Run("ReaderCannotPush", func(t *testing.T) { // a read collaborator reads
		sshGitPushRefused(t, srv, bobKey, "alice", "secret", "bob", "depot: You do not have permission to push to this repository.")
	})

	t.Run("WriterPushes", func(t *testing.T) { sshGitPushes(t, srv, carolKey, "alice", "secret", "carol") })

	t.Run("OutsiderNotFound", func(t *testing.T) {
		is := is.New(t)
		out := sshGitFails(t, srv, daveKey, t.TempDir(), "clone", "-q", sshGitURL(srv, "alice", "secret"), "x")
		is.True(strings.Contains(out, "depot: Repository not found"))
		// The same answer as for a repository that does not exist.
		out = sshGitFails(t, srv, daveKey, t.TempDir(), "clone", "-q", sshGitURL(srv, "alice", "nothing"), "x")
		is.True(strings.Contains(out, "depot: Repository not found"))
		// A public repository reads, and refuses the push.
		sshGitPushRefused(t, srv, daveKey, "alice", "pub", "dave", "You do not have permission to push")
	})

	t.Run("UnknownKeyRefused", func(t *testing.T) {
		is := is.New(t)
		stranger := sshGitNewKey(t)
		out := sshGitFails(t, srv, stranger, t.TempDir(), "clone", "-q", sshGitURL(srv, "alice", "pub"), "x")
		is.True(strings.Contains(out, "Permission denied (publickey)"))
		_, err := sshGitDial(t, srv, "git", stranger)
		is.True(err != nil) // refused at sign-in
		_, err = sshGitDial(t, srv, "alice", aliceKey)
		is.True(err != nil) // only the user git is served
	})

	t.Run("ReadOnlyDeployKey", func(t *testing.T) {
		sshGitPushRefused(t, srv, roKey, "alice", "secret", "ro", "depot: Deploy Key: ci-read is not authorized to write to alice/secret.")
	})

	t.Run("WriteDeployKeyOwnRepositoryOnly", func(t *testing.T) {
		is := is.New(t)
		work := sshGitPushes(t, srv, rwKey, "alice", "secret", "deployed")
		// Another of the owner's repositories, private or public, is none of its business.
		out := sshGitFails(t, srv, rwKey, t.TempDir(), "clone", "-q", sshGitURL(srv, "alice", "other"), "x")
		is.True(strings.Contains(out, "depot: Repository not found"))
		out = sshGitFails(t, srv, rwKey, work, "push", sshGitURL(srv, "alice", "pub"), "HEAD:refs/heads/deployed")
		is.True(strings.Contains(out, "depot: Repository not found"))
		is.Equal(httpGitRef(t, srv, "alice", "pub", "refs/heads/deployed"), "")
	})

	t.Run("ArchivedRefusesPush", func(t *testing.T) {
		is := is.New(t)
		work := sshGitClone(t, srv, aliceKey, "alice", "secret")
		httpGitCommit(t, work, "z.txt", "z\n", "late")
		yes, no := true, false
		_, _, err := alice.EditRepo("alice", "secret", gitea.EditRepoOption{Archived: &yes})
		is.NoErr(err)
		for _, k := range []sshGitKey{aliceKey, rwKey} {
			out := sshGitFails(t, srv, k, work, "push", "origin", "HEAD:refs/heads/late")
			is.True(strings.Contains(out, "depot: This repo is archived."))
		}
		sshGitClone(t, srv, rwKey, "alice", "secret") // still readable
		_, _, err = alice.EditRepo("alice", "secret", gitea.EditRepoOption{Archived: &no})
		is.NoErr(err)
		sshGitOK(t, srv, rwKey, work, "push", "-q", "origin", "HEAD:refs/heads/late")
	})

	t.Run("DeployKeyActsForItsRepository", func(t *testing.T) {
		is := is.New(t)
		// The owner may no longer sign in: its own key stops working, the
		// repository's write key keeps pushing (the pre-receive hook checks
		// the key, not the owner's account, as Gitea's does).
		yes, no := true, false
		authEdit(t, srv, "alice", gitea.EditUserOption{ProhibitLogin: &yes})
		defer authEdit(t, srv, "alice", gitea.EditUserOption{ProhibitLogin: &no})
		out := sshGitFails(t, srv, aliceKey, t.TempDir(), "clone", "-q", sshGitURL(srv, "alice", "secret"), "x")
		is.True(strings.Contains(out, "depot: "+authMsgProhibited))
		sshGitPushes(t, srv, rwKey, "alice", "secret", "key-only")
	})

	t.Run("DeletedKeyRefused", func(t *testing.T) {
		is := is.New(t)
		_, err := alice.DeleteDeployKey("alice", "secret", rwDeploy.ID)
		is.NoErr(err)
		out := sshGitFails(t, srv, rwKey, t.TempDir(), "clone", "-q", sshGitURL(srv, "alice", "secret"), "x")
		is.True(strings.Contains(out, "Permission denied (publickey)"))
	})
	httpGitFsck(t, srv, "alice", "secret")
}

func TestSSHGitProtocolRefusals(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t, testserver.WithSSH())
	_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	createRepo(t, alice, gitea.CreateRepoOption{Name: "code", AutoInit: true})
	key, _ := sshGitUserKey(t, alice, "alice")
	client, err := sshGitDial(t, srv, "git", key) // the host key is the one kept on disk
	if err != nil {
		t.Fatal(err)
	}

	t.Run("HostKeyFile", func(t *testing.T) {
		is := is.New(t)
		fi, err := os.Stat(filepath.Join(srv.DataDir, "ssh", sshd.HostKeyFile))
		is.NoErr(err)
		is.Equal(fi.Mode().Perm(), os.FileMode(0o600))
		is.Equal(sshGitHostKey(t, srv).Type(), ssh.KeyAlgoED25519)
	})

	t.Run("NoShellNoTerminalNoSubsystem", func(t *testing.T) {
		is := is.New(t)
		sess, err := client.NewSession()
		is.NoErr(err)
		defer sess.Close()
		is.True(sess.RequestPty("xterm", 24, 80, ssh.TerminalModes{}) != nil)
		is.True(sess.RequestSubsystem("sftp") != nil)
		is.True(sess.Shell() != nil)
		is.True(sess.Setenv("LD_PRELOAD", "/tmp/x.so") != nil)           // only GIT_PROTOCOL passes
		is.True(sess.Setenv("GIT_PROTOCOL", "version=2;touch x") != nil) // and only a plain one
		is.True(sess.Setenv("GIT_PROTOCOL", "version=2") == nil)
	})

	t.Run("NoForwarding", func(t *testing.T) {
		is := is.New(t)
		_, err := client.Dial("tcp", srv.URL[len("http://"):]) // direct-tcpip
		is.True(err != nil)
		var open *ssh.OpenChannelError
		is.True(errors.As(err, &open))
		is.Equal(open.Reason, ssh.Prohibited)
		_, err = client.Listen("tcp", "127.0.0.1:0") // tcpip-forward
		is.True(err != nil)
	})

	t.Run("BadCommands", func(t *testing.T) {
		for _, c := range []struct{ command, says string }{
			{"id", "only git-upload-pack and git-receive-pack are served"},
			{"git-upload-pack '../x'", "the repository path must be owner/name"},
			{"git-upload-pack '/alice/../../etc.git'", "the repository path must be owner/name"},
			{"git-receive-pack '--upload-pack=touch /tmp/x'", "the repository path must be owner/name"},
			{"git-upload-pack 'alice/code.git'; id", "the repository path must be owner/name"},
			{"git-upload-archive 'alice/code.git'", "only git-upload-pack and git-receive-pack are served"},
			{"git-upload-pack 'alice/nothing.git'", "Repository not found"},
		} {
			t.Run(c.command, func(t *testing.T) {
				is := is.New(t)
				status, stderr := sshGitExec(t, client, c.command)
				is.Equal(status, 1)
				is.True(strings.HasPrefix(stderr, "depot: "))
				is.True(strings.Contains(stderr, c.says))
			})
		}
	})

	t.Run("ExitStatus", func(t *testing.T) {
		is := is.New(t)
		// An advertisement request that ends at once (a flush) succeeds.
		sess, err := client.NewSession()
		is.NoErr(err)
		defer sess.Close()
		sess.Stdin = strings.NewReader("0000")
		var out bytes.Buffer
		sess.Stdout = &out
		is.NoErr(sess.Run("git-upload-pack 'alice/code.git'"))
		is.True(strings.Contains(out.String(), "refs/heads/main"))
	})

	t.Run("SSHURLFormats", func(t *testing.T) {
		is := is.New(t)
		r, _, err := alice.GetRepo("alice", "code")
		is.NoErr(err)
		is.Equal(r.SSHURL, "ssh://git@"+srv.SSHAddr+"/alice/code.git")
		// On port 22 the scp form is used, on the base URL's host.
		on22 := testserver.Start(t, testserver.WithSettings(func(s *site.Settings) { s.SSHListen = "0.0.0.0:22" }))
		_, c := newAccount(t, on22, "alice", gitea.VisibleTypePublic)
		createRepo(t, c, gitea.CreateRepoOption{Name: "code"})
		r, _, err = c.GetRepo("alice", "code")
		is.NoErr(err)
		is.Equal(r.SSHURL, "git@127.0.0.1:alice/code.git")
	})
}
