//go:build linux

package githttp

import (
	"errors"
	"io"
	"net"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// handOffSupported says a connection's socket can be handed to git.
const handOffSupported = true

// connOutput returns a descriptor of conn's socket for git to write to,
// and a function telling how many bytes the socket has sent so far (0 when
// the system does not say: not TCP, or a kernel older than 4.19). The
// descriptor is nil when conn has none; it is a duplicate, closed on exec
// (another git started meanwhile must not hold the connection open), in
// blocking mode, as a program's standard output is. With idle > 0 the
// socket is closed by the kernel once data has waited idle for the client
// to acknowledge or to open its window for it (TCP_USER_TIMEOUT, which
// zero-window probes obey since Linux 5.11): git's blocked write then fails
// and git ends, where a write deadline would not reach it.
func connOutput(conn net.Conn, idle time.Duration) (*os.File, func() int64) {
	none := func() int64 { return 0 }
	sc, ok := conn.(syscall.Conn)
	if !ok {
		return nil, none
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return nil, none
	}
	var f *os.File
	_ = raw.Control(func(fd uintptr) {
		nfd, err := unix.FcntlInt(fd, unix.F_DUPFD_CLOEXEC, 0)
		if err != nil {
			return
		}
		if err := unix.SetNonblock(nfd, false); err != nil {
			_ = unix.Close(nfd)
			return
		}
		if idle > 0 {
			// Not TCP (a Unix socket): nothing to bound.
			_ = unix.SetsockoptInt(nfd, unix.IPPROTO_TCP, unix.TCP_USER_TIMEOUT, int(idle/time.Millisecond))
		}
		f = os.NewFile(uintptr(nfd), "connection")
	})
	if f == nil {
		return nil, none
	}
	sent := func() int64 {
		var n int64
		_ = raw.Control(func(fd uintptr) {
			if info, err := unix.GetsockoptTCPInfo(int(fd), unix.IPPROTO_TCP, unix.TCP_INFO); err == nil {
				n = int64(info.Bytes_sent - info.Bytes_retrans)
			}
		})
		return n
	}
	return f, sent
}

// gitLostClient reports whether git, writing to the client's connection,
// ended because the client went away: killed by SIGPIPE (git's answer to
// EPIPE), dead on a reset connection or on one the kernel timed out (a
// client that stopped reading).
func gitLostClient(err error, stderr string) bool {
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == syscall.SIGPIPE {
			return true
		}
	}
	return strings.Contains(stderr, "Connection reset by peer") || strings.Contains(stderr, "Broken pipe") ||
		strings.Contains(stderr, "Connection timed out")
}

// sendFile writes the first size bytes of f to out, a blocking socket, with
// sendfile: the kernel copies from the page cache to the socket, nothing
// passes through this process.
func sendFile(out, f *os.File, size int64) error {
	dst, err := out.SyscallConn()
	if err != nil {
		return err
	}
	src, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var off int64
	var sendErr, dstErr error
	srcErr := src.Control(func(sfd uintptr) {
		dstErr = dst.Control(func(dfd uintptr) {
			for off < size {
				n, err := unix.Sendfile(int(dfd), int(sfd), &off, int(min(size-off, 1<<30)))
				switch {
				case err == unix.EINTR || err == unix.EAGAIN:
				case err != nil:
					sendErr = err
					return
				case n == 0:
					sendErr = io.ErrUnexpectedEOF // the file is shorter than it was
					return
				}
			}
		})
	})
	return errors.Join(srcErr, dstErr, sendErr)
}
