package test

import (
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/test/testkit"
	"github.com/depothq/depot/test/testserver"
	"github.com/matryer/is"
)

// commitRandomFile commits size random bytes (which do not compress) as
// file in work and returns the new commit id.
func commitRandomFile(t *testing.T, work, file string, size int) string {
	t.Helper()
	data := make([]byte, size)
	_, _ = rand.NewChaCha8([32]byte{7}).Read(data)
	if err := os.WriteFile(filepath.Join(work, file), data, 0o644); err != nil {
		t.Fatal(err)
	}
	httpGitOK(t, work, "add", file)
	httpGitOK(t, work, "commit", "-q", "-m", "add "+file)
	return strings.TrimSpace(httpGitOK(t, work, "rev-parse", "HEAD"))
}

// incomingDirs lists the quarantine directories of pushes in a bare repository.
func incomingDirs(t *testing.T, bare string) []string {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join(bare, "objects", "tmp_objdir-incoming-*"))
	if err != nil {
		t.Fatal(err)
	}
	return dirs
}

// TestInterruptedPushObjectsSwept: a push cut short by the server's death
// leaves its quarantined objects in the repository; the next start of the server
// removes them (their age bound set to 0 here), the repository is still
// sound, and the periodic sweep removes the ones found later.
func TestInterruptedPushObjectsSwept(t *testing.T) {
	is := is.New(t)
	data := t.TempDir()
	srv := testserver.Start(t, testserver.WithDataDir(data))
	_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	createRepo(t, alice, gitea.CreateRepoOption{Name: "big", AutoInit: true, Readme: "Default"})
	bare := repoDir(srv, "alice", "big")
	work := httpGitClone(t, httpGitURL(srv, "alice", "big", "alice", userPassword))
	commitRandomFile(t, work, "big.bin", 8<<20)

	// The push goes through a link that goes silent after 2 MiB.
	proxy := startThrottledProxy(t, strings.TrimPrefix(srv.URL, "http://"), 0, 2<<20)
	push := exec.Command("git", "push", "-q", "http://alice:"+userPassword+"@"+proxy.addr()+"/alice/big.git",
		"HEAD:main")
	push.Dir = work
	push.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_TERMINAL_PROMPT=0")
	is.NoErr(push.Start())
	testkit.Eventually(t, "the push's objects to arrive in a quarantine", func() bool {
		return len(incomingDirs(t, bare)) > 0 && proxy.forwarded.Load() >= 2<<20
	})
	// The server dies hard midway (kill -9, out of memory): the kernel
	// kills its git children with it (Pdeathsig), so receive-pack gets no
	// chance to remove its quarantine. Then the client gives up.
	children := childProcesses(t, "receive-pack")
	is.True(len(children) > 0)
	for _, pid := range children {
		is.NoErr(syscall.Kill(pid, syscall.SIGKILL))
	}
	is.NoErr(push.Process.Kill())
	_ = push.Wait()
	proxy.closeAll()
	srv.Stop()
	left := incomingDirs(t, bare)
	is.True(len(left) > 0) // what the interrupted push left behind

	again := testserver.Start(t, testserver.WithDataDir(data), testserver.WithSettings(func(s *site.Settings) {
		s.Connections.IncomingMaxAge = 0
		s.Connections.IncomingSweepInterval = 100 * time.Millisecond
	}))
	is.Equal(len(incomingDirs(t, bare)), 0) // swept at start-up
	httpGitFsck(t, again, "alice", "big")

	// And while the server runs, by the periodic sweep.
	stale := filepath.Join(bare, "objects", "tmp_objdir-incoming-stale")
	is.NoErr(os.MkdirAll(filepath.Join(stale, "pack"), 0o755))
	is.NoErr(os.WriteFile(filepath.Join(stale, "pack", "tmp_pack_x"), []byte("PACK"), 0o644))
	testkit.Eventually(t, "the periodic sweep to remove a stale quarantine", func() bool {
		_, err := os.Stat(stale)
		return os.IsNotExist(err)
	})
}

// childProcesses lists the test process's child processes (the server runs
// in it) whose command line contains what.
func childProcesses(t *testing.T, what string) []int {
	t.Helper()
	stats, err := filepath.Glob("/proc/[0-9]*/stat")
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, stat := range stats {
		raw, err := os.ReadFile(stat)
		if err != nil {
			continue // ended meanwhile
		}
		// pid (comm) state ppid ...; comm may hold spaces and parentheses.
		fields := strings.Fields(string(raw[strings.LastIndexByte(string(raw), ')')+1:]))
		if len(fields) < 2 || fields[1] != strconv.Itoa(os.Getpid()) {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join(filepath.Dir(stat), "cmdline"))
		if err != nil || !strings.Contains(string(cmdline), what) {
			continue
		}
		pid, err := strconv.Atoi(filepath.Base(filepath.Dir(stat)))
		if err == nil {
			pids = append(pids, pid)
		}
	}
	return pids
}
