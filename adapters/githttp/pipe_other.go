//go:build !linux

package githttp

import "os"

// growPipe leaves the pipe's capacity to the system elsewhere than Linux.
func growPipe(*os.File) {}

// pipeWaiting cannot tell elsewhere than Linux: every chunk is flushed as
// soon as its last pkt-line is whole.
func pipeWaiting(*os.File) func() int { return func() int { return 0 } }
