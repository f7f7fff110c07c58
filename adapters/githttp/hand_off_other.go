//go:build !linux

package githttp

import (
	"io"
	"net"
	"os"
	"time"
)

// handOffSupported says a connection's socket can be handed to git: only
// on Linux, where it is tested.
const handOffSupported = false

func connOutput(net.Conn, time.Duration) (*os.File, func() int64) {
	return nil, func() int64 { return 0 }
}

func gitLostClient(error, string) bool { return false }

// sendFile writes the first size bytes of f to out.
func sendFile(out, f *os.File, size int64) error {
	_, err := io.Copy(out, io.NewSectionReader(f, 0, size))
	return err
}
