package contract

import (
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/hook"
	"github.com/depothq/depot/ports"
)

// newHook is a hook of scope with every column set; url tells hooks apart.
func newHook(scope hook.Scope, url string) *hook.Hook {
	return &hook.Hook{
		Scope: scope, Kind: hook.KindService, KindName: hook.KindGitea, URL: url, HTTPMethod: "PUT",
		ContentType: hook.ContentForm, Secret: "s3cret", Events: []string{"create", "push", "issues"},
		BranchFilter: "{main,release/*}", AuthorizationHeader: "Bearer tok", Active: true,
		Created: at(20), Updated: at(21),
	}
}

func (f *fixture) hook(h *hook.Hook) *hook.Hook {
	f.t.Helper()
	if err := f.Hooks.Create(f.ctx, h); err != nil {
		f.t.Fatalf("create hook %q: %v", h.URL, err)
	}
	if h.ID == 0 {
		f.t.Fatalf("create hook %q: id not set", h.URL)
	}
	return h
}

func hookID(h *hook.Hook) int64 { return h.ID }

// hookGone checks that the scope has no hook id.
func hookGone(is *is.I, f *fixture, scope hook.Scope, id int64) {
	is.Helper()
	_, err := f.Hooks.Get(f.ctx, scope, id)
	isCategory(is, err, errs.ErrNotFound, "hook does not exist")
}

// hookIn reads hook id in the scope, failing when it is not there.
func hookIn(is *is.I, f *fixture, scope hook.Scope, id int64) *hook.Hook {
	is.Helper()
	h, err := f.Hooks.Get(f.ctx, scope, id)
	is.NoErr(err)
	return h
}

// hookCount is how many hooks the scope has.
func hookCount(is *is.I, f *fixture, scope hook.Scope) int64 {
	is.Helper()
	_, total, err := f.Hooks.List(f.ctx, scope, firstPage)
	is.NoErr(err)
	return total
}

