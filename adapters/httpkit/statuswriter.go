package httpkit

import "net/http"

// StatusWriter remembers the status of a response, for the access logs.
type StatusWriter struct {
	http.ResponseWriter
	// Status is the status written, 0 until something is.
	Status int
}

// WriteHeader records the first status and writes it.
func (w *StatusWriter) WriteHeader(code int) {
	if w.Status == 0 {
		w.Status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

// Write records an implicit 200 before the first bytes.
func (w *StatusWriter) Write(b []byte) (int, error) {
	if w.Status == 0 {
		w.Status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the real writer (flushing, deadlines).
func (w *StatusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
