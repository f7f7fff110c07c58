package pulls

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// writeChunks writes data to w in pieces of the given sizes (the rest in
// one piece), stopping at the first error as a Git stream does.
func writeChunks(w *lineLimitWriter, data []byte, sizes []byte) error {
	for _, n := range sizes {
		if len(data) == 0 {
			break
		}
		k := min(int(n)+1, len(data))
		if _, err := w.Write(data[:k]); err != nil {
			return err
		}
		data = data[k:]
	}
	if len(data) > 0 {
		_, err := w.Write(data)
		return err
	}
	return nil
}

// FuzzLineLimitWriter checks the bound on a diff's lines however the
// stream is cut into writes: what passes is a prefix of the input, the
// whole input when it has no more lines than the bound, and otherwise
// exactly the bound's lines, ending at a line's end.
func FuzzLineLimitWriter(f *testing.F) {
	f.Add([]byte("a\nb\nc\n"), []byte{0, 2}, uint8(2))
	f.Add([]byte("a\nb"), []byte{}, uint8(1))
	f.Add([]byte("\n\n\n\n"), []byte{3}, uint8(4))
	f.Add([]byte("no end"), []byte{1, 1}, uint8(1))
	f.Fuzz(func(t *testing.T, data, sizes []byte, limit uint8) {
		if limit == 0 {
			return
		}
		var out bytes.Buffer
		w := &lineLimitWriter{w: &out, left: int(limit)}
		err := writeChunks(w, data, sizes)
		if err != nil && !errors.Is(err, errLinesCut) {
			t.Fatalf("write: %v", err)
		}
		got := out.String()
		if !strings.HasPrefix(string(data), got) {
			t.Fatalf("%q is not a prefix of %q", got, data)
		}
		lines := bytes.Count(data, []byte("\n"))
		if lines < int(limit) || (lines == int(limit) && !w.cut) {
			if got != string(data) || w.cut && lines < int(limit) {
				t.Fatalf("under the bound %d: %q of %q (cut %v)", limit, got, data, w.cut)
			}
			return
		}
		if !w.cut || strings.Count(got, "\n") != int(limit) || !strings.HasSuffix(got, "\n") {
			t.Fatalf("bound %d: %q of %q (cut %v)", limit, got, data, w.cut)
		}
	})
}
