package http

import (
	"bytes"
	"net/http"
	"strconv"

	"github.com/depothq/depot/app/markup"
)

// markupRender serves the markup and markdown renderers, site-wide and per
// repository (catalogue 4.1).
type markupRender struct{ *kernel }

// markupRoutes are the rows of markupRender. The R/ rows resolve the
// repository first (404 to those who cannot see it); its issues and
// commits are then linked.
func (s *kernel) markupRoutes() []route {
	h := markupRender{s}
	return []route{
		{"POST", "/markup", nil, "T", h.renderMarkup},
		{"POST", R + "/markup", nil, "T", h.renderMarkup},
		{"POST", "/markdown", nil, "T", h.renderMarkdown},
		{"POST", R + "/markdown", nil, "T", h.renderMarkdown},
		{"POST", "/markdown/raw", nil, "T", h.renderMarkdownRaw},
		{"POST", R + "/markdown/raw", nil, "T", h.renderMarkdownRaw},
	}
}

// markupOptionDTO is Gitea's MarkupOption and MarkdownOption (the
// latter without FilePath); Gitea spells its keys with capitals.
type markupOptionDTO struct {
	Text     string `json:"Text"`
	Mode     string `json:"Mode"`
	Context  string `json:"Context"`
	FilePath string `json:"FilePath"`
	Wiki     bool   `json:"Wiki"`
}

func (d markupOptionDTO) request() markup.Request {
	return markup.Request{Text: d.Text, Mode: d.Mode, Context: d.Context, FilePath: d.FilePath, Wiki: d.Wiki}
}

// renderMarkup answers POST /markup and R/markup.
func (s markupRender) renderMarkup(q *request) error {
	var b markupOptionDTO
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	var out bytes.Buffer
	if err := s.markup.Render(q.r.Context(), q.caller, q.repo, b.request(), &out); err != nil {
		return err
	}
	writeHTML(q, out.Bytes())
	return nil
}

// renderMarkdown answers POST /markdown and R/markdown.
func (s markupRender) renderMarkdown(q *request) error {
	var b markupOptionDTO
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	r := b.request()
	r.FilePath = ""
	r.Mode = markup.MarkdownMode(r)
	var out bytes.Buffer
	if err := s.markup.Render(q.r.Context(), q.caller, q.repo, r, &out); err != nil {
		return err
	}
	writeHTML(q, out.Bytes())
	return nil
}

// renderMarkdownRaw answers POST /markdown/raw: the body is the markdown.
func (s markupRender) renderMarkdownRaw(q *request) error {
	text, err := readBody(q.r)
	if err != nil {
		return err
	}
	var out bytes.Buffer
	if err := s.markup.RenderRaw(q.r.Context(), text, &out); err != nil {
		return err
	}
	writeHTML(q, out.Bytes())
	return nil
}

// writeHTML answers 200 with a rendered document.
func writeHTML(q *request, body []byte) {
	h := q.w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	q.w.WriteHeader(http.StatusOK)
	_, _ = q.w.Write(body) // a failed write means the client left
}
