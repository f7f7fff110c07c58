package markup

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/matryer/is"
	"golang.org/x/net/html"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// knownRefs answers a renderer's lookups from fixed sets and counts them.
type knownRefs struct {
	users       map[string]bool
	commits     map[string]string
	userCalls   int
	commitCalls int
}

func (k *knownRefs) Mentionable(_ context.Context, names []string) (map[string]bool, error) {
	k.userCalls++
	out := map[string]bool{}
	for _, n := range names {
		if k.users[strings.ToLower(n)] {
			out[strings.ToLower(n)] = true
		}
	}
	return out, nil
}

func (k *knownRefs) Commits(_ context.Context, ids []string) (map[string]string, error) {
	k.commitCalls++
	out := map[string]string{}
	for _, id := range ids {
		if full, ok := k.commits[id]; ok {
			out[id] = full
		}
	}
	return out, nil
}

const fullID = "abcdef1234567890abcdef1234567890abcdef12"

func render(t *testing.T, doc ports.MarkupDocument) string {
	t.Helper()
	var b strings.Builder
	if err := New().Render(context.Background(), doc, &b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func commentDoc(text string, refs *knownRefs) ports.MarkupDocument {
	return ports.MarkupDocument{Text: []byte(text), AppURL: "http://h", RepoURL: "http://h/o/r",
		Mentions: true, FullIssueRefs: true, ShortIssueRefs: true, CommitRefs: true, Resolve: refs}
}

func TestRenderLinksReferencesThatExist(t *testing.T) {
	is := is.New(t)
	refs := &knownRefs{users: map[string]bool{"alice": true}, commits: map[string]string{"abcdef1": fullID}}
	got := render(t, commentDoc("Hi @Alice and @ghost, see #12, !3, a/b#4 and abcdef1 or 1234567.\n\nAgain @alice abcdef1.", refs))
	is.True(strings.Contains(got, `<a href="http://h/Alice" class="mention" rel="nofollow">@Alice</a>`))
	is.True(strings.Contains(got, "@ghost,"))
	is.True(!strings.Contains(got, "http://h/ghost"))
	is.True(strings.Contains(got, `<a href="http://h/o/r/issues/12" class="ref-issue" rel="nofollow">#12</a>`))
	is.True(strings.Contains(got, `<a href="http://h/o/r/pulls/3" class="ref-issue" rel="nofollow">!3</a>`))
	is.True(strings.Contains(got, `<a href="http://h/a/b/issues/4" class="ref-issue" rel="nofollow">a/b#4</a>`))
	is.True(strings.Contains(got, `<a href="http://h/o/r/commit/`+fullID+`" class="commit" rel="nofollow"><code>abcdef1</code></a>`))
	is.True(strings.Contains(got, " or 1234567."))
	// One lookup of each kind for the whole document.
	is.Equal(refs.userCalls, 1)
	is.Equal(refs.commitCalls, 1)
}

func TestRenderLeavesCodeAndLinksAlone(t *testing.T) {
	is := is.New(t)
	refs := &knownRefs{users: map[string]bool{"alice": true}}
	got := render(t, commentDoc("`#1 @alice` [#2](http://x) <a href=\"http://y\">#3</a>\n\n    #4 @alice\n", refs))
	is.True(!strings.Contains(got, "ref-issue"))
	is.True(!strings.Contains(got, "mention"))
}

func TestRenderPlainMarkdownLinksNoReferences(t *testing.T) {
	is := is.New(t)
	got := render(t, ports.MarkupDocument{Text: []byte("#1 @alice o/r#2"), AppURL: "http://h"})
	is.Equal(got, "<p>#1 @alice o/r#2</p>\n")
}

func TestRenderRelativeLinks(t *testing.T) {
	doc := ports.MarkupDocument{AppURL: "http://h", RepoURL: "http://h/o/r", RefPath: "branch/main", TreePath: "docs"}
	cases := []struct{ link, image, want string }{
		{"[a](x.md)", "", `href="http://h/o/r/src/branch/main/docs/x.md"`},
		{"[a](../../../../etc/passwd)", "", `href="http://h/o/r/src/branch/main/etc/passwd"`},
		{"[a](x.md#Part)", "", `href="http://h/o/r/src/branch/main/docs/x.md#user-content-Part"`},
		{"", "![i](p.png)", `src="http://h/o/r/media/branch/main/docs/p.png"`},
		{"[a](/explore)", "", `href="http://h/explore"`},
		{"[a](#top)", "", `href="#user-content-top"`},
		{"[a](https://example.com/x)", "", `href="https://example.com/x"`},
		{"[a](mailto:a@b.c)", "", `href="mailto:a@b.c"`},
	}
	for _, c := range cases {
		t.Run(c.link+c.image, func(t *testing.T) {
			is := is.New(t)
			d := doc
			d.Text = []byte(c.link + c.image)
			got := render(t, d)
			is.True(strings.Contains(got, c.want)) // got
		})
	}
	t.Run("without a repository links stay as written", func(t *testing.T) {
		is := is.New(t)
		got := render(t, ports.MarkupDocument{Text: []byte("[a](x.md)"), AppURL: "http://h"})
		is.True(strings.Contains(got, `href="x.md"`))
	})
	t.Run("in a comment they point under the repository", func(t *testing.T) {
		is := is.New(t)
		got := render(t, ports.MarkupDocument{Text: []byte("[a](issues/3)"), AppURL: "http://h", RepoURL: "http://h/o/r"})
		is.True(strings.Contains(got, `href="http://h/o/r/issues/3"`))
	})
}

func TestRenderWikiLinks(t *testing.T) {
	is := is.New(t)
	got := render(t, ports.MarkupDocument{Text: []byte("[[Home Page]] and [[the guide|Getting Started]] and [x](Other)"),
		AppURL: "http://h", RepoURL: "http://h/o/r", Wiki: true})
	is.True(strings.Contains(got, `<a href="http://h/o/r/wiki/Home-Page" rel="nofollow">Home Page</a>`))
	is.True(strings.Contains(got, `<a href="http://h/o/r/wiki/Getting-Started" rel="nofollow">the guide</a>`))
	is.True(strings.Contains(got, `href="http://h/o/r/wiki/Other"`))
	is.True(!strings.Contains(got, "data-wiki-page"))
	// Outside wiki mode, [[x]] is text.
	got = render(t, ports.MarkupDocument{Text: []byte("[[Home]]"), AppURL: "http://h", RepoURL: "http://h/o/r"})
	is.Equal(got, "<p>[[Home]]</p>\n")
}

func TestRenderGitHubFlavour(t *testing.T) {
	is := is.New(t)
	got := render(t, ports.MarkupDocument{Text: []byte("# Title\n\n## Title\n\n- [x] done\n- [ ] todo\n\n" +
		"| a | b |\n|:--|--:|\n| 1 | 2 |\n\n~~gone~~ www.example.com :smile:\n\nnote[^1]\n\n[^1]: the note\n\n```go\nfunc main() {}\n```\n"),
		AppURL: "http://h"})
	for _, want := range []string{
		`<h1 id="user-content-title">Title</h1>`,
		`<h2 id="user-content-title-1">Title</h2>`,
		`<input checked="" disabled="" type="checkbox"> done`,
		`<th align="left">a</th>`,
		`<del>gone</del>`,
		`<a href="http://www.example.com" rel="nofollow">www.example.com</a>`,
		`<span class="emoji" aria-label="grinning face with smiling eyes">😄</span>`,
		`href="#user-content-fn:1"`,
		`<li id="user-content-fn:1">`,
		`<pre class="code-block"><code class="chroma language-go display"><span class="kd">func</span>`,
	} {
		is.True(strings.Contains(got, want)) // want
	}
}

func TestRenderPlainText(t *testing.T) {
	is := is.New(t)
	got := render(t, ports.MarkupDocument{Format: ports.MarkupPlainText, Text: []byte("a <b> & *c*")})
	is.Equal(got, "<pre>a &lt;b&gt; &amp; *c*</pre>\n")
}

func TestRenderRefusesOutputPastItsBound(t *testing.T) {
	is := is.New(t)
	// A link definition used many times: the answer grows with its uses.
	text := "[x]: http://example.com/" + strings.Repeat("a", 1000) + "\n\n" + strings.Repeat("[x] ", 2000)
	var b strings.Builder
	err := New().Render(context.Background(), ports.MarkupDocument{Text: []byte(text), MaxOutput: 1 << 20}, &b)
	is.True(errors.Is(err, errs.ErrTooLarge))
	is.Equal(b.Len(), 0)
}

// xssCorpus are inputs that try to run script in a reader's browser.
var xssCorpus = []string{
	`<script>alert(1)</script>`,
	`<img src=x onerror=alert(1)>`,
	`[a](javascript:alert(1))`,
	`[a](JaVaScRiPt:alert(1))`,
	`[a](  javascript:alert(1))`,
	`![a](javascript:alert(1))`,
	`<a href="javascript:alert(1)">x</a>`,
	`<svg onload=alert(1)>`,
	`<iframe src="http://evil"></iframe>`,
	`<div style="background:url(javascript:alert(1))">x</div>`,
	`<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>`,
	`<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>`,
	"```\"><script>alert(1)</script>\nx\n```",
	"```js onload=alert(1)\nx\n```",
	`<details open ontoggle=alert(1)>`,
	`<object data="javascript:alert(1)">`,
	`<form action="javascript:alert(1)"><input type=submit>`,
	`[[javascript:alert(1)|x]]`,
	`<a href="#" class="mention" id="evil">x</a>`,
	`<input type="text" onfocus="alert(1)" autofocus>`,
	`<span class="ui button primary">fake</span>`,
	`{onclick="alert(1)"}`,
	"# heading {onclick=alert(1)}",
}

// unsafe reports the first thing in the HTML that could run script or
// borrow the page's elements or styling: an element or attribute outside
// the policy, a link or image to another scheme, a foreign id or class.
func unsafe(doc string) string {
	z := html.NewTokenizer(strings.NewReader(doc))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return ""
		case html.StartTagToken, html.SelfClosingTagToken:
			tok := z.Token()
			switch tok.Data {
			case "script", "style", "iframe", "svg", "math", "object", "embed", "form", "textarea", "button", "link", "meta", "base":
				return "<" + tok.Data
			}
			for _, a := range tok.Attr {
				key, val := strings.ToLower(a.Key), strings.ToLower(strings.TrimSpace(a.Val))
				switch {
				case strings.HasPrefix(key, "on") || key == "style" || key == "autofocus":
					return key
				case (key == "href" || key == "src") && schemeRE.MatchString(val) && !strings.HasPrefix(val, "http:") &&
					!strings.HasPrefix(val, "https:") && !strings.HasPrefix(val, "mailto:"):
					return key + "=" + val
				case key == "id" && !strings.HasPrefix(val, headingIDPrefix):
					return "id=" + val
				case key == "class" && (strings.Contains(val, "ui") || strings.Contains(val, "button")):
					return "class=" + val
				case key == "type" && val != "checkbox":
					return "type=" + val
				}
			}
		}
	}
}

