// Package markup renders what users write — markdown and plain text — into
// sanitised HTML (ports.MarkupRenderer): goldmark with GitHub's extensions
// parses, references become links, chroma colours code, and bluemonday
// removes whatever could run in a reader's browser.
package markup

import (
	"bytes"
	"context"
	"fmt"
	"html"
	"io"

	"github.com/microcosm-cc/bluemonday"
	"github.com/yuin/goldmark"
	emoji "github.com/yuin/goldmark-emoji"
	east "github.com/yuin/goldmark-emoji/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	gmhtml "github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// Renderer is the markup renderer. It is safe for concurrent use.
type Renderer struct {
	markdown, wiki goldmark.Markdown
	policy         *bluemonday.Policy
	cache          *renderCache
}

var _ ports.MarkupRenderer = (*Renderer)(nil)

// New builds the renderer.
func New() *Renderer {
	return &Renderer{markdown: newMarkdown(false), wiki: newMarkdown(true), policy: newPolicy(), cache: newRenderCache()}
}

// CacheStats counts the renderings cache's lookups, for the metrics page.
func (r *Renderer) CacheStats() *ports.CacheStats { return r.cache.stats }

// newMarkdown configures goldmark as Gitea does: GitHub's tables,
// strikethrough, task lists, autolinks and footnotes, definition lists,
// emoji shortcodes, heading anchors and highlighted code; raw HTML passes
// to the sanitiser, which decides what of it stays.
func newMarkdown(wiki bool) goldmark.Markdown {
	parserOpts := []parser.Option{parser.WithAutoHeadingID(), parser.WithAttribute()}
	if wiki {
		parserOpts = append(parserOpts, parser.WithInlineParsers(util.Prioritized(wikiLinkParser{}, 199)))
	}
	return goldmark.New(
		goldmark.WithExtensions(
			extension.NewTable(extension.WithTableCellAlignMethod(extension.TableCellAlignAttribute)),
			extension.Strikethrough,
			extension.Linkify,
			extension.TaskList,
			extension.DefinitionList,
			extension.NewFootnote(extension.WithFootnoteIDPrefix(headingIDPrefix)),
			emoji.New(emoji.WithRenderingMethod(emoji.Func), emoji.WithRendererFunc(renderEmoji)),
		),
		goldmark.WithParserOptions(parserOpts...),
		goldmark.WithRendererOptions(gmhtml.WithUnsafe(),
			renderer.WithNodeRenderers(util.Prioritized(codeBlockRenderer{}, 10))),
	)
}

// Render writes doc as sanitised HTML to w (ports.MarkupRenderer). A
// document rendered before is answered from the cache when its resolver
// still gives the answers it was rendered with.
func (r *Renderer) Render(ctx context.Context, doc ports.MarkupDocument, w io.Writer) error {
	key := keyOf(doc)
	if cached := r.cache.get(key); cached != nil {
		valid := true
		if doc.Resolve != nil {
			var err error
			if valid, err = cached.stillValid(ctx, doc.Resolve); err != nil {
				return err
			}
		}
		if valid {
			_, err := w.Write(cached.html)
			return err
		}
	}
	fresh := &rendering{key: key}
	if doc.Resolve != nil {
		doc.Resolve = recordingResolver{next: doc.Resolve, r: fresh}
	}
	var out bytes.Buffer
	if err := r.render(ctx, doc, &out); err != nil {
		return err
	}
	fresh.html = out.Bytes()
	r.cache.put(fresh)
	_, err := w.Write(fresh.html)
	return err
}

// render renders doc without the cache.
func (r *Renderer) render(ctx context.Context, doc ports.MarkupDocument, w io.Writer) error {
	var raw bytes.Buffer
	out := &limitedBuffer{buf: &raw, limit: doc.MaxOutput}
	switch doc.Format {
	case ports.MarkupPlainText:
		_, _ = out.Write([]byte("<pre>"))
		_, _ = out.Write([]byte(html.EscapeString(string(doc.Text))))
		_, _ = out.Write([]byte("</pre>\n"))
	default:
		if err := r.renderMarkdown(ctx, doc, out); err != nil {
			return err
		}
	}
	if out.over {
		return errs.TooLarge(fmt.Sprintf("the rendered document is larger than %d bytes", doc.MaxOutput))
	}
	clean := r.policy.SanitizeReader(&raw)
	_, err := clean.WriteTo(w)
	return err
}

// renderMarkdown parses, links the references and renders.
func (r *Renderer) renderMarkdown(ctx context.Context, doc ports.MarkupDocument, w *limitedBuffer) error {
	md := r.markdown
	if doc.Wiki {
		md = r.wiki
	}
	src := normalizeEOL(doc.Text)
	pc := parser.NewContext(parser.WithIDs(newHeadingIDs()))
	root := md.Parser().Parse(text.NewReader(src), parser.WithContext(pc))
	if err := linkDocument(ctx, doc, root, src); err != nil {
		return err
	}
	if err := md.Renderer().Render(w, src, root); err != nil && !w.over {
		return fmt.Errorf("markup: render: %w", err)
	}
	return nil
}

// normalizeEOL turns CRLF and CR line ends into LF, as Gitea does.
func normalizeEOL(b []byte) []byte {
	if bytes.IndexByte(b, '\r') < 0 {
		return b
	}
	b = bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n"))
	return bytes.ReplaceAll(b, []byte("\r"), []byte("\n"))
}

// errOutputLimit stops a render that passed its output bound.
var errOutputLimit = fmt.Errorf("markup: output limit reached")

// limitedBuffer collects output up to limit bytes (0: no limit), then
// refuses more and remembers that it did.
type limitedBuffer struct {
	buf   *bytes.Buffer
	limit int64
	over  bool
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if l.over {
		return 0, errOutputLimit
	}
	if l.limit > 0 && int64(l.buf.Len()+len(p)) > l.limit {
		l.over = true
		return 0, errOutputLimit
	}
	return l.buf.Write(p)
}

// renderEmoji writes an emoji shortcode as Gitea does: the character in a
// span named for screen readers.
func renderEmoji(w util.BufWriter, _ []byte, n *east.Emoji, _ *emoji.RendererConfig) {
	_, _ = w.WriteString(`<span class="emoji" aria-label="`)
	_, _ = w.Write(util.EscapeHTML([]byte(n.Value.Name)))
	_, _ = w.WriteString(`">`)
	_, _ = w.WriteString(string(n.Value.Unicode))
	_, _ = w.WriteString(`</span>`)
}
