package githttp

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"

	"github.com/depothq/depot/adapters/httpkit"
	"github.com/depothq/depot/app/transport"
)

// The answer to the request that ends a fetch's negotiation is the pack,
// the bulk of a clone: tens of megabytes git writes as 64 KiB side-band
// packets. Copied through the server, every packet wakes the handler once
// to read it from git's pipe and once more to write it to the socket, and
// crosses user space twice; on a busy machine that time is taken from git
// packing and the client indexing. So when the connection allows it (plain
// HTTP/1.x, a socket this process can hand on) the handler takes the
// connection over from the HTTP server once the request is read and the
// status line and headers are written, and gives its socket to git as
// standard output: git writes the answer to the client itself, with
// nothing in between. The answer ends when the connection closes
// (Transfer-Encoding: identity, so no chunked framing, and Connection:
// close); a clone's pack is the last answer it needs, and a fetch that
// goes on asks on a new connection.
//
// What changes for such an answer: the status is 200 before git has run,
// so a git that fails at once (a damaged repository) ends the answer empty
// rather than as a 500 — the request was checked first (readFetch), so a
// malformed one is still refused with a 400 by the streamed path; the bytes
// sent are read from the socket's counters (TCP_INFO) for the metrics; and
// the server's Shutdown no longer tracks the connection, so the runner
// does (Runner.Detached).

// handOff answers body, the rest of a protocol-v2 upload-pack request, on
// the connection itself when it is a fetch request that ends the
// negotiation and the connection can be handed to git, and reports whether
// it did; otherwise it returns the body to give git, as it was sent. An
// answer the pack cache keeps is sent from there, or kept as it is sent
// (pack_cache_answer.go).
func (h *Handler) handOff(w http.ResponseWriter, r *http.Request, s *transport.Session, inv Invocation,
	body io.Reader) (io.Reader, bool) {
	if !handOffSupported || r.ProtoMajor != 1 || !r.ProtoAtLeast(1, 1) || r.TLS != nil || !hijackable(w) {
		return body, false
	}
	req, consumed, ok := readFetch(body)
	rest := io.MultiReader(bytes.NewReader(consumed), body)
	if !ok {
		return rest, false
	}
	f := h.protocolV2(r.Context(), inv)
	if f == nil || !req.acceptedBy(f) {
		return rest, false
	}
	var fill *PackFill
	if key, ok := h.packKey(r.Context(), s, inv, f, &req); ok {
		if kept, size, ok := h.packs.Open(key); ok {
			h.answerFromFile(w, r, inv, kept, size)
			return nil, true
		}
		// The first time git answers on the socket itself; the second, its
		// answer is kept as it is sent.
		if h.packs.SeenBefore(key) {
			if fill = h.packs.Fill(key); fill != nil {
				// A push while git answers may change what include-tag
				// adds: the answer is kept only when the refs are as they
				// were.
				fill.still = func() bool {
					again, ok := h.packKey(context.WithoutCancel(r.Context()), s, inv, f, &req)
					return ok && again == key
				}
			}
		}
	}
	h.answerOnConnection(w, r, inv, consumed, fill)
	return nil, true
}

// answerOnConnection runs git with the request as its input and the
// client's connection as its output, keeping the answer in fill too
// unless it is nil.
func (h *Handler) answerOnConnection(w http.ResponseWriter, r *http.Request, inv Invocation, request []byte,
	fill *PackFill) {
	ctx, release := h.runner.Bound(r.Context())
	defer release()
	defer h.runner.Detached()()
	cmd, err := h.runner.Command(ctx, inv)
	if err != nil {
		fill.Abort()
		h.log.Error("git command", "err", err)
		plain(w, http.StatusInternalServerError, "internal server error")
		return
	}
	conn, out, sent, ok := h.takeConnection(w, inv)
	if !ok {
		fill.Abort()
		return
	}
	defer conn.Close()
	cmd.Stdin = bytes.NewReader(request)
	stderr := &tailBuffer{max: 4096}
	cmd.Stderr = stderr
	before := sent()
	if out != nil && fill != nil {
		err = runKept(cmd, out, fill)
	} else {
		fill.Abort()
		err = runOnConnection(cmd, conn, out)
	}
	httpkit.ReportWritten(w, sent()-before)
	switch {
	case err == nil:
	case errors.Is(err, errClientWrite) || gitLostClient(err, stderr.String()):
		h.log.Debug("git client went away", "service", string(inv.Service), "path", r.URL.Path, "err", err)
	default:
		// The status is sent; git told the client what went wrong in-band.
		h.log.Warn("git ended with an error", "service", string(inv.Service), "path", r.URL.Path, "err", err,
			"stderr", stderr.String())
	}
}

// takeConnection sends the status line and headers of an answer that ends
// with the connection, and takes the connection over from the HTTP
// server: it returns the connection, a blocking descriptor of its socket
// (nil when it has none; the caller closes it) and the socket's count of
// bytes sent (connOutput). ok is false when the connection could not be
// taken.
func (h *Handler) takeConnection(w http.ResponseWriter, inv Invocation) (conn net.Conn, out *os.File,
	sent func() int64, ok bool) {
	hdr := w.Header()
	hdr.Set("Content-Type", "application/x-"+string(inv.Service)+"-result")
	setNoCache(hdr)
	// No chunked framing: the answer ends with the connection, which
	// net/http then marks Connection: close.
	hdr.Set("Transfer-Encoding", "identity")
	w.WriteHeader(http.StatusOK)
	// Hijack sends the status line and headers before handing over.
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		h.log.Error("taking over the connection for git", "err", err)
		return nil, nil, nil, false
	}
	out, sent = connOutput(conn, h.runner.answerIdle)
	return conn, out, sent, true
}

// hijackable reports whether w, or a writer it wraps, can hand its
// connection over, as http.ResponseController looks for it.
func hijackable(w http.ResponseWriter) bool {
	for {
		if _, ok := w.(http.Hijacker); ok {
			return true
		}
		u, ok := w.(interface{ Unwrap() http.ResponseWriter })
		if !ok {
			return false
		}
		w = u.Unwrap()
	}
}
