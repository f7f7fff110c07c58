package sshd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/depothq/depot/adapters/githttp"
	"github.com/depothq/depot/app/transport"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/repository"
)

// maxRequestsBeforeExec bounds the requests a session may make before its
// command (a few env requests are normal).
const maxRequestsBeforeExec = 32

// envProtocol is the one variable a client may pass.
const envProtocol = "GIT_PROTOCOL"

// session answers one session channel's requests: env (GIT_PROTOCOL only,
// checked as Git over HTTP checks its header) and one exec of a Git pack
// service. Shells, terminals, subsystems, X11 and agent forwarding,
// signals and every other request are refused.
func (s *Server) session(ctx context.Context, t *tracked, ch ssh.Channel, reqs <-chan *ssh.Request) {
	var proto string
	wait := time.NewTimer(execWait)
	defer wait.Stop()
	for n := 0; ; n++ {
		var req *ssh.Request
		var ok bool
		select {
		case req, ok = <-reqs:
		case <-wait.C:
			ok = false
		}
		if ok && n >= maxRequestsBeforeExec {
			reply(req, false)
			ok = false
		}
		if !ok {
			_ = ch.Close()
			go refuseAll(reqs)
			return
		}
		switch req.Type {
		case "env":
			var kv struct{ Name, Value string }
			good := ssh.Unmarshal(req.Payload, &kv) == nil && kv.Name == envProtocol &&
				repository.ValidGitProtocol(kv.Value)
			if good {
				proto = kv.Value
			}
			reply(req, good)
		case "exec":
			var cmd struct{ Command string }
			if ssh.Unmarshal(req.Payload, &cmd) != nil {
				reply(req, false)
				continue
			}
			reply(req, true)
			go refuseAll(reqs)
			status := s.exec(ctx, t, ch, cmd.Command, proto)
			_ = ch.CloseWrite()
			_, _ = ch.SendRequest("exit-status", false, ssh.Marshal(&struct{ Status uint32 }{status}))
			_ = ch.Close()
			return
		default:
			// pty-req, shell, subsystem, x11-req, auth-agent-req, signal, …
			reply(req, false)
		}
	}
}

func reply(req *ssh.Request, ok bool) {
	if req.WantReply {
		_ = req.Reply(ok, nil)
	}
}

// refuseAll answers the requests that come after the command.
func refuseAll(reqs <-chan *ssh.Request) {
	for req := range reqs {
		reply(req, false)
	}
}

// exec checks and runs one command and returns its exit status. Refusals
// are written to the client's stderr, which git shows to the user.
func (s *Server) exec(ctx context.Context, t *tracked, ch ssh.Channel, line, proto string) uint32 {
	start := time.Now()
	remote := t.conn.RemoteAddr().String()
	fp := t.conn.Permissions.Extensions[extFingerprint]
	c, err := parseCommand(line)
	if err != nil {
		s.log.Info("ssh command refused", "remote", remote, "fingerprint", fp, "command", quoteShort(line), "err", err)
		tell(ch, err.Error())
		return 1
	}
	t.running.Add(1)
	defer t.running.Add(-1)
	if s.draining.Load() {
		tell(ch, "the server is shutting down, try again shortly")
		return 1
	}
	sess, err := s.transport.AuthorizeSSH(ctx, transport.SSHRequest{Fingerprint: fp, Owner: c.owner, Name: c.name,
		Service: c.service, Wiki: c.wiki})
	if err == nil {
		var dir string
		if dir, err = s.dirs.Dir(sess.Path); err == nil {
			status := s.run(ctx, ch, githttp.Invocation{Service: c.service, Dir: dir, Stateful: true, Protocol: proto,
				RepoID: sess.Repo.ID, PusherID: sess.PusherID, DeployKeyID: sess.DeployKeyID, Wiki: sess.Wiki})
			s.log.Info("ssh git", "remote", remote, "fingerprint", fp, "service", string(c.service),
				"repo", sess.Path.Owner+"/"+sess.Path.Name, "status", status, "duration", time.Since(start))
			return status
		}
	}
	if msg, ok := clientMessage(err); ok {
		s.log.Info("ssh git refused", "remote", remote, "fingerprint", fp, "service", string(c.service),
			"repo", c.owner+"/"+c.name, "err", msg)
		tell(ch, msg)
		return 1
	}
	s.log.Error("ssh git failed", "remote", remote, "service", string(c.service), "repo", c.owner+"/"+c.name, "err", err)
	tell(ch, "internal server error")
	return 1
}

