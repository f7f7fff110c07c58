//go:build linux

package githttp

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/depothq/depot/domain/repository"
	"github.com/matryer/is"
)

// bareRepo makes an empty bare repository.
func bareRepo(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "r.git")
	if out, err := exec.Command("git", "init", "-q", "--bare", dir).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	return dir
}

// alive reports whether pid runs (a zombie waiting to be reaped does not).
func alive(pid int) bool {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	fields := strings.Fields(string(raw[strings.LastIndexByte(string(raw), ')')+1:]))
	return len(fields) > 0 && fields[0] != "Z" && fields[0] != "X"
}

// waitGone fails the test when pid still runs after a generous while.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for alive(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("git (pid %d) still runs", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestRunnerStopKillsGit: a git that ignores its request's end (a push's)
// is still killed, with its process group, when the runner stops.
func TestRunnerStopKillsGit(t *testing.T) {
	is := is.New(t)
	r := newTestRunner(t)
	ctx, release := r.Bound(context.WithoutCancel(context.Background()))
	defer release()
	cmd, err := r.Command(ctx, Invocation{Service: repository.ServiceUploadPack, Dir: bareRepo(t)})
	is.NoErr(err)
	stdin, err := cmd.StdinPipe() // held open: git waits for its request
	is.NoErr(err)
	defer stdin.Close()
	is.NoErr(cmd.Start())
	pid := cmd.Process.Pid
	is.True(alive(pid))

	r.Stop()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		is.True(err != nil) // killed
	case <-time.After(20 * time.Second):
		t.Fatal("git was not stopped")
	}
	is.True(errors.Is(syscall.Kill(-pid, 0), syscall.ESRCH)) // its whole process group is gone
}

// envGitParent makes the test binary act as a server that starts git and
// then dies: the value is the repository.
const envGitParent = "DEPOT_TEST_GIT_PARENT"

// TestGitDiesWithServer: when the server's process is killed outright, the
// git it started dies too, even though git's input (held by someone else
// here) stays open.
func TestGitDiesWithServer(t *testing.T) {
	if dir := os.Getenv(envGitParent); dir != "" {
		runGitParent(t, dir)
		return
	}
	is := is.New(t)
	input, keep, err := os.Pipe()
	is.NoErr(err)
	defer keep.Close()
	parent := exec.Command(os.Args[0], "-test.run=^TestGitDiesWithServer$")
	parent.Env = append(os.Environ(), envGitParent+"="+bareRepo(t))
	parent.ExtraFiles = []*os.File{input}
	out, err := parent.StdoutPipe()
	is.NoErr(err)
	is.NoErr(parent.Start())
	_ = input.Close()
	line, err := bufio.NewReader(out).ReadString('\n')
	is.NoErr(err)
	pid, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(line, "git pid ")))
	is.NoErr(err)
	is.True(alive(pid))

	is.NoErr(parent.Process.Kill())
	_ = parent.Wait()
	waitGone(t, pid)
}

// runGitParent starts git on dir with the input it was handed, says git's
// pid, and waits to be killed.
func runGitParent(t *testing.T, dir string) {
	r := newTestRunner(t)
	cmd, err := r.Command(context.Background(), Invocation{Service: repository.ServiceUploadPack, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdin = os.NewFile(3, "input")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	fmt.Printf("git pid %d\n", cmd.Process.Pid)
	_ = cmd.Wait()
}
