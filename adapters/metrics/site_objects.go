package metrics

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/depothq/depot/ports"
)

// siteObjectsEvery is how often the object counts are read again at most:
// scrapes in between are answered from the last counts, so however often
// the page is scraped the database counts once a minute.
const siteObjectsEvery = time.Minute

// siteObjectGauges names each object count as Gitea's metrics page does
// (gitea_<name>) and as Depot's twin (depot_<name>), so dashboards made for
// Gitea read Depot unchanged.
var siteObjectGauges = []struct {
	name, help string
	value      func(ports.SiteObjects) int64
}{
	{"users", "Individual accounts.", func(o ports.SiteObjects) int64 { return o.Users }},
	{"organizations", "Organisations.", func(o ports.SiteObjects) int64 { return o.Organizations }},
	{"teams", "Teams of organisations.", func(o ports.SiteObjects) int64 { return o.Teams }},
	{"repositories", "Repositories.", func(o ports.SiteObjects) int64 { return o.Repositories }},
	{"mirrors", "Pull mirrors.", func(o ports.SiteObjects) int64 { return o.Mirrors }},
	{"issues", "Issues (pull requests apart).", func(o ports.SiteObjects) int64 { return o.Issues }},
	{"issues_open", "Open issues.", func(o ports.SiteObjects) int64 { return o.IssuesOpen }},
	{"issues_closed", "Closed issues.", func(o ports.SiteObjects) int64 { return o.IssuesClosed }},
	{"pull_requests", "Pull requests.", func(o ports.SiteObjects) int64 { return o.PullRequests }},
	{"comments", "Comments of issues and pull requests.", func(o ports.SiteObjects) int64 { return o.Comments }},
	{"labels", "Labels.", func(o ports.SiteObjects) int64 { return o.Labels }},
	{"milestones", "Milestones.", func(o ports.SiteObjects) int64 { return o.Milestones }},
	{"releases", "Releases.", func(o ports.SiteObjects) int64 { return o.Releases }},
	{"stars", "Stars given to repositories.", func(o ports.SiteObjects) int64 { return o.Stars }},
	{"watches", "Repository watches.", func(o ports.SiteObjects) int64 { return o.Watches }},
	{"follows", "Follows between accounts.", func(o ports.SiteObjects) int64 { return o.Follows }},
	{"webhooks", "Webhooks.", func(o ports.SiteObjects) int64 { return o.Webhooks }},
	{"hooktasks", "Webhook deliveries recorded.", func(o ports.SiteObjects) int64 { return o.HookTasks }},
	{"publickeys", "SSH public keys of accounts.", func(o ports.SiteObjects) int64 { return o.PublicKeys }},
	{"oauths", "OAuth2 applications.", func(o ports.SiteObjects) int64 { return o.OAuthApps }},
	{"attachments", "Attachments of issues, comments and releases.", func(o ports.SiteObjects) int64 { return o.Attachments }},
	{"actions", "Activity records of the feeds.", func(o ports.SiteObjects) int64 { return o.Actions }},
}

// siteObjectsCollector serves the object counts, read again when a scrape
// finds them older than siteObjectsEvery; one scrape counts, others wait
// for it or take the last counts.
type siteObjectsCollector struct {
	counter ports.SiteObjectCounter
	log     *slog.Logger
	now     func() time.Time
	descs   [][2]*prometheus.Desc // gitea_, depot_

	mu     sync.Mutex
	last   ports.SiteObjects
	readAt time.Time
	err    error
}

func newSiteObjectsCollector(counter ports.SiteObjectCounter, log *slog.Logger) *siteObjectsCollector {
	c := &siteObjectsCollector{counter: counter, log: log, now: time.Now}
	for _, g := range siteObjectGauges {
		c.descs = append(c.descs, [2]*prometheus.Desc{
			prometheus.NewDesc("gitea_"+g.name, g.help+" (Gitea's name; counted at most once a minute)", nil, nil),
			prometheus.NewDesc("depot_"+g.name, g.help+" (counted at most once a minute)", nil, nil)})
	}
	return c
}

func (c *siteObjectsCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range c.descs {
		ch <- d[0]
		ch <- d[1]
	}
}

func (c *siteObjectsCollector) Collect(ch chan<- prometheus.Metric) {
	objects, err := c.counts()
	if err != nil {
		ch <- prometheus.NewInvalidMetric(c.descs[0][1], err)
		return
	}
	for i, g := range siteObjectGauges {
		v := float64(g.value(objects))
		ch <- prometheus.MustNewConstMetric(c.descs[i][0], prometheus.GaugeValue, v)
		ch <- prometheus.MustNewConstMetric(c.descs[i][1], prometheus.GaugeValue, v)
	}
}

// counts returns the last counts, reading them again when they are due.
func (c *siteObjectsCollector) counts() (ports.SiteObjects, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.readAt.IsZero() && c.now().Sub(c.readAt) < siteObjectsEvery {
		return c.last, c.err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	o, err := c.counter.SiteObjects(ctx)
	c.readAt = c.now()
	if err != nil {
		if c.log != nil {
			c.log.Error("metrics: counting the site's objects", "err", err)
		}
		if !c.last.IsZeroCounts() {
			return c.last, nil // the last good counts, for a minute more
		}
		c.err = err
		return o, err
	}
	c.last, c.err = o, nil
	return o, nil
}
