package hook_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/hook"
)

var now = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

func cfg(kv ...string) map[string]string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return m
}

// valid is a minimal valid create body.
func valid(typ string) hook.CreateOptions {
	return hook.CreateOptions{Type: typ, Config: cfg("url", "https://example.com/hook", "content_type", "json")}
}

func isInvalid(is *is.I, err error, field string) {
	is.Helper()
	is.True(errors.Is(err, errs.ErrInvalid)) // a 422
	is.True(strings.HasPrefix(errs.Message(err), field+": "))
}

func TestNewDefaults(t *testing.T) {
	is := is.New(t)
	h, err := hook.New(hook.RepoScope(7), valid("gitea"), now)
	is.NoErr(err)
	is.Equal(h.Kind, hook.KindService)     // gitea is the native kind
	is.Equal(h.TypeName(), hook.KindGitea) // answered as the client named it
	is.Equal(h.Events, []string{"push"})   // default events
	is.True(!h.Active)                     // inactive unless asked
	is.Equal(h.HTTPMethod, "POST")
	is.Equal(h.ContentType, hook.ContentJSON)
	is.Equal(h.Scope, hook.Scope{RepoID: 7})
	is.Equal(h.Created, now)

	h, err = hook.New(hook.OwnerScope(3), valid("service"), now)
	is.NoErr(err)
	is.Equal(h.TypeName(), hook.KindService)
}

func TestNewValidation(t *testing.T) {
	cases := []struct {
		name  string
		edit  func(o *hook.CreateOptions)
		field string // "" when valid
	}{
		{"TypeMissing", func(o *hook.CreateOptions) { o.Type = "" }, "Type"},
		{"TypeUnknown", func(o *hook.CreateOptions) { o.Type = "msteams" }, "Type"},
		{"Slack", func(o *hook.CreateOptions) { o.Type = "slack" }, ""},
		{"Discord", func(o *hook.CreateOptions) { o.Type = "discord" }, ""},
		{"Dingtalk", func(o *hook.CreateOptions) { o.Type = "dingtalk" }, ""},
		{"ConfigMissing", func(o *hook.CreateOptions) { o.Config = nil }, "Config"},
		{"URLMissing", func(o *hook.CreateOptions) { delete(o.Config, "url") }, "Config"},
		{"URLEmpty", func(o *hook.CreateOptions) { o.Config["url"] = "" }, "Config"},
		{"URLNotHTTP", func(o *hook.CreateOptions) { o.Config["url"] = "ftp://example.com/x" }, "Config"},
		{"URLRelative", func(o *hook.CreateOptions) { o.Config["url"] = "/hook" }, "Config"},
		{"URLHTTP", func(o *hook.CreateOptions) { o.Config["url"] = "http://127.0.0.1:9/x" }, ""},
		{"ContentTypeMissing", func(o *hook.CreateOptions) { delete(o.Config, "content_type") }, "Config"},
		{"ContentTypeForm", func(o *hook.CreateOptions) { o.Config["content_type"] = "form" }, ""},
		{"ContentTypeBad", func(o *hook.CreateOptions) { o.Config["content_type"] = "xml" }, "Config"},
		{"MethodPut", func(o *hook.CreateOptions) { o.Config["http_method"] = "put" }, ""},
		{"MethodBad", func(o *hook.CreateOptions) { o.Config["http_method"] = "DELETE" }, "Config"},
		{"EventsUnknown", func(o *hook.CreateOptions) { o.Events = []string{"push", "nope"} }, "Events"},
		{"BranchFilterBad", func(o *hook.CreateOptions) { o.BranchFilter = "{main" }, "BranchFilter"},
		{"BranchFilterGlob", func(o *hook.CreateOptions) { o.BranchFilter = "{main,release/*}" }, ""},
		{"AuthorizationNewline", func(o *hook.CreateOptions) { o.AuthorizationHeader = "Bearer x\r\nX-Evil: 1" }, "AuthorizationHeader"},
		{"SlackChannelBad", func(o *hook.CreateOptions) { o.Type = "slack"; o.Config["channel"] = "#a b" }, "Config"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			o := valid("gitea")
			c.edit(&o)
			_, err := hook.New(hook.RepoScope(1), o, now)
			if c.field == "" {
				is.NoErr(err)
				return
			}
			isInvalid(is, err, c.field)
		})
	}
}

