package pull_test

import (
	"errors"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/pull"
	"github.com/depothq/depot/domain/repository"
)

type units = map[permission.Unit]permission.AccessMode

// grant is a permission with an overall mode and these units' modes.
func grant(mode permission.AccessMode, u units) permission.Permission {
	return permission.Permission{Mode: mode, Units: u}
}

var (
	none       = permission.Permission{}
	readAll    = grant(permission.ModeRead, units{permission.UnitCode: permission.ModeRead, permission.UnitPulls: permission.ModeRead, permission.UnitIssues: permission.ModeRead})
	writeAll   = grant(permission.ModeWrite, units{permission.UnitCode: permission.ModeWrite, permission.UnitPulls: permission.ModeWrite, permission.UnitIssues: permission.ModeWrite})
	adminAll   = grant(permission.ModeAdmin, units{permission.UnitCode: permission.ModeAdmin, permission.UnitPulls: permission.ModeAdmin})
	codeOnly   = grant(permission.ModeRead, units{permission.UnitCode: permission.ModeRead})
	pullsOnly  = grant(permission.ModeRead, units{permission.UnitPulls: permission.ModeRead})
	pullWriter = grant(permission.ModeRead, units{permission.UnitCode: permission.ModeRead, permission.UnitPulls: permission.ModeWrite})
	codeWriter = grant(permission.ModeRead, units{permission.UnitCode: permission.ModeWrite, permission.UnitPulls: permission.ModeRead})
	// issuesWriter writes issues, not pull requests: the units are separate.
	issuesWriter = grant(permission.ModeRead, units{permission.UnitCode: permission.ModeRead, permission.UnitPulls: permission.ModeRead, permission.UnitIssues: permission.ModeWrite})
)

// allStyles is every setting on.
var allStyles = repository.MergeSettings{AllowMerge: true, AllowRebase: true, AllowRebaseMerge: true, AllowSquash: true,
	AllowFastForwardOnly: true, AllowManualMerge: true, AllowRebaseUpdate: true}

// wantErr checks err's category (nil: no error) and, when given, its message.
func wantErr(t *testing.T, err, category error, msg string) {
	t.Helper()
	if category == nil {
		if err != nil {
			t.Fatalf("err = %v, want none", err)
		}
		return
	}
	if !errors.Is(err, category) {
		t.Fatalf("err = %v, want category %v", err, category)
	}
	if msg != "" && errs.Message(err) != msg {
		t.Fatalf("message = %q, want %q", errs.Message(err), msg)
	}
}

func TestCanOpen(t *testing.T) {
	open := &repository.Repository{}
	archived := &repository.Repository{Archived: true}
	for _, tc := range []struct {
		name       string
		base, head permission.Permission
		repo       *repository.Repository
		want       error
		msg        string
	}{
		{"reader of both", readAll, readAll, open, nil, ""},
		{"writer of both", writeAll, writeAll, open, nil, ""},
		{"no access to the base", none, readAll, open, errs.ErrNotFound, "Can't read pulls or can't read UnitTypeCode"},
		{"base pulls unit unreadable", codeOnly, readAll, open, errs.ErrNotFound, "Can't read pulls or can't read UnitTypeCode"},
		{"base code unit unreadable", pullsOnly, readAll, open, errs.ErrNotFound, "Can't read pulls or can't read UnitTypeCode"},
		{"head code unreadable", readAll, pullsOnly, open, errs.ErrNotFound, "Can't read headRepo UnitTypeCode"},
		{"head unreachable", readAll, none, open, errs.ErrNotFound, "Can't read headRepo UnitTypeCode"},
		{"head code only is enough", readAll, codeOnly, open, nil, ""},
		{"archived base, even for an admin", adminAll, adminAll, archived, errs.ErrLocked, "repo is archived"},
		{"archived base before any read check", none, none, archived, errs.ErrLocked, "repo is archived"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantErr(t, pull.CanOpen(tc.base, tc.head, tc.repo), tc.want, tc.msg)
		})
	}
}

func TestCanEdit(t *testing.T) {
	const poster, other = 7, 8
	for _, tc := range []struct {
		name   string
		doerID int64
		base   permission.Permission
		want   error
	}{
		{"poster who only reads", poster, readAll, nil},
		{"poster without any right", poster, none, nil},
		{"writer of pulls", other, pullWriter, nil},
		{"admin", other, adminAll, nil},
		{"reader", other, readAll, errs.ErrForbidden},
		{"writer of code only", other, grant(permission.ModeRead, units{permission.UnitCode: permission.ModeWrite, permission.UnitPulls: permission.ModeRead}), errs.ErrForbidden},
		{"writer of issues only", other, issuesWriter, errs.ErrForbidden},
		{"anonymous", 0, writeAll, errs.ErrForbidden},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantErr(t, pull.CanEdit(tc.doerID, poster, tc.base), tc.want, "")
		})
	}
	wantErr(t, pull.CanEdit(0, 0, writeAll), errs.ErrForbidden, "user should have permission to edit the pull request") // nobody posts as 0
}