// clientMessage is what a refused client is told, when err is one of the
// categories (anything else is the server's failure).
func clientMessage(err error) (string, bool) {
	if msg := errs.Message(err); msg != "" {
		return msg, true
	}
	for _, kind := range []error{errs.ErrNotFound, errs.ErrUnauthenticated, errs.ErrForbidden, errs.ErrLocked,
		errs.ErrBadRequest, errs.ErrInvalid, errs.ErrConflict, errs.ErrTooLarge} {
		if errors.Is(err, kind) {
			return kind.Error(), true
		}
	}
	return "", false
}

// tell writes a message to the client's stderr.
func tell(ch ssh.Channel, msg string) {
	_, _ = fmt.Fprintf(ch.Stderr(), "depot: %s\n", msg)
}

// quoteShort shows a client's command in logs, bounded.
func quoteShort(s string) string {
	if len(s) > 100 {
		s = s[:100] + "…"
	}
	return fmt.Sprintf("%q", s)
}

// run streams git over the channel and returns its exit status. A push is
// not cut short when the client goes away: git sees its input end and
// finishes or aborts by itself, and its hooks run to the end.
func (s *Server) run(ctx context.Context, ch ssh.Channel, inv githttp.Invocation) uint32 {
	write := inv.Service.Writes()
	if write {
		ctx = context.WithoutCancel(ctx)
	}
	held, err := s.runner.HoldPush(ctx, inv)
	if err != nil {
		s.log.Warn("git push gate", "err", err)
		tell(ch, githttp.PushGateRefusal(err))
		return 1
	}
	defer held()
	cmd, err := s.runner.Command(ctx, inv)
	if err != nil {
		s.log.Error("git command", "err", err)
		tell(ch, "internal server error")
		return 1
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		s.log.Error("git stdin", "err", err)
		tell(ch, "internal server error")
		return 1
	}
	out := &channelWriter{w: ch, drain: write}
	cmd.Stdout = out
	cmd.Stderr = &channelWriter{w: ch.Stderr(), drain: write}
	if err := cmd.Start(); err != nil {
		s.log.Error("starting git", "err", err)
		tell(ch, "internal server error")
		return 1
	}
	done := s.metrics.GitSessionStarted(strings.TrimPrefix(string(inv.Service), "git-"))
	// The copy ends when the client closes its side, or when git has
	// exited and Wait has closed the pipe.
	var in atomic.Int64
	go func() {
		n, _ := io.Copy(stdin, ch)
		in.Store(n)
		_ = stdin.Close()
	}()
	status := exitStatus(ctx, s, inv, cmd.Wait())
	done(status, in.Load(), out.n)
	return status
}

// exitStatus is the status the client is told for git's end err.
func exitStatus(ctx context.Context, s *Server, inv githttp.Invocation, err error) uint32 {
	if err == nil {
		return 0
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() > 0 {
		return uint32(exit.ExitCode())
	}
	if ctx.Err() == nil {
		s.log.Warn("git ended abnormally", "service", string(inv.Service), "err", err)
	}
	return 1
}

// channelWriter writes git's output to the client. For a push it keeps
// accepting output once the client is gone, so that git is not killed by a
// broken pipe before its post-receive hook has run.
type channelWriter struct {
	w     io.Writer
	drain bool
	err   error
	// n counts the bytes the client was sent.
	n int64
}

func (c *channelWriter) Write(p []byte) (int, error) {
	if c.err == nil {
		n, err := c.w.Write(p)
		c.n += int64(n)
		c.err = err
	}
	if c.err != nil && !c.drain {
		return 0, c.err
	}
	return len(p), nil
}
