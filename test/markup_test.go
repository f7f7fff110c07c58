package test

import (
	"net/http"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"
	"golang.org/x/net/html"

	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/test/testserver"
)

// markupAs posts a MarkupOption to path as name and returns the answer.
func markupAs(srv *testserver.Server, path, name string, opt gitea.MarkupOption) testserver.Response {
	return srv.Do("POST", path, opt, basicAs(name)...)
}

// TestMarkupLinksReferencesByMode renders one text in each mode, site-wide
// and in a repository: mentions of accounts the reader may see, full and
// short issue references, and commit ids of the repository.
func TestMarkupLinksReferencesByMode(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := testserver.Start(t)
	_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	newAccount(t, srv, "bob", gitea.VisibleTypePublic)
	newAccount(t, srv, "carol", gitea.VisibleTypePrivate)
	createRepo(t, alice, gitea.CreateRepoOption{Name: "app", AutoInit: true, Readme: "Default"})
	branch, _, err := alice.GetRepoBranch("alice", "app", "main")
	is.NoErr(err)
	sha := branch.Commit.ID
	text := "Hi @bob and @carol, see #1, alice/app#2 and " + sha[:7] + "."

	// Site-wide comment mode: no repository, so #1 and the commit stay text.
	html, resp, err := alice.RenderMarkdown(gitea.MarkdownOption{Text: text, Mode: "comment"})
	is.NoErr(err)
	is.Equal(resp.StatusCode, http.StatusOK)
	is.True(strings.Contains(html, `<a href="`+srv.URL+`/bob" class="mention" rel="nofollow">@bob</a>`))
	is.True(strings.Contains(html, "@carol,")) // private: alice may not see her
	is.True(!strings.Contains(html, srv.URL+"/carol"))
	is.True(strings.Contains(html, `<a href="`+srv.URL+`/alice/app/issues/2" class="ref-issue" rel="nofollow">alice/app#2</a>`))
	is.True(strings.Contains(html, "see #1,"))
	is.True(!strings.Contains(html, "/commit/"))

	// In the repository: #1 and the commit are linked too.
	r := markupAs(srv, "/repos/alice/app/markdown", "alice", gitea.MarkupOption{Text: text, Mode: "comment"})
	is.Equal(r.Status, http.StatusOK)
	is.True(strings.HasPrefix(r.Header.Get("Content-Type"), "text/html"))
	body := string(r.Body)
	is.True(strings.Contains(body, `<a href="`+srv.URL+`/alice/app/issues/1" class="ref-issue" rel="nofollow">#1</a>`))
	is.True(strings.Contains(body, `<a href="`+srv.URL+`/alice/app/commit/`+sha+`" class="commit" rel="nofollow"><code>`+sha[:7]+`</code></a>`))

	// The site administrator may see carol.
	r = srv.Do("POST", "/repos/alice/app/markup", gitea.MarkupOption{Text: text, Mode: "comment"}, socialAdmin(srv)...)
	is.Equal(r.Status, http.StatusOK)
	is.True(strings.Contains(string(r.Body), srv.URL+"/carol"))

	// gfm links mentions and full references only; markdown links nothing.
	r = markupAs(srv, "/repos/alice/app/markup", "alice", gitea.MarkupOption{Text: text, Mode: "gfm"})
	is.True(strings.Contains(string(r.Body), "class=\"mention\""))
	is.True(strings.Contains(string(r.Body), "see #1,"))
	r = markupAs(srv, "/repos/alice/app/markup", "alice", gitea.MarkupOption{Text: text, Mode: "markdown"})
	is.Equal(string(r.Body), "<p>"+text+"</p>\n")
	// /markdown renders an unknown mode as markdown, as Gitea does.
	html, _, err = alice.RenderMarkdown(gitea.MarkdownOption{Text: text, Mode: "bogus"})
	is.NoErr(err)
	is.Equal(html, "<p>"+text+"</p>\n")
}

// TestMarkupFilesAndWiki renders a repository file with its links resolved
// against the context, a plain text file, and a wiki page.
func TestMarkupFilesAndWiki(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := testserver.Start(t)
	_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	createRepo(t, alice, gitea.CreateRepoOption{Name: "app"})

	html, _, err := alice.RenderMarkup(gitea.MarkupOption{Mode: "file", FilePath: "docs/guide.md",
		Context: "/alice/app/src/branch/dev/docs", Text: "# Guide\n\n[next](next.md) ![logo](../logo.png) [top](#guide)"})
	is.NoErr(err)
	is.True(strings.Contains(html, `<h1 id="user-content-guide">Guide</h1>`))
	is.True(strings.Contains(html, `href="`+srv.URL+`/alice/app/src/branch/dev/docs/next.md"`))
	is.True(strings.Contains(html, `src="`+srv.URL+`/alice/app/media/branch/dev/logo.png"`))
	is.True(strings.Contains(html, `href="#user-content-guide"`))

	// In the repository without a context: its default branch.
	r := markupAs(srv, "/repos/alice/app/markup", "alice", gitea.MarkupOption{Mode: "file", FilePath: "README.md", Text: "[x](x.md)"})
	is.Equal(r.Status, http.StatusOK)
	is.True(strings.Contains(string(r.Body), `href="`+srv.URL+`/alice/app/src/branch/main/x.md"`))

	html, _, err = alice.RenderMarkup(gitea.MarkupOption{Mode: "file", FilePath: "notes.txt", Text: "a <b> *c*"})
	is.NoErr(err)
	is.Equal(html, "<pre>a &lt;b&gt; *c*</pre>\n")

	r = markupAs(srv, "/repos/alice/app/markup", "alice", gitea.MarkupOption{Mode: "wiki", Text: "[[Getting Started]] [[the faq|FAQ]]"})
	is.Equal(r.Status, http.StatusOK)
	is.True(strings.Contains(string(r.Body), `<a href="`+srv.URL+`/alice/app/wiki/Getting-Started" rel="nofollow">Getting Started</a>`))
	is.True(strings.Contains(string(r.Body), `<a href="`+srv.URL+`/alice/app/wiki/FAQ" rel="nofollow">the faq</a>`))

	raw, _, err := alice.RenderMarkdownRaw("# Raw\n\n*x* #1")
	is.NoErr(err)
	is.Equal(raw, "<h1 id=\"user-content-raw\">Raw</h1>\n<p><em>x</em> #1</p>\n")
}

