package http

import (
	"bytes"
	"errors"
	"io"
	"mime/multipart"
	"testing"

	"github.com/depothq/depot/domain/errs"
)

// FuzzPypiForm feeds arbitrary bodies to the upload form's parser: no
// panic, every error a 400 or 413, the fields within their bound, and the
// file's part readable to its end.
func FuzzPypiForm(f *testing.F) {
	var seed bytes.Buffer
	mw := multipart.NewWriter(&seed)
	_ = mw.SetBoundary("b")
	_ = mw.WriteField("name", "depot-hello")
	_ = mw.WriteField("version", "1.0")
	w, _ := mw.CreateFormFile("content", "depot_hello-1.0.tar.gz")
	_, _ = w.Write([]byte("data"))
	_ = mw.Close()
	f.Add(seed.Bytes())
	f.Add([]byte("--b\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\n" + string(make([]byte, 100)) + "\r\n--b--\r\n"))
	f.Add([]byte("--b\r\n\r\n"))
	f.Add([]byte(""))
	f.Fuzz(func(t *testing.T, body []byte) {
		const limit = 64
		form, err := readPypiForm(multipart.NewReader(bytes.NewReader(body), "b"), limit)
		if err != nil {
			if !errors.Is(err, errs.ErrBadRequest) && !errors.Is(err, errs.ErrTooLarge) {
				t.Fatalf("error %v is neither 400 nor 413", err)
			}
			return
		}
		n := 0
		for _, v := range form.fields {
			n += len(v)
		}
		if n > limit {
			t.Fatalf("fields of %d bytes kept, limit %d", n, limit)
		}
		if form.content != nil {
			_, _ = io.Copy(io.Discard, form.content)
			_ = form.content.FileName()
		}
	})
}
