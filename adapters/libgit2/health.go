package libgit2

import (
	"context"
	"errors"
	"fmt"
	"os"
	"syscall"

	"github.com/depothq/depot/ports"
)

var _ ports.VolumeProbe = (*Storage)(nil)

// CheckVolume reports whether the repositories' root is still a directory
// Depot may write in (ports.VolumeProbe): a stat and an access check, no
// write, so a poll every second costs nothing.
func (s *Storage) CheckVolume(context.Context) error {
	fi, err := os.Stat(s.root)
	if err != nil {
		return fmt.Errorf("the repositories directory: %w", err)
	}
	if !fi.IsDir() {
		return errors.New("the repositories directory is not a directory")
	}
	const writeAndSearch = 0o2 | 0o1 // W_OK | X_OK
	if err := syscall.Access(s.root, writeAndSearch); err != nil {
		return fmt.Errorf("the repositories directory is not writable: %w", err)
	}
	return nil
}
