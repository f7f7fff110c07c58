package githttp

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"testing"

	"github.com/depothq/depot/domain/repository"
	"github.com/matryer/is"
)

// A relative hooks directory is made absolute when the runner is built: git
// runs inside the bare repository, where a relative core.hooksPath would
// name nothing and every hook would be skipped silently.
func TestRunnerHooksDirAbsolute(t *testing.T) {
	is := is.New(t)
	t.Chdir(t.TempDir())
	r, err := NewRunner(RunnerConfig{HooksDir: filepath.Join("data", "hooks"), HookBinary: fakeHookBinary(t)})
	is.NoErr(err)
	is.True(filepath.IsAbs(r.hooksDir))
	wd, err := os.Getwd()
	is.NoErr(err)
	is.Equal(r.hooksDir, filepath.Join(wd, "data", "hooks"))
	r.Listening(&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 3000})
	cmd, err := r.Command(context.Background(), Invocation{Service: repository.ServiceReceivePack, Dir: "/d", RepoID: 1, PusherID: 1})
	is.NoErr(err)
	is.Equal(cmd.Args[1:3], []string{"-c", "core.hooksPath=" + r.hooksDir}) // git is handed the absolute path
}

// A hook program that is missing or not executable stops the runner from
// being built, so the server does not start and take pushes whose hooks
// would not run.
func TestRunnerRefusesMissingHookProgram(t *testing.T) {
	is := is.New(t)
	_, err := NewRunner(RunnerConfig{HooksDir: filepath.Join(t.TempDir(), "hooks"),
		HookBinary: filepath.Join(t.TempDir(), "missing")})
	is.True(err != nil) // a missing program
	notExec := filepath.Join(t.TempDir(), "depot")
	is.NoErr(os.WriteFile(notExec, []byte("#!/bin/sh\n"), 0o644))
	_, err = NewRunner(RunnerConfig{HooksDir: filepath.Join(t.TempDir(), "hooks"), HookBinary: notExec})
	is.True(err != nil) // a program without an execute bit
}

// A push is refused, before git runs, when the hook scripts have gone or
// lost their execute bit since start-up; fetches still work.
func TestRunnerRefusesPushWithoutHooks(t *testing.T) {
	is := is.New(t)
	r := newTestRunner(t)
	r.Listening(&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 3000})
	ctx := context.Background()
	push := Invocation{Service: repository.ServiceReceivePack, Dir: "/d", RepoID: 1, PusherID: 1}
	_, err := r.Command(ctx, push)
	is.NoErr(err) // hooks in place

	p := filepath.Join(r.hooksDir, "post-receive")
	is.NoErr(os.Chmod(p, 0o644))
	_, err = r.Command(ctx, push)
	is.True(err != nil) // a hook that cannot be executed
	_, err = r.Command(ctx, Invocation{Service: repository.ServiceReceivePack, Dir: "/d", AdvertiseRefs: true})
	is.True(err != nil) // turned away at the advertisement already

	is.NoErr(os.RemoveAll(r.hooksDir))
	_, err = r.Command(ctx, push)
	is.True(err != nil) // no hooks directory at all
	_, err = r.Command(ctx, Invocation{Service: repository.ServiceUploadPack, Dir: "/d", AdvertiseRefs: true})
	is.NoErr(err) // fetches need no hooks
}
