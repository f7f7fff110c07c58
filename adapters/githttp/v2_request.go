package githttp

import (
	"io"
	"strings"
)

// A protocol-v2 request (git's gitprotocol-v2) is pkt-lines: capability
// lines, among them "command=<name>", then a delimiter (0001) and the
// command's arguments, then a flush (0000); without arguments the flush
// follows the capabilities directly. The readers of the requests answered
// in process (ls_refs_request.go) or on the connection itself
// (fetch_request.go) share what follows.

// pktMaxLength is the largest pkt-line git sends or accepts.
const pktMaxLength = 65520

// pktKind is the kind of one pkt-line.
type pktKind int

const (
	pktData pktKind = iota
	pktFlush
	pktDelim
)

// pktReader reads pkt-lines, keeping every byte it reads. Anything but a
// data line, a flush or a delimiter (a response end, a malformed length, an
// empty or oversized line, a NUL in a line), reading past max bytes, or a
// read error ends it: ok is false from then on.
type pktReader struct {
	r        io.Reader
	max      int
	consumed []byte
}

// next reads one pkt-line; a data line comes without its trailing newline,
// as git reads it.
func (p *pktReader) next() (kind pktKind, line string, ok bool) {
	var head [4]byte
	if !p.read(head[:]) {
		return 0, "", false
	}
	n, ok := pktLength(head)
	switch {
	case !ok:
		return 0, "", false
	case n == 0:
		return pktFlush, "", true
	case n == 1:
		return pktDelim, "", true
	case n <= 4 || n > pktMaxLength:
		return 0, "", false
	}
	data := make([]byte, n-4)
	if !p.read(data) {
		return 0, "", false
	}
	line = strings.TrimSuffix(string(data), "\n")
	if strings.IndexByte(line, 0) >= 0 {
		return 0, "", false
	}
	return pktData, line, true
}

func (p *pktReader) read(b []byte) bool {
	if len(p.consumed)+len(b) > p.max {
		return false
	}
	n, err := io.ReadFull(p.r, b)
	p.consumed = append(p.consumed, b[:n]...)
	return err == nil
}

// readV2Command reads a request's capability lines up to the delimiter or
// the flush that ends them, counting the lines read in lines (at most
// maxLines). ok is false unless exactly one of them is "command=<command>";
// hasArgs says a delimiter, so arguments, follow.
func readV2Command(p *pktReader, command string, maxLines int, lines *int) (capabilities []string, hasArgs, ok bool) {
	seen := false
	for {
		kind, line, ok := p.next()
		if *lines++; !ok || *lines > maxLines {
			return nil, false, false
		}
		if kind == pktFlush || kind == pktDelim {
			return capabilities, kind == pktDelim, seen
		}
		if name, ok := strings.CutPrefix(line, "command="); ok {
			if name != command || seen {
				return nil, false, false
			}
			seen = true
			continue
		}
		capabilities = append(capabilities, line)
	}
}
