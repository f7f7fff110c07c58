package http

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"reflect"
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
	if err := json.NewEncoder(buf).Encode(v); err != nil {
		bufPool.Put(buf)
		http.Error(w, `{"message":"encoding the response failed"}`, http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/json;charset=utf-8")
	// A GET's answer held for its ETag takes the buffer over: no copy.
	if cw, ok := w.(*conditionalWriter); ok && cw.holdJSON(status, buf) {
		return
	}
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
	bufPool.Put(buf)
}

// decodeJSON reads the body into dst. A body over the limit is errs.ErrTooLarge,
// malformed JSON errs.ErrBadRequest, and a field of the wrong type errs.ErrInvalid
// naming that field. An empty body decodes as {}.
func decodeJSON(r *http.Request, dst any) error {
	data, err := readBody(r)
	if err != nil {
		return err
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
	// No store can keep a NUL character in text (the SQL layer refuses the
	// whole statement), so a string carrying one is an input error here.
	if field := nulField(reflect.ValueOf(dst), ""); field != "" {
		return errs.Invalid("must not contain NUL characters", fieldName(field))
	}
	return nil
}

// readBody reads the whole body, which the server's limit bounds: past it
// errs.ErrTooLarge.
func readBody(r *http.Request) ([]byte, error) {
	data, err := io.ReadAll(r.Body)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return nil, errs.TooLarge("request body too large")
		}
		return nil, errs.BadRequest("reading the request body failed")
	}
	return data, nil
}

// nulField returns the JSON name of the first string in v that contains a
// NUL character, or "" when there is none.
func nulField(v reflect.Value, name string) string {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return ""
		}
		return nulField(v.Elem(), name)
	case reflect.String:
		if strings.IndexByte(v.String(), 0) >= 0 {
			return name
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			if f := nulField(v.Index(i), name); f != "" {
				return f
			}
		}
	case reflect.Map:
		iter := v.MapRange()
		for iter.Next() {
			if f := nulField(iter.Key(), name); f != "" {
				return f
			}
			if f := nulField(iter.Value(), name); f != "" {
				return f
			}
		}
	case reflect.Struct:
		t := v.Type()
		for i := range t.NumField() {
			sf := t.Field(i)
			if !sf.IsExported() {
				continue
			}
			tag, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
			if tag == "" {
				tag = sf.Name
			}
			if f := nulField(v.Field(i), tag); f != "" {
				return f
			}
		}
	}
	return ""
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
