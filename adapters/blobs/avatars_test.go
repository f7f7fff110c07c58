package blobs

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
)

var hashPattern = regexp.MustCompile(`^[0-9a-f]{32}$`)

func newAvatars(t *testing.T) (*Avatars, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "data", "avatars")
	a, err := NewAvatars(dir)
	if err != nil {
		t.Fatalf("NewAvatars: %v", err)
	}
	return a, dir
}

// gradient draws a w×h image whose colour depends on x, so crops differ.
func gradient(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.Set(x, y, color.RGBA{R: uint8(x * 255 / max(w-1, 1)), G: uint8(y * 255 / max(h-1, 1)), B: 128, A: 255})
		}
	}
	return img
}

func encodePNG(t *testing.T, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func encodeJPEG(t *testing.T, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func encodeGIF(t *testing.T, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := gif.Encode(&b, img, nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// pngHeader returns just a PNG signature and an IHDR chunk claiming w×h:
// enough for image.DecodeConfig, far too little for image.Decode.
func pngHeader(w, h uint32) []byte {
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8] = 8 // bit depth
	ihdr[9] = 6 // RGBA
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	_ = binary.Write(&b, binary.BigEndian, uint32(len(ihdr)))
	chunk := append([]byte("IHDR"), ihdr...)
	b.Write(chunk)
	_ = binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(chunk))
	return b.Bytes()
}

// openPNG reads a stored avatar back and checks it is a square PNG.
func openPNG(t *testing.T, a *Avatars, hash string) image.Image {
	t.Helper()
	is := is.New(t)
	raw, err := a.Open(context.Background(), hash)
	is.NoErr(err)
	img, format, err := image.Decode(bytes.NewReader(raw))
	is.NoErr(err)
	is.Equal(format, "png")
	is.Equal(img.Bounds(), image.Rect(0, 0, AvatarSize, AvatarSize))
	return img
}

func TestNewAvatarsCreatesPrivateFolder(t *testing.T) {
	is := is.New(t)
	_, dir := newAvatars(t)
	fi, err := os.Stat(dir)
	is.NoErr(err)
	is.True(fi.IsDir())
	is.Equal(fi.Mode().Perm(), os.FileMode(0o700))

	_, err = NewAvatars("")
	is.True(err != nil)
}

func TestAvatarsRoundTrip(t *testing.T) {
	src := gradient(400, 400)
	cases := []struct {
		name string
		data func(t *testing.T) []byte
	}{
		{"png", func(t *testing.T) []byte { return encodePNG(t, src) }},
		{"jpeg", func(t *testing.T) []byte { return encodeJPEG(t, src) }},
		{"gif", func(t *testing.T) []byte { return encodeGIF(t, src) }},
		{"small png is scaled up", func(t *testing.T) []byte { return encodePNG(t, gradient(16, 16)) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			a, dir := newAvatars(t)
			hash, err := a.Put(context.Background(), "avatar", "user-1", c.data(t))
			is.NoErr(err)
			is.True(hashPattern.MatchString(hash))
			openPNG(t, a, hash)

			fi, err := os.Stat(filepath.Join(dir, hash+".png"))
			is.NoErr(err)
			is.Equal(fi.Mode().Perm(), os.FileMode(0o600))
			entries, err := os.ReadDir(dir)
			is.NoErr(err)
			is.Equal(len(entries), 1) // no temporary file left behind
		})
	}
}

func TestAvatarsNameDependsOnKeyAndImage(t *testing.T) {
	is := is.New(t)
	a, _ := newAvatars(t)
	ctx := context.Background()
	data := encodePNG(t, gradient(50, 50))

	h1, err := a.Put(ctx, "avatar", "user-1", data)
	is.NoErr(err)
	again, err := a.Put(ctx, "avatar", "user-1", data)
	is.NoErr(err)
	is.Equal(again, h1) // same owner, same image: same name

	h2, err := a.Put(ctx, "avatar", "user-2", data)
	is.NoErr(err)
	is.True(h2 != h1)

	h3, err := a.Put(ctx, "avatar", "user-1", encodePNG(t, gradient(60, 50)))
	is.NoErr(err)
	is.True(h3 != h1)
}

func TestAvatarsCropsCentre(t *testing.T) {
	is := is.New(t)
	a, _ := newAvatars(t)
	// 600×300: red, then a green 300×300 centre, then blue.
	src := image.NewRGBA(image.Rect(0, 0, 600, 300))
	for y := 0; y < 300; y++ {
		for x := 0; x < 600; x++ {
			c := color.RGBA{G: 255, A: 255}
			if x < 150 {
				c = color.RGBA{R: 255, A: 255}
			} else if x >= 450 {
				c = color.RGBA{B: 255, A: 255}
			}
			src.Set(x, y, c)
		}
	}
	hash, err := a.Put(context.Background(), "avatar", "repo-7", encodePNG(t, src))
	is.NoErr(err)
	img := openPNG(t, a, hash)
	for _, p := range []image.Point{{0, 0}, {AvatarSize - 1, 0}, {0, AvatarSize - 1}, {AvatarSize - 1, AvatarSize - 1}, {AvatarSize / 2, AvatarSize / 2}} {
		r, g, b, _ := img.At(p.X, p.Y).RGBA()
		is.Equal([]uint32{r >> 8, g >> 8, b >> 8}, []uint32{0, 255, 0}) // only the green centre survives
	}

	// A tall image keeps its vertical centre.
	tall := image.NewRGBA(image.Rect(0, 0, 100, 300))
	for y := 0; y < 300; y++ {
		for x := 0; x < 100; x++ {
			c := color.RGBA{R: 255, A: 255}
			if y >= 100 && y < 200 {
				c = color.RGBA{G: 255, A: 255}
			}
			tall.Set(x, y, c)
		}
	}
	hash, err = a.Put(context.Background(), "avatar", "repo-7", encodePNG(t, tall))
	is.NoErr(err)
	img = openPNG(t, a, hash)
	r, g, _, _ := img.At(0, 0).RGBA()
	is.Equal([]uint32{r >> 8, g >> 8}, []uint32{0, 255})
}

// TestAvatarsWebP reads a lossless WebP made with cwebp from a 48×24
// red|green|blue image; x/image has a WebP decoder but no encoder.
func TestAvatarsWebP(t *testing.T) {
	is := is.New(t)
	a, _ := newAvatars(t)
	data, err := os.ReadFile(filepath.Join("testdata", "centre-green-48x24.webp"))
	is.NoErr(err)
	hash, err := a.Put(context.Background(), "avatar", "user-1", data)
	is.NoErr(err)
	img := openPNG(t, a, hash)
	r, g, b, _ := img.At(0, 0).RGBA()
	is.Equal([]uint32{r >> 8, g >> 8, b >> 8}, []uint32{0, 255, 0})
}

// TestSquareHonoursBounds feeds square an image whose bounds do not start
// at the origin, as a decoder may return.
func TestSquareHonoursBounds(t *testing.T) {
	is := is.New(t)
	// Green only in (100,100)-(200,200), red elsewhere.
	full := image.NewRGBA(image.Rect(0, 0, 300, 300))
	for y := 0; y < 300; y++ {
		for x := 0; x < 300; x++ {
			c := color.RGBA{R: 255, A: 255}
			if x >= 100 && x < 200 && y >= 100 && y < 200 {
				c = color.RGBA{G: 255, A: 255}
			}
			full.Set(x, y, c)
		}
	}
	// A 100×200 window whose centre square is the green block.
	out := square(full.SubImage(image.Rect(100, 50, 200, 250)))
	is.Equal(out.Bounds(), image.Rect(0, 0, AvatarSize, AvatarSize))
	for _, p := range []image.Point{{0, 0}, {AvatarSize - 1, AvatarSize - 1}, {0, AvatarSize - 1}} {
		r, g, _, _ := out.At(p.X, p.Y).RGBA()
		is.Equal([]uint32{r >> 8, g >> 8}, []uint32{0, 255})
	}
}

func TestAvatarsRefuses(t *testing.T) {
	big := make([]byte, MaxAvatarBytes+1)
	copy(big, encodePNG(t, gradient(10, 10)))
	cases := []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"garbage", []byte("definitely not an image")},
		{"truncated png", encodePNG(t, gradient(100, 100))[:200]},
		{"header only", pngHeader(100, 100)},
		{"over 1 MiB", big},
		{"too wide", encodePNG(t, image.NewGray(image.Rect(0, 0, MaxAvatarPixels+1, 1)))},
		{"too tall", encodePNG(t, image.NewGray(image.Rect(0, 0, 1, MaxAvatarPixels+1)))},
		{"header claims 10000x10000", pngHeader(10000, 10000)},
		{"header claims 2^31 wide", pngHeader(1<<31-1, 1)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			a, dir := newAvatars(t)
			hash, err := a.Put(context.Background(), "avatar", "user-1", c.data)
			is.True(errors.Is(err, errs.ErrInvalid))
			var e *errs.Error
			is.True(errors.As(err, &e))
			is.Equal(e.Fields, []string{"avatar"})
			is.Equal(hash, "")
			entries, err := os.ReadDir(dir)
			is.NoErr(err)
			is.Equal(len(entries), 0)
		})
	}
}