func TestCanEditMetadata(t *testing.T) {
	is := is.New(t)
	is.True(pull.CanEditMetadata(pullWriter))
	is.True(pull.CanEditMetadata(adminAll))
	is.True(!pull.CanEditMetadata(readAll))
	is.True(!pull.CanEditMetadata(issuesWriter)) // the pulls unit decides
	is.True(!pull.CanEditMetadata(codeWriter))
	is.True(!pull.CanEditMetadata(none))
}

func TestCanChangeState(t *testing.T) {
	wantErr(t, pull.CanChangeState(&pull.PullRequest{}), nil, "")
	wantErr(t, pull.CanChangeState(&pull.PullRequest{HasMerged: true}), errs.ErrPrecondition,
		"cannot change state of this pull request, it was already merged")
}

func TestCanAllowMaintainerEdit(t *testing.T) {
	const poster, other = 7, 8
	for _, tc := range []struct {
		name   string
		doerID int64
		head   permission.Permission
		want   error
	}{
		{"poster writing the head's code", poster, codeWriter, nil},
		{"poster who no longer writes the head", poster, none, errs.ErrForbidden},
		{"writer of the head's code, not the poster", other, codeWriter, errs.ErrForbidden},
		{"writer of the head's pulls only", other, pullWriter, errs.ErrForbidden},
		{"reader of the head", other, readAll, errs.ErrForbidden},
		{"anonymous", 0, writeAll, errs.ErrForbidden},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantErr(t, pull.CanAllowMaintainerEdit(tc.doerID, poster, tc.head), tc.want, "")
		})
	}
}

func TestStyleAllowed(t *testing.T) {
	styles := []pull.Style{pull.StyleMerge, pull.StyleRebase, pull.StyleRebaseMerge, pull.StyleSquash,
		pull.StyleFastForwardOnly, pull.StyleManuallyMerged}
	only := map[pull.Style]repository.MergeSettings{
		pull.StyleMerge:           {AllowMerge: true},
		pull.StyleRebase:          {AllowRebase: true},
		pull.StyleRebaseMerge:     {AllowRebaseMerge: true},
		pull.StyleSquash:          {AllowSquash: true},
		pull.StyleFastForwardOnly: {AllowFastForwardOnly: true},
		pull.StyleManuallyMerged:  {AllowManualMerge: true},
	}
	for setting, s := range only {
		for _, style := range styles {
			if got := pull.StyleAllowed(s, style); got != (style == setting) {
				t.Errorf("settings allowing only %s: StyleAllowed(%s) = %v", setting, style, got)
			}
		}
	}
	for _, style := range styles {
		if !pull.StyleAllowed(allStyles, style) {
			t.Errorf("all allowed: %s refused", style)
		}
		if pull.StyleAllowed(repository.MergeSettings{}, style) {
			t.Errorf("none allowed: %s allowed", style)
		}
	}
	if pull.StyleAllowed(allStyles, "octopus") || pull.StyleAllowed(allStyles, "") {
		t.Error("an unknown style is allowed")
	}
	if pull.StyleAllowed(repository.MergeSettings{AllowRebaseUpdate: true}, pull.StyleRebase) {
		t.Error("AllowRebaseUpdate is not a merge style")
	}
}

