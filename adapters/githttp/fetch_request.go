package githttp

import (
	"io"
	"strings"
)

// A protocol-v2 fetch request that ends the negotiation ("done") is
// answered with the pack and nothing after it: the last request of a clone
// or a fetch. readFetch reads such a request whole, when it is in the plain
// form git's client sends (wants, haves and the flags below), so that the
// connection can be handed to git for the answer (hand_off.go). Anything
// else — another command, no "done", shallow or filter arguments, a
// malformed or oversized request — is left to the streamed path, which gives
// git the bytes read here followed by the rest.

// Bounds of a fetch request read whole before git starts: a clone sends a
// few hundred bytes; a fetch a have line (50 bytes) per commit it offers.
const (
	fetchMaxBytes = 1 << 20
	fetchMaxLines = 16384
)

// fetchFlags are the argument lines of a fetch request git answers without
// looking anything up: they choose how the pack is written.
var fetchFlags = map[string]bool{"done": true, "thin-pack": true, "no-progress": true, "include-tag": true,
	"ofs-delta": true}

// fetchRequest is a fetch request that ends the negotiation.
type fetchRequest struct {
	// capabilities are the lines besides command=fetch, "key=value".
	capabilities []string
	// flags are the fetchFlags lines, as sent.
	flags []string
	// wants are the objects asked for, as sent.
	wants []string
	haves int
}

// readFetch reads a request from r. ok is false unless it is a whole fetch
// request that ends the negotiation, in the plain form, within the bounds,
// with nothing after its flush; consumed holds what was read either way.
func readFetch(r io.Reader) (req fetchRequest, consumed []byte, ok bool) {
	p := &pktReader{r: r, max: fetchMaxBytes}
	ok = parseFetch(p, &req)
	if ok {
		// The request must be all there is: one byte more is read to see
		// the end, within the bound.
		var b [1]byte
		n, err := io.ReadFull(r, b[:])
		p.consumed = append(p.consumed, b[:n]...)
		ok = n == 0 && err == io.EOF
	}
	return req, p.consumed, ok
}

func parseFetch(p *pktReader, req *fetchRequest) bool {
	lines := 0
	capabilities, hasArgs, ok := readV2Command(p, "fetch", fetchMaxLines, &lines)
	if !ok || !hasArgs {
		return false // a fetch without arguments asks for nothing
	}
	req.capabilities = capabilities
	format := requestObjectFormat(req.capabilities)
	done := false
	for {
		kind, line, ok := p.next()
		if lines++; !ok || lines > fetchMaxLines || kind == pktDelim {
			return false
		}
		if kind == pktFlush {
			break
		}
		if fetchFlags[line] {
			done = done || line == "done"
			req.flags = append(req.flags, line)
			continue
		}
		verb, id, ok := strings.Cut(line, " ")
		if !ok || !isObjectID(id, format) {
			return false
		}
		switch verb {
		case "want":
			req.wants = append(req.wants, id)
		case "have":
			req.haves++
		default:
			return false
		}
	}
	return done && len(req.wants) > 0
}

// requestObjectFormat is the object format a request names, "sha1" (what
// git assumes) when it names none.
func requestObjectFormat(capabilities []string) string {
	for _, c := range capabilities {
		if v, ok := strings.CutPrefix(c, "object-format="); ok {
			return v
		}
	}
	return "sha1"
}

// isObjectID reports whether id is an object name of the format, in the
// lower-case hexadecimal git writes.
func isObjectID(id, format string) bool {
	want := 40
	if format == "sha256" {
		want = 64
	}
	if len(id) != want {
		return false
	}
	for i := 0; i < len(id); i++ {
		if c := id[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// acceptedBy reports whether git, configured as f says, offers fetch and
// would take the request's capability lines.
func (req *fetchRequest) acceptedBy(f *v2Facts) bool {
	return f.fetchCommand && capabilitiesAccepted(req.capabilities, f)
}