var hookTests = map[string]func(t *testing.T, f *fixture){
	"CreateAndGetRoundTripEveryField": func(t *testing.T, f *fixture) {
		is := is.New(t)
		ann := f.user("ann")
		r := f.repo(ann, "code")
		repoHook := f.hook(newHook(hook.RepoScope(r.ID), "https://a.example/repo"))
		slack := newHook(hook.OwnerScope(ann.ID), "https://a.example/slack")
		slack.Kind, slack.KindName, slack.Meta = hook.KindSlack, hook.KindSlack, map[string]string{"channel": "#ops", "color": "red"}
		f.hook(slack)
		system := f.hook(newHook(hook.SystemScope(), "https://a.example/system"))
		def := newHook(hook.DefaultScope(), "https://a.example/default")
		def.KindName, def.Active, def.Events, def.BranchFilter = hook.KindService, false, []string{"push"}, ""
		f.hook(def)

		for _, want := range []*hook.Hook{repoHook, slack, system, def} {
			is.Equal(*hookIn(is, f, want.Scope, want.ID), *want)
		}
		// The site scope of both kinds finds either.
		is.Equal(hookIn(is, f, hook.AdminScope(), def.ID).Scope, hook.DefaultScope())
	},

	"ScopesAreSeparate": func(t *testing.T, f *fixture) {
		is := is.New(t)
		ann, bob := f.user("ann"), f.user("bob")
		r1, r2 := f.repo(ann, "one"), f.repo(ann, "two")
		h1 := f.hook(newHook(hook.RepoScope(r1.ID), "https://a.example/1"))
		u := f.hook(newHook(hook.OwnerScope(ann.ID), "https://a.example/u"))
		sys := f.hook(newHook(hook.SystemScope(), "https://a.example/s"))
		def := f.hook(newHook(hook.DefaultScope(), "https://a.example/d"))

		hookGone(is, f, hook.RepoScope(r2.ID), h1.ID)
		hookGone(is, f, hook.OwnerScope(bob.ID), u.ID)
		hookGone(is, f, hook.OwnerScope(ann.ID), h1.ID)
		hookGone(is, f, hook.SystemScope(), def.ID)
		hookGone(is, f, hook.DefaultScope(), sys.ID)
		hookGone(is, f, hook.AdminScope(), h1.ID)
		hookGone(is, f, hook.RepoScope(r1.ID), 424242)

		isCategory(is, f.Hooks.Delete(f.ctx, hook.RepoScope(r2.ID), h1.ID), errs.ErrNotFound, "hook does not exist")
		isCategory(is, f.Hooks.Delete(f.ctx, hook.DefaultScope(), sys.ID), errs.ErrNotFound, "hook does not exist")
		moved := *h1
		moved.Scope = hook.RepoScope(r2.ID)
		isCategory(is, f.Hooks.Update(f.ctx, &moved), errs.ErrNotFound, "hook does not exist")

		is.NoErr(f.Hooks.Delete(f.ctx, hook.RepoScope(r1.ID), h1.ID))
		hookGone(is, f, hook.RepoScope(r1.ID), h1.ID)
		is.NoErr(f.Hooks.Delete(f.ctx, hook.AdminScope(), def.ID))
		hookGone(is, f, hook.DefaultScope(), def.ID)
	},

	"ListPagesEachScope": func(t *testing.T, f *fixture) {
		is := is.New(t)
		ann := f.user("ann")
		r := f.repo(ann, "code")
		var repoHooks []*hook.Hook
		for _, u := range []string{"https://a.example/1", "https://a.example/2", "https://a.example/3"} {
			repoHooks = append(repoHooks, f.hook(newHook(hook.RepoScope(r.ID), u)))
		}
		u := f.hook(newHook(hook.OwnerScope(ann.ID), "https://a.example/u"))
		sys := f.hook(newHook(hook.SystemScope(), "https://a.example/s"))
		def := f.hook(newHook(hook.DefaultScope(), "https://a.example/d"))

		list, total, err := f.Hooks.List(f.ctx, hook.RepoScope(r.ID), ports.ListOptions{Page: 1, Limit: 2})
		is.NoErr(err)
		is.Equal(total, int64(3))
		is.Equal(ids(list, hookID), []int64{repoHooks[0].ID, repoHooks[1].ID})
		is.Equal(*list[0], *repoHooks[0])
		list, _, err = f.Hooks.List(f.ctx, hook.RepoScope(r.ID), ports.ListOptions{Page: 2, Limit: 2})
		is.NoErr(err)
		is.Equal(ids(list, hookID), []int64{repoHooks[2].ID})

		for _, c := range []struct {
			scope hook.Scope
			want  []int64
		}{
			{hook.OwnerScope(ann.ID), []int64{u.ID}},
			{hook.SystemScope(), []int64{sys.ID}},
			{hook.DefaultScope(), []int64{def.ID}},
			{hook.AdminScope(), []int64{sys.ID, def.ID}},
		} {
			list, total, err := f.Hooks.List(f.ctx, c.scope, firstPage)
			is.NoErr(err)
			is.Equal(ids(list, hookID), c.want)
			is.Equal(total, int64(len(c.want)))
		}
	},

	"UpdateWritesEveryField": func(t *testing.T, f *fixture) {
		is := is.New(t)
		ann := f.user("ann")
		r := f.repo(ann, "code")
		h := f.hook(newHook(hook.RepoScope(r.ID), "https://a.example/1"))
		h.URL, h.HTTPMethod, h.ContentType, h.Secret = "http://b.example/2", "POST", hook.ContentJSON, ""
		h.Events, h.BranchFilter, h.AuthorizationHeader, h.Active = []string{"release"}, "", "", false
		h.KindName, h.Updated = hook.KindService, at(30)
		is.NoErr(f.Hooks.Update(f.ctx, h))
		is.Equal(*hookIn(is, f, h.Scope, h.ID), *h)

		// A site hook changes kind by an update in the scope of its new kind.
		def := f.hook(newHook(hook.DefaultScope(), "https://a.example/d"))
		def.Scope = hook.SystemScope()
		is.NoErr(f.Hooks.Update(f.ctx, def))
		is.Equal(hookIn(is, f, hook.SystemScope(), def.ID).Scope, hook.SystemScope())
	},

	"ActiveForGathersTheThreeScopes": func(t *testing.T, f *fixture) {
		is := is.New(t)
		ann, bob := f.user("ann"), f.user("bob")
		r, other := f.repo(ann, "code"), f.repo(bob, "other")
		mine := f.hook(newHook(hook.RepoScope(r.ID), "https://a.example/repo"))
		off := newHook(hook.RepoScope(r.ID), "https://a.example/off")
		off.Active = false
		f.hook(off)
		f.hook(newHook(hook.RepoScope(other.ID), "https://a.example/other"))
		owner := f.hook(newHook(hook.OwnerScope(ann.ID), "https://a.example/owner"))
		f.hook(newHook(hook.OwnerScope(bob.ID), "https://a.example/bob"))
		sys := f.hook(newHook(hook.SystemScope(), "https://a.example/system"))
		f.hook(newHook(hook.DefaultScope(), "https://a.example/default"))
		sysOff := newHook(hook.SystemScope(), "https://a.example/system-off")
		sysOff.Active = false
		f.hook(sysOff)

		list, err := f.Hooks.ActiveFor(f.ctx, r.ID, ann.ID)
		is.NoErr(err)
		is.Equal(ids(list, hookID), []int64{mine.ID, owner.ID, sys.ID})
		is.Equal(*list[1], *owner)
		is.Equal(*list[2], *sys)
	},

	"CopyDefaultsIntoARepository": func(t *testing.T, f *fixture) {
		is := is.New(t)
		ann := f.user("ann")
		r, other := f.repo(ann, "code"), f.repo(ann, "other")
		d1 := f.hook(newHook(hook.DefaultScope(), "https://a.example/d1"))
		d2 := newHook(hook.DefaultScope(), "https://a.example/d2")
		d2.Kind, d2.KindName, d2.Meta, d2.Active = hook.KindDiscord, hook.KindDiscord, map[string]string{"username": "bot"}, false
		f.hook(d2)
		f.hook(newHook(hook.SystemScope(), "https://a.example/s"))
		f.hook(newHook(hook.RepoScope(other.ID), "https://a.example/o"))

		is.NoErr(f.Hooks.CopyDefaults(f.ctx, r.ID, at(40)))
		list, total, err := f.Hooks.List(f.ctx, hook.RepoScope(r.ID), firstPage)
		is.NoErr(err)
		is.Equal(total, int64(2))
		for i, src := range []*hook.Hook{d1, d2} {
			want := src.CopyTo(hook.RepoScope(r.ID), at(40))
			want.ID = list[i].ID
			is.True(want.ID != src.ID)
			is.Equal(*list[i], *want)
		}
		// The defaults stay as they were; nothing else got copies.
		is.Equal(hookCount(is, f, hook.DefaultScope()), int64(2))
		is.Equal(hookCount(is, f, hook.RepoScope(other.ID)), int64(1))
		// Without defaults it is a no-op.
		is.NoErr(f.Hooks.Delete(f.ctx, hook.DefaultScope(), d1.ID))
		is.NoErr(f.Hooks.Delete(f.ctx, hook.DefaultScope(), d2.ID))
		is.NoErr(f.Hooks.CopyDefaults(f.ctx, other.ID, at(41)))
		is.Equal(hookCount(is, f, hook.RepoScope(other.ID)), int64(1))
	},

	"HooksDieWithTheirRepositoryOrAccount": func(t *testing.T, f *fixture) {
		is := is.New(t)
		ann, bob := f.user("ann"), f.user("bob")
		r := f.repo(ann, "code")
		rh := f.hook(newHook(hook.RepoScope(r.ID), "https://a.example/r"))
		bh := f.hook(newHook(hook.OwnerScope(bob.ID), "https://a.example/b"))
		is.NoErr(f.Repos.Delete(f.ctx, r.ID))
		hookGone(is, f, hook.RepoScope(r.ID), rh.ID)
		is.NoErr(f.Users.Delete(f.ctx, bob.ID))
		hookGone(is, f, hook.OwnerScope(bob.ID), bh.ID)
	},

	"CreateForAMissingRepositoryIsNotFound": func(t *testing.T, f *fixture) {
		is := is.New(t)
		err := f.Hooks.Create(f.ctx, newHook(hook.RepoScope(424242), "https://a.example/x"))
		isCategory(is, err, errs.ErrNotFound, "the hook's repository or account does not exist")
	},
}