func TestNewKeepsSettings(t *testing.T) {
	is := is.New(t)
	o := valid("slack")
	o.Config["secret"] = "s3cret"
	o.Config["channel"] = "#ops"
	o.Config["http_method"] = "put"
	o.Events = []string{"issues", "push", "push"}
	o.BranchFilter = "main"
	o.AuthorizationHeader = "Bearer t"
	o.Active = true
	h, err := hook.New(hook.SystemScope(), o, now)
	is.NoErr(err)
	is.Equal(h.Secret, "s3cret")
	is.Equal(h.Meta, map[string]string{"channel": "#ops"})
	is.Equal(h.HTTPMethod, "PUT")
	is.Equal(h.Events, []string{"push", "issues", "issue_assign", "issue_label", "issue_milestone", "issue_comment"})
	is.Equal(h.BranchFilter, "main")
	is.Equal(h.AuthorizationHeader, "Bearer t")
	is.True(h.Active)
}

func TestNormalizeEvents(t *testing.T) {
	cases := []struct {
		in   []string
		want []string
	}{
		{nil, []string{"push"}},
		{[]string{}, []string{"push"}},
		{[]string{"create", "delete"}, []string{"create", "delete"}},
		{[]string{"issues_only"}, []string{"issues"}},
		{[]string{"pull_request_only", "pull_request_review_approved"}, []string{"pull_request", "pull_request_review"}},
		{[]string{"pull_request"}, []string{"pull_request", "pull_request_assign", "pull_request_label",
			"pull_request_milestone", "pull_request_comment", "pull_request_review", "pull_request_review_request", "pull_request_sync"}},
		{[]string{"release", "repository", "fork", "wiki"}, []string{"fork", "wiki", "repository", "release"}},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.in, ","), func(t *testing.T) {
			is := is.New(t)
			got, err := hook.NormalizeEvents(c.in)
			is.NoErr(err)
			is.Equal(got, c.want)
		})
	}
}

func TestEdit(t *testing.T) {
	base := func() *hook.Hook {
		o := valid("gitea")
		o.Config["secret"] = "old"
		o.Events = []string{"push", "create"}
		o.BranchFilter = "main"
		o.AuthorizationHeader = "Bearer a"
		h, err := hook.New(hook.RepoScope(1), o, now)
		if err != nil {
			t.Fatal(err)
		}
		h.ID = 5
		return h
	}
	str := func(s string) *string { return &s }
	yes := true
	later := now.Add(time.Hour)

	t.Run("NothingGivenChangesNothing", func(t *testing.T) {
		is := is.New(t)
		h := base()
		e, err := hook.Edit(h, hook.EditOptions{}, later)
		is.NoErr(err)
		want := *h
		want.Updated = later
		is.Equal(*e, want)
	})
	t.Run("EverythingGiven", func(t *testing.T) {
		is := is.New(t)
		h := base()
		e, err := hook.Edit(h, hook.EditOptions{
			Config:       cfg("url", "http://example.org/new", "content_type", "form", "secret", "new"),
			Events:       []string{"release"},
			BranchFilter: str(""), AuthorizationHeader: str(""), Active: &yes,
		}, later)
		is.NoErr(err)
		is.Equal(e.ID, int64(5))
		is.Equal(e.URL, "http://example.org/new")
		is.Equal(e.ContentType, hook.ContentForm)
		is.Equal(e.Secret, "new")
		is.Equal(e.Events, []string{"release"})
		is.Equal(e.BranchFilter, "")
		is.Equal(e.AuthorizationHeader, "")
		is.True(e.Active)
		is.Equal(e.Created, now)
		is.Equal(e.Updated, later)
		is.Equal(h.URL, "https://example.com/hook") // the original is untouched
	})
	t.Run("EmptyEventsMeanPush", func(t *testing.T) {
		is := is.New(t)
		e, err := hook.Edit(base(), hook.EditOptions{Events: []string{}}, later)
		is.NoErr(err)
		is.Equal(e.Events, []string{"push"})
	})
	for name, o := range map[string]hook.EditOptions{
		"BadURL":         {Config: cfg("url", "nope")},
		"EmptyURL":       {Config: cfg("url", "")},
		"BadContentType": {Config: cfg("content_type", "yaml")},
		"BadEvent":       {Events: []string{"pushed"}},
		"BadFilter":      {BranchFilter: str("[")},
	} {
		t.Run(name, func(t *testing.T) {
			is := is.New(t)
			_, err := hook.Edit(base(), o, later)
			is.True(errors.Is(err, errs.ErrInvalid))
		})
	}
}

