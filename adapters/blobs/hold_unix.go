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
	if err = hold(f); err != nil {
		return errors.Is(err, syscall.EWOULDBLOCK)
	}
	_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	return false
}

// whileFree runs fn while it holds the exclusive lock of the folder at p,
// taken without waiting, and reports whether it ran fn. Unlike held it
// errs on the side of in use: a folder whose lock it cannot take for any
// reason (held by a live writer, no locks on that file system, gone) is
// left alone.
func whileFree(p string, fn func() error) (bool, error) {
	f, err := os.Open(p)
	if err != nil {
		return false, nil
	}
	defer f.Close()
	if hold(f) != nil {
		return false, nil
	}
	return true, fn()
}
