package main

// A clone served from a recording: the three answers the server gave one
// clone (the capability advertisement, ls-refs, the fetch with its pack),
// replayed from memory by a server inside the benchmark that does no other
// work: no git runs, no pack is made, nothing is read from disk. Its clone
// costs what HTTP costs the client's git (git-remote-http and libcurl, the
// requests, the pack through a socket) and nothing of a server's. A server
// that makes the pack cannot answer sooner, so its ratio to the floor is the
// lowest any server can reach on the machine.

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// The kinds of answer a protocol-v2 clone gets.
const (
	answerAdvertisement = "advertisement"
	answerLsRefs        = "ls-refs"
	answerFetch         = "fetch"
)

// maxRecordedBody bounds one recorded answer (the benchmark's pack is 22 MB).
const maxRecordedBody = 256 << 20

// recordedAnswer is one answer as the server gave it.
type recordedAnswer struct {
	contentType string
	body        []byte
}

// gitRecording holds the answers of one clone, by kind.
type gitRecording struct {
	mu      sync.Mutex
	answers map[string]recordedAnswer
}

// answerKind tells which answer of a clone r asks for; "" for none of them.
// body is the request's body as sent (gzip-compressed when git chose to).
func answerKind(r *http.Request, body []byte) string {
	if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/info/refs") {
		return answerAdvertisement
	}
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/git-upload-pack") {
		return ""
	}
	if r.Header.Get("Content-Encoding") == "gzip" {
		z, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			return ""
		}
		if body, err = io.ReadAll(io.LimitReader(z, maxRecordedBody)); err != nil {
			return ""
		}
	}
	switch {
	case bytes.Contains(body, []byte("command=ls-refs")):
		return answerLsRefs
	case bytes.Contains(body, []byte("command=fetch")):
		return answerFetch
	}
	return ""
}

// recordClone clones remote (a repository's URL on base) once through a
// proxy that passes each request to the server and keeps its answer.
func recordClone(ctx context.Context, work, base, remote string) (*gitRecording, error) {
	g := &gitRecording{answers: map[string]recordedAnswer{}}
	client := &http.Client{Timeout: time.Minute}
	proxy := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, maxRecordedBody))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		req, err := http.NewRequestWithContext(r.Context(), r.Method, base+r.URL.RequestURI(), bytes.NewReader(body))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		req.Header = r.Header.Clone()
		resp, err := client.Do(req)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		answer, err := io.ReadAll(io.LimitReader(resp.Body, maxRecordedBody))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		if kind := answerKind(r, body); kind != "" && resp.StatusCode == http.StatusOK {
			g.mu.Lock()
			g.answers[kind] = recordedAnswer{contentType: resp.Header.Get("Content-Type"), body: answer}
			g.mu.Unlock()
		}
		w.Header().Set("Content-Type", resp.Header.Get("Content-Type"))
		w.WriteHeader(resp.StatusCode)
		_, _ = w.Write(answer)
	})
	url, stop, err := serveLoopback(proxy)
	if err != nil {
		return nil, err
	}
	defer stop()
	dst, err := os.MkdirTemp(work, "record-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dst)
	if _, err := gitTimed(ctx, work, "", "clone", "-q", url+strings.TrimPrefix(remote, base), filepath.Join(dst, "c")); err != nil {
		return nil, err
	}
	for _, kind := range []string{answerAdvertisement, answerLsRefs, answerFetch} {
		if _, ok := g.answers[kind]; !ok {
			return nil, fmt.Errorf("recording a clone: no %s answer (not a protocol-v2 clone?)", kind)
		}
	}
	return g, nil
}

// serve answers each request of a clone with the recorded answer of its
// kind, from memory, on a loopback port; it returns the server's base URL
// and the function that stops it.
func (g *gitRecording) serve() (string, func(), error) {
	return serveLoopback(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, maxRecordedBody))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		a, ok := g.answers[answerKind(r, body)]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", a.contentType)
		w.Header().Set("Content-Length", fmt.Sprint(len(a.body)))
		_, _ = w.Write(a.body)
	}))
}

// serveLoopback serves h on a free loopback port.
func serveLoopback(h http.Handler) (string, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			fmt.Fprintln(os.Stderr, "loadgen: recording server:", err)
		}
	}()
	return "http://" + ln.Addr().String(), func() {
		_ = srv.Close()
		<-done
	}, nil
}