func TestSystemFlag(t *testing.T) {
	is := is.New(t)
	yes, no := true, false
	b, err := hook.SystemFlag(nil, nil)
	is.NoErr(err)
	is.True(!b) // default hooks unless asked
	b, err = hook.SystemFlag(&yes, nil)
	is.NoErr(err)
	is.True(b)
	b, err = hook.SystemFlag(&no, cfg("is_system_webhook", "true"))
	is.NoErr(err)
	is.True(b) // config wins, as in newer Gitea
	_, err = hook.SystemFlag(nil, cfg("is_system_webhook", "maybe"))
	isInvalid(is, err, "Config")
}

func TestGlob(t *testing.T) {
	cases := []struct {
		pattern, s string
		match      bool
	}{
		{"main", "main", true},
		{"main", "mainline", false},
		{"*", "feature/x", true},
		{"release/*", "release/1.0", true},
		{"release/*", "release", false},
		{"feat*", "feature/deep/x", true},
		{"v?.0", "v1.0", true},
		{"v?.0", "v10.0", false},
		{"[mb]ain", "bain", true},
		{"[!mb]ain", "main", false},
		{"[!mb]ain", "rain", true},
		{"[a-c]x", "bx", true},
		{"[a-c]x", "dx", false},
		{"{main,dev}", "dev", true},
		{"{main,dev}", "devel", false},
		{"{main,release/{v1,v2}*}", "release/v2.3", true},
		{"{main,release/{v1,v2}*}", "release/v3", false},
		{`a\*b`, "a*b", true},
		{`a\*b`, "axb", false},
		{"*a*a*a*a*a*a*b", strings.Repeat("a", 200), false},
		{"ü*", "über", true},
	}
	for _, c := range cases {
		t.Run(c.pattern+"~"+c.s, func(t *testing.T) {
			is := is.New(t)
			g, err := hook.CompileGlob(c.pattern)
			is.NoErr(err)
			is.Equal(g.Match(c.s), c.match)
		})
	}
	for _, bad := range []string{"{a,b", "[ab", "[]", `abc\`, "[z-a]", strings.Repeat("{a,b,c,d}", 5)} {
		t.Run("Invalid/"+bad, func(t *testing.T) {
			is := is.New(t)
			_, err := hook.CompileGlob(bad)
			is.True(err != nil)
			isInvalid(is, hook.ValidateBranchFilter(bad), "BranchFilter")
		})
	}
}

func TestWants(t *testing.T) {
	mk := func(scope hook.Scope, active bool, filter string, events ...string) *hook.Hook {
		return &hook.Hook{Scope: scope, Active: active, BranchFilter: filter, Events: events}
	}
	repo := hook.RepoScope(1)
	cases := []struct {
		name          string
		h             *hook.Hook
		event, branch string
		want          bool
	}{
		{"PushWanted", mk(repo, true, "", "push"), "push", "main", true},
		{"Inactive", mk(repo, false, "", "push"), "push", "main", false},
		{"OtherEvent", mk(repo, true, "", "push"), "create", "main", false},
		{"FilterPasses", mk(repo, true, "release/*", "push"), "push", "release/1", true},
		{"FilterStops", mk(repo, true, "release/*", "push"), "push", "main", false},
		{"FilterStar", mk(repo, true, "*", "push"), "push", "anything", true},
		{"FilterOnCreate", mk(repo, true, "main", "create"), "create", "dev", false},
		{"FilterOnDelete", mk(repo, true, "main", "delete"), "delete", "main", true},
		{"TagIgnoresFilter", mk(repo, true, "main", "create"), "create", "", true},
		{"FilterNotForIssues", mk(repo, true, "main", "issues"), "issues", "dev", true},
		{"ReviewEvent", mk(repo, true, "", "pull_request_review"), "pull_request_review_approved", "", true},
		{"SystemHook", mk(hook.SystemScope(), true, "", "push"), "push", "main", true},
		{"DefaultHookNever", mk(hook.DefaultScope(), true, "", "push"), "push", "main", false},
		{"OwnerHook", mk(hook.OwnerScope(9), true, "", "push"), "push", "main", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			is.Equal(hook.Wants(c.h, c.event, c.branch), c.want)
		})
	}
}

func TestCoversAndMatching(t *testing.T) {
	is := is.New(t)
	mine := &hook.Hook{ID: 1, Scope: hook.RepoScope(10), Active: true, Events: []string{"push"}}
	other := &hook.Hook{ID: 2, Scope: hook.RepoScope(11), Active: true, Events: []string{"push"}}
	owner := &hook.Hook{ID: 3, Scope: hook.OwnerScope(5), Active: true, Events: []string{"push"}}
	strange := &hook.Hook{ID: 4, Scope: hook.OwnerScope(6), Active: true, Events: []string{"push"}}
	system := &hook.Hook{ID: 5, Scope: hook.SystemScope(), Active: true, Events: []string{"push"}}
	def := &hook.Hook{ID: 6, Scope: hook.DefaultScope(), Active: true, Events: []string{"push"}}
	issues := &hook.Hook{ID: 7, Scope: hook.RepoScope(10), Active: true, Events: []string{"issues"}}
	got := hook.Matching([]*hook.Hook{mine, other, owner, strange, system, def, issues}, 10, 5, "push", "main")
	is.Equal(len(got), 3)
	is.Equal([]int64{got[0].ID, got[1].ID, got[2].ID}, []int64{1, 3, 5})
	is.True(!hook.AdminScope().Covers(10, 5)) // the both-kinds lookup scope is no hook's scope
}

func TestGitHooks(t *testing.T) {
	is := is.New(t)
	is.NoErr(hook.CheckGitHookName("update"))
	is.True(errors.Is(hook.CheckGitHookName("post-update"), errs.ErrNotFound))
	s, ok := hook.NormalizeScript("#!/bin/sh\r\necho hi\r\n")
	is.True(ok)
	is.Equal(s, "#!/bin/sh\necho hi\n")
	_, ok = hook.NormalizeScript(" \n\t")
	is.True(!ok)

	cases := []struct {
		enabled, admin, allowed bool
		ok                      bool
	}{
		{true, true, false, true},
		{true, false, true, true},
		{true, false, false, false},
		{false, true, true, false},
	}
	for _, c := range cases {
		err := hook.CanEditGitHooks(c.enabled, c.admin, c.allowed)
		is.Equal(err == nil, c.ok)
		if err != nil {
			is.True(errors.Is(err, errs.ErrForbidden))
			is.Equal(errs.Message(err), "must be allowed to edit Git hooks")
		}
	}
}
