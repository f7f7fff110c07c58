package markup

import (
	"context"
	"strings"
	"testing"

	"github.com/matryer/is"
)

// TestRenderCacheFollowsTheResolversAnswers renders one document again and
// again: the cached HTML is reused while the lookups answer the same, and a
// fresh rendering follows as soon as one answer changes.
func TestRenderCacheFollowsTheResolversAnswers(t *testing.T) {
	is := is.New(t)
	r := New()
	refs := &knownRefs{users: map[string]bool{"alice": true}, commits: map[string]string{"abcdef1": fullID}}
	doc := commentDoc("hello @alice, see abcdef1", refs)
	renderWith := func() string {
		var b strings.Builder
		is.NoErr(r.Render(context.Background(), doc, &b))
		return b.String()
	}

	first := renderWith()
	is.True(strings.Contains(first, `href="http://h/alice"`))
	is.True(strings.Contains(first, fullID))
	is.Equal(len(r.cache.entries), 1)

	// Same answers: the same HTML, and the lookups were asked again.
	is.Equal(renderWith(), first)
	is.Equal(refs.userCalls, 2)
	is.Equal(refs.commitCalls, 2)
	is.Equal(len(r.cache.entries), 1)

	// The account is gone (or hidden from this reader): no link any more.
	delete(refs.users, "alice")
	second := renderWith()
	is.True(!strings.Contains(second, `href="http://h/alice"`))
	is.True(strings.Contains(second, fullID))

	// The commit is gone too.
	delete(refs.commits, "abcdef1")
	is.True(!strings.Contains(renderWith(), fullID))
}

// TestRenderCacheKeysTheRepository renders the same text for two
// repositories: each gets its own links.
func TestRenderCacheKeysTheRepository(t *testing.T) {
	is := is.New(t)
	r := New()
	refs := &knownRefs{}
	for _, repo := range []string{"http://h/o/r", "http://h/o/other"} {
		doc := commentDoc("see #12 and [the guide](docs/guide.md)", refs)
		doc.RepoURL = repo
		var b strings.Builder
		is.NoErr(r.Render(context.Background(), doc, &b))
		is.True(strings.Contains(b.String(), repo+"/issues/12"))
		is.True(strings.Contains(b.String(), `href="`+repo+`/docs/guide.md"`))
	}
	is.Equal(len(r.cache.entries), 2)
}

// TestRenderCacheStaysBounded fills the cache past its bound: the oldest
// renderings go, the total stays under the bound.
func TestRenderCacheStaysBounded(t *testing.T) {
	is := is.New(t)
	c := newRenderCache()
	html := make([]byte, 64<<10)
	for i := range 200 {
		var k renderKey
		k[0], k[1] = byte(i), byte(i>>8)
		c.put(&rendering{key: k, html: html})
	}
	is.True(c.bytes <= renderCacheBytes)
	is.Equal(len(c.entries), c.order.Len())
	var newest renderKey
	newest[0] = 199
	is.True(c.get(newest) != nil)
	is.True(c.get(renderKey{}) == nil) // the first one went first

	// A rendering past the entry bound is not kept.
	c.put(&rendering{key: renderKey{1, 2, 3}, html: make([]byte, renderCacheMaxEntry+1)})
	is.True(c.get(renderKey{1, 2, 3}) == nil)
}
