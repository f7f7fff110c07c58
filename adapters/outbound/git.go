package outbound

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// gitSchemes are the remotes Fetch and PushMirror accept. ssh:// and git://
// are refused rather than routed: git would dial them itself, outside the
// proxy, and ssh would want keys the service does not manage.
var gitSchemes = []string{"http", "https"}

// Environment variables carrying a remote's credentials to the credential
// helper below. The environment of a process is readable only by its own
// user, unlike argv.
const (
	envRemoteUsername = "DEPOT_REMOTE_USERNAME"
	envRemotePassword = "DEPOT_REMOTE_PASSWORD"
)

// credentialHelper is git's credential.helper for a run with credentials: a
// shell snippet (git runs helpers starting with "!" through sh, appending
// the action) that answers "get" from the environment and ignores "store"
// and "erase". The credentials never touch argv, a file or the URL.
const credentialHelper = `!f() { test "$1" = get || exit 0; printf 'username=%s\npassword=%s\n' "$` +
	envRemoteUsername + `" "$` + envRemotePassword + `"; }; f`

// gitWaitDelay is how long a finished or cancelled git may hold its pipes.
const gitWaitDelay = 10 * time.Second

// maxGitOutput bounds what is kept of git's output for the error message.
const maxGitOutput = 64 << 10

// Fetch makes p's refs mirror the remote's: git fetch --prune --force of
// +refs/*:refs/* into the bare repository, through the guard's proxy. It
// first asks the remote where its HEAD points (git ls-remote --symref, in the
// same proxy session), since a fetch of refs/* brings every branch but not
// which one is the default; head is that branch's short name, "" when the
// remote does not say (an empty repository, a detached HEAD, a HEAD outside
// refs/heads/, or a server that does not advertise symbolic refs).
func (g *Guard) Fetch(ctx context.Context, p ports.RepoPath, r ports.Remote) (head string, err error) {
	var symrefs bytes.Buffer
	err = g.runGit(ctx, p, r,
		gitCmd{verb: "ls-remote", stdout: &symrefs, args: func(remote string) []string {
			return []string{"ls-remote", "--symref", "--end-of-options", remote, "HEAD"}
		}},
		gitCmd{verb: "fetch", args: func(remote string) []string {
			return []string{"fetch", "--prune", "--force", "--no-write-fetch-head", "--no-recurse-submodules",
				"--end-of-options", remote, "+refs/*:refs/*"}
		}})
	if err != nil {
		return "", err
	}
	return remoteHead(symrefs.String()), nil
}

// remoteHead reads the branch HEAD names from git ls-remote --symref's
// output ("ref: refs/heads/trunk\tHEAD"): "" when there is none or HEAD
// names no branch. The name is the remote's word, unchecked: callers
// validate it and check that the branch came with the fetch.
func remoteHead(out string) string {
	for _, line := range strings.Split(out, "\n") {
		target, ok := strings.CutPrefix(line, "ref: ")
		if !ok {
			continue
		}
		if target, name, ok := strings.Cut(target, "\t"); ok && name == "HEAD" {
			branch, _ := strings.CutPrefix(target, "refs/heads/")
			if branch == target {
				return ""
			}
			return branch
		}
	}
	return ""
}

// PushMirror makes the remote's branches and tags mirror p's: a forced push
// of refs/heads and refs/tags with --prune, through the guard's proxy.
// Other refs (pull requests, notes) stay the remote's business.
func (g *Guard) PushMirror(ctx context.Context, p ports.RepoPath, r ports.Remote) error {
	return g.runGit(ctx, p, r, gitCmd{verb: "push", args: func(remote string) []string {
		return []string{"push", "--force", "--prune", "--no-verify", "--porcelain",
			"--end-of-options", remote, "+refs/heads/*:refs/heads/*", "+refs/tags/*:refs/tags/*"}
	}})
}

// remoteOf checks r and splits it into the URL git gets (no userinfo) and
// the credentials the helper gives: the Remote's own, or else those in the
// URL. Errors are errs.Invalid naming "url", "username" or "password".
func remoteOf(r ports.Remote) (u *url.URL, username, password string, err error) {
	u, err = parseURL("url", r.URL, gitSchemes)
	if err != nil {
		return nil, "", "", err
	}
	username, password = r.Username, r.Password
	if u.User != nil && username == "" && password == "" {
		username = u.User.Username()
		password, _ = u.User.Password()
	}
	u.User = nil
	if strings.ContainsAny(username, "\r\n\x00") {
		return nil, "", "", errs.Invalid("must not contain line breaks or NUL", "username")
	}
	if strings.ContainsAny(password, "\r\n\x00") {
		return nil, "", "", errs.Invalid("must not contain line breaks or NUL", "password")
	}
	return u, username, password, nil
}

// gitCmd is one git command of a run against a remote: its name for
// errors, its arguments given the remote's URL (without credentials), and
// where its standard output goes besides the error buffer (nil: only there).
type gitCmd struct {
	verb   string
	args   func(remote string) []string
	stdout io.Writer
}

