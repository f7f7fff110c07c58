package blobs

import (
	"crypto/md5"  //nolint:gosec // a published checksum of the package file, not a security measure
	"crypto/sha1" //nolint:gosec // idem
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"errors"
	"hash"
	"io"
	"sync"
	"sync/atomic"
)

// digestChunk is how many bytes a package upload reads at a time, and
// digestChunks how many chunks are in flight: reading the next while the
// file and the four digests take the previous ones. Together they bound
// what one upload holds in memory (4 MiB), whatever the file's size.
const (
	digestChunk  = 1 << 20
	digestChunks = 4
)

// digestBuffers keeps the chunks' buffers between uploads.
var digestBuffers = sync.Pool{New: func() any {
	b := make([]byte, digestChunk)
	return &b
}}

// chunk is a part of the upload on its way to the sinks; the last sink
// done with it gives it back.
type chunk struct {
	buf     []byte
	n       int
	pending atomic.Int32
}

// packageDigests is what copyDigested computes besides the copy.
type packageDigests struct {
	MD5, SHA1, SHA256, SHA512 string
}

// copyDigested copies src to dst in one pass while computing its MD5,
// SHA-1, SHA-256 and SHA-512. The write and each digest run in their own
// goroutine over the same chunks, so the four digests of a large file
// cost the time of the slowest (SHA-512) rather than of all four in turn,
// on as many cores as the machine has. It returns the bytes copied and
// the first error of reading or writing.
func copyDigested(dst io.Writer, src io.Reader) (int64, packageDigests, error) {
	hashes := []hash.Hash{md5.New(), sha1.New(), sha256.New(), sha512.New()} //nolint:gosec // checksums
	sinks := make([]func([]byte) error, 0, len(hashes)+1)
	sinks = append(sinks, func(p []byte) error { _, err := dst.Write(p); return err })
	for _, h := range hashes {
		sinks = append(sinks, func(p []byte) error { _, _ = h.Write(p); return nil })
	}
	free := make(chan *chunk, digestChunks)
	for range digestChunks {
		free <- &chunk{buf: *(digestBuffers.Get().(*[]byte))}
	}
	defer func() {
		for range digestChunks {
			c := <-free
			digestBuffers.Put(&c.buf)
		}
	}()
	var failed atomic.Bool
	var writeErr error
	var wg sync.WaitGroup
	queues := make([]chan *chunk, len(sinks))
	for i, sink := range sinks {
		queues[i] = make(chan *chunk, digestChunks)
		wg.Add(1)
		go func(q <-chan *chunk, first bool) {
			defer wg.Done()
			for c := range q {
				if !failed.Load() {
					if err := sink(c.buf[:c.n]); err != nil && first {
						writeErr = err
						failed.Store(true)
					}
				}
				if c.pending.Add(-1) == 0 {
					free <- c
				}
			}
		}(queues[i], i == 0)
	}
	var n int64
	var readErr error
	for !failed.Load() {
		c := <-free
		k, err := io.ReadFull(src, c.buf)
		if k > 0 {
			c.n = k
			n += int64(k)
			c.pending.Store(int32(len(queues)))
			for _, q := range queues {
				q <- c
			}
		} else {
			free <- c
		}
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			break
		}
		if err != nil {
			readErr = err
			break
		}
	}
	for _, q := range queues {
		close(q)
	}
	wg.Wait()
	if readErr != nil {
		return n, packageDigests{}, readErr
	}
	if writeErr != nil {
		return n, packageDigests{}, writeErr
	}
	return n, packageDigests{MD5: hex.EncodeToString(hashes[0].Sum(nil)), SHA1: hex.EncodeToString(hashes[1].Sum(nil)),
		SHA256: hex.EncodeToString(hashes[2].Sum(nil)), SHA512: hex.EncodeToString(hashes[3].Sum(nil))}, nil
}
