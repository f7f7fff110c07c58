package protection_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/protection"
)

func TestTagPatternMatching(t *testing.T) {
	for _, tc := range []struct {
		pattern string
		regexp  bool
		match   []string
		miss    []string
	}{
		{pattern: "v1.0", match: []string{"v1.0"}, miss: []string{"v1.00", "v1", "V1.0", "xv1.0"}},
		{pattern: "v*", match: []string{"v", "v1", "v1.2.3", "v1/rc"}, miss: []string{"1", "release-v1"}},
		// Gitea compiles tag globs without separators: "*" crosses "/".
		{pattern: "release/*", match: []string{"release/1", "release/a/b"}, miss: []string{"release", "releases/1"}},
		{pattern: "**", match: []string{"", "anything/at/all"}},
		{pattern: "v?.?", match: []string{"v1.2"}, miss: []string{"v10.2", "v1.22"}},
		{pattern: "{v,rel-}[0-9]*", match: []string{"v1", "rel-2x"}, miss: []string{"va", "rel-", "x1"}},
		{pattern: "[!v]*", match: []string{"a1", "1"}, miss: []string{"v1"}},
		{pattern: `\*`, match: []string{"*"}, miss: []string{"a"}},
		// Between slashes, a regular expression, unanchored as Gitea's.
		{pattern: "/v[0-9]+/", regexp: true, match: []string{"v1", "v10.2", "xv1"}, miss: []string{"v", "va", "V1"}},
		{pattern: `/^v\d+\.\d+$/`, regexp: true, match: []string{"v1.2", "v10.20"}, miss: []string{"v1.2.3", "xv1.2", "v1.2-rc"}},
		{pattern: "//", regexp: true, match: []string{"", "any"}},
		// One slash is no regular expression: a glob of a literal "/".
		{pattern: "/", match: []string{"/"}, miss: []string{"", "a"}},
		{pattern: "/v1", match: []string{"/v1"}, miss: []string{"v1"}},
	} {
		t.Run(tc.pattern, func(t *testing.T) {
			is := is.New(t)
			p, err := protection.ParseTagPattern(tc.pattern)
			is.NoErr(err)
			is.Equal(p.IsRegexp(), tc.regexp)
			for _, s := range tc.match {
				is.True(p.Match(s)) // should match
			}
			for _, s := range tc.miss {
				is.True(!p.Match(s)) // should not match
			}
		})
	}
}

func TestTagPatternInvalid(t *testing.T) {
	for _, tc := range []struct{ pattern, text string }{
		{"", "Required"},
		{strings.Repeat("v", protection.MaxTagPatternLength+1), "MaxSize"},
		{"/v[0-9/", "invalid regular expression"},
		{"/(?P<x/", "invalid regular expression"},
		{"/a{2,1}/", "invalid regular expression"},
		{"v[0-9", "invalid glob pattern"},
		{"{a,b", "invalid glob pattern"},
		{"v\\", "invalid glob pattern"},
	} {
		t.Run(tc.pattern, func(t *testing.T) {
			is := is.New(t)
			_, err := protection.ParseTagPattern(tc.pattern)
			is.True(errors.Is(err, errs.ErrInvalid))
			var e *errs.Error
			is.True(errors.As(err, &e))
			is.Equal(e.Fields, []string{"name_pattern"})
			is.True(strings.HasPrefix(e.Msg, "name_pattern: "+tc.text)) // names the field, then why
		})
	}
	_, err := protection.ParseTagPattern(strings.Repeat("v", protection.MaxTagPatternLength))
	is.New(t).NoErr(err) // the longest pattern is accepted
}

