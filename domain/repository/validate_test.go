package repository

import (
	"errors"
	"strings"
	"testing"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/user"
	"github.com/matryer/is"
)

func TestValidateName(t *testing.T) {
	cases := []struct {
		name string
		ok   bool
	}{
		{"demo", true}, {"my-repo_1.x", true}, {"A", true}, {strings.Repeat("a", MaxNameLength), true},
		{"", false}, {strings.Repeat("a", MaxNameLength+1), false}, {"has space", false}, {"slash/x", false},
		{"ünï", false}, {".", false}, {"..", false}, {"-", false}, {"api", false}, {"Assets", false},
		{"x.git", false}, {"x.WIKI", false}, {"feed.rss", false}, {"feed.atom", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			err := ValidateName("Name", tc.name)
			is.Equal(err == nil, tc.ok)
			if err != nil {
				is.True(errors.Is(err, errs.ErrInvalid))
				is.True(strings.HasPrefix(errs.Message(err), "Name: "))
			}
		})
	}
}

func TestValidateBranchName(t *testing.T) {
	for b, ok := range map[string]bool{
		"main": true, "feature/x": true, "v1.2": true,
		"": false, "/x": false, "x/": false, "a..b": false, "-x": false, "x.lock": false, "a b": false,
		"a~b": false, "a^b": false, "a:b": false, "a?b": false, "a*b": false, "a[b": false, "a\\b": false,
		"@": false, "a@{b": false, "x/.hidden": false, "a//b": false, "dot.": false,
	} {
		t.Run(b, func(t *testing.T) {
			is := is.New(t)
			is.Equal(ValidateBranchName("DefaultBranch", b) == nil, ok)
		})
	}
}

func TestValidateURL(t *testing.T) {
	for s, ok := range map[string]bool{
		"": true, "https://example.com": true, "http://x.org/path?q=1": true,
		"ftp://x": false, "javascript:alert(1)": false, "example.com": false, "https://": false,
		"https://" + strings.Repeat("a", MaxWebsiteLength): false,
	} {
		t.Run(s, func(t *testing.T) {
			is := is.New(t)
			is.Equal(ValidateURL("Website", s) == nil, ok)
		})
	}
}

func TestParseCollaboratorMode(t *testing.T) {
	cases := []struct {
		in   string
		want permission.AccessMode
		ok   bool
	}{
		{"", permission.ModeWrite, true}, {"read", permission.ModeRead, true}, {"Write", permission.ModeWrite, true},
		{"admin", permission.ModeAdmin, true}, {"owner", permission.ModeNone, false}, {"none", permission.ModeNone, false},
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			is := is.New(t)
			got, err := ParseCollaboratorMode("Permission", tc.in)
			is.Equal(err == nil, tc.ok)
			is.Equal(got, tc.want)
		})
	}
}

func TestNormalizeTopics(t *testing.T) {
	t.Run("normalises, de-duplicates and sorts", func(t *testing.T) {
		is := is.New(t)
		got, err := NormalizeTopics([]string{" Go ", "rust", "go", "", "c.plus-plus"})
		is.NoErr(err)
		is.Equal(got, []string{"c.plus-plus", "go", "rust"})
	})
	t.Run("reports every invalid topic as given", func(t *testing.T) {
		is := is.New(t)
		_, err := NormalizeTopics([]string{"ok", "-bad", "no_underscore", strings.Repeat("x", MaxTopicLength+1)})
		var te *TopicsError
		is.True(errors.As(err, &te))
		is.Equal(len(te.Invalid), 3)
		is.True(errors.Is(err, errs.ErrInvalid))
	})
	t.Run("refuses more than MaxTopics", func(t *testing.T) {
		is := is.New(t)
		var many []string
		for i := 0; i <= MaxTopics; i++ {
			many = append(many, "t"+strings.Repeat("x", i))
		}
		_, err := NormalizeTopics(many)
		is.True(errors.Is(err, errs.ErrInvalid))
		_, err = NormalizeTopics(many[:MaxTopics])
		is.NoErr(err)
	})
}

func TestUnitsAndFacts(t *testing.T) {
	is := is.New(t)
	r := &Repository{ID: 7, Name: "demo", Owner: Owner{ID: 3, Name: "alice", Kind: user.KindOrganization, Visibility: user.VisibilityLimited},
		Units: DefaultUnits(), Private: true, Archived: true}
	is.True(r.HasUnit(permission.UnitIssues))
	r.SetUnit(permission.UnitIssues, false)
	r.SetUnit(permission.UnitExtIssues, true)
	is.True(!r.HasUnit(permission.UnitIssues))
	is.True(r.HasUnit(permission.UnitExtIssues))
	// SetUnit keeps the permission core's order.
	is.Equal(r.Units[0], permission.UnitCode)
	f := r.Facts()
	is.Equal(f.FullName, "alice/demo")
	is.True(f.OwnerIsOrg && f.Private && f.Archived)
	is.Equal(f.OwnerVisibility, user.VisibilityLimited)
	is.Equal(len(f.EnabledUnits), len(r.Units))
	r.NumIssues, r.NumClosedIssues = 5, 2
	is.Equal(r.NumOpenIssues(), 3)
}
