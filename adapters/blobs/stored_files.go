package blobs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
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
