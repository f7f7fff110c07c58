package githttp

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/depothq/depot/domain/repository"
	"github.com/matryer/is"
)

func TestParsePath(t *testing.T) {
	cases := []struct {
		path                string
		ok                  bool
		owner, name, action string
		dotGit              bool
	}{
		{"/alice/repo.git/info/refs", true, "alice", "repo", actionInfoRefs, true},
		{"/alice/repo/info/refs", true, "alice", "repo", actionInfoRefs, false},
		{"/alice/repo.git/git-upload-pack", true, "alice", "repo", actionUploadPack, true},
		{"/alice/repo/git-receive-pack", true, "alice", "repo", actionReceivePack, false},
		{"/alice/.git/info/refs", false, "", "", "", false},
		{"/alice/a/b/info/refs", false, "", "", "", false},
		{"//repo/info/refs", false, "", "", "", false},
		{"/alice/info/refs", false, "", "", "", false},
		{"/alice/repo.git/git-upload-archive", false, "", "", "", false},
		{"/alice/repo.git/HEAD", false, "", "", "", false},
		{"/api/v1/repos/alice/repo", false, "", "", "", false},
		{"/alice/re\x00po/info/refs", false, "", "", "", false},
		{"alice/repo/info/refs", false, "", "", "", false},
	}
	for _, tc := range cases {
		t.Run(tc.path, func(t *testing.T) {
			is := is.New(t)
			got, ok := parsePath(tc.path)
			is.Equal(ok, tc.ok)
			if ok {
				is.Equal(got, target{owner: tc.owner, name: tc.name, action: tc.action, dotGit: tc.dotGit})
			}
		})
	}
}

