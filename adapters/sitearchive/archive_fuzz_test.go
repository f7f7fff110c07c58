package sitearchive

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/depothq/depot/domain/errs"
)

// FuzzArchiveReader feeds arbitrary bytes to the archive reader: it must
// refuse what is not a well-formed archive with errs.ErrBadRequest and
// never panic, and every name it yields must be safe to extract.
func FuzzArchiveReader(f *testing.F) {
	for _, c := range []Compression{None, Gzip, Zstd} {
		var buf bytes.Buffer
		w, err := NewWriter(&buf, c)
		if err != nil {
			f.Fatal(err)
		}
		for _, name := range []string{"depot-dump.json", "repos/a/b.git/HEAD"} {
			if err := w.AddFile(name, 0o600, 3, bytes.NewReader([]byte("abc"))); err != nil {
				f.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			f.Fatal(err)
		}
		f.Add(buf.Bytes())
	}
	f.Add([]byte{0x28, 0xb5, 0x2f, 0xfd, 0, 0, 0})
	f.Add([]byte{0x1f, 0x8b})
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := NewReader(bytes.NewReader(data))
		if err != nil {
			if !errors.Is(err, errs.ErrBadRequest) {
				t.Fatalf("uncategorised error %v", err)
			}
			return
		}
		defer r.Close()
		for i := 0; i < 100; i++ {
			e, body, err := r.Next()
			if err == io.EOF {
				return
			}
			if err != nil {
				if !errors.Is(err, errs.ErrBadRequest) {
					t.Fatalf("uncategorised error %v", err)
				}
				return
			}
			if CheckName(e.Name) != nil {
				t.Fatalf("unsafe name %q passed", e.Name)
			}
			if _, err := io.Copy(io.Discard, io.LimitReader(body, 1<<20)); err != nil && !errors.Is(err, errs.ErrBadRequest) {
				t.Fatalf("uncategorised read error %v", err)
			}
		}
	})
}
