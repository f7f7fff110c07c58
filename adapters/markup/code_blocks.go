package markup

import (
	"html"
	"strings"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"
)

// maxHighlightBytes bounds the code block chroma colours; a longer block
// is shown as plain text, so one request cannot buy unbounded lexing.
const maxHighlightBytes = 128 << 10

// codeFormatter writes chroma's tokens as spans with classes (the page's
// stylesheet colours them), without its own <pre>.
var codeFormatter = chromahtml.New(chromahtml.WithClasses(true), chromahtml.PreventSurroundingPre(true))

// chromaStyle is unused by class output but required by the formatter: an
// empty style, so that chroma's styles package (every theme, built at start)
// is not linked in.
var chromaStyle = chroma.MustNewStyle("depot", chroma.StyleEntries{})

// codeBlockRenderer renders fenced code blocks as Gitea does:
// <div class="code-block-container code-overflow-scroll"><pre class="code-block"><code class="chroma language-go display">…
type codeBlockRenderer struct{}

// RegisterFuncs takes over fenced code blocks (renderer.NodeRenderer).
func (codeBlockRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindFencedCodeBlock, renderFencedCode)
}

func renderFencedCode(w util.BufWriter, source []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	block := n.(*ast.FencedCodeBlock)
	lang := codeLanguage(block.Language(source))
	var code strings.Builder
	lines := block.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		code.Write(seg.Value(source))
	}
	_, _ = w.WriteString(`<div class="code-block-container code-overflow-scroll"><pre class="code-block"><code class="chroma language-`)
	_, _ = w.WriteString(lang)
	_, _ = w.WriteString(` display">`)
	if !highlight(w, lang, code.String()) {
		_, _ = w.WriteString(html.EscapeString(code.String()))
	}
	_, _ = w.WriteString("</code></pre></div>\n")
	return ast.WalkSkipChildren, nil
}

// codeLanguage is the block's language as a class name: "text" when none
// is given, and only the characters a language name uses.
func codeLanguage(info []byte) string {
	var b strings.Builder
	for _, c := range string(info) {
		if c < 128 && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("+#_.-", c)) {
			b.WriteRune(c)
		}
		if b.Len() >= 40 {
			break
		}
	}
	if b.Len() == 0 {
		return "text"
	}
	return b.String()
}

// highlight writes code coloured by the lexer of lang; false when there is
// no such lexer or the code is too long to colour.
func highlight(w util.BufWriter, lang, code string) bool {
	if len(code) > maxHighlightBytes {
		return false
	}
	lexer := lexers.Get(lang)
	if lexer == nil {
		return false
	}
	it, err := chroma.Coalesce(lexer).Tokenise(nil, code)
	if err != nil {
		return false
	}
	var out strings.Builder
	if err := codeFormatter.Format(&out, chromaStyle, it); err != nil {
		return false
	}
	_, _ = w.WriteString(out.String())
	return true
}
