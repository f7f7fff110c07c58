package githttp

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/depothq/depot/domain/repository"
)

// Environment variables the receive-pack runner gives git, which passes them
// on to the hooks. Nothing secret is written to disk: the hook scripts only
// name the variables.
const (
	EnvHookBin    = "DEPOT_HOOK_BIN"
	EnvHookURL    = "DEPOT_HOOK_URL"
	EnvHookSecret = "DEPOT_HOOK_SECRET"
	EnvRepoID     = "DEPOT_REPO_ID"
	EnvPusherID   = "DEPOT_PUSHER_ID"
	// EnvDeployKeyID names the deploy key a push over SSH came with (absent
	// otherwise): the pre-receive hook checks that key, not the pusher's
	// own permission.
	EnvDeployKeyID = "DEPOT_DEPLOY_KEY_ID"
	// EnvTaskID names the workflow task whose token pushed (absent
	// otherwise): the hooks check the task's rights, not an account's.
	EnvTaskID = "DEPOT_TASK_ID"
)

// hookNames are the server hooks Depot installs: its own pre-receive and
// post-receive, and update, which only runs a repository's own script.
var hookNames = []string{"pre-receive", "update", "post-receive"}

// hookGuard refuses to run outside a push Depot started. The runner points
// git at the directory holding these scripts with core.hooksPath, so only
// pushes that come through Depot run them; a missing environment means
// someone else pointed git there.
const hookGuard = `if [ -z "$` + EnvHookBin + `" ] || [ -z "$` + EnvHookURL + `" ]; then
	echo "depot: push refused: not run by the Depot service" >&2
	exit 1
fi
`

// hookCustom locates the repository's own script for the hook (%[1]s), kept
// by adapters/githooks at hooks/<name>.d/<name> in the bare repository, which
// is git's working directory while hooks run. It runs after Depot's logic,
// without the variables that let Depot's hook call the service back.
const hookCustom = `custom="${GIT_DIR:-.}/hooks/%[1]s.d/%[1]s"
`

// hookScriptDepot is what git runs for pre-receive and post-receive: Depot's
// hook gets the ref lines first; when the repository has its own script it
// gets the same lines after, and its exit status is the hook's (a custom
// pre-receive can refuse the push; Depot's refusal stops it from running).
const hookScriptDepot = `#!/bin/sh
# Installed by Depot: hands the push to the running service, then runs the
# repository's own %[1]s script when it has one. Do not edit.
` + hookGuard + hookCustom + `if [ ! -f "$custom" ] || [ ! -x "$custom" ]; then
	exec "$` + EnvHookBin + `" hook %[1]s
fi
input=$(cat)
printf '%%s\n' "$input" | "$` + EnvHookBin + `" hook %[1]s || exit $?
printf '%%s\n' "$input" | (unset ` + EnvHookBin + " " + EnvHookURL + " " + EnvHookSecret + `; exec "$custom" "$@")
`

// hookScriptCustom is what git runs for update: Depot has no logic of its
// own there, so it only runs the repository's script, when there is one.
const hookScriptCustom = `#!/bin/sh
# Installed by Depot: runs the repository's own %[1]s script when it has one. Do not edit.
` + hookGuard + hookCustom + `if [ ! -f "$custom" ] || [ ! -x "$custom" ]; then
	exit 0
fi
unset ` + EnvHookBin + " " + EnvHookURL + " " + EnvHookSecret + `
exec "$custom" "$@"
`

// hookScript is the script of hook name.
func hookScript(name string) string {
	if name == "update" {
		return fmt.Sprintf(hookScriptCustom, name)
	}
	return fmt.Sprintf(hookScriptDepot, name)
}

// Runner starts git's pack services on bare repositories for the driving
// adapters (smart HTTP; SSH can use it too). It owns the hooks directory and
// the per-start secret the hooks use to call back.
type Runner struct {
	git      string
	hooksDir string
	hookBin  string
	secret   string
	hookURL  atomic.Pointer[string]
	// baseEnv is the process environment without Git's and Depot's own
	// variables, so the server's environment cannot redirect git.
	baseEnv []string
	// gateFile is the push gate's file (push_gate.go); "" for none.
	gateFile string
	// gateWait bounds a push's wait for the gate; 0 waits without end.
	gateWait time.Duration
	// answerIdle bounds the wait for a client to take more of an answer;
	// 0 waits without end.
	answerIdle time.Duration
	// stopped ends when Stop is called.
	stopped context.Context
	stopAll context.CancelFunc
	// detached counts the runs answering on a connection taken over from
	// the HTTP server (runner_stop.go).
	detached detachedRuns
}

