//go:build unix

package blobs

import (
	"errors"
	"os"
	"syscall"
)

// hold takes an exclusive flock on f until f is closed; the kernel drops
// it when the process dies, so a crash never leaves a file held.
func hold(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}

// held reports whether a live Put holds the file at p. A file that cannot
// be opened is not held (it is gone, or the sweep's removal fails anyway).
func held(p string) bool {
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		return errors.Is(err, syscall.EWOULDBLOCK)
	}
	_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	return false
}
