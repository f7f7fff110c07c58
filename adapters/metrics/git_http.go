package metrics

import (
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// WrapGit measures Git's smart HTTP requests that h answers: their time by
// service and status, and their bytes each way.
func (r *Registry) WrapGit(h http.Handler) http.Handler {
	if !r.enabled {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		service := gitService(req)
		start := time.Now()
		in := &countingBody{ReadCloser: req.Body}
		req.Body = in
		out := &countingWriter{ResponseWriter: w}
		h.ServeHTTP(out, req)
		status := out.status
		if status == 0 {
			status = http.StatusOK
		}
		r.git.WithLabelValues(service, strconv.Itoa(status)).Observe(time.Since(start).Seconds())
		r.gitBytes.WithLabelValues(service, "in").Add(float64(in.n.Load()))
		r.gitBytes.WithLabelValues(service, "out").Add(float64(out.n))
	})
}

// gitService names a smart HTTP request by what it does.
func gitService(r *http.Request) string {
	p := r.URL.Path
	switch {
	case strings.HasSuffix(p, "/git-upload-pack"):
		return "upload-pack"
	case strings.HasSuffix(p, "/git-receive-pack"):
		return "receive-pack"
	case strings.HasSuffix(p, "/info/refs"):
		return "info-refs"
	}
	return "other"
}

// countingBody counts the bytes read from a request body (git may read
// it from another goroutine).
type countingBody struct {
	io.ReadCloser
	n atomic.Int64
}

func (b *countingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.n.Add(int64(n))
	return n, err
}

// countingWriter counts the bytes written and keeps the status; Unwrap
// lets http.ResponseController flush and go full duplex through it.
type countingWriter struct {
	http.ResponseWriter
	status int
	n      int64
}

func (w *countingWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *countingWriter) Write(p []byte) (int, error) {
	n, err := w.ResponseWriter.Write(p)
	w.n += int64(n)
	return n, err
}

func (w *countingWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// AddWritten counts bytes of the answer sent on the connection after it was
// taken over (httpkit.ReportWritten).
func (w *countingWriter) AddWritten(n int64) { w.n += n }

func (w *countingWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
