package githttp

import (
	"io"
	"strings"
)

// A protocol-v2 request (git's gitprotocol-v2) is pkt-lines: capability
// lines, among them "command=<name>", then a delimiter (0001) and the
// command's arguments, then a flush (0000); without arguments the flush
// follows the capabilities directly. readLsRefs reads one when it is a
// plain ls-refs request and says "not mine" for anything else, handing
// back the bytes it read so that git can be given the request whole.

// Bounds of an ls-refs request read in process; a longer one goes to git.
const (
	lsRefsMaxBytes = 256 << 10
	lsRefsMaxLines = 4096
	// pktMaxLength is the largest pkt-line git sends or accepts.
	pktMaxLength = 65520
)

// Git ignores every ref-prefix argument of a request with 65536 or more of
// them (TOO_MANY_PREFIXES); such a request is past lsRefsMaxLines and goes
// to git, so every prefix read here counts.

// lsRefsRequest is an ls-refs request.
type lsRefsRequest struct {
	// capabilities are the lines besides command=ls-refs, "key=value".
	capabilities []string
	peel         bool
	symrefs      bool
	unborn       bool
	// prefixes are the ref-prefix arguments.
	prefixes []string
}

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

// readLsRefs reads a request from r. ok is false unless it is an ls-refs
// request in git's plain form, within the bounds; consumed holds what was
// read either way. It reads no further than it must: a request for another
// command is told at its command line.
func readLsRefs(r io.Reader) (req lsRefsRequest, consumed []byte, ok bool) {
	p := &pktReader{r: r, max: lsRefsMaxBytes}
	ok = parseLsRefs(p, &req)
	return req, p.consumed, ok
}

func parseLsRefs(p *pktReader, req *lsRefsRequest) bool {
	lines, command := 0, false
	for {
		kind, line, ok := p.next()
		if lines++; !ok || lines > lsRefsMaxLines {
			return false
		}
		if kind == pktFlush || kind == pktDelim {
			if !command {
				return false
			}
			if kind == pktFlush {
				return true // no arguments
			}
			break
		}
		if name, ok := strings.CutPrefix(line, "command="); ok {
			if name != "ls-refs" || command {
				return false
			}
			command = true
			continue
		}
		req.capabilities = append(req.capabilities, line)
	}
	for {
		kind, line, ok := p.next()
		if lines++; !ok || lines > lsRefsMaxLines || kind == pktDelim {
			return false
		}
		if kind == pktFlush {
			break
		}
		switch line {
		case "peel":
			req.peel = true
		case "symrefs":
			req.symrefs = true
		case "unborn":
			req.unborn = true
		default:
			prefix, ok := strings.CutPrefix(line, "ref-prefix ")
			if !ok {
				return false
			}
			req.prefixes = append(req.prefixes, prefix)
		}
	}
	return true
}

// acceptedBy reports whether git, configured as f says, would take the
// request's capability lines, and ls-refs may be answered in process.
func (req *lsRefsRequest) acceptedBy(f *v2Facts) bool {
	return f.lsRefs && capabilitiesAccepted(req.capabilities, f)
}

// capabilitiesAccepted reports whether git, configured as f says, would
// take a request's capability lines: each a key=value git advertises as a
// client capability, and the object format the repository's.
func capabilitiesAccepted(capabilities []string, f *v2Facts) bool {
	format := "sha1" // what git assumes when the client names none
	for _, c := range capabilities {
		key, value, ok := strings.Cut(c, "=")
		if !ok || !f.clientKeys[key] {
			return false
		}
		if key == "object-format" {
			format = value
		}
	}
	return format == f.objectFormat
}
