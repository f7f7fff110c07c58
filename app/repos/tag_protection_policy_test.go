package repos_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/org"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/protection"
	"github.com/depothq/depot/ports"
	"github.com/depothq/depot/test/usecasekit"
)

// countingTagRules counts the loads of every rule of a repository (the
// push path's read) and can hold one load until released.
type countingTagRules struct {
	ports.TagProtectionStore
	loads atomic.Int32
	// hold, when set, is closed by the test to let a load finish; entered
	// is closed once the load has read the rules.
	hold, entered chan struct{}
}

func (c *countingTagRules) ListAll(ctx context.Context, repoID int64) ([]*protection.TagRule, error) {
	c.loads.Add(1)
	list, err := c.TagProtectionStore.ListAll(ctx, repoID)
	if c.hold != nil {
		close(c.entered)
		<-c.hold
		c.hold = nil
	}
	return list, err
}

// countingTeams counts the lookups of a user's teams.
type countingTeams struct {
	ports.OrgStore
	lookups atomic.Int32
}

func (c *countingTeams) TeamsOf(ctx context.Context, orgID, userID int64) ([]*org.Team, error) {
	c.lookups.Add(1)
	return c.OrgStore.TeamsOf(ctx, orgID, userID)
}

// tagWorld is the repository use cases over stores that count the reads
// the tag checks make.
type tagWorld struct {
	*world
	rules *countingTagRules
	teams *countingTeams
	svc   *repos.Service
}

func newTagWorld(t *testing.T) *tagWorld {
	w := newWorld(t)
	tw := &tagWorld{world: w, rules: &countingTagRules{TagProtectionStore: w.Stores.TagProtections},
		teams: &countingTeams{OrgStore: w.Stores.Orgs}}
	st := w.Stores
	st.TagProtections, st.Orgs = tw.rules, tw.teams
	tw.svc = repos.NewService(st, hookedTx{w.DB}, w.git, nil, nil, nil, nil, nil, w.Clock, usecasekit.QuietEvents{}, w.users, w.Settings, w.Log, nil)
	return tw
}

func TestTagProtectionDecisions(t *testing.T) {
	is := is.New(t)
	w := newTagWorld(t)
	alice, dev, writer := w.User("alice"), w.User("dev"), w.User("writer")
	o := w.org("acme", alice)
	w.team(o, "devs", permission.ModeWrite, false, dev)
	r := w.repo(&o.User, "code")
	a := w.mustOpen(alice, r)
	tp := w.svc.TagProtections()
	p := func(s string) *string { return &s }
	_, err := tp.Create(w.Ctx, a, repos.TagProtectionInput{NamePattern: p("v*"), Users: []string{"writer"}})
	is.NoErr(err)
	_, err = tp.Create(w.Ctx, a, repos.TagProtectionInput{NamePattern: p("/^rc-[0-9]+$/"), Teams: []string{"devs"}})
	is.NoErr(err)

	for _, tc := range []struct {
		name    string
		userID  int64
		tags    []string
		refused string
	}{
		{"allowlisted user", writer.ID, []string{"v1"}, ""},
		{"team member on a user rule", dev.ID, []string{"v1"}, "v1"},
		{"team member on a team rule", dev.ID, []string{"rc-1"}, ""},
		{"owner of the organisation", alice.ID, []string{"rc-1"}, "rc-1"},
		{"free tags", alice.ID, []string{"latest", "rc-x"}, ""},
		{"the first refused of several", writer.ID, []string{"latest", "v2", "rc-2", "rc-3"}, "rc-2"},
		{"no tags", alice.ID, nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tp.RefusedTag(w.Ctx, r, tc.userID, tc.tags...)
			is := is.New(t)
			is.NoErr(err)
			is.Equal(got, tc.refused)
		})
	}
	// The user's teams were looked up only where a team could decide:
	// dev on rc-1, alice on rc-1, writer on rc-2.
	is.Equal(w.teams.lookups.Load(), int32(3))
}

