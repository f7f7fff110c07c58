package content

import (
	"strings"
	"testing"

	"github.com/depothq/depot/domain/release"
	"github.com/depothq/depot/ports"
	"github.com/matryer/is"
)

// TestReleasePageCacheVersions: a page is answered only at the version it
// was kept under; a page read at an older version than the kept one is
// dropped; a newer version replaces the repository's pages; other
// repositories' pages are apart; long searches and oversized pages are not
// kept.
func TestReleasePageCacheVersions(t *testing.T) {
	is := is.New(t)
	var c releasePageCache
	k, ok := newReleasePageKey(release.Filter{Keyword: " V1 "}, ports.ListOptions{Page: 1, Limit: 10})
	is.True(ok)
	page := func(tag string) *releasePage {
		return &releasePage{list: []*release.Release{{TagName: tag}}, total: 1}
	}
	c.put(1, 5, k, page("a"))
	got, ok := c.get(1, 5, k)
	is.True(ok)
	is.Equal(got.list[0].TagName, "a")
	_, ok = c.get(1, 6, k)
	is.True(!ok) // the repository moved on
	_, ok = c.get(2, 5, k)
	is.True(!ok) // another repository

	c.put(1, 4, k, page("old"))
	got, _ = c.get(1, 5, k)
	is.Equal(got.list[0].TagName, "a") // an older read is not kept

	c.put(1, 6, k, page("b"))
	_, ok = c.get(1, 5, k)
	is.True(!ok)
	got, ok = c.get(1, 6, k)
	is.True(ok)
	is.Equal(got.list[0].TagName, "b")

	drafts, _ := newReleasePageKey(release.Filter{Keyword: "v1", IncludeDrafts: true}, ports.ListOptions{Page: 1, Limit: 10})
	_, ok = c.get(1, 6, drafts)
	is.True(!ok) // what writers see is apart from what readers see

	_, ok = newReleasePageKey(release.Filter{Keyword: strings.Repeat("x", releasePageMaxKeyword+1)}, ports.ListOptions{})
	is.True(!ok)
	huge := &releasePage{list: []*release.Release{{Note: strings.Repeat("n", releasePageBudget/8)}}}
	c.put(3, 1, k, huge)
	_, ok = c.get(3, 1, k)
	is.True(!ok)
}
