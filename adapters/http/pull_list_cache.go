package http

import (
	"container/list"
	"strconv"
	"strings"
	"sync"

	"github.com/depothq/depot/app/pulls"
	"github.com/depothq/depot/ports"
)

// Pages of GET R/pulls, encoded, for the pollers (CI systems, bots,
// dashboards) that ask for the same page again and again. A page is built
// from a dozen statements over the pull requests, their issues, users,
// labels, milestones, reviews and repositories, and from the base branches'
// tips; kept, it answers again from one stamp read and one look at the
// tips (app/pulls/list_stamps.go says why that is enough).
//
// A page is kept for the caller it was built for (the user, the token and
// its scopes, sudo and the workflow task: answers differ in e-mail
// addresses, permissions and the forks shown) and for the repository and
// the query string. The access rules of the route run before the cache is
// asked, on every request. The cache holds at most pullListBudget bytes of
// pages, least recently used out, and no page above pullListPageMax.

const (
	pullListBudget  = 8 << 20
	pullListPageMax = 1 << 20
)

// pullListPage is one kept page.
type pullListPage struct {
	key   string
	stamp string
	tips  map[string]string
	total int64
	body  []byte
}

// pullListCache keeps pages by key, most recently used first.
type pullListCache struct {
	mu    sync.Mutex
	pages map[string]*list.Element
	order *list.List
	bytes int
	stats *ports.CacheStats
}

func newPullListCache() *pullListCache {
	return &pullListCache{pages: map[string]*list.Element{}, order: list.New(),
		stats: ports.NewCacheStats("pull_list_pages", true)}
}

// CacheStats are the counts of the pages of GET R/pulls kept for pollers,
// for the metrics page.
func (s *Server) CacheStats() *ports.CacheStats { return s.pullLists.stats }

// pullListKey names the page q asks for.
func pullListKey(q *request) string {
	var b strings.Builder
	b.WriteString(strconv.FormatInt(q.repo.Repo.ID, 10))
	c := q.caller
	b.WriteByte('/')
	if c.User != nil {
		b.WriteString(strconv.FormatInt(c.User.ID, 10))
	}
	b.WriteByte('/')
	b.WriteString(strconv.Itoa(int(c.Method)))
	if c.Token != nil {
		b.WriteByte('/')
		b.WriteString(strconv.FormatInt(c.Token.ID, 10))
		b.WriteByte(':')
		b.WriteString(c.Token.Scopes.String())
	}
	if c.Sudoer != nil {
		b.WriteString("/sudo:")
		b.WriteString(strconv.FormatInt(c.Sudoer.ID, 10))
	}
	if c.Task != nil {
		b.WriteString("/task:")
		b.WriteString(strconv.FormatInt(c.Task.TaskID, 10))
	}
	b.WriteByte('?')
	b.WriteString(q.r.URL.RawQuery)
	return b.String()
}

// get returns the page kept under key, or nil.
func (c *pullListCache) get(key string) *pullListPage {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.pages[key]
	if !ok {
		return nil
	}
	c.order.MoveToFront(e)
	return e.Value.(*pullListPage)
}

// put keeps p, dropping the least recently used pages over the budget.
func (c *pullListCache) put(p *pullListPage) {
	size := pullListPageSize(p)
	if size > pullListPageMax {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.pages[p.key]; ok {
		c.bytes -= pullListPageSize(old.Value.(*pullListPage))
		c.order.Remove(old)
	}
	c.pages[p.key] = c.order.PushFront(p)
	c.bytes += size
	evicted := 0
	for c.bytes > pullListBudget {
		last := c.order.Back()
		lp := last.Value.(*pullListPage)
		c.order.Remove(last)
		delete(c.pages, lp.key)
		c.bytes -= pullListPageSize(lp)
		evicted++
	}
	c.stats.Evicted(evicted)
	c.stats.SetEntries(len(c.pages))
}

// pullListPageSize is about what p holds in memory.
func pullListPageSize(p *pullListPage) int {
	n := len(p.key) + len(p.stamp) + len(p.body) + 64
	for b, sha := range p.tips {
		n += len(b) + len(sha) + 32
	}
	return n
}

// cachedPullList answers q from a kept page that is still good under
// stamp, and reports whether it did.
func (s pullCore) cachedPullList(q *request, opts ports.ListOptions, key, stamp string) (bool, error) {
	p := s.pullLists.get(key)
	if p == nil || p.stamp != stamp {
		s.pullLists.stats.Miss()
		return false, nil
	}
	ok, err := s.pulls.BaseTipsUnchanged(q.r.Context(), q.repo, p.tips)
	if err != nil || !ok {
		s.pullLists.stats.Miss()
		return false, err
	}
	s.pullLists.stats.Hit()
	s.setPaging(q.w, q.r, opts, p.total)
	q.w.Header().Set("Content-Type", "application/json;charset=utf-8")
	q.w.WriteHeader(200)
	_, _ = q.w.Write(p.body)
	return true, nil
}

// keepPullList encodes list, keeps the page under key and stamp, and
// answers it; the paging headers are set.
func (s pullCore) keepPullList(q *request, key, stamp string, views []*pulls.View, total int64, list []pullDTO) {
	b, err := appendPullsJSON(nil, list)
	if err != nil {
		s.writePulls(q, 200, list)
		return
	}
	b = append(b, '\n')
	s.pullLists.put(&pullListPage{key: key, stamp: stamp, tips: pulls.BaseTips(views), total: total, body: b})
	q.w.Header().Set("Content-Type", "application/json;charset=utf-8")
	q.w.WriteHeader(200)
	_, _ = q.w.Write(b)
}
