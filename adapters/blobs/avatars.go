// Package blobs stores binary objects on the local disk under the data
// directory. Avatars are the first such objects: decoded, cropped, resized
// and re-encoded here so that only PNGs this package wrote are ever served.
package blobs

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"image"
	_ "image/gif" // registers GIF with image.Decode
	_ "image/jpeg"
	"image/png"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/image/draw"
	_ "golang.org/x/image/webp"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

var _ ports.Avatars = (*Avatars)(nil)

const (
	// AvatarSize is the width and height of every stored avatar, Gitea's
	// default.
	AvatarSize = 290
	// MaxAvatarBytes bounds an upload before anything reads it.
	MaxAvatarBytes = 1 << 20
	// MaxAvatarPixels bounds each side of an upload, checked from the header
	// before decoding so a small file cannot ask for gigabytes of pixels.
	MaxAvatarPixels = 4096
)

// hashLen is the length of a stored avatar's name: 128 bits of SHA-256 in hex.
const hashLen = 32

// Avatars implements ports.Avatars with one PNG file per avatar in a folder.
type Avatars struct {
	dir string
}

// NewAvatars returns Avatars stored in dir, creating it readable by the
// server's user only.
func NewAvatars(dir string) (*Avatars, error) {
	if err := makeStoreDir(dir, "avatar"); err != nil {
		return nil, err
	}
	return &Avatars{dir: dir}, nil
}

// Put decodes a PNG, JPEG, GIF (first frame) or WebP image, crops its
// centre to a square, scales it to AvatarSize and stores it as PNG under a
// name derived from key and the result, so the same upload for the same
// owner lands on the same file.
func (a *Avatars) Put(ctx context.Context, field, key string, data []byte) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	if len(data) == 0 {
		return "", errs.Invalid("Required", field)
	}
	if len(data) > MaxAvatarBytes {
		return "", errs.Invalid("image is larger than 1 MiB", field)
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return "", errs.Invalid("image is not a PNG, JPEG, GIF or WebP", field)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width > MaxAvatarPixels || cfg.Height > MaxAvatarPixels {
		return "", errs.Invalid(fmt.Sprintf("image is larger than %dx%d pixels", MaxAvatarPixels, MaxAvatarPixels), field)
	}
	src, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return "", errs.Invalid("image is not a PNG, JPEG, GIF or WebP", field)
	}

	var out bytes.Buffer
	if err := png.Encode(&out, square(src)); err != nil {
		return "", fmt.Errorf("blobs: encode avatar: %w", err)
	}
	sum := sha256.Sum256(append([]byte(key+"\x00"), out.Bytes()...))
	name := hex.EncodeToString(sum[:])[:hashLen]
	if err := a.write(name, out.Bytes()); err != nil {
		return "", err
	}
	return name, nil
}

// square crops the centre of src to a square and scales it to AvatarSize.
func square(src image.Image) image.Image {
	b := src.Bounds()
	side := min(b.Dx(), b.Dy())
	x0 := b.Min.X + (b.Dx()-side)/2
	y0 := b.Min.Y + (b.Dy()-side)/2
	crop := image.Rect(x0, y0, x0+side, y0+side)
	dst := image.NewRGBA(image.Rect(0, 0, AvatarSize, AvatarSize))
	draw.CatmullRom.Scale(dst, dst.Bounds(), src, crop, draw.Src, nil)
	return dst
}

// write stores data as name.png through a temporary file and a rename, so
// a reader never sees half an image and a crash leaves no partial avatar.
func (a *Avatars) write(name string, data []byte) (err error) {
	tmp, err := os.CreateTemp(a.dir, ".avatar-*.tmp")
	if err != nil {
		return fmt.Errorf("blobs: create avatar: %w", err)
	}
	defer func() {
		if err != nil {
			_ = tmp.Close()
			_ = os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return fmt.Errorf("blobs: write avatar: %w", err)
	}
	if err = tmp.Sync(); err != nil {
		return fmt.Errorf("blobs: sync avatar: %w", err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("blobs: close avatar: %w", err)
	}
	if err = os.Rename(tmp.Name(), a.path(name)); err != nil {
		return fmt.Errorf("blobs: store avatar: %w", err)
	}
	return nil
}

// Remove deletes the avatar stored under hash; a missing one is not an
// error, so a retried delete succeeds.
func (a *Avatars) Remove(ctx context.Context, hash string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if !validHash(hash) {
		return errs.Invalid("invalid avatar hash", "hash")
	}
	if err := os.Remove(a.path(hash)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("blobs: remove avatar: %w", err)
	}
	return nil
}

// Open returns the PNG stored under hash.
func (a *Avatars) Open(ctx context.Context, hash string) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if !validHash(hash) {
		return nil, errs.Invalid("invalid avatar hash", "hash")
	}
	b, err := os.ReadFile(a.path(hash))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, errs.NotFound("avatar not found")
	}
	if err != nil {
		return nil, fmt.Errorf("blobs: read avatar: %w", err)
	}
	return b, nil
}

// Stored calls fn with the hashes of the stored avatars last written
// before t, at most n at a time, for the doctor. Files that are not
// <hash>.png (an image being written) are not the store's and are skipped.
func (a *Avatars) Stored(ctx context.Context, t time.Time, n int, fn func(hashes []string) error) error {
	return walkBatches(ctx, a.dir, t, n, func(p, name string) (string, bool) {
		hash, ok := strings.CutSuffix(name, ".png")
		return hash, ok && validHash(hash) && a.path(hash) == p
	}, fn)
}

// path is only ever called with a validated hash, which has no separators
// or dots, so the result stays inside dir.
func (a *Avatars) path(hash string) string { return filepath.Join(a.dir, hash+".png") }

// validHash reports whether hash has the shape of a name Put returns.
func validHash(hash string) bool {
	if len(hash) != hashLen {
		return false
	}
	for i := 0; i < len(hash); i++ {
		c := hash[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