// RunnerConfig configures a Runner.
type RunnerConfig struct {
	// Git is the git executable; "git" (found on PATH) when empty.
	Git string
	// HooksDir is where the hook scripts are kept (created when absent). A
	// relative path is made absolute against the working directory now:
	// git runs in the bare repository, where a relative core.hooksPath
	// would name a directory that does not exist and git would skip every
	// hook without a word.
	HooksDir string
	// HookBinary is the depot executable the hooks run; the running
	// executable when empty.
	HookBinary string
	// PushGate is the file a dump locks to hold pushes back while it takes
	// its snapshot (push_gate.go); none when empty.
	PushGate string
	// PushGateWait is the longest a push waits for a dump to reopen the
	// gate before it is refused as busy; 0 waits as long as it takes.
	PushGateWait time.Duration
	// AnswerIdleTimeout is the longest an answer waits for the client to
	// take its next bytes (a client that stops reading a clone's pack
	// holds git until it is cut off); 0 waits as long as it takes.
	AnswerIdleTimeout time.Duration
}

// NewRunner installs the hook scripts and makes the per-start secret.
func NewRunner(cfg RunnerConfig) (*Runner, error) {
	git := cfg.Git
	if git == "" {
		git = "git"
	}
	path, err := exec.LookPath(git)
	if err != nil {
		return nil, fmt.Errorf("githttp: git executable: %w", err)
	}
	bin := cfg.HookBinary
	if bin == "" {
		if bin, err = os.Executable(); err != nil {
			return nil, fmt.Errorf("githttp: locating the depot executable for hooks: %w", err)
		}
		bin = preferHookBinary(bin)
	}
	if bin, err = filepath.Abs(bin); err != nil {
		return nil, err
	}
	hooksDir, err := filepath.Abs(cfg.HooksDir)
	if err != nil {
		return nil, fmt.Errorf("githttp: hooks directory: %w", err)
	}
	secret := make([]byte, 32)
	if _, err := rand.Read(secret); err != nil {
		return nil, err
	}
	r := &Runner{git: path, hooksDir: hooksDir, hookBin: bin, secret: hex.EncodeToString(secret),
		baseEnv: cleanEnv(os.Environ()), gateFile: cfg.PushGate,
		gateWait: cfg.PushGateWait, answerIdle: cfg.AnswerIdleTimeout}
	r.stopped, r.stopAll = context.WithCancel(context.Background())
	if err := r.installHooks(); err != nil {
		return nil, err
	}
	if err := r.checkHooks(); err != nil {
		return nil, err
	}
	return r, nil
}

// checkHooks reports why a push's hooks could not run: a hook script or the
// hook program missing or not executable. Git skips a hook it cannot find
// without failing the push, which would lose every check and all of the
// bookkeeping after it, so Depot refuses to start, or to take a push,
// instead.
func (r *Runner) checkHooks() error {
	for _, name := range hookNames {
		if err := checkExecutable(filepath.Join(r.hooksDir, name)); err != nil {
			return fmt.Errorf("githttp: the %s hook cannot run: %w", name, err)
		}
	}
	if err := checkExecutable(r.hookBin); err != nil {
		return fmt.Errorf("githttp: the hook program cannot run: %w", err)
	}
	return nil
}

// checkExecutable reports an error unless p is a regular file with an
// execute bit.
func checkExecutable(p string) error {
	fi, err := os.Stat(p)
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0 {
		return fmt.Errorf("%s is not an executable file", p)
	}
	return nil
}

// HookBinaryName is the small hook program (cmd/depot-hook) the runner
// prefers when it sits next to the depot executable: it starts in a
// millisecond where the server's executable takes tens.
const HookBinaryName = "depot-hook"

// preferHookBinary returns the hook program beside exe when there is an
// executable one, else exe (which answers `hook …` too).
func preferHookBinary(exe string) string {
	small := filepath.Join(filepath.Dir(exe), HookBinaryName)
	if info, err := os.Stat(small); err == nil && info.Mode().IsRegular() && info.Mode()&0o111 != 0 {
		return small
	}
	return exe
}

// installHooks writes the hook scripts unless they are already right.
func (r *Runner) installHooks() error {
	if err := os.MkdirAll(r.hooksDir, 0o755); err != nil {
		return fmt.Errorf("githttp: hooks directory: %w", err)
	}
	for _, name := range hookNames {
		want := []byte(hookScript(name))
		p := filepath.Join(r.hooksDir, name)
		if have, err := os.ReadFile(p); err == nil && bytes.Equal(have, want) {
			if fi, err := os.Stat(p); err == nil && fi.Mode().Perm()&0o100 != 0 {
				continue
			}
		}
		tmp, err := os.CreateTemp(r.hooksDir, "."+name+"-*")
		if err != nil {
			return fmt.Errorf("githttp: writing hook: %w", err)
		}
		_, werr := tmp.Write(want)
		cerr := tmp.Close()
		if err := errors.Join(werr, cerr, os.Chmod(tmp.Name(), 0o755)); err != nil {
			_ = os.Remove(tmp.Name())
			return fmt.Errorf("githttp: writing hook: %w", err)
		}
		if err := os.Rename(tmp.Name(), p); err != nil {
			_ = os.Remove(tmp.Name())
			return fmt.Errorf("githttp: installing hook: %w", err)
		}
	}
	return nil
}