func newTestRunner(t *testing.T) *Runner {
	t.Helper()
	t.Setenv("GIT_DIR", "/elsewhere")
	t.Setenv("DEPOT_HOOK_SECRET", "leaked")
	r, err := NewRunner(RunnerConfig{HooksDir: filepath.Join(t.TempDir(), "hooks"), HookBinary: fakeHookBinary(t)})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// fakeHookBinary writes an executable that stands for the hook program: the
// runner checks that the program it hands to the hooks can run.
func fakeHookBinary(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "depot")
	if err := os.WriteFile(p, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRunnerCommand(t *testing.T) {
	is := is.New(t)
	r := newTestRunner(t)
	r.Listening(&net.TCPAddr{IP: net.IPv4zero, Port: 3000})
	ctx := context.Background()

	cmd, err := r.Command(ctx, Invocation{Service: repository.ServiceUploadPack, Dir: "/data/a/b.git",
		AdvertiseRefs: true, Protocol: "version=2"})
	is.NoErr(err)
	args := cmd.Args[1:]
	i := slices.Index(args, "--end-of-options")
	is.True(i > 0) // the directory comes after --end-of-options
	is.Equal(args[i+1:], []string{"/data/a/b.git"})
	is.True(slices.Contains(args, "upload-pack"))
	is.True(slices.Contains(args, "--advertise-refs"))
	is.True(slices.Contains(cmd.Env, "GIT_PROTOCOL=version=2"))
	for _, kv := range cmd.Env {
		is.True(!strings.HasPrefix(kv, "GIT_DIR="))        // the server's Git variables are dropped
		is.True(!strings.HasPrefix(kv, EnvHookSecret+"=")) // fetches get no hook secret
	}

	_, err = r.Command(ctx, Invocation{Service: repository.ServiceUploadPack, Dir: "/d", Protocol: "x;y"})
	is.True(err != nil) // an unchecked protocol never reaches git

	cmd, err = r.Command(ctx, Invocation{Service: repository.ServiceReceivePack, Dir: "/d", RepoID: 7, PusherID: 9})
	is.NoErr(err)
	is.True(slices.Contains(cmd.Env, EnvHookURL+"=http://127.0.0.1:3000"+hookPath))
	is.True(slices.Contains(cmd.Env, EnvRepoID+"=7"))
	is.True(slices.Contains(cmd.Env, EnvPusherID+"=9"))
	is.True(slices.Contains(cmd.Env, EnvHookBin+"="+r.hookBin))
	is.True(slices.Contains(cmd.Env, EnvHookSecret+"="+r.secret))
	is.True(!slices.Contains(cmd.Env, EnvHookSecret+"=leaked"))
	is.True(slices.Contains(cmd.Args, "core.hooksPath="+r.hooksDir))

	r.Listening(&net.TCPAddr{IP: net.IPv6unspecified, Port: 3000})
	cmd, err = r.Command(ctx, Invocation{Service: repository.ServiceReceivePack, Dir: "/d", RepoID: 7, PusherID: 9})
	is.NoErr(err)
	is.True(slices.Contains(cmd.Env, EnvHookURL+"=http://[::1]:3000"+hookPath))
}

func TestRunnerHooksInstalled(t *testing.T) {
	is := is.New(t)
	r := newTestRunner(t)
	for _, name := range hookNames {
		fi, err := os.Stat(filepath.Join(r.hooksDir, name))
		is.NoErr(err)
		is.True(fi.Mode().Perm()&0o111 != 0) // executable
		data, err := os.ReadFile(filepath.Join(r.hooksDir, name))
		is.NoErr(err)
		if name != "update" { // update only runs the repository's own script
			is.True(strings.Contains(string(data), "hook "+name))
		}
		is.True(strings.Contains(string(data), "hooks/"+name+".d/"+name)) // the repository's own script
		is.True(!strings.Contains(string(data), r.secret))                // no secret on disk
	}
	// A second start finds them right and leaves them alone; a damaged one is rewritten.
	p := filepath.Join(r.hooksDir, "pre-receive")
	is.NoErr(os.WriteFile(p, []byte("#!/bin/sh\nexit 0\n"), 0o755))
	_, err := NewRunner(RunnerConfig{HooksDir: r.hooksDir, HookBinary: r.hookBin})
	is.NoErr(err)
	data, err := os.ReadFile(p)
	is.NoErr(err)
	is.True(strings.Contains(string(data), "hook pre-receive"))
}

func TestRunHook(t *testing.T) {
	const (
		zero = "0000000000000000000000000000000000000000"
		id   = "1234567890abcdef1234567890abcdef12345678"
	)
	var got hookRequest
	var gotPath, gotAuth string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotPath, gotAuth = r.URL.Path, r.Header.Get("Authorization")
		_ = json.NewDecoder(r.Body).Decode(&got)
		if strings.HasSuffix(r.URL.Path, "/pre-receive") && len(got.Changes) > 1 {
			hookAnswer(w, http.StatusForbidden, "refusing to update refs/pull/1/head")
			return
		}
		hookAnswer(w, http.StatusOK, "")
	}))
	defer srv.Close()
	env := map[string]string{EnvHookURL: srv.URL + hookPath, EnvHookSecret: "s3cret", EnvRepoID: "3", EnvPusherID: "4"}
	getenv := func(k string) string { return env[k] }

	t.Run("Posts", func(t *testing.T) {
		is := is.New(t)
		err := RunHook(context.Background(), "post-receive", getenv, strings.NewReader(zero+" "+id+" refs/heads/main\n"))
		is.NoErr(err)
		is.Equal(gotPath, hookPath+"/post-receive")
		is.Equal(gotAuth, "Bearer s3cret")
		is.Equal(got.RepoID, int64(3))
		is.Equal(got.PusherID, int64(4))
		is.Equal(got.Changes, []hookChange{{Old: zero, New: id, Ref: "refs/heads/main"}})
	})

	t.Run("RefusalMessage", func(t *testing.T) {
		is := is.New(t)
		in := zero + " " + id + " refs/heads/main\n" + zero + " " + id + " refs/pull/1/head\n"
		err := RunHook(context.Background(), "pre-receive", getenv, strings.NewReader(in))
		is.True(err != nil)
		is.Equal(err.Error(), "refusing to update refs/pull/1/head") // what the pusher reads
	})

	t.Run("BadInput", func(t *testing.T) {
		is := is.New(t)
		is.True(RunHook(context.Background(), "update", getenv, strings.NewReader("")) != nil)
		is.True(RunHook(context.Background(), "pre-receive", getenv, strings.NewReader("garbage\n")) != nil)
		none := func(string) string { return "" }
		err := RunHook(context.Background(), "pre-receive", none, strings.NewReader(""))
		is.True(err != nil)
		is.True(strings.Contains(err.Error(), "not run by the Depot service"))
	})
}

func TestSameHost(t *testing.T) {
	cases := []struct {
		remote, local string
		ok            bool
	}{
		{"127.0.0.1:5000", "127.0.0.1:3000", true},
		{"[::1]:5000", "[::1]:3000", true},
		{"10.0.0.5:5000", "10.0.0.5:3000", true},
		{"10.0.0.6:5000", "10.0.0.5:3000", false},
		{"203.0.113.9:5000", "0.0.0.0:3000", false},
		{"garbage", "127.0.0.1:3000", false},
	}
	for _, tc := range cases {
		t.Run(tc.remote, func(t *testing.T) {
			is := is.New(t)
			local, err := net.ResolveTCPAddr("tcp", tc.local)
			is.NoErr(err)
			r := httptest.NewRequest("POST", hookPath+"/pre-receive", nil)
			r.RemoteAddr = tc.remote
			r = r.WithContext(context.WithValue(r.Context(), http.LocalAddrContextKey, net.Addr(local)))
			is.Equal(sameHost(r), tc.ok)
		})
	}
}