func TestTagRulesDecision(t *testing.T) {
	const (
		alice, bob, carol, dave int64 = 1, 2, 3, 4
		devs, ops               int64 = 10, 11
	)
	rules := []*protection.TagRule{
		{ID: 1, NamePattern: "v*", AllowlistUserIDs: []int64{alice}},
		{ID: 2, NamePattern: "v2*", AllowlistUserIDs: []int64{bob}, AllowlistTeamIDs: []int64{devs}},
		{ID: 3, NamePattern: "/^rc-[0-9]+$/", AllowlistTeamIDs: []int64{ops}},
		{ID: 4, NamePattern: "frozen"}, // nobody may touch it
	}
	rs, err := protection.CompileTagRules(rules)
	is.New(t).NoErr(err)
	for _, tc := range []struct {
		name string
		tag  string
		who  protection.TagChanger
		may  bool
	}{
		{"an unprotected tag is free to all", "latest", protection.TagChanger{UserID: dave}, true},
		{"an unprotected tag is free to no one in particular", "latest", protection.TagChanger{}, true},
		{"allowlisted by id", "v1.0", protection.TagChanger{UserID: alice}, true},
		{"not allowlisted", "v1.0", protection.TagChanger{UserID: bob}, false},
		{"a team of another rule does not count", "v1.0", protection.TagChanger{UserID: carol, TeamIDs: []int64{devs}}, false},
		// v2.0 matches rules 1 and 2: any one of them allowing is enough.
		{"the first matching rule allows", "v2.0", protection.TagChanger{UserID: alice}, true},
		{"the second matching rule allows", "v2.0", protection.TagChanger{UserID: bob}, true},
		{"a team of a matching rule allows", "v2.0", protection.TagChanger{UserID: carol, TeamIDs: []int64{ops, devs}}, true},
		{"no matching rule allows", "v2.0", protection.TagChanger{UserID: dave, TeamIDs: []int64{ops}}, false},
		{"regular expression, team member", "rc-12", protection.TagChanger{UserID: dave, TeamIDs: []int64{ops}}, true},
		{"regular expression, outsider", "rc-12", protection.TagChanger{UserID: alice}, false},
		{"regular expression does not match", "rc-12a", protection.TagChanger{UserID: dave}, true},
		{"an empty allowlist refuses everyone", "frozen", protection.TagChanger{UserID: alice, TeamIDs: []int64{devs, ops}}, false},
		{"user id 0 is nobody", "v1.0", protection.TagChanger{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			is.Equal(rs.MayChange(tc.tag, tc.who), tc.may)
		})
	}
}

func TestTagRulesNeedsTeams(t *testing.T) {
	rs, err := protection.CompileTagRules([]*protection.TagRule{
		{NamePattern: "v*", AllowlistUserIDs: []int64{1}},
		{NamePattern: "v2*", AllowlistTeamIDs: []int64{10}},
	})
	is.New(t).NoErr(err)
	for _, tc := range []struct {
		name   string
		user   int64
		tags   []string
		teams  bool
		refuse string
	}{
		{"no tag protected", 2, []string{"latest"}, false, ""},
		{"protected without teams", 2, []string{"v1"}, false, "v1"},
		{"allowed by id on a rule with teams", 1, []string{"v2"}, false, ""},
		{"only teams could allow", 2, []string{"v2"}, true, "v2"},
		{"one of several tags needs teams", 2, []string{"latest", "v2"}, true, "v2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			is.Equal(rs.NeedsTeams(tc.user, tc.tags...), tc.teams)
			tag, refused := rs.FirstRefused(protection.TagChanger{UserID: tc.user}, tc.tags...)
			is.Equal(tag, tc.refuse)
			is.Equal(refused, tc.refuse != "")
		})
	}
	tag, refused := rs.FirstRefused(protection.TagChanger{UserID: 2, TeamIDs: []int64{10}}, "latest", "v2")
	is.New(t).Equal(refused, false) // the team allows it
	is.New(t).Equal(tag, "")
}

func TestTagRulesEmptyAndBroken(t *testing.T) {
	is := is.New(t)
	var none protection.TagRules
	is.Equal(none.Len(), 0)
	is.True(none.MayChange("v1", protection.TagChanger{UserID: 1}))
	is.True(!none.Protected("v1"))

	_, err := protection.CompileTagRules([]*protection.TagRule{{NamePattern: "v*"}, {NamePattern: "/[/"}})
	is.True(errors.Is(err, errs.ErrInvalid)) // a broken stored rule is an error, not a rule skipped
	is.Equal(protection.TagProtectedMessage("v1.0"), "Tag v1.0 is protected")
}