func TestCanMerge(t *testing.T) {
	mergeable := &pull.PullRequest{Check: pull.Check{Status: pull.StatusMergeable}}
	at := func(s pull.Status) *pull.PullRequest { return &pull.PullRequest{Check: pull.Check{Status: s}} }
	mergedPull := &pull.PullRequest{HasMerged: true, Check: pull.Check{Status: pull.StatusMergeable}}
	ok := pull.MergeRequest{Pull: mergeable, Title: "Add feature", Base: writeAll, Settings: allStyles, Style: pull.StyleMerge}
	with := func(edit func(m *pull.MergeRequest)) pull.MergeRequest { m := ok; edit(&m); return m }
	const msgLater = "Please try again later"
	for _, tc := range []struct {
		name string
		req  pull.MergeRequest
		want error
		msg  string
	}{
		{"mergeable, writer", ok, nil, ""},
		{"empty is mergeable", with(func(m *pull.MergeRequest) { m.Pull = at(pull.StatusEmpty) }), nil, ""},
		{"admin", with(func(m *pull.MergeRequest) { m.Base = adminAll }), nil, ""},

		// Order of refusals: closed, then rights, then merged, WIP, style, state.
		{"closed first, even for a reader", with(func(m *pull.MergeRequest) { m.IsClosed, m.Base, m.Title = true, readAll, "WIP: x" }),
			errs.ErrNotFound, "the pull request is closed"},
		{"closed and merged is merged, not closed", with(func(m *pull.MergeRequest) { m.IsClosed, m.Pull = true, mergedPull }),
			errs.ErrNotAllowed, "The pull request has already been merged"},
		{"reader", with(func(m *pull.MergeRequest) { m.Base = readAll }), errs.ErrForbidden, "User not allowed to merge PR"},
		{"writer of pulls, not code", with(func(m *pull.MergeRequest) { m.Base = pullWriter }), errs.ErrForbidden, "User not allowed to merge PR"},
		{"no right before merged", with(func(m *pull.MergeRequest) { m.Base, m.Pull = readAll, mergedPull }), errs.ErrForbidden, ""},
		{"merged", with(func(m *pull.MergeRequest) { m.Pull = mergedPull }), errs.ErrNotAllowed, "The pull request has already been merged"},
		{"merged before WIP", with(func(m *pull.MergeRequest) { m.Pull, m.Title = mergedPull, "WIP: x" }), errs.ErrNotAllowed, "The pull request has already been merged"},
		{"WIP:", with(func(m *pull.MergeRequest) { m.Title = "WIP: Add feature" }), errs.ErrNotAllowed, "Work in progress PRs cannot be merged"},
		{"[wip] in any case", with(func(m *pull.MergeRequest) { m.Title = "  [wip] Add feature" }), errs.ErrNotAllowed, "Work in progress PRs cannot be merged"},
		{"WIP before style", with(func(m *pull.MergeRequest) { m.Title, m.Settings = "WIP: x", repository.MergeSettings{} }),
			errs.ErrNotAllowed, "Work in progress PRs cannot be merged"},
		{"style forbidden", with(func(m *pull.MergeRequest) { m.Settings = repository.MergeSettings{AllowSquash: true} }),
			errs.ErrNotAllowed, "merge is not allowed an allowed merge style for this repository"},
		{"style before state", with(func(m *pull.MergeRequest) {
			m.Style, m.Settings, m.Pull = pull.StyleRebase, repository.MergeSettings{AllowMerge: true}, at(pull.StatusConflict)
		}),
			errs.ErrNotAllowed, "rebase is not allowed an allowed merge style for this repository"},
		{"checking", with(func(m *pull.MergeRequest) { m.Pull = at(pull.StatusChecking) }), errs.ErrNotAllowed, msgLater},
		{"conflict", with(func(m *pull.MergeRequest) { m.Pull = at(pull.StatusConflict) }), errs.ErrNotAllowed, msgLater},
		{"error", with(func(m *pull.MergeRequest) { m.Pull = at(pull.StatusError) }), errs.ErrNotAllowed, msgLater},
		{"ancestor", with(func(m *pull.MergeRequest) { m.Pull = at(pull.StatusAncestor) }), errs.ErrNotAllowed, msgLater},

		// A manual merge mark and a scheduled merge skip the mergeability.
		{"manual on a conflict", with(func(m *pull.MergeRequest) { m.Style, m.Pull = pull.StyleManuallyMerged, at(pull.StatusConflict) }), nil, ""},
		{"manual while checking", with(func(m *pull.MergeRequest) { m.Style, m.Pull = pull.StyleManuallyMerged, at(pull.StatusChecking) }), nil, ""},
		{"manual not allowed", with(func(m *pull.MergeRequest) {
			m.Style, m.Settings = pull.StyleManuallyMerged, repository.MergeSettings{AllowMerge: true}
		}), errs.ErrNotAllowed, "manually-merged is not allowed an allowed merge style for this repository"},
		{"auto while checking", with(func(m *pull.MergeRequest) { m.Auto, m.Pull = true, at(pull.StatusChecking) }), nil, ""},
		{"auto on a conflict", with(func(m *pull.MergeRequest) { m.Auto, m.Pull = true, at(pull.StatusConflict) }), nil, ""},
		{"auto still needs the right", with(func(m *pull.MergeRequest) { m.Auto, m.Base = true, readAll }), errs.ErrForbidden, ""},
		{"auto still refuses WIP", with(func(m *pull.MergeRequest) { m.Auto, m.Title = true, "WIP: x" }), errs.ErrNotAllowed, "Work in progress PRs cannot be merged"},
		{"auto still refuses a forbidden style", with(func(m *pull.MergeRequest) { m.Auto, m.Settings = true, repository.MergeSettings{} }), errs.ErrNotAllowed, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantErr(t, pull.CanMerge(tc.req), tc.want, tc.msg)
		})
	}
}