// runGit runs git commands against a remote, one after the other, through
// one proxy session. The name check comes first for a clear error; the
// proxy's dial-time check is the one that holds. A refusal by the proxy is
// returned as such (errors.Is netpolicy.ErrRefused); other failures carry
// git's last words, with the credentials scrubbed out. The first failing
// command ends the run.
func (g *Guard) runGit(ctx context.Context, p ports.RepoPath, r ports.Remote, cmds ...gitCmd) error {
	u, username, password, err := remoteOf(r)
	if err != nil {
		return err
	}
	if err := g.checkHost(ctx, "url", u.Hostname()); err != nil {
		return err
	}
	dir, err := g.dirs.Dir(p)
	if err != nil {
		return err
	}
	git, err := g.gitPath()
	if err != nil {
		return err
	}
	px, err := g.startProxy()
	if err != nil {
		return err
	}
	s, proxyURL, release := px.open(ctx)
	defer release()

	config := [][2]string{
		{"http.proxy", proxyURL},
		// Send the proxy credential up front instead of waiting for a 407.
		{"http.proxyAuthMethod", "basic"},
		// A redirect could send the credentials to a host nobody checked.
		{"http.followRedirects", "false"},
		// No hook of the repository runs for a mirror's git command.
		{"core.hooksPath", os.DevNull},
		// An automatic gc runs in-line, bounded by ctx, not as a daemon.
		{"gc.autoDetach", "false"},
		{"credential.helper", ""},
	}
	extra := []string{}
	if username != "" || password != "" {
		config = append(config, [2]string{"credential.helper", credentialHelper})
		extra = append(extra, envRemoteUsername+"="+username, envRemotePassword+"="+password)
	}
	env := append(gitEnv(config), extra...)
	for _, c := range cmds {
		cmd := exec.CommandContext(ctx, git, append([]string{"--git-dir=" + dir}, c.args(u.String())...)...)
		cmd.Dir = dir
		cmd.Env = env
		cmd.WaitDelay = gitWaitDelay
		out := &cappedBuffer{max: maxGitOutput}
		cmd.Stdout, cmd.Stderr = out, out
		if c.stdout != nil {
			cmd.Stdout = io.MultiWriter(c.stdout, out)
		}
		runErr := cmd.Run()
		if runErr == nil {
			continue
		}
		if refusal := s.err(); refusal != nil {
			return fmt.Errorf("outbound: git %s: %w", c.verb, refusal)
		}
		if ctx.Err() != nil {
			return fmt.Errorf("outbound: git %s: %w", c.verb, ctx.Err())
		}
		msg := lastLines(out.String(), 5)
		if msg == "" {
			msg = runErr.Error()
		}
		if up := s.upstreamErr(); up != nil {
			// git only saw the proxy's 502; say what the proxy saw.
			msg = up.Error() + " (" + msg + ")"
		}
		return fmt.Errorf("outbound: git %s %s: %s", c.verb, u.Redacted(), scrub(msg, username, password, s.secret, proxyURL))
	}
	return nil
}

// gitPath finds the git executable once.
func (g *Guard) gitPath() (string, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.git == "" {
		p, err := exec.LookPath("git")
		if err != nil {
			return "", fmt.Errorf("outbound: git executable: %w", err)
		}
		g.git = p
	}
	return g.git, nil
}

// passedEnv are the variables a mirror's git keeps from the service's
// environment: what it needs to find programs and certificates (an
// administrator's private CA included). Everything
// else is dropped, the proxy variables (HTTP_PROXY, NO_PROXY, …) above all,
// since they would route git around the guard.
var passedEnv = []string{"PATH", "TMPDIR", "SSL_CERT_FILE", "SSL_CERT_DIR", "GIT_SSL_CAINFO", "GIT_SSL_CAPATH"}

// gitEnv is the clean environment of a mirror's git: no system or global
// configuration (an url.*.insteadOf there could rewrite the remote), no
// home (~/.netrc would hand credentials to any host), no prompts, http and
// https the only transports, and config given as GIT_CONFIG_* variables.
func gitEnv(config [][2]string) []string {
	env := make([]string, 0, len(passedEnv)+8+2*len(config))
	for _, k := range passedEnv {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	env = append(env,
		// /dev/null is no directory, so nothing can be read under it.
		"HOME="+os.DevNull,
		"LC_ALL=C",
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL="+os.DevNull,
		"GIT_TERMINAL_PROMPT=0",
		"GIT_ALLOW_PROTOCOL="+strings.Join(gitSchemes, ":"),
		"GIT_CONFIG_COUNT="+strconv.Itoa(len(config)),
	)
	for i, kv := range config {
		n := strconv.Itoa(i)
		env = append(env, "GIT_CONFIG_KEY_"+n+"="+kv[0], "GIT_CONFIG_VALUE_"+n+"="+kv[1])
	}
	return env
}

// scrub replaces every secret (and its URL-escaped forms) in s. Usernames
// shorter than three characters are left alone: replacing "g" everywhere
// would garble the message and hide nothing.
func scrub(s, username string, secrets ...string) string {
	if len(username) >= 3 {
		secrets = append(secrets, username)
	}
	for _, sec := range secrets {
		if sec == "" {
			continue
		}
		for _, form := range []string{sec, url.QueryEscape(sec), url.PathEscape(sec)} {
			s = strings.ReplaceAll(s, form, "***")
		}
	}
	return s
}

// lastLines returns the last n non-empty lines of s, joined by "; ".
func lastLines(s string, n int) string {
	var lines []string
	for _, l := range strings.Split(strings.ReplaceAll(s, "\r", "\n"), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "; ")
}

// cappedBuffer keeps the last max bytes written to it. It is safe for
// concurrent writers: os/exec copies stdout and stderr from two goroutines
// when they are different writers (stdout goes through a MultiWriter when
// the caller reads it).
type cappedBuffer struct {
	mu  sync.Mutex
	max int
	buf bytes.Buffer
}

// Write keeps the tail of the output.
func (c *cappedBuffer) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := len(p)
	c.buf.Write(p)
	if over := c.buf.Len() - c.max; over > 0 {
		c.buf.Next(over)
	}
	return n, nil
}

// String returns what is kept.
func (c *cappedBuffer) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.buf.String()
}
