package githttp

import (
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/depothq/depot/adapters/httpkit"
	"github.com/depothq/depot/app/transport"
	"github.com/depothq/depot/domain/repository"
)

// setNoCache marks an answer as never cached, as git http-backend does.
func setNoCache(h http.Header) {
	h.Set("Expires", "Fri, 01 Jan 1980 00:00:00 GMT")
	h.Set("Pragma", "no-cache")
	h.Set("Cache-Control", "no-cache, max-age=0, must-revalidate")
}

// admit authenticates the caller and asks the use case for the service.
func (h *Handler) admit(w http.ResponseWriter, r *http.Request, t target, svc repository.GitService) (*transport.Session, string, bool) {
	caller, err := h.auth.Authenticate(r.Context(), httpkit.HeaderCredentials(r))
	if err != nil {
		h.writeError(w, r, t, err)
		return nil, "", false
	}
	s, err := h.svc.Authorize(r.Context(), transport.Request{Caller: caller, Owner: t.owner, Name: t.name, Service: svc, Wiki: t.wiki})
	if err != nil {
		h.writeError(w, r, t, err)
		return nil, "", false
	}
	dir, err := h.dirs.Dir(s.Path)
	if err != nil {
		h.writeError(w, r, t, err)
		return nil, "", false
	}
	return s, dir, true
}

// protocol returns the Git-Protocol header when it is safe to pass on, and
// drops it otherwise (the client then speaks version 0).
func protocol(r *http.Request) string {
	if v := r.Header.Get("Git-Protocol"); repository.ValidGitProtocol(v) {
		return v
	}
	return ""
}

// infoRefs answers GET info/refs?service=…: the ref advertisement.
func (h *Handler) infoRefs(w http.ResponseWriter, r *http.Request, t target) {
	name := r.URL.Query().Get("service")
	if name == "" {
		plain(w, http.StatusForbidden, "Unsupported service: the dumb HTTP protocol is not served; use a smart Git client")
		return
	}
	svc, err := repository.ParseGitService(name)
	if err != nil {
		h.writeError(w, r, t, err)
		return
	}
	_, dir, ok := h.admit(w, r, t, svc)
	if !ok {
		return
	}
	proto := protocol(r)
	inv := Invocation{Service: svc, Dir: dir, AdvertiseRefs: true, Protocol: proto, Wiki: t.wiki}
	contentType := "application/x-" + string(svc) + "-advertisement"
	if svc == repository.ServiceUploadPack && repository.GitProtocolVersion(proto) == 2 {
		// Git's own bytes, kept from an earlier run (capability_advertisement.go).
		if f := h.protocolV2(r.Context(), inv); f != nil && !f.sessionID {
			answer(w, contentType, f.advertisement)
			return
		}
	}
	var preamble []byte
	if repository.GitProtocolVersion(proto) < 2 {
		// Version 2 starts with its capability advertisement instead.
		preamble = append(pktLine("# service="+string(svc)+"\n"), "0000"...)
	}
	if svc == repository.ServiceReceivePack && !h.gateOpen(w, r, dir, preamble) {
		return
	}
	h.run(w, r, runSpec{inv: inv, contentType: contentType, preamble: preamble})
}

// gateOpen waits, as a push does, while a dump holds pushes back, before a
// push's advertisement. A push the gate refuses is told why in an ERR line
// of the advertisement, which git shows ("remote error: …") where it shows
// only the status of a refused POST; nothing has been uploaded yet. The
// gate may still close before the POST, which is then refused with a 503.
func (h *Handler) gateOpen(w http.ResponseWriter, r *http.Request, dir string, preamble []byte) bool {
	held, err := h.runner.HoldPush(r.Context(), Invocation{Service: repository.ServiceReceivePack, Dir: dir})
	if err == nil {
		held()
		return true
	}
	if r.Context().Err() != nil {
		return false
	}
	h.log.Warn("git push gate", "err", err)
	w.Header().Set("Content-Type", "application/x-"+string(repository.ServiceReceivePack)+"-advertisement")
	setNoCache(w.Header())
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(append(preamble, pktLine("ERR "+PushGateRefusal(err)+"\n")...))
	return false
}

// rpc answers POST git-upload-pack and git-receive-pack.
func (h *Handler) rpc(w http.ResponseWriter, r *http.Request, t target) {
	svc := repository.GitService(t.action)
	s, dir, ok := h.admit(w, r, t, svc)
	if !ok {
		return
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/x-"+string(svc)+"-request" {
		plain(w, http.StatusUnsupportedMediaType, "Unsupported Media Type: expected application/x-"+string(svc)+"-request")
		return
	}
	body := io.Reader(r.Body)
	switch enc := strings.ToLower(r.Header.Get("Content-Encoding")); enc {
	case "", "identity":
	case "gzip", "x-gzip":
		zr, err := gzip.NewReader(r.Body)
		if err != nil {
			plain(w, http.StatusBadRequest, "malformed gzip request body")
			return
		}
		defer zr.Close()
		body = zr
	default:
		plain(w, http.StatusUnsupportedMediaType, "unsupported Content-Encoding "+fmt.Sprintf("%q", enc))
		return
	}
	inv := Invocation{Service: svc, Dir: dir, Protocol: protocol(r), RepoID: s.Repo.ID,
		PusherID: s.PusherID, TaskID: s.TaskID, Wiki: t.wiki}
	if svc == repository.ServiceUploadPack && repository.GitProtocolVersion(inv.Protocol) == 2 {
		var answered bool
		if body, answered = h.lsRefs(w, r, s, inv, body); answered {
			return
		}
		if body, answered = h.handOff(w, r, s, inv, body); answered {
			return
		}
	}
	h.run(w, r, runSpec{inv: inv, contentType: "application/x-" + string(svc) + "-result", stdin: body})
}

