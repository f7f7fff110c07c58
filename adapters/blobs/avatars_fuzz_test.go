package blobs

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/depothq/depot/domain/errs"
)

// FuzzAvatarsPut fuzzes an uploaded avatar: anything that is not an image
// of bounded size is a 422 on the field, and an accepted one is stored as
// a PNG of AvatarSize square under a name of hex digits.
func FuzzAvatarsPut(f *testing.F) {
	img := gradient(12, 7)
	var p, j, g bytes.Buffer
	if err := png.Encode(&p, img); err != nil {
		f.Fatal(err)
	}
	if err := jpeg.Encode(&j, img, nil); err != nil {
		f.Fatal(err)
	}
	if err := gif.Encode(&g, img, nil); err != nil {
		f.Fatal(err)
	}
	webp, err := os.ReadFile(filepath.Join("testdata", "centre-green-48x24.webp"))
	if err != nil {
		f.Fatal(err)
	}
	for _, b := range [][]byte{p.Bytes(), j.Bytes(), g.Bytes(), webp, []byte("GIF89a"), []byte("\x89PNG\r\n\x1a\n"), nil} {
		f.Add(b)
	}
	dir := filepath.Join(f.TempDir(), "avatars")
	a, err := NewAvatars(dir)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		name, err := a.Put(context.Background(), "image", "user-1", data)
		if err != nil {
			var e *errs.Error
			if !errors.As(err, &e) || !errors.Is(err, errs.ErrInvalid) || !slices.Equal(e.Fields, []string{"image"}) {
				t.Fatalf("Put refused with %v (%T), not a 422 on image", err, err)
			}
			return
		}
		if !hashPattern.MatchString(name) {
			t.Fatalf("stored as %q", name)
		}
		stored, err := os.ReadFile(filepath.Join(dir, name+".png"))
		if err != nil {
			t.Fatal(err)
		}
		cfg, format, err := image.DecodeConfig(bytes.NewReader(stored))
		if err != nil || format != "png" || cfg.Width != AvatarSize || cfg.Height != AvatarSize {
			t.Fatalf("stored %s %dx%d, %v", format, cfg.Width, cfg.Height, err)
		}
		_ = os.Remove(filepath.Join(dir, name+".png"))
	})
}