// TestMarkupRefusesBadInput: unknown modes and file types (422 naming the
// field), malformed JSON (400), a body past the limit (413), no credentials
// (401), and a repository the caller may not see (404).
func TestMarkupRefusesBadInput(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := testserver.Start(t, testserver.WithSettings(func(s *site.Settings) { s.MaxBodyBytes = 64 << 10 }))
	_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	newAccount(t, srv, "bob", gitea.VisibleTypePublic)
	createRepo(t, alice, gitea.CreateRepoOption{Name: "secret", Private: true})

	r := markupAs(srv, "/markup", "alice", gitea.MarkupOption{Mode: "bogus", Text: "x"})
	assertAPIError(t, r, http.StatusUnprocessableEntity, "Mode: Unknown mode: bogus")
	r = markupAs(srv, "/markup", "alice", gitea.MarkupOption{Mode: "file", FilePath: "a.rst", Text: "x"})
	is.Equal(r.Status, http.StatusUnprocessableEntity)
	is.True(strings.Contains(r.Message(), ".rst"))
	is.True(strings.Contains(string(r.Body), "FilePath"))

	r = srv.Do("POST", "/markup", `{"Text": `, basicAs("alice")...)
	is.Equal(r.Status, http.StatusBadRequest)
	r = srv.Do("POST", "/markdown/raw", strings.Repeat("a", 100<<10), basicAs("alice")...)
	is.Equal(r.Status, http.StatusRequestEntityTooLarge)
	r = srv.Do("POST", "/markdown", gitea.MarkdownOption{Text: strings.Repeat("b", 100<<10)}, basicAs("alice")...)
	is.Equal(r.Status, http.StatusRequestEntityTooLarge)

	r = srv.Do("POST", "/markdown", gitea.MarkdownOption{Text: "x"})
	is.Equal(r.Status, http.StatusUnauthorized)

	r = markupAs(srv, "/repos/alice/secret/markdown", "bob", gitea.MarkupOption{Text: "x"})
	is.Equal(r.Status, http.StatusNotFound)
	r = markupAs(srv, "/repos/alice/secret/markdown", "alice", gitea.MarkupOption{Text: "x"})
	is.Equal(r.Status, http.StatusOK)
}

// TestMarkupSanitisesEveryMode sends script-bearing input through every
// mode and route: nothing that could run survives.
func TestMarkupSanitisesEveryMode(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	createRepo(t, alice, gitea.CreateRepoOption{Name: "app"})
	payloads := []string{
		`<script>alert(1)</script>`, `<img src=x onerror=alert(1)>`, `[a](javascript:alert(1))`,
		`<a href="javascript:alert(1)">x</a>`, `<svg onload=alert(1)>`, `<iframe src="http://evil"></iframe>`,
		`<div style="x:expression(alert(1))">x</div>`, "```\"><script>alert(1)</script>\nx\n```", `[[javascript:alert(1)|x]]`,
	}
	for _, text := range payloads {
		for _, mode := range []string{"markdown", "gfm", "comment", "wiki", "file"} {
			for _, path := range []string{"/markup", "/repos/alice/app/markup"} {
				r := markupAs(srv, path, "alice", gitea.MarkupOption{Mode: mode, Text: text, FilePath: "a.md"})
				if r.Status != http.StatusOK {
					t.Fatalf("%s %s: %d", path, mode, r.Status)
				}
				if bad := scriptable(string(r.Body)); bad != "" {
					t.Errorf("%s %s kept %q of %q: %s", path, mode, bad, text, r.Body)
				}
			}
		}
	}
}

// scriptable names the first element or attribute of doc that could run
// script in a reader's browser, or "".
func scriptable(doc string) string {
	z := html.NewTokenizer(strings.NewReader(doc))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return ""
		case html.StartTagToken, html.SelfClosingTagToken:
			tok := z.Token()
			switch tok.Data {
			case "script", "style", "iframe", "svg", "math", "object", "embed", "form":
				return "<" + tok.Data
			}
			for _, a := range tok.Attr {
				key, val := strings.ToLower(a.Key), strings.ToLower(strings.TrimSpace(a.Val))
				if strings.HasPrefix(key, "on") || key == "style" ||
					(key == "href" || key == "src") && (strings.HasPrefix(val, "javascript:") || strings.HasPrefix(val, "data:")) {
					return key + "=" + val
				}
			}
		}
	}
}
