package githttp

import (
	"bufio"
	"bytes"
	"io"
	"net/http"
	"strings"

	"github.com/depothq/depot/app/transport"
	"github.com/depothq/depot/ports"
)

// Protocol v2 asks for the refs with its own request, command=ls-refs,
// before fetching. Depot answers it without starting git when git would
// answer it plainly (lsRefsRequest.acceptedBy, v2Facts.lsRefs): the refs
// are read through ports.GitWireRefs and written as git upload-pack writes
// them, byte for byte. Anything else — another command, an argument or
// capability this code does not know, hidden refs, a malformed request — is
// given to git whole, as before.

// lsRefs answers body when it is an ls-refs request this code answers the
// way git would, and reports whether it did; otherwise it returns the body
// to give git, as it was sent.
func (h *Handler) lsRefs(w http.ResponseWriter, r *http.Request, s *transport.Session, inv Invocation, body io.Reader) (io.Reader, bool) {
	br := bufio.NewReaderSize(body, 4096)
	req, consumed, ok := readLsRefs(br)
	rest := io.MultiReader(bytes.NewReader(consumed), br)
	if !ok {
		return rest, false
	}
	f := h.protocolV2(r.Context(), inv)
	if f == nil || !req.acceptedBy(f) {
		return rest, false
	}
	head, refs, err := h.refs.WireRefs(r.Context(), s.Path, req.prefixes, req.peel)
	if err != nil {
		h.log.Debug("ls-refs left to git", "path", r.URL.Path, "err", err)
		return rest, false
	}
	req.unborn = req.unborn && f.unborn
	answer(w, "application/x-git-upload-pack-result", lsRefsAnswer(&req, head, refs))
	return nil, true
}

// answer writes a whole answer of Git's protocol, with the headers git's
// streamed answers get.
func answer(w http.ResponseWriter, contentType string, body []byte) {
	h := w.Header()
	h.Set("Content-Type", contentType)
	setNoCache(h)
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
}

// lsRefsAnswer is git upload-pack's answer to req: HEAD first (when it
// resolves; an unborn HEAD only when both unborn and symrefs were asked
// for), then refs as listed, each "<id> <name>" or "unborn <name>", with
// " symref-target:<ref>" when symrefs were asked for and " peeled:<id>" when
// peeling was, then a flush. HEAD and refs come filtered by the request's
// prefixes already.
func lsRefsAnswer(req *lsRefsRequest, head *ports.GitWireRef, refs []ports.GitWireRef) []byte {
	var b bytes.Buffer
	if head != nil && (head.ObjectID != "" || (req.unborn && req.symrefs && head.SymrefTarget != "")) {
		writeLsRef(&b, req, head)
	}
	for i := range refs {
		writeLsRef(&b, req, &refs[i])
	}
	b.WriteString("0000")
	return b.Bytes()
}

// writeLsRef writes one ref's pkt-line.
func writeLsRef(b *bytes.Buffer, req *lsRefsRequest, ref *ports.GitWireRef) {
	var line strings.Builder
	if ref.ObjectID != "" {
		line.WriteString(ref.ObjectID)
	} else {
		line.WriteString("unborn")
	}
	line.WriteByte(' ')
	line.WriteString(ref.Name)
	if req.symrefs && ref.SymrefTarget != "" {
		line.WriteString(" symref-target:")
		line.WriteString(ref.SymrefTarget)
	}
	if req.peel && ref.ObjectID != "" && ref.PeeledID != "" {
		line.WriteString(" peeled:")
		line.WriteString(ref.PeeledID)
	}
	line.WriteByte('\n')
	b.Write(pktLine(line.String()))
}
