package httpkit

import "net/http"

// WrittenCounter is a response writer that counts the bytes of the answer
// and can be told of bytes that reached the client without passing through
// it: those of a handler that took the connection over (Hijack) and had
// another process write the answer.
type WrittenCounter interface {
	AddWritten(n int64)
}

// ReportWritten tells every WrittenCounter among w and the writers it
// wraps (through Unwrap) that n bytes of the answer went out another way.
func ReportWritten(w http.ResponseWriter, n int64) {
	for w != nil {
		if c, ok := w.(WrittenCounter); ok {
			c.AddWritten(n)
		}
		u, ok := w.(interface{ Unwrap() http.ResponseWriter })
		if !ok {
			return
		}
		w = u.Unwrap()
	}
}
