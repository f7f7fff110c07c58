package blobs

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// The sweep's side of a file store (attachments and release assets,
// package blobs): which stored files are old enough to be judged, and the
// partial files of cut-off uploads. Both stores write a file under a
// temporary name (partialPrefix…partialSuffix), hold it while its row may
// still commit (held), then give it its final name.

// partialPrefix and partialSuffix frame the name of an upload being
// written (os.CreateTemp's pattern in Put).
const partialPrefix, partialSuffix = ".upload-", ".tmp"

// storedBefore calls fn with the names of the files under dir last written
// before t and not held, at most n at a time. A file that is not where
// locate puts its name is not the store's and is skipped.
func storedBefore(ctx context.Context, dir string, t time.Time, n int, locate func(name string) (string, error),
	fn func(names []string) error) error {
	return walkBatches(ctx, dir, t, n, func(p, name string) (string, bool) {
		want, err := locate(name)
		return name, err == nil && want == p && !held(p)
	}, fn)
}

// walkBatches calls fn with the keys of the files under dir last written
// before t, at most n at a time; key names a file's key, or says it is not
// one of the store's.
func walkBatches[K any](ctx context.Context, dir string, t time.Time, n int, key func(p, name string) (K, bool),
	fn func(keys []K) error) error {
	return inBatches(n, fn, func(add func(K) error) error {
		return walkFiles(ctx, dir, t, func(p, name string) error {
			if k, ok := key(p, name); ok {
				return add(k)
			}
			return nil
		})
	})
}

// inBatches calls fn with the keys produce adds, at most n at a time, and
// with the last ones once produce returns.
func inBatches[K any](n int, fn func(keys []K) error, produce func(add func(K) error) error) error {
	n = max(n, 1)
	batch := make([]K, 0, n)
	err := produce(func(k K) error {
		batch = append(batch, k)
		if len(batch) < n {
			return nil
		}
		err := fn(batch)
		batch = batch[:0]
		return err
	})
	if err != nil || len(batch) == 0 {
		return err
	}
	return fn(batch)
}

// removePartialBefore removes the temporary files under dir of uploads last
// written before t whose writer is gone (no process holds them).
func removePartialBefore(ctx context.Context, dir string, t time.Time) (int, error) {
	removed := 0
	err := walkFiles(ctx, dir, t, func(p, name string) error {
		if !strings.HasPrefix(name, partialPrefix) || !strings.HasSuffix(name, partialSuffix) || held(p) {
			return nil
		}
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("blobs: remove partial upload: %w", err)
		}
		removed++
		return nil
	})
	return removed, err
}

// walkFiles calls fn with the path and name of every regular file under
// dir last modified before t. Files that vanish meanwhile are skipped.
func walkFiles(ctx context.Context, dir string, t time.Time, fn func(p, name string) error) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return fmt.Errorf("blobs: walk %s: %w", dir, err)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		info, err := d.Info()
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("blobs: walk %s: %w", dir, err)
		}
		if !info.ModTime().Before(t) {
			return nil
		}
		return fn(p, d.Name())
	})
}
