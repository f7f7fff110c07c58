package githttp

import (
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"sync"
	"time"
)

// streamBufferSize is the most of git's output sent as one chunk: a clone's
// pack comes in 64 KiB side-band packets, and what git has written ahead
// while the previous chunk went out is sent at once.
const streamBufferSize = 256 << 10

// streamBuffers are the copy buffers of the running answers.
var streamBuffers = sync.Pool{New: func() any { return new([streamBufferSize]byte) }}

// streamOutput copies git's output from the read end of its stdout pipe
// to out until git, and whatever it started, have closed the pipe, and
// returns how git ended, as cmd.Wait would have with out as cmd.Stdout.
//
// Reading the pipe directly, rather than through the copy exec makes for
// a writer, lets each chunk of the answer hold everything git has written so
// far (up to streamBufferSize), and lets the chunk be flushed only when git
// has nothing more waiting and its last pkt-line is whole: a clone's pack
// goes out in a few large writes instead of three system calls per 32 KiB,
// while progress, keep-alives and the end of every message still reach the
// client at once.
func streamOutput(cmd *exec.Cmd, stdout *os.File, out *streamWriter) error {
	exited := make(chan error, 1)
	copied := make(chan struct{})
	go func() {
		exited <- cmd.Wait()
		// What git started may hold its output open after git has exited:
		// the copy gives up waitDelay later, as exec does with the pipes it
		// makes itself.
		t := time.NewTimer(waitDelay)
		defer t.Stop()
		select {
		case <-t.C:
			_ = stdout.SetReadDeadline(time.Now())
		case <-copied:
		}
	}()
	copyErr := out.copyFrom(stdout)
	close(copied)
	// A copy that stopped early (the client went away) makes git's next
	// write fail, which ends it.
	_ = stdout.Close()
	waitErr := <-exited
	if waitErr == nil && copyErr != nil {
		if errors.Is(copyErr, os.ErrDeadlineExceeded) {
			return exec.ErrWaitDelay
		}
		return copyErr
	}
	return waitErr
}

// streamWriter writes git's output to the response. The headers go out
// with the first chunk.
type streamWriter struct {
	w           http.ResponseWriter
	rc          *http.ResponseController
	contentType string
	preamble    []byte
	// drain keeps reading git's output once the client is gone, so that a
	// push that has moved refs is not killed by a broken pipe before its
	// post-receive hook runs.
	drain bool
	// idle bounds each write's wait for the client to take the bytes (a
	// write deadline, moved on before every write); 0 for none.
	idle    time.Duration
	started bool
	err     error
}

// deadline gives the next write idle to go through. (net/http lifts it when
// the handler returns, before the connection's next request.)
func (s *streamWriter) deadline() {
	if s.idle > 0 {
		_ = s.rc.SetWriteDeadline(time.Now().Add(s.idle))
	}
}

func (s *streamWriter) start() {
	s.started = true
	s.deadline()
	h := s.w.Header()
	h.Set("Content-Type", s.contentType)
	setNoCache(h)
	s.w.WriteHeader(http.StatusOK)
	if len(s.preamble) > 0 {
		if _, err := s.w.Write(s.preamble); err != nil {
			s.err = err
		}
	}
}

// copyFrom sends what git writes to stdout until its end. A chunk of the
// answer holds all the pipe has when it is read, up to the buffer, and
// never ends inside a pkt-line (git writes a side-band packet's header and
// its data separately, the rest following at once); it is flushed when the
// pipe is then empty. It returns the error that stopped it: none at the end
// of the output, nor once the client is gone when draining.
func (s *streamWriter) copyFrom(stdout *os.File) error {
	buf := streamBuffers.Get().(*[streamBufferSize]byte)
	defer streamBuffers.Put(buf)
	waiting := pipeWaiting(stdout)
	var frames pktFrames
	for {
		n, idle := 0, false
		var err error
		for err == nil && n < len(buf) && !idle {
			var m int
			m, err = stdout.Read(buf[n:])
			frames.feed(buf[n : n+m])
			n += m
			idle = frames.whole() && waiting() == 0
		}
		if n > 0 {
			if werr := s.send(buf[:n], idle || err != nil); werr != nil {
				return werr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// send writes one chunk of git's output, flushing it when asked.
func (s *streamWriter) send(p []byte, flush bool) error {
	if s.err != nil {
		return s.failed()
	}
	if !s.started {
		s.start()
		if s.err != nil {
			return s.failed()
		}
	}
	s.deadline()
	if _, err := s.w.Write(p); err != nil {
		s.err = err
		return s.failed()
	}
	if flush {
		if err := s.rc.Flush(); err != nil {
			s.err = err
			return s.failed()
		}
	}
	return nil
}

// failed is the error git's output copy stops on once writing has failed:
// none when draining.
func (s *streamWriter) failed() error {
	if s.drain {
		return nil
	}
	return s.err
}

// pktFrames follows the pkt-line framing of git's output, to tell whether
// the last packet is whole. Output that is not framed (a pack without
// side-band, for clients that did not ask for it) turns it off for good:
// every chunk counts as whole.
type pktFrames struct {
	// left is what remains of the current packet's data.
	left int
	// head holds the bytes of a length header read so far.
	head    [4]byte
	headLen int
	raw     bool
}

// feed follows p, the next bytes of output.
func (f *pktFrames) feed(p []byte) {
	for len(p) > 0 && !f.raw {
		if f.left > 0 {
			k := min(f.left, len(p))
			f.left -= k
			p = p[k:]
			continue
		}
		k := copy(f.head[f.headLen:], p)
		f.headLen += k
		p = p[k:]
		if f.headLen < len(f.head) {
			return
		}
		f.headLen = 0
		// 0000 to 0002 are the special packets, 0004 an empty one: none
		// has data to wait for.
		if n, ok := pktLength(f.head); !ok {
			f.raw = true
		} else if n > 4 {
			f.left = n - 4
		}
	}
}

// whole reports whether the output read so far ends at a packet's end.
func (f *pktFrames) whole() bool { return f.raw || (f.left == 0 && f.headLen == 0) }

// pktLength parses a pkt-line length header: four hex digits.
func pktLength(h [4]byte) (int, bool) {
	n := 0
	for _, c := range h {
		var d byte
		switch {
		case c >= '0' && c <= '9':
			d = c - '0'
		case c >= 'a' && c <= 'f':
			d = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, false
		}
		n = n<<4 | int(d)
	}
	return n, true
}
