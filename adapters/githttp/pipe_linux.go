//go:build linux

package githttp

import (
	"os"

	"golang.org/x/sys/unix"
)

// gitPipeSize is the capacity asked for git's stdout pipe (1 MiB is the
// most an unprivileged process gets by default): git writes a clone's pack
// ahead of the copy to the client instead of waiting on it every 64 KiB.
const gitPipeSize = 1 << 20

// growPipe enlarges the pipe f is an end of, as far as the system allows.
func growPipe(f *os.File) {
	rc, err := f.SyscallConn()
	if err != nil {
		return
	}
	_ = rc.Control(func(fd uintptr) {
		_, _ = unix.FcntlInt(fd, unix.F_SETPIPE_SZ, gitPipeSize)
	})
}

// pipeWaiting returns a function that tells how many bytes wait in the
// pipe f reads from (FIONREAD, which Linux names TIOCINQ); 0 when it
// cannot tell.
func pipeWaiting(f *os.File) func() int {
	rc, err := f.SyscallConn()
	if err != nil {
		return func() int { return 0 }
	}
	return func() int {
		n := 0
		_ = rc.Control(func(fd uintptr) {
			if v, err := unix.IoctlGetInt(int(fd), unix.TIOCINQ); err == nil {
				n = v
			}
		})
		return n
	}
}