// cleanEnv drops the variables that would change what git does or whom the
// hooks call.
func cleanEnv(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		if strings.HasPrefix(kv, "GIT_") || strings.HasPrefix(kv, "DEPOT_") {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// Listening tells the runner where the service answers, so that hooks can
// call back over loopback: an unspecified address becomes the loopback
// address of its family.
func (r *Runner) Listening(addr net.Addr) {
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return
	}
	if ip := net.ParseIP(host); ip == nil || ip.IsUnspecified() {
		host = "127.0.0.1"
		if ip != nil && ip.To4() == nil {
			host = "::1"
		}
	}
	u := "http://" + net.JoinHostPort(host, port) + hookPath
	r.hookURL.Store(&u)
}

// Invocation is one run of a pack service.
type Invocation struct {
	Service repository.GitService
	// Dir is the bare repository.
	Dir string
	// AdvertiseRefs asks only for the ref advertisement (info/refs).
	AdvertiseRefs bool
	// Protocol is a validated Git-Protocol value, or empty.
	Protocol string
	// RepoID and PusherID name the push for the hooks (receive-pack only).
	RepoID, PusherID int64
	// DeployKeyID names the deploy key a push came with, 0 for an account.
	DeployKeyID int64
	// TaskID names the workflow task whose token pushed, 0 otherwise.
	TaskID int64
	// Wiki serves a repository's wiki, whose pushes run no hook.
	Wiki bool
	// Stateful runs the service for a whole connection (SSH): one process
	// answers the advertisement and the requests, without --stateless-rpc.
	Stateful bool
}

// configArgs are the settings Depot gives git for inv on its command line.
func (r *Runner) configArgs(inv Invocation) []string {
	hooks := r.hooksDir
	if inv.Wiki {
		// A wiki's refs are no branches of its repository: no hook checks or
		// records them (the push was authorised on the wiki unit).
		hooks = os.DevNull
	}
	args := []string{"-c", "core.hooksPath=" + hooks}
	if inv.Service == repository.ServiceUploadPack {
		args = append(args, "-c", "uploadpack.allowFilter=true")
	}
	return args
}

// waitDelay is how long a finished git may hold its pipes open.
const waitDelay = 10 * time.Second

// Command builds the git command for inv. Every argument is the server's:
// the repository path comes after --end-of-options, and the client's only
// say is the validated GIT_PROTOCOL. A receive-pack is refused while its
// hooks cannot run (see checkHooks).
func (r *Runner) Command(ctx context.Context, inv Invocation) (*exec.Cmd, error) {
	if inv.Service == repository.ServiceReceivePack && !inv.Wiki {
		// Checked on the advertisement too, so that the pusher is turned
		// away before sending a pack.
		if err := r.checkHooks(); err != nil {
			return nil, err
		}
	}
	args := append(r.configArgs(inv), inv.Service.Command())
	if !inv.Stateful {
		args = append(args, "--stateless-rpc")
	}
	if inv.AdvertiseRefs {
		args = append(args, "--advertise-refs")
	}
	args = append(args, "--end-of-options", inv.Dir)
	cmd := exec.CommandContext(ctx, r.git, args...)
	cmd.Dir = inv.Dir
	cmd.WaitDelay = waitDelay
	dieWithServer(cmd)
	env := append(make([]string, 0, len(r.baseEnv)+8), r.baseEnv...)
	if inv.Protocol != "" {
		if !repository.ValidGitProtocol(inv.Protocol) {
			return nil, fmt.Errorf("githttp: unchecked protocol %q", inv.Protocol)
		}
		env = append(env, "GIT_PROTOCOL="+inv.Protocol)
	}
	if inv.Service == repository.ServiceReceivePack && !inv.AdvertiseRefs && !inv.Wiki {
		u := r.hookURL.Load()
		if u == nil {
			return nil, errors.New("githttp: the hook endpoint is unknown (Listening was not called)")
		}
		env = append(env, EnvHookBin+"="+r.hookBin, EnvHookURL+"="+*u, EnvHookSecret+"="+r.secret,
			EnvRepoID+"="+strconv.FormatInt(inv.RepoID, 10), EnvPusherID+"="+strconv.FormatInt(inv.PusherID, 10))
		if inv.DeployKeyID != 0 {
			env = append(env, EnvDeployKeyID+"="+strconv.FormatInt(inv.DeployKeyID, 10))
		}
		if inv.TaskID != 0 {
			env = append(env, EnvTaskID+"="+strconv.FormatInt(inv.TaskID, 10))
		}
	}
	cmd.Env = env
	return cmd, nil
}
