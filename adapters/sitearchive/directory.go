package sitearchive

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/depothq/depot/ports"
)

// Directory is a data directory on disk (ports.SiteDirectory).
type Directory struct{ root string }

var _ ports.SiteDirectory = (*Directory)(nil)

// NewDirectory is the data directory at root.
func NewDirectory(root string) *Directory { return &Directory{root: root} }

func (d *Directory) path(name string) (string, error) {
	if err := CheckName(name); err != nil {
		return "", err
	}
	return filepath.Join(d.root, filepath.FromSlash(name)), nil
}

// Empty reports whether the directory holds nothing or does not exist.
func (d *Directory) Empty() (bool, error) {
	f, err := os.Open(d.root)
	if errors.Is(err, fs.ErrNotExist) {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	defer f.Close()
	names, err := f.Readdirnames(1)
	if err == io.EOF {
		return true, nil
	}
	return len(names) == 0, err
}

// Walk calls fn with every regular file under root, in lexical order.
func (d *Directory) Walk(ctx context.Context, root string, fn func(f ports.SiteFile) error) error {
	start, err := d.path(root)
	if err != nil {
		return err
	}
	return walk(ctx, d.root, start, nil, fn)
}

// walk calls fn with the regular files under start (named relative to
// base), leaving out the directories skip names (relative to start).
func walk(ctx context.Context, base, start string, skip func(rel string, dir bool) bool,
	fn func(f ports.SiteFile) error) error {
	return filepath.WalkDir(start, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil // gone meanwhile (a repack, a finished upload)
			}
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if skip != nil && p != start {
			rel, _ := filepath.Rel(start, p)
			if skip(filepath.ToSlash(rel), e.IsDir()) {
				if e.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
		}
		if !e.Type().IsRegular() {
			return nil
		}
		info, err := e.Info()
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(base, p)
		if err != nil {
			return err
		}
		return fn(ports.SiteFile{Name: filepath.ToSlash(rel), Mode: info.Mode().Perm(), Size: info.Size()})
	})
}

// Open reads a file.
func (d *Directory) Open(name string) (io.ReadCloser, error) {
	p, err := d.path(name)
	if err != nil {
		return nil, err
	}
	return os.Open(p)
}

// Write creates a file and its parents from r.
func (d *Directory) Write(name string, mode fs.FileMode, r io.Reader) error {
	p, err := d.path(name)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode.Perm()|0o600)
	if err != nil {
		return fmt.Errorf("sitearchive: %w", err)
	}
	_, err = io.Copy(f, r)
	return errors.Join(err, f.Close())
}

// Remove deletes a file or an empty directory.
func (d *Directory) Remove(name string) error {
	p, err := d.path(name)
	if err != nil {
		return err
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}