func TestRenderSanitisesTheXSSCorpusInEveryMode(t *testing.T) {
	refs := &knownRefs{}
	for _, text := range xssCorpus {
		for name, doc := range map[string]ports.MarkupDocument{
			"markdown": {AppURL: "http://h"},
			"comment":  commentDoc("", refs),
			"wiki":     {AppURL: "http://h", RepoURL: "http://h/o/r", Wiki: true},
			"file":     {AppURL: "http://h", RepoURL: "http://h/o/r", RefPath: "branch/main"},
			"text":     {Format: ports.MarkupPlainText},
		} {
			doc.Text = []byte(text)
			if bad := unsafe(render(t, doc)); bad != "" {
				t.Errorf("%s mode kept %q of %q: %s", name, bad, text, render(t, doc))
			}
		}
	}
}

func FuzzRender(f *testing.F) {
	for _, s := range xssCorpus {
		f.Add(s)
	}
	f.Add("# t\n\n@alice #1 o/r#2 abcdef1 [[P|Q]] [a](b) ![c](d)\n\n- [ ] x\n\n| a |\n|---|\n| b |\n\n[^1]\n\n[^1]: n")
	r := New()
	refs := &knownRefs{users: map[string]bool{"alice": true}, commits: map[string]string{"abcdef1": fullID}}
	f.Fuzz(func(t *testing.T, s string) {
		for _, wiki := range []bool{false, true} {
			doc := commentDoc(s, refs)
			doc.Wiki, doc.MaxOutput = wiki, 1<<20
			var b strings.Builder
			if err := r.Render(context.Background(), doc, &b); err != nil && !errors.Is(err, errs.ErrTooLarge) {
				t.Fatal(err)
			}
			if bad := unsafe(b.String()); bad != "" {
				t.Fatalf("kept %q: %s", bad, b.String())
			}
		}
	})
}
