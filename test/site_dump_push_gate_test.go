package test

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/gofrs/flock"
	"github.com/matryer/is"

	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/test/testkit"
	"github.com/depothq/depot/test/testserver"
)

// pushGateCommit commits a change to the site's work tree.
func pushGateCommit(t *testing.T, s *backupSite, msg string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(s.work, "gate.txt"), []byte(msg+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	backupGit(t, s.work, "add", "gate.txt")
	backupGit(t, s.work, "commit", "-q", "-m", msg)
}

// TestSiteDumpGivesUpOnAStuckPush holds a push in its pre-receive hook
// (the repository's own hook script waits for a file) and checks that
// `depot dump --lock-timeout 1s` gives up: it exits non-zero with a message
// naming the push gate it waited for, and leaves no archive, neither at the
// path given nor under a temporary name, and writes nothing to standard
// output. Once the hook lets the push go, the push succeeds and a dump with
// the default timeout completes.
func TestSiteDumpGivesUpOnAStuckPush(t *testing.T) {
	bin := cliBuildDepot(t)
	site := newBackupSite(t, hooksGitEnabled())
	is := is.New(t)

	signals := t.TempDir()
	started, release := filepath.Join(signals, "started"), filepath.Join(signals, "release")
	// The loop is bounded, so that a failing test does not leave git behind.
	script := "#!/bin/sh\ncat >/dev/null\ntouch '" + started + "'\ni=0\n" +
		"while [ ! -f '" + release + "' ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i+1)); done\n"
	_, err := site.srv.AdminClient().EditRepoGitHook("wren", "nest", "pre-receive", gitea.EditGitHookOption{Content: script})
	is.NoErr(err)

	pushGateCommit(t, site, "held in its hook")
	pushed := make(chan error, 1)
	go func() {
		_, err := backupGitErr(site.work, "push", "-q", site.auth, "HEAD:refs/heads/held")
		pushed <- err
	}()
	testkit.Eventually(t, "the push is in its pre-receive hook", func() bool {
		_, err := os.Stat(started)
		return err == nil
	})

	outDir := t.TempDir()
	archive := filepath.Join(outDir, "site.tar.zst")
	r := backupDepot(t, bin, "dump", "--data-dir", site.srv.DataDir, "--file", archive, "--lock-timeout", "1s")
	t.Logf("dump behind a stuck push: %d\n%s", r.code, r.stderr)
	is.True(r.code != 0)                                                                            // the dump failed
	is.True(strings.Contains(r.stderr, "timed out waiting for the pushes running to end after 1s")) // says what it waited for
	is.True(strings.Contains(r.stderr, filepath.Join(site.srv.DataDir, "push.lock")))               // and names the gate
	is.True(strings.Contains(r.stderr, "nothing was written"))
	is.True(!strings.Contains(r.stdout, "wrote"))
	left, err := os.ReadDir(outDir)
	is.NoErr(err)
	is.Equal(len(left), 0) // no archive, and no temporary file

	r = backupDepot(t, bin, "dump", "--data-dir", site.srv.DataDir, "--file", "-", "--lock-timeout", "500ms", "--quiet")
	is.True(r.code != 0)
	is.Equal(r.stdout, "") // not a byte of an archive on standard output
	is.True(strings.Contains(r.stderr, "timed out waiting for the pushes running to end after 500ms"))

	r = backupDepot(t, bin, "dump", "--data-dir", site.srv.DataDir, "--file", archive, "--lock-timeout", "-1s")
	is.True(r.code != 0)
	is.True(strings.Contains(r.stderr, "--lock-timeout must not be negative"))

	select {
	case err := <-pushed:
		t.Fatalf("the push ended while its hook held it: %v", err)
	default:
	}
	is.NoErr(os.WriteFile(release, nil, 0o600))
	select {
	case err := <-pushed:
		is.NoErr(err) // the push the dump gave up on went through
	case <-time.After(testkit.Deadline):
		t.Fatal("the push did not end once its hook let it go")
	}

	r = backupDepot(t, bin, "dump", "--data-dir", site.srv.DataDir, "--file", archive, "--quiet")
	if r.code != 0 {
		t.Fatalf("dump once the push ended: %d\n%s", r.code, r.stderr)
	}
	_, err = os.Stat(archive)
	is.NoErr(err)
}

// TestSitePushRefusedWhileGateHeld holds the push gate as a dump does (the
// exclusive lock on <data>/push.lock) on a server whose pushes wait for it
// at most a second, and checks that a push over HTTP and over SSH is
// refused as busy, saying why, instead of waiting without end, that fetching is not held
// back meanwhile, and that pushes go through once the gate reopens.
func TestSitePushRefusedWhileGateHeld(t *testing.T) {
	site := newBackupSite(t, testserver.WithSSH(),
		testserver.WithSettings(func(s *site.Settings) { s.Connections.PushGateWait = time.Second }))
	is := is.New(t)
	key, _ := sshGitUserKey(t, site.srv.Client(gitea.SetToken(site.token)), "laptop")
	gate := flock.New(filepath.Join(site.srv.DataDir, "push.lock"))
	is.NoErr(gate.Lock())
	defer gate.Unlock()

	pushGateCommit(t, site, "behind a dump")
	out, err := backupGitErr(site.work, "push", site.auth, "HEAD:refs/heads/behind")
	t.Logf("push while the gate is held: %v\n%s", err, out)
	is.True(err != nil) // refused, and git says why (before uploading anything)
	is.True(strings.Contains(out+err.Error(), "remote error: a backup is holding pushes back; try again in a moment"))

	// A push whose gate closed after its advertisement is refused at its
	// POST, as busy, with the same words.
	post, err := http.NewRequest(http.MethodPost, site.srv.URL+"/wren/nest.git/git-receive-pack", strings.NewReader("0000"))
	is.NoErr(err)
	post.SetBasicAuth("wren", "wren-password-1")
	post.Header.Set("Content-Type", "application/x-git-receive-pack-request")
	resp, err := http.DefaultClient.Do(post)
	is.NoErr(err)
	body, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	is.Equal(resp.StatusCode, http.StatusServiceUnavailable)
	is.Equal(strings.TrimSpace(string(body)), "a backup is holding pushes back; try again in a moment")

	heads, err := backupGitErr(site.work, "ls-remote", "--heads", site.auth)
	is.NoErr(err) // reading is not held back
	is.True(strings.Contains(heads, "refs/heads/main"))
	is.True(!strings.Contains(heads, "refs/heads/behind"))
	sshGitPushRefused(t, site.srv, key, "wren", "nest", "behind-ssh", "a backup is holding pushes back; try again in a moment")

	is.NoErr(gate.Unlock())
	sshGitPushes(t, site.srv, key, "wren", "nest", "after-ssh")
	backupGit(t, site.work, "push", "-q", site.auth, "HEAD:refs/heads/behind")
	heads = backupGit(t, site.work, "ls-remote", "--heads", site.auth)
	is.True(strings.Contains(heads, "refs/heads/behind"))
}