func TestCanUpdate(t *testing.T) {
	open := &pull.PullRequest{}
	maintainable := &pull.PullRequest{AllowMaintainerEdit: true}
	noRebase := allStyles
	noRebase.AllowRebaseUpdate = false
	both := pull.UpdateRights{ByMerge: true, ByRebase: true}
	mergeOnly := pull.UpdateRights{ByMerge: true}
	for _, tc := range []struct {
		name       string
		p          *pull.PullRequest
		closed     bool
		head, base permission.Permission
		settings   repository.MergeSettings
		want       pull.UpdateRights
		err        error
		msg        string
	}{
		{"writer of the head", open, false, codeWriter, none, allStyles, both, nil, ""},
		{"writer of the head, no rebase update", open, false, codeWriter, none, noRebase, mergeOnly, nil, ""},
		{"maintainer of the base when allowed", maintainable, false, readAll, codeWriter, allStyles, both, nil, ""},
		{"maintainer of the base when not allowed", open, false, readAll, writeAll, allStyles, pull.UpdateRights{}, errs.ErrForbidden,
			"user is not allowed to update the pull request's head branch"},
		{"reader of both", maintainable, false, readAll, readAll, allStyles, pull.UpdateRights{}, errs.ErrForbidden, ""},
		{"writer of the head's pulls only", open, false, pullWriter, none, allStyles, pull.UpdateRights{}, errs.ErrForbidden, ""},
		{"merged", &pull.PullRequest{HasMerged: true}, false, writeAll, writeAll, allStyles, pull.UpdateRights{}, errs.ErrInvalid, "index: the pull request is merged"},
		{"merged before closed", &pull.PullRequest{HasMerged: true}, true, writeAll, writeAll, allStyles, pull.UpdateRights{}, errs.ErrInvalid, "index: the pull request is merged"},
		{"closed", open, true, writeAll, writeAll, allStyles, pull.UpdateRights{}, errs.ErrInvalid, "index: the pull request is closed"},
		{"closed before rights", open, true, none, none, allStyles, pull.UpdateRights{}, errs.ErrInvalid, "index: the pull request is closed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := pull.CanUpdate(tc.p, tc.closed, tc.head, tc.base, tc.settings)
			wantErr(t, err, tc.err, tc.msg)
			if got != tc.want {
				t.Fatalf("rights = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestCheckUpdateStyle(t *testing.T) {
	for _, tc := range []struct {
		rights pull.UpdateRights
		rebase bool
		want   error
	}{
		{pull.UpdateRights{ByMerge: true, ByRebase: true}, false, nil},
		{pull.UpdateRights{ByMerge: true, ByRebase: true}, true, nil},
		{pull.UpdateRights{ByMerge: true}, false, nil},
		{pull.UpdateRights{ByMerge: true}, true, errs.ErrForbidden},
		{pull.UpdateRights{}, false, errs.ErrForbidden},
		{pull.UpdateRights{}, true, errs.ErrForbidden},
	} {
		wantErr(t, tc.rights.CheckUpdateStyle(tc.rebase), tc.want, "")
	}
}

func TestIsWorkInProgress(t *testing.T) {
	for title, want := range map[string]bool{
		"WIP: add feature":   true,
		"wip: add feature":   true,
		"WIP:add":            true,
		"[WIP] add feature":  true,
		"[wip]add":           true,
		"  WIP: leading":     true,
		"\t[Wip] tab":        true,
		"WIP add feature":    false, // the colon is part of the prefix
		"WIP":                false,
		"add feature [WIP]":  false, // only at the start
		"Add WIP: support":   false,
		"(WIP) add feature":  false,
		"":                   false,
		"Draft: add feature": false, // not one of Gitea's default prefixes
	} {
		if got := pull.IsWorkInProgress(title); got != want {
			t.Errorf("IsWorkInProgress(%q) = %v, want %v", title, got, want)
		}
	}
}

func TestHeadRef(t *testing.T) {
	is := is.New(t)
	is.Equal(pull.HeadRef(42), "refs/pull/42/head")
	is.Equal((&pull.PullRequest{Index: 7}).HeadRef(), "refs/pull/7/head")
	is.True((&pull.PullRequest{BaseRepoID: 3, HeadRepoID: 3}).IsSameRepo())
	is.True(!(&pull.PullRequest{BaseRepoID: 3, HeadRepoID: 0}).IsSameRepo()) // head repository deleted
}
