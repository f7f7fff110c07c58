package libgit2

import (
	"compress/flate"
	"encoding/binary"
	"hash/crc32"
	"io"
)

// Incompressible blobs (images, archives, media) are stored rather than
// deflated, as git archive's zip writer does: deflating them costs most of
// an archive's time and saves nothing.
const (
	// probeMinSize is the smallest blob worth probing; smaller ones are
	// deflated whatever they hold.
	probeMinSize = 64 << 10
	// probeSample is how much of the blob the probe compresses.
	probeSample = 16 << 10
	// storedBlockMax is the most a deflate stored block holds.
	storedBlockMax = 65535
)

// compressProbe guesses whether data would shrink under deflate by
// compressing a sample from its middle.
type compressProbe struct {
	fw *flate.Writer
	n  byteCounter
}

func newCompressProbe() *compressProbe {
	p := &compressProbe{}
	p.fw, _ = flate.NewWriter(&p.n, flate.BestSpeed) // a valid level cannot fail
	return p
}

// incompressible reports whether deflate would keep more than 95% of data.
func (p *compressProbe) incompressible(data []byte) bool {
	if len(data) < probeMinSize {
		return false
	}
	mid := len(data) / 2
	sample := data[mid-probeSample/2 : mid+probeSample/2]
	p.n = 0
	p.fw.Reset(&p.n)
	_, _ = p.fw.Write(sample) // byteCounter never fails
	_ = p.fw.Close()
	return int(p.n)*100 > len(sample)*95
}

// byteCounter counts and discards.
type byteCounter int

func (c *byteCounter) Write(p []byte) (int, error) {
	*c += byteCounter(len(p))
	return len(p), nil
}

// gzipStream writes one gzip member (RFC 1952) whose deflate body mixes
// compressed blocks with stored blocks: while stored is set, writes go out
// as stored blocks instead of through the compressor. A deflate stream may
// switch block types at any block boundary, so any gunzip reads it.
type gzipStream struct {
	w  io.Writer
	fw *flate.Writer
	// stored sends the next writes as stored blocks.
	stored bool
	// pending says the compressor took data since its last flush.
	pending bool
	// reset says stored blocks were written since the compressor last ran,
	// so it must start afresh: its window would not match the reader's.
	reset bool
	crc   uint32
	size  uint32
	err   error
}

// gzipHeader is a member header without name or time: deflate (8), no flags,
// mtime 0, XFL 4 (fastest compression), OS 3 (Unix).
var gzipHeader = []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 4, 3}

func newGzipStream(w io.Writer) *gzipStream {
	g := &gzipStream{w: w}
	g.fw, _ = flate.NewWriter(w, flate.BestSpeed) // a valid level cannot fail
	_, g.err = w.Write(gzipHeader)
	return g
}

// Write compresses or stores p, depending on g.stored.
func (g *gzipStream) Write(p []byte) (int, error) {
	if g.err != nil {
		return 0, g.err
	}
	g.crc = crc32.Update(g.crc, crc32.IEEETable, p)
	g.size += uint32(len(p)) // ISIZE is the size modulo 2^32
	if !g.stored {
		if g.reset {
			g.fw.Reset(g.w)
			g.reset = false
		}
		g.pending = true
		_, g.err = g.fw.Write(p)
		return len(p), g.err
	}
	if g.pending {
		// Ends the compressor's blocks on a byte boundary.
		if g.err = g.fw.Flush(); g.err != nil {
			return 0, g.err
		}
		g.pending = false
	}
	g.reset = true
	var hdr [5]byte // BFINAL 0, BTYPE 00, aligned; LEN; NLEN
	for rest := p; len(rest) > 0; {
		n := min(len(rest), storedBlockMax)
		binary.LittleEndian.PutUint16(hdr[1:3], uint16(n))
		binary.LittleEndian.PutUint16(hdr[3:5], ^uint16(n))
		if _, g.err = g.w.Write(hdr[:]); g.err != nil {
			return 0, g.err
		}
		if _, g.err = g.w.Write(rest[:n]); g.err != nil {
			return 0, g.err
		}
		rest = rest[n:]
	}
	return len(p), nil
}

// Close writes the final block and the trailer (CRC-32 and size).
func (g *gzipStream) Close() error {
	if g.err != nil {
		return g.err
	}
	if g.reset {
		g.fw.Reset(g.w)
	}
	if g.err = g.fw.Close(); g.err != nil {
		return g.err
	}
	var trailer [8]byte
	binary.LittleEndian.PutUint32(trailer[0:4], g.crc)
	binary.LittleEndian.PutUint32(trailer[4:8], g.size)
	_, g.err = g.w.Write(trailer[:])
	return g.err
}