func TestTagProtectionRulesCachedPerRepository(t *testing.T) {
	is := is.New(t)
	w := newTagWorld(t)
	alice, bob := w.User("alice"), w.User("bob")
	r, other := w.repo(alice, "code"), w.repo(alice, "other")
	a := w.mustOpen(alice, r)
	tp := w.svc.TagProtections()
	pattern := "v*"
	rule, err := tp.Create(w.Ctx, a, repos.TagProtectionInput{NamePattern: &pattern, Users: []string{"alice"}})
	is.NoErr(err)

	refused := func(repo int64, userID int64, tag string) string {
		t.Helper()
		rr := r
		if repo == other.ID {
			rr = other
		}
		got, err := tp.RefusedTag(w.Ctx, rr, userID, tag)
		is.NoErr(err)
		return got
	}
	is.Equal(refused(r.ID, bob.ID, "v1"), "v1")
	is.Equal(refused(r.ID, alice.ID, "v1"), "")
	is.Equal(refused(r.ID, bob.ID, "latest"), "")
	is.Equal(w.rules.loads.Load(), int32(1)) // one load for three checks
	is.Equal(refused(other.ID, bob.ID, "v1"), "")
	is.Equal(w.rules.loads.Load(), int32(2)) // each repository has its entry

	// An edit drops the repository's entry: the next check loads again.
	_, err = tp.Edit(w.Ctx, a, rule.Rule.ID, repos.TagProtectionInput{Users: []string{"alice", "bob"}, UsersSet: true})
	is.NoErr(err)
	is.Equal(refused(r.ID, bob.ID, "v1"), "")
	is.Equal(w.rules.loads.Load(), int32(3))
	is.Equal(refused(other.ID, bob.ID, "v1"), "")
	is.Equal(w.rules.loads.Load(), int32(3)) // the other repository's entry stayed

	is.NoErr(tp.Delete(w.Ctx, a, rule.Rule.ID))
	is.Equal(refused(r.ID, bob.ID, "v1"), "")
	is.Equal(w.rules.loads.Load(), int32(4))
}

// TestTagProtectionCacheKeepsNoStaleLoad holds a load of the rules while
// a rule is created: the load's result (read before the change) answers
// its own check but is not kept, so the next check sees the new rule.
func TestTagProtectionCacheKeepsNoStaleLoad(t *testing.T) {
	is := is.New(t)
	w := newTagWorld(t)
	alice, bob := w.User("alice"), w.User("bob")
	r := w.repo(alice, "code")
	a := w.mustOpen(alice, r)
	tp := w.svc.TagProtections()

	w.rules.hold, w.rules.entered = make(chan struct{}), make(chan struct{})
	hold := w.rules.hold
	done := make(chan string)
	go func() {
		got, _ := tp.RefusedTag(context.Background(), r, bob.ID, "v1")
		done <- got
	}()
	<-w.rules.entered
	pattern := "v*"
	_, err := tp.Create(w.Ctx, a, repos.TagProtectionInput{NamePattern: &pattern, Users: []string{"alice"}})
	is.NoErr(err)
	close(hold)
	is.Equal(<-done, "") // decided on what it read, before the rule existed

	got, err := tp.RefusedTag(w.Ctx, r, bob.ID, "v1")
	is.NoErr(err)
	is.Equal(got, "v1") // the stale load was not kept
	is.Equal(w.rules.loads.Load(), int32(2))
}

// TestTagProtectionCheckCost measures what a push of ten tags pays against
// twenty cached rules, a team lookup included, and holds it to the issue's
// budget: under 5 ms more than an unprotected push.
func TestTagProtectionCheckCost(t *testing.T) {
	w := newTagWorld(t)
	alice, dev := w.User("alice"), w.User("dev")
	o := w.org("acme", alice)
	w.team(o, "devs", permission.ModeWrite, false, dev)
	r := w.repo(&o.User, "code")
	a := w.mustOpen(alice, r)
	tp := w.svc.TagProtections()
	for i := range 20 {
		pattern := "/^rel" + string(rune('a'+i)) + "-[0-9]+$/"
		_, err := tp.Create(w.Ctx, a, repos.TagProtectionInput{NamePattern: &pattern, Teams: []string{"devs"}})
		w.Must(err)
	}
	tags := []string{"v1", "v2", "v3", "latest", "nightly", "relt-1", "relq-2", "relb-3", "rela-4", "x"}
	res := testing.Benchmark(func(b *testing.B) {
		for b.Loop() {
			if got, err := tp.RefusedTag(w.Ctx, r, dev.ID, tags...); err != nil || got != "" {
				b.Fatalf("refused %q: %v", got, err)
			}
		}
	})
	if res.N == 0 || res.NsPerOp() > int64(5*time.Millisecond) {
		t.Fatalf("a check costs %d ns over %d runs, want under 5 ms", res.NsPerOp(), res.N)
	}
	t.Logf("a check of ten tags against twenty rules: %s", res)
	is.New(t).Equal(w.rules.loads.Load(), int32(1)) // the rules were read once
}