func TestAvatarsRemove(t *testing.T) {
	is := is.New(t)
	a, dir := newAvatars(t)
	ctx := context.Background()
	hash, err := a.Put(ctx, "avatar", "user-1", encodePNG(t, gradient(20, 20)))
	is.NoErr(err)

	is.NoErr(a.Remove(ctx, hash))
	is.NoErr(a.Remove(ctx, hash)) // removing none is fine
	_, err = os.Stat(filepath.Join(dir, hash+".png"))
	is.True(errors.Is(err, os.ErrNotExist))

	_, err = a.Open(ctx, hash)
	is.True(errors.Is(err, errs.ErrNotFound))
	is.Equal(errs.Message(err), "avatar not found")
}

func TestAvatarsBadHash(t *testing.T) {
	a, dir := newAvatars(t)
	// A file beside the avatar folder that a traversal would reach.
	outside := filepath.Join(filepath.Dir(dir), "0123456789abcdef0123456789abcdef.png")
	if err := os.WriteFile(outside, []byte("secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, hash := range []string{
		"",
		"abc",
		"0123456789ABCDEF0123456789ABCDEF",
		"0123456789abcdef0123456789abcdeg",
		"0123456789abcdef0123456789abcdef0",
		"0123456789abcdef0123456789abcde",
		"../0123456789abcdef0123456789abcdef",
		"../../../../../../../../etc/passwd",
		"0123456789abcdef0123456789abc/..",
		"0123456789abcdef0123456789ab.png",
	} {
		t.Run(hash, func(t *testing.T) {
			is := is.New(t)
			_, err := a.Open(context.Background(), hash)
			is.True(errors.Is(err, errs.ErrInvalid))
			is.True(errors.Is(a.Remove(context.Background(), hash), errs.ErrInvalid))
		})
	}
	is := is.New(t)
	b, err := os.ReadFile(outside)
	is.NoErr(err)
	is.Equal(string(b), "secret") // untouched
}

func TestAvatarsCancelled(t *testing.T) {
	is := is.New(t)
	a, _ := newAvatars(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := a.Put(ctx, "avatar", "user-1", encodePNG(t, gradient(10, 10)))
	is.True(errors.Is(err, context.Canceled))
}
