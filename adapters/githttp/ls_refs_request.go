package githttp

import (
	"io"
	"strings"
)

// readLsRefs reads a protocol-v2 request (v2_request.go) when it is a
// plain ls-refs request and says "not mine" for anything else, handing
// back the bytes it read so that git can be given the request whole.

// Bounds of an ls-refs request read in process; a longer one goes to git.
const (
	lsRefsMaxBytes = 256 << 10
	lsRefsMaxLines = 4096
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
	lines := 0
	capabilities, hasArgs, ok := readV2Command(p, "ls-refs", lsRefsMaxLines, &lines)
	if !ok {
		return false
	}
	req.capabilities = capabilities
	if !hasArgs {
		return true
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
