package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// gitHousekeepingWait bounds the wait for the server's housekeeping of the
// pushed repository.
const gitHousekeepingWait = 2 * time.Minute

// gitWaitHousekept waits until the server's housekeeping after a push has
// run on dir: a pack with a reachability bitmap is there and no git gc
// holds the repository (gc.pid); it returns how long that took. It then
// writes what gc left in the page cache to disk (sync): otherwise the
// clones' start would share the disk with those 20 MB.
func gitWaitHousekept(ctx context.Context, dir string, limit time.Duration) (time.Duration, error) {
	start := time.Now()
	for {
		bitmaps, err := filepath.Glob(filepath.Join(dir, "objects", "pack", "pack-*.bitmap"))
		if err != nil {
			return 0, err
		}
		_, err = os.Stat(filepath.Join(dir, "gc.pid"))
		if len(bitmaps) > 0 && errors.Is(err, os.ErrNotExist) {
			took := time.Since(start)
			syscall.Sync()
			return took, nil
		}
		if time.Since(start) > limit {
			return 0, fmt.Errorf("no bitmap in %s after %s", dir, limit)
		}
		select {
		case <-ctx.Done():
			return 0, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}
