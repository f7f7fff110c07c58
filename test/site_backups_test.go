package test

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testkit"
	"github.com/depothq/depot/test/testserver"
)

// backupGit runs git in dir and returns its trimmed standard output.
func backupGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := backupGitErr(dir, args...)
	if err != nil {
		t.Fatalf("git %s: %v", strings.Join(args, " "), err)
	}
	return out
}

func backupGitErr(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "HOME="+dir,
		"GIT_AUTHOR_NAME=Wren", "GIT_AUTHOR_EMAIL=wren@example.com",
		"GIT_COMMITTER_NAME=Wren", "GIT_COMMITTER_EMAIL=wren@example.com", "GIT_TERMINAL_PROMPT=0")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("%v: %s", err, stderr.String())
	}
	return strings.TrimSpace(stdout.String()), nil
}

// backupSite is a site with an account, a token and a repository with a
// first commit, and a work tree to push from.
type backupSite struct {
	srv   *testserver.Server
	token string
	work  string
	auth  string // the repository's URL with the account's credentials
}

func newBackupSite(t *testing.T, opts ...testserver.Option) *backupSite {
	t.Helper()
	srv := testserver.Start(t, opts...)
	_, c := srv.CreateUser("wren", "wren-password-1")
	if _, _, err := c.CreateRepo(gitea.CreateRepoOption{Name: "nest"}); err != nil {
		t.Fatal(err)
	}
	token := srv.CreateToken("wren", "wren-password-1", "all")
	u, _ := url.Parse(srv.URL + "/wren/nest.git")
	u.User = url.UserPassword("wren", "wren-password-1")
	work := t.TempDir()
	backupGit(t, work, "init", "-q", "-b", "main")
	if err := os.WriteFile(filepath.Join(work, "README.md"), []byte("# nest\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	backupGit(t, work, "add", ".")
	backupGit(t, work, "commit", "-q", "-m", "first")
	backupGit(t, work, "push", "-q", u.String(), "main")
	return &backupSite{srv: srv, token: token, work: work, auth: u.String()}
}

// ackedWrites are the writes the server acknowledged, with when.
type ackedWrites struct {
	mu     sync.Mutex
	issues []ackedIssue
	pushes []ackedPush
}

type ackedIssue struct {
	index int64
	title string
	at    time.Time
}

type ackedPush struct {
	branch, sha string
	at          time.Time
}

// write opens issues through the API and pushes a new branch every few
// issues, until ctx ends, recording each acknowledged write.
func (s *backupSite) write(ctx context.Context, t *testing.T, acked *ackedWrites) {
	c := s.srv.Client(gitea.SetToken(s.token))
	for i := 0; ctx.Err() == nil; i++ {
		title := fmt.Sprintf("written %d", i)
		is, _, err := c.CreateIssue("wren", "nest", gitea.CreateIssueOption{Title: title, Body: "under a dump"})
		if err != nil {
			t.Errorf("create issue: %v", err)
			return
		}
		acked.mu.Lock()
		acked.issues = append(acked.issues, ackedIssue{index: is.Index, title: title, at: time.Now()})
		acked.mu.Unlock()
		if i%3 != 0 {
			continue
		}
		branch := fmt.Sprintf("w%d", i)
		if err := os.WriteFile(filepath.Join(s.work, "log.txt"), []byte(title+"\n"), 0o644); err != nil {
			t.Error(err)
			return
		}
		if _, err := backupGitErr(s.work, "commit", "-q", "-a", "--allow-empty", "-m", title); err != nil {
			if _, err := backupGitErr(s.work, "add", "log.txt"); err != nil {
				t.Error(err)
				return
			}
			if _, err := backupGitErr(s.work, "commit", "-q", "-m", title); err != nil {
				t.Error(err)
				return
			}
		}
		sha, _ := backupGitErr(s.work, "rev-parse", "HEAD")
		if _, err := backupGitErr(s.work, "push", "-q", s.auth, "HEAD:refs/heads/"+branch); err != nil {
			t.Errorf("push: %v", err)
			return
		}
		acked.mu.Lock()
		acked.pushes = append(acked.pushes, ackedPush{branch: branch, sha: sha, at: time.Now()})
		acked.mu.Unlock()
	}
}

// backupDepot runs the depot binary with the site's configuration.
func backupDepot(t *testing.T, bin string, args ...string) cliResult {
	t.Helper()
	return cliRun(t, bin, nil, args...)
}

func backupDBArgs(dsn string) []string {
	if dsn == "" {
		return nil
	}
	return []string{"--db", dsn}
}

// TestSiteDumpRestoreUnderWrites dumps a site while a writer opens issues
// and pushes branches through the API and Git, restores the archive into
// a new data directory (and database), starts a server there, and checks
// that every write acknowledged before the dump began is there, that each
// push is wholly in or wholly out, and that the same token still works:
// on SQLite, on Postgres, and across them (a Postgres dump into SQLite, an
// SQLite dump into Postgres).
func TestSiteDumpRestoreUnderWrites(t *testing.T) {
	bin := cliBuildDepot(t)
	for _, backend := range []string{"sqlite", "postgres", "postgres-to-sqlite", "sqlite-to-postgres"} {
		t.Run(backend, func(t *testing.T) {
			var opts []testserver.Option
			if strings.HasPrefix(backend, "postgres") {
				opts = append(opts, testserver.OnPostgres())
			}
			site := newBackupSite(t, opts...)
			acked := &ackedWrites{}
			stop := testkit.Go(t, func(ctx context.Context) { site.write(ctx, t, acked) })
			testkit.Eventually(t, "the writer has written", func() bool {
				acked.mu.Lock()
				defer acked.mu.Unlock()
				return len(acked.pushes) >= 2
			})
			archive := filepath.Join(t.TempDir(), "site.tar.zst")
			dumpStart := time.Now()
			r := backupDepot(t, bin, append([]string{"dump", "--data-dir", site.srv.DataDir, "--file", archive},
				backupDBArgs(site.srv.DSN)...)...)
			stop()
			if r.code != 0 {
				t.Fatalf("dump: %d\n%s\n%s", r.code, r.stdout, r.stderr)
			}
			is := is.New(t)
			is.True(strings.Contains(r.stderr, "repositories: 1/1")) // progress went to stderr
			is.True(strings.Contains(r.stdout, "wrote "+archive))

			dir := t.TempDir()
			var dsn string
			if strings.HasSuffix(backend, "postgres") {
				dsn = testserver.CreatePostgresDB(t)
			}
			r = backupDepot(t, bin, append([]string{"restore", archive, "--data-dir", dir}, backupDBArgs(dsn)...)...)
			if r.code != 0 {
				t.Fatalf("restore: %d\n%s\n%s", r.code, r.stdout, r.stderr)
			}
			site.srv.Stop()
			restoredOpts := []testserver.Option{testserver.WithDataDir(dir)}
			if dsn != "" {
				restoredOpts = append(restoredOpts, testserver.JoinPostgres(dsn))
			}
			restored := testserver.Start(t, restoredOpts...)
			c := restored.Client(gitea.SetToken(site.token))

			me, _, err := c.GetMyUserInfo()
			is.NoErr(err) // the token made before the dump still signs in
			is.Equal(me.UserName, "wren")
			repo, _, err := c.GetRepo("wren", "nest")
			is.NoErr(err)
			is.True(!repo.Empty)

			got := map[int64]string{}
			for page := 1; ; page++ {
				list, _, err := c.ListRepoIssues("wren", "nest", gitea.ListIssueOption{
					ListOptions: gitea.ListOptions{Page: page, PageSize: 50}, State: gitea.StateAll, Type: gitea.IssueTypeIssue})
				is.NoErr(err)
				for _, i := range list {
					got[i.Index] = i.Title
				}
				if len(list) < 50 {
					break
				}
			}
			acked.mu.Lock()
			defer acked.mu.Unlock()
			before := 0
			for _, a := range acked.issues {
				title, ok := got[a.index]
				if a.at.Before(dumpStart) {
					before++
					is.True(ok) // an issue acknowledged before the dump is restored
				}
				if ok {
					is.Equal(title, a.title)
				}
			}
			is.True(before > 0)

			clone := t.TempDir()
			backupGit(t, clone, "clone", "-q", "--mirror", restored.URL+"/wren/nest.git", ".")
			backupGit(t, clone, "fsck", "--no-progress") // every restored reference reaches whole history
			for _, p := range acked.pushes {
				sha, err := backupGitErr(clone, "rev-parse", "--verify", "-q", "refs/heads/"+p.branch)
				if p.at.Before(dumpStart) {
					is.NoErr(err) // a push acknowledged before the dump is restored
				}
				if err == nil {
					is.Equal(sha, p.sha) // a restored push is the whole push
				}
			}
			branches, _, err := c.ListRepoBranches("wren", "nest", gitea.ListRepoBranchesOptions{})
			is.NoErr(err)
			is.True(len(branches) >= 2)
		})
	}
}

// TestSiteRestoreRefuses checks that restore refuses a data directory that
// is not empty, and damaged, cut-short and foreign archives, each with a
// clear message and no panic.
func TestSiteRestoreRefuses(t *testing.T) {
	bin := cliBuildDepot(t)
	site := newBackupSite(t)
	archive := filepath.Join(t.TempDir(), "site.tar.gz")
	r := backupDepot(t, bin, "dump", "--data-dir", site.srv.DataDir, "--file", archive, "--compress", "gzip", "--quiet")
	if r.code != 0 {
		t.Fatalf("dump: %s", r.stderr)
	}
	is := is.New(t)
	data, err := os.ReadFile(archive)
	is.NoErr(err)

	r = backupDepot(t, bin, "restore", archive, "--data-dir", site.srv.DataDir)
	is.True(r.code != 0)
	is.True(strings.Contains(r.stderr, "data directory is not empty"))

	cases := map[string][]byte{
		"cut short": data[:len(data)/2],
		"damaged":   append(append(append([]byte{}, data[:len(data)/3]...), bytes.Repeat([]byte{0x55}, 512)...), data[len(data)/3+512:]...),
		"foreign":   []byte("this is not an archive at all, only some text"),
		"empty":     nil,
	}
	for name, bad := range cases {
		p := filepath.Join(t.TempDir(), "bad")
		is.NoErr(os.WriteFile(p, bad, 0o600))
		r := backupDepot(t, bin, "restore", p, "--data-dir", filepath.Join(t.TempDir(), "new"))
		is.True(r.code != 0) // refused
		is.True(!strings.Contains(r.stderr, "panic"))
		is.True(strings.Contains(r.stderr, "restore")) // the message names what failed
		t.Logf("%s: %s", name, strings.TrimSpace(r.stderr))
	}
}

// TestSiteDoctorFindsAndFixes breaks a site three ways (a push hook
// deleted, a blob no row names, a repository's directory removed) and
// checks that doctor reports each and exits non-zero, that --fix repairs
// them, and that the site then answers for the repository again.
func TestSiteDoctorFindsAndFixes(t *testing.T) {
	bin := cliBuildDepot(t)
	for _, backend := range []string{"sqlite", "postgres"} {
		t.Run(backend, func(t *testing.T) {
			var opts []testserver.Option
			if backend == "postgres" {
				opts = append(opts, testserver.OnPostgres())
			}
			site := newBackupSite(t, opts...)
			is := is.New(t)
			c := site.srv.Client(gitea.SetToken(site.token))
			_, _, err := c.CreateRepo(gitea.CreateRepoOption{Name: "gone", AutoInit: true})
			is.NoErr(err)
			args := append([]string{"doctor", "--data-dir", site.srv.DataDir}, backupDBArgs(site.srv.DSN)...)

			r := backupDepot(t, bin, args...)
			t.Logf("doctor on a healthy site:\n%s%s", r.stdout, r.stderr)
			is.Equal(r.code, 0) // a healthy site
			is.True(strings.Contains(r.stdout, "no problem remains"))

			is.NoErr(os.Remove(filepath.Join(site.srv.DataDir, "hooks", "post-receive")))
			orphan := "0b0c0d0e-0000-4000-8000-000000000001"
			orphanPath := filepath.Join(site.srv.DataDir, "attachments", orphan[0:1], orphan[1:2], orphan)
			is.NoErr(os.MkdirAll(filepath.Dir(orphanPath), 0o700))
			is.NoErr(os.WriteFile(orphanPath, []byte("left behind"), 0o600))
			is.NoErr(os.Chtimes(orphanPath, time.Now().Add(-time.Minute), time.Now().Add(-time.Minute)))
			is.NoErr(os.RemoveAll(filepath.Join(site.srv.DataDir, "repos", "wren", "gone.git")))

			r = backupDepot(t, bin, args...)
			is.True(r.code != 0) // problems remain
			is.True(strings.Contains(r.stdout, "hooks: push hook: post-receive is missing"))
			is.True(strings.Contains(r.stdout, "blob-orphan: attachment "+orphan))
			is.True(strings.Contains(r.stdout, "repository-missing: repos/wren/gone.git"))

			r = backupDepot(t, bin, append(args, "--fix")...)
			is.Equal(r.code, 0) // everything found was fixed
			is.True(strings.Contains(r.stdout, "post-receive is missing (fixed)"))
			is.True(strings.Contains(r.stdout, "attachment "+orphan+": no attachment or release asset row names it (fixed)"))
			is.True(strings.Contains(r.stdout, "repository-missing: repos/wren/gone.git"))
			_, err = os.Stat(orphanPath)
			is.True(os.IsNotExist(err)) // the orphan is gone

			r = backupDepot(t, bin, args...)
			is.Equal(r.code, 0)
			is.True(strings.Contains(r.stdout, "no problem remains"))

			repo, _, err := c.GetRepo("wren", "gone")
			is.NoErr(err)
			is.True(repo.Empty) // recorded as recreated empty
			clone := t.TempDir()
			backupGit(t, clone, "clone", "-q", site.srv.URL+"/wren/gone.git", ".")
			// The reinstalled hook records a push again.
			is.NoErr(os.WriteFile(filepath.Join(site.work, "again.txt"), []byte("again\n"), 0o644))
			backupGit(t, site.work, "add", "again.txt")
			backupGit(t, site.work, "commit", "-q", "-m", "again")
			backupGit(t, site.work, "push", "-q", site.auth, "main")
		})
	}
}
