package markup

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/depothq/depot/ports"
)

// readme20KB is a README of about 20 KB as projects write them: sections
// of prose with links and references, lists, a table, and a code example
// every few sections.
func readme20KB() []byte {
	prose := "Some *prose* that explains what the project does, with a [link](docs/x.md), `inline code`, " +
		"a mention of @alice, an issue #12 and another repository's o/r#3. It goes on for a while, as READMEs do.\n\n"
	section := "## Section\n\n" + prose + prose + "- one item\n- [x] a done item\n- a third item\n\n" +
		"| option | meaning |\n|---|---|\n| -v | verbose |\n| -q | quiet |\n\n"
	var b strings.Builder
	b.WriteString("# Project\n\n")
	for n := 0; b.Len() < 20<<10; n++ {
		b.WriteString(section)
		if n%4 == 0 {
			b.WriteString("```go\nfunc main() {\n\tprintln(\"hello\")\n}\n```\n\n")
		}
	}
	return []byte(b.String())
}

// BenchmarkRenderReadme renders a 20 KB README in comment mode again and
// again, as readers ask for a repository's README (the target: p50 < 2 ms):
// the cache answers after asking the lookups again.
func BenchmarkRenderReadme(b *testing.B) {
	r := New()
	refs := &knownRefs{users: map[string]bool{"alice": true}}
	doc := commentDoc(string(readme20KB()), refs)
	doc.RefPath = "branch/main"
	b.SetBytes(int64(len(doc.Text)))
	b.ReportAllocs()
	for b.Loop() {
		if err := r.Render(context.Background(), doc, io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRenderReadmeFirstTime renders a 20 KB README never seen before
// each time: the cost of a miss (the hash and the cache's bookkeeping
// included).
func BenchmarkRenderReadmeFirstTime(b *testing.B) {
	r := New()
	refs := &knownRefs{users: map[string]bool{"alice": true}}
	doc := commentDoc(string(readme20KB()), refs)
	doc.RefPath = "branch/main"
	text := doc.Text
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		n++
		doc.Text = append(text[:len(text):len(text)], fmt.Sprintf("\n\nrevision %d\n", n)...)
		if err := r.Render(context.Background(), doc, io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRenderReadmePlain renders it as plain markdown, no references.
func BenchmarkRenderReadmePlain(b *testing.B) {
	r := New()
	doc := ports.MarkupDocument{Text: readme20KB(), AppURL: "http://h"}
	b.SetBytes(int64(len(doc.Text)))
	b.ReportAllocs()
	for b.Loop() {
		if err := r.Render(context.Background(), doc, io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}
