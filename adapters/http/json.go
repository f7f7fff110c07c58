package http

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/depothq/depot/domain/errs"
)

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// writeJSON encodes v into a pooled buffer first, so an encoding failure can
// still become a clean error and Content-Length is exact.
func writeJSON(w http.ResponseWriter, status int, v any) {
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer bufPool.Put(buf)
	if err := json.NewEncoder(buf).Encode(v); err != nil {
		http.Error(w, `{"message":"encoding the response failed"}`, http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/json;charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// decodeJSON reads the body into dst. A body over the limit is errs.ErrTooLarge,
// malformed JSON errs.ErrBadRequest, and a field of the wrong type errs.ErrInvalid
// naming that field. An empty body decodes as {}.
func decodeJSON(r *http.Request, dst any) error {
	data, err := io.ReadAll(r.Body)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return errs.TooLarge("request body too large")
		}
		return errs.BadRequest("reading the request body failed")
	}
	if len(bytes.TrimSpace(data)) == 0 {
		data = []byte("{}")
	}
	if err := json.Unmarshal(data, dst); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			field := typeErr.Field
			if field == "" {
				return errs.BadRequest("request body must be a JSON object")
			}
			return errs.Invalid("must be of type "+typeErr.Type.String(), fieldName(field))
		}
		return errs.BadRequest("malformed JSON: " + err.Error())
	}
	return nil
}

// fieldName turns a JSON path such as "must_change_password" into Gitea's
// binding name "MustChangePassword".
func fieldName(jsonPath string) string {
	last := jsonPath[strings.LastIndex(jsonPath, ".")+1:]
	var b strings.Builder
	up := true
	for _, r := range last {
		if r == '_' {
			up = true
			continue
		}
		if up {
			b.WriteString(strings.ToUpper(string(r)))
			up = false
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
