package http

import (
	"bytes"
	"errors"
	"io"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// repoRaw serves a file's bytes through the raw and media routes
// (catalogue 4.5).
type repoRaw struct{ *kernel }

// rawRoutes are the rows of repoRaw.
func (s *kernel) rawRoutes() []route {
	h := repoRaw{s}
	return []route{
		{"GET", R + "/raw/{filepath:.*}", scopes(catRepo), "RR(code)", h.getRaw},
		{"GET", R + "/media/{filepath:.*}", scopes(catRepo), "RR(code)", h.getRaw},
		{"HEAD", R + "/raw/{filepath:.*}", scopes(catRepo), "RR(code)", h.getRaw},
		{"HEAD", R + "/media/{filepath:.*}", scopes(catRepo), "RR(code)", h.getRaw},
	}
}

// sniffLen is how much of a blob decides its content type.
const sniffLen = 1024

// Content-Security-Policy values for served files, as Gitea's: files share
// the site's origin, so nothing they hold may run there. A PDF is not
// sandboxed because browsers do not render it sandboxed, and its scripts
// cannot leave the document anyway.
const (
	rawCSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox"
	pdfCSP = "default-src 'none'; style-src 'unsafe-inline'"
)

// serveBlob answers with the blob read by rd, found as res: the ETag is the
// blob id (a matching If-None-Match is a 304 without reading the blob), the
// content type is sniffed from the first bytes, and the bytes are streamed.
// One byte range (Range, with If-Range on the ETag) is answered with 206;
// HEAD gets the headers alone.
func serveBlob(q *request, res ports.GitPathResult, rd io.Reader) error {
	h := q.w.Header()
	etag := `"` + res.Entry.ID + `"`
	h.Set("ETag", etag)
	// The bytes at a branch change; the client revalidates with the ETag.
	h.Set("Cache-Control", "max-age=0, private, must-revalidate, no-transform")
	objType := string(res.Entry.Type)
	h.Set("X-Service-Object-Type", objType)
	h.Set("X-Gitea-Object-Type", objType)
	if etagMatches(q.r.Header.Get("If-None-Match"), etag) {
		q.w.WriteHeader(http.StatusNotModified)
		return nil
	}

	head := make([]byte, min(int64(sniffLen), res.Entry.Size))
	n, err := io.ReadFull(rd, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return err
	}
	head = head[:n]
	ctype := blobContentType(head, int64(n) == res.Entry.Size)
	h.Set("Content-Type", ctype)
	h.Set("X-Content-Type-Options", "nosniff")
	if strings.HasPrefix(ctype, "application/pdf") {
		h.Set("Content-Security-Policy", pdfCSP)
	} else {
		h.Set("Content-Security-Policy", rawCSP)
	}
	if cd := mime.FormatMediaType("inline", map[string]string{"filename": path.Base(res.Entry.Path)}); cd != "" {
		h.Set("Content-Disposition", cd)
		h.Set("Access-Control-Expose-Headers", "Content-Disposition")
	}
	h.Set("Accept-Ranges", "bytes")
	size := res.Entry.Size
	start, length, status := int64(0), size, http.StatusOK
	if rng := q.r.Header.Get("Range"); rng != "" && ifRangeHolds(q.r.Header.Get("If-Range"), etag) {
		var ok bool
		if start, length, ok = parseByteRange(rng, size); !ok {
			h.Set("Content-Range", "bytes */"+strconv.FormatInt(size, 10))
			h.Del("Content-Type")
			q.w.WriteHeader(http.StatusRequestedRangeNotSatisfiable)
			return nil
		}
		if length != size {
			status = http.StatusPartialContent
			h.Set("Content-Range", "bytes "+strconv.FormatInt(start, 10)+"-"+strconv.FormatInt(start+length-1, 10)+
				"/"+strconv.FormatInt(size, 10))
		}
	}
	h.Set("Content-Length", strconv.FormatInt(length, 10))
	q.w.WriteHeader(status)
	if q.r.Method == http.MethodHead {
		return nil
	}
	// The status is sent: a failure now can only cut the body short, which
	// the client sees against Content-Length.
	body := io.MultiReader(bytes.NewReader(head), rd)
	if start > 0 {
		if _, err := io.CopyN(io.Discard, body, start); err != nil {
			return nil
		}
	}
	_, _ = io.CopyN(q.w, body, length)
	return nil
}

// ifRangeHolds reports whether a Range request may be answered with a part:
// without If-Range, or when If-Range names the current ETag exactly (strong
// comparison; a date never matches, since the bytes have no fixed date).
func ifRangeHolds(ifRange, etag string) bool {
	return ifRange == "" || ifRange == etag
}

// parseByteRange reads a Range header of one byte range (first-last,
// first- or -suffix) over size bytes and returns its start and length. A
// header this server does not answer with a part (several ranges, another
// unit, bad syntax) gives the whole: RFC 9110 lets a server ignore Range. A
// well-formed range outside the content is unsatisfiable (ok false).
func parseByteRange(header string, size int64) (start, length int64, ok bool) {
	spec, found := strings.CutPrefix(header, "bytes=")
	if !found || strings.Contains(spec, ",") {
		return 0, size, true
	}
	first, last, found := strings.Cut(strings.TrimSpace(spec), "-")
	if !found {
		return 0, size, true
	}
	if first == "" { // the last n bytes
		n, err := strconv.ParseInt(last, 10, 64)
		if err != nil || n < 0 {
			return 0, size, true
		}
		if n == 0 || size == 0 {
			return 0, 0, false
		}
		n = min(n, size)
		return size - n, n, true
	}
	from, err := strconv.ParseInt(first, 10, 64)
	if err != nil || from < 0 {
		return 0, size, true
	}
	to := size - 1
	if last != "" {
		if to, err = strconv.ParseInt(last, 10, 64); err != nil || to < from {
			return 0, size, true
		}
		to = min(to, size-1)
	}
	if from >= size {
		return 0, 0, false
	}
	return from, to - from + 1, true
}

// etagMatches reports whether an If-None-Match value names etag (weak
// comparison, as RFC 9110 asks for If-None-Match) or is "*".
func etagMatches(header, etag string) bool {
	if header == "" {
		return false
	}
	for _, item := range strings.Split(header, ",") {
		item = strings.TrimSpace(item)
		if item == "*" || strings.TrimPrefix(item, "W/") == etag {
			return true
		}
	}
	return false
}

// blobContentType decides how a file is served from its first bytes (whole
// when they are all of it), as
// Gitea does: images, PDF, audio and video as their type (SVG included: the
// sandbox policy keeps its scripts from running), anything textual as plain
// text (never HTML), everything else as an octet stream.
func blobContentType(head []byte, whole bool) string {
	if isSVG(head) {
		return "image/svg+xml"
	}
	sniffed := http.DetectContentType(head)
	media, params, _ := strings.Cut(sniffed, ";")
	switch {
	case strings.HasPrefix(media, "image/"), media == "application/pdf",
		strings.HasPrefix(media, "audio/"), strings.HasPrefix(media, "video/"):
		return media
	case strings.HasPrefix(media, "text/"):
		if strings.Contains(params, "utf-16") {
			return "text/plain;" + params
		}
		if validUTF8Prefix(head, whole) {
			return "text/plain; charset=utf-8"
		}
		return "text/plain"
	}
	return "application/octet-stream"
}

// validUTF8Prefix reports whether b is UTF-8, allowing a rune cut at its
// end unless b is the whole file.
func validUTF8Prefix(b []byte, whole bool) bool {
	if utf8.Valid(b) {
		return true
	}
	if whole {
		return false
	}
	for cut := 1; cut < utf8.UTFMax && cut < len(b); cut++ {
		if utf8.Valid(b[:len(b)-cut]) {
			return true
		}
	}
	return false
}

// isSVG reports whether head starts an SVG document: after a byte order
// mark, white space, an XML declaration, comments and a doctype, an <svg
// element.
func isSVG(head []byte) bool {
	b := bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	for {
		b = bytes.TrimLeft(b, " \t\r\n")
		switch {
		case bytes.HasPrefix(b, []byte("<?")):
			i := bytes.Index(b, []byte("?>"))
			if i < 0 {
				return false
			}
			b = b[i+2:]
		case bytes.HasPrefix(b, []byte("<!--")):
			i := bytes.Index(b[4:], []byte("-->"))
			if i < 0 {
				return false
			}
			b = b[4+i+3:]
		case len(b) > 9 && bytes.EqualFold(b[:9], []byte("<!doctype")):
			i := bytes.IndexByte(b, '>')
			if i < 0 {
				return false
			}
			b = b[i+1:]
		default:
			if len(b) < 5 || !bytes.EqualFold(b[:4], []byte("<svg")) {
				return false
			}
			switch b[4] {
			case ' ', '\t', '\r', '\n', '>', '/':
				return true
			}
			return false
		}
	}
}

// getRaw answers GET R/raw/{filepath} and R/media/{filepath}: the file's
// bytes. Depot keeps no Git LFS objects yet, so media serves an LFS pointer
// file as its own bytes, as Gitea does for a pointer without its object.
func (s repoRaw) getRaw(q *request) error {
	res, rd, err := s.content.Raw().Open(q.r.Context(), q.repo, refParam(q), q.var_("filepath"))
	if err != nil {
		return rawMissing(err)
	}
	defer rd.Close()
	return serveBlob(q, res, rd)
}

// rawMissing words a path absent from the tree as Gitea 1.27's raw and
// media routes do (routers/api/v1/repo/file.go getBlobForEntry: on
// git.IsErrNotExist, "ctx.APIErrorNotFound()", whose message defaults to
// "not found" — what the SDK's GetFile test expects). Other errors pass.
func rawMissing(err error) error {
	var missing *ports.MissingPathError
	if errors.As(err, &missing) {
		return errs.NotFound("not found")
	}
	return err
}
