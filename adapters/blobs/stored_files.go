package blobs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// makeStoreDir makes a store's folder (what names the store in errors):
// refused when unset.
func makeStoreDir(dir, what string) error {
	if dir == "" {
		return errors.New("blobs: " + what + " folder not set")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("blobs: create %s folder: %w", what, err)
	}
	return nil
}

// openStored opens the stored file of name, which locate places (and
// refuses when it is no name of the store's); an absent file is absent.
func openStored(ctx context.Context, locate func(name string) (string, error), name string, absent error,
	what string) (io.ReadSeekCloser, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p, err := locate(name)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, absent
	}
	if err != nil {
		return nil, fmt.Errorf("blobs: open %s: %w", what, err)
	}
	return f, nil
}

// removeStored removes the stored file of name; an absent file, or a name
// that is none of the store's, is not an error, so a retried cleanup
// succeeds.
func removeStored(ctx context.Context, locate func(name string) (string, error), name, what string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	p, err := locate(name)
	if err != nil {
		return nil
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("blobs: delete %s: %w", what, err)
	}
	return nil
}

// placeFile writes a new file at dst (what names it in errors) through a
// temporary file beside it: write fills it, then it is synced, closed,
// renamed into place and its folder synced, so that once placeFile
// returns the file survives a crash, and a failure leaves nothing behind.
func placeFile(dst, what string, write func(f *os.File) error) error {
	dir := filepath.Dir(dst)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("blobs: create %s folder: %w", what, err)
	}
	tmp, err := os.CreateTemp(dir, partialPrefix+"*"+partialSuffix)
	if err != nil {
		return fmt.Errorf("blobs: create %s: %w", what, err)
	}
	done := false
	defer func() {
		if !done {
			_ = tmp.Close()
			_ = os.Remove(tmp.Name())
		}
	}()
	if err := write(tmp); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("blobs: sync %s: %w", what, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("blobs: close %s: %w", what, err)
	}
	if err := os.Rename(tmp.Name(), dst); err != nil {
		return fmt.Errorf("blobs: store %s: %w", what, err)
	}
	done = true
	syncDir(dir)
	return nil
}
