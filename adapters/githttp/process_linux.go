//go:build linux

package githttp

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

// dieWithServer makes git die with the server and with its request: it runs
// in a process group of its own, which cancelling kills whole (git's own
// children, index-pack and the hooks, too), and the kernel kills it when
// the server's process dies, so that no receive-pack goes on writing into a
// repository after a crash or a kill -9.
//
// Pdeathsig follows the thread that started the child; Go only ends threads
// whose goroutine exits while locked to them, which no starter of git does.
func dieWithServer(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Cancel = func() error {
		err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		if errors.Is(err, syscall.ESRCH) {
			return os.ErrProcessDone
		}
		return err
	}
}