// pktLine frames s as one pkt-line.
func pktLine(s string) []byte { return []byte(fmt.Sprintf("%04x%s", len(s)+4, s)) }

// runSpec is one git run answering a request.
type runSpec struct {
	inv         Invocation
	contentType string
	// preamble is written before git's output.
	preamble []byte
	// stdin is the request body, nil for info/refs.
	stdin io.Reader
}

// run streams a git process: the request body to its input, its output to
// the response. The response starts with git's first output, so a git that
// fails before writing anything is answered with a clean error instead.
func (h *Handler) run(w http.ResponseWriter, r *http.Request, spec runSpec) {
	ctx := r.Context()
	if spec.inv.Service.Writes() {
		// A push the client stops waiting for still ends in a consistent
		// state: git sees the body end and finishes or aborts by itself,
		// and its hooks run to the end.
		ctx = context.WithoutCancel(ctx)
	}
	ctx, release := h.runner.Bound(ctx)
	defer release()
	held, err := h.runner.HoldPush(ctx, spec.inv)
	if err != nil {
		h.log.Warn("git push gate", "err", err)
		plain(w, http.StatusServiceUnavailable, PushGateRefusal(err))
		return
	}
	defer held()
	cmd, err := h.runner.Command(ctx, spec.inv)
	if err != nil {
		h.log.Error("git command", "err", err)
		plain(w, http.StatusInternalServerError, "internal server error")
		return
	}
	rc := http.NewResponseController(w)
	// Git clients send the whole request before reading, but the answer
	// may begin before the body is drained.
	_ = rc.EnableFullDuplex()
	out := &streamWriter{w: w, rc: rc, contentType: spec.contentType, preamble: spec.preamble,
		drain: spec.inv.Service.Writes(), idle: h.runner.answerIdle}
	// git writes into a pipe the handler reads itself (see streamOutput).
	stdout, gitOut, err := os.Pipe()
	if err != nil {
		h.log.Error("git stdout", "err", err)
		plain(w, http.StatusInternalServerError, "internal server error")
		return
	}
	defer stdout.Close()
	growPipe(stdout)
	cmd.Stdout = gitOut
	stderr := &tailBuffer{max: 4096}
	cmd.Stderr = stderr
	var stdin io.WriteCloser
	if spec.stdin != nil {
		if stdin, err = cmd.StdinPipe(); err != nil {
			_ = gitOut.Close()
			h.log.Error("git stdin", "err", err)
			plain(w, http.StatusInternalServerError, "internal server error")
			return
		}
	}
	err = cmd.Start()
	// Only git (and what it starts) may hold the pipe's write end now, so
	// that the handler sees the output end when they are done.
	_ = gitOut.Close()
	if err != nil {
		h.log.Error("starting git", "err", err)
		plain(w, http.StatusInternalServerError, "internal server error")
		return
	}
	copied := make(chan error, 1)
	// bodyRead is set once the copy has read all it will of the body,
	// before git's stdin is closed: git cannot see the end of its input
	// before it is set.
	var bodyRead atomic.Bool
	if stdin != nil {
		go func() {
			_, err := io.Copy(stdin, spec.stdin)
			bodyRead.Store(true)
			copied <- errors.Join(err, stdin.Close())
		}()
	} else {
		bodyRead.Store(true)
		copied <- nil
	}
	waitErr := streamOutput(cmd, stdout, out)
	var copyErr error
	select {
	case copyErr = <-copied:
	default:
		if !bodyRead.Load() {
			// git ended without reading the whole body: unblock the
			// read so that nothing touches the request after the
			// handler returns. (A copy that has read it all is only
			// closing git's input: abandoning the body then would cut
			// the connection's reads and pass for a client gone.)
			httpkit.AbandonBody(r, rc)
		}
		copyErr = <-copied
	}
	h.finish(w, r, spec, out, stderr, waitErr, copyErr)
}

// finish reports how a git run ended.
func (h *Handler) finish(w http.ResponseWriter, r *http.Request, spec runSpec, out *streamWriter, stderr *tailBuffer,
	waitErr, copyErr error) {
	svc := string(spec.inv.Service)
	if waitErr == nil {
		if !out.started {
			out.start() // an empty answer is still an answer
		}
		return
	}
	var exit *exec.ExitError
	clientGone := r.Context().Err() != nil || out.err != nil
	switch {
	case clientGone:
		h.log.Debug("git client went away", "service", svc, "path", r.URL.Path, "err", waitErr)
	case out.started:
		// The status is sent; git told the client what went wrong in-band.
		h.log.Warn("git ended with an error", "service", svc, "path", r.URL.Path, "err", waitErr,
			"stderr", stderr.String())
	case spec.stdin != nil && (errors.As(waitErr, &exit) || copyErr != nil):
		// Git refused what the client sent (malformed pkt-lines, a
		// truncated pack): the client's error, not the server's.
		h.log.Info("git refused the request", "service", svc, "path", r.URL.Path, "err", waitErr,
			"stderr", stderr.String())
		plain(w, http.StatusBadRequest, "the Git request could not be processed: "+firstLine(stderr.String()))
	default:
		h.log.Error("git failed", "service", svc, "path", r.URL.Path, "err", waitErr, "stderr", stderr.String())
		plain(w, http.StatusInternalServerError, "internal server error")
	}
}

// firstLine is the first line of git's error output, without the
// repository's path on disk.
func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if strings.Contains(s, "/") && strings.Contains(s, "'") {
		return "git could not read the request"
	}
	if len(s) > 200 {
		s = s[:200]
	}
	return s
}

// tailBuffer keeps the last max bytes written, for logs.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

// Write keeps the tail of p.
func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.max:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
