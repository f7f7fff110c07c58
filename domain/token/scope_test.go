package token_test

import (
	"errors"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/token"
)

func TestParseScopes(t *testing.T) {
	allWrites := []string{
		"write:activitypub", "write:admin", "write:misc", "write:notification",
		"write:organization", "write:package", "write:issue", "write:repository", "write:user",
	}
	cases := []struct {
		name    string
		in      []string
		want    []string
		wantErr string
	}{
		{name: "single read", in: []string{"read:user"}, want: []string{"read:user"}},
		{name: "comma separated in one entry", in: []string{"read:user,write:repository"}, want: []string{"write:repository", "read:user"}},
		{name: "trimmed", in: []string{"  read:issue ", " write:package , read:admin"}, want: []string{"read:admin", "write:package", "read:issue"}},
		{name: "duplicates dropped", in: []string{"read:user", "read:user,read:user"}, want: []string{"read:user"}},
		{name: "write drops read", in: []string{"read:user", "write:user"}, want: []string{"write:user"}},
		{name: "read after write keeps write", in: []string{"write:user", "read:user"}, want: []string{"write:user"}},
		{name: "canonical order", in: []string{"read:user", "read:repository", "read:issue", "read:package", "read:organization", "read:notification", "read:misc", "read:admin", "read:activitypub"},
			want: []string{"read:activitypub", "read:admin", "read:misc", "read:notification", "read:organization", "read:package", "read:issue", "read:repository", "read:user"}},
		{name: "all", in: []string{"all"}, want: []string{"all"}},
		{name: "all swallows categories", in: []string{"read:user", "all", "write:issue"}, want: []string{"all"}},
		{name: "all with public-only", in: []string{"all", "public-only"}, want: []string{"public-only", "all"}},
		{name: "every write becomes all", in: allWrites, want: []string{"all"}},
		{name: "every write but one stays listed", in: allWrites[1:], want: allWrites[1:]},
		{name: "public-only first", in: []string{"read:repository", "public-only"}, want: []string{"public-only", "read:repository"}},
		{name: "public-only alone is a scope", in: []string{"public-only"}, want: []string{"public-only"}},
		{name: "empty pieces skipped", in: []string{"", ",read:user,,"}, want: []string{"read:user"}},
		{name: "unknown category", in: []string{"read:user", "read:everything"}, wantErr: "Scopes: invalid access token scope: read:everything"},
		{name: "unknown level", in: []string{"admin:user"}, wantErr: "Scopes: invalid access token scope: admin:user"},
		{name: "bare category", in: []string{"repository"}, wantErr: "Scopes: invalid access token scope: repository"},
		{name: "old style scope", in: []string{"repo"}, wantErr: "Scopes: invalid access token scope: repo"},
		{name: "case matters", in: []string{"Read:user"}, wantErr: "Scopes: invalid access token scope: Read:user"},
		{name: "unknown inside a comma list", in: []string{"read:user,sudo"}, wantErr: "Scopes: invalid access token scope: sudo"},
		{name: "nil", in: nil, wantErr: "Scopes: access token must have a scope"},
		{name: "only blanks", in: []string{" ", ","}, wantErr: "Scopes: access token must have a scope"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			got, err := token.ParseScopes(tc.in)
			if tc.wantErr != "" {
				is.True(errors.Is(err, errs.ErrInvalid))
				is.Equal(err.Error(), tc.wantErr)
				var e *errs.Error
				is.True(errors.As(err, &e))
				is.Equal(e.Fields, []string{"Scopes"})
				is.Equal(got, nil)
				return
			}
			is.NoErr(err)
			is.Equal(got.Strings(), tc.want)
		})
	}
}

func TestParseScopesIsIdempotent(t *testing.T) {
	inputs := [][]string{
		{"read:user,write:repository"},
		{"all", "public-only"},
		{"public-only", "read:issue", "write:issue", "read:admin"},
	}
	for _, in := range inputs {
		t.Run(in[0], func(t *testing.T) {
			is := is.New(t)
			once, err := token.ParseScopes(in)
			is.NoErr(err)
			twice, err := token.ParseScopes(once.Strings())
			is.NoErr(err)
			is.Equal(once, twice)
		})
	}
}

func TestScopesLevel(t *testing.T) {
	cases := []struct {
		name   string
		scopes token.Scopes
		cat    token.Category
		want   token.Level
	}{
		{"none", token.Scopes{"read:user"}, token.CategoryRepository, token.LevelNone},
		{"read", token.Scopes{"read:repository"}, token.CategoryRepository, token.LevelRead},
		{"write", token.Scopes{"write:repository"}, token.CategoryRepository, token.LevelWrite},
		{"write beats read in any order", token.Scopes{"write:issue", "read:issue"}, token.CategoryIssue, token.LevelWrite},
		{"all gives write", token.Scopes{"all"}, token.CategoryAdmin, token.LevelWrite},
		{"all gives misc", token.Scopes{"all"}, token.CategoryMisc, token.LevelWrite},
		{"public-only grants nothing", token.Scopes{"public-only"}, token.CategoryRepository, token.LevelNone},
		{"public-only with all", token.Scopes{"public-only", "all"}, token.CategoryUser, token.LevelWrite},
		{"unknown entries ignored", token.Scopes{"bogus", "read:package"}, token.CategoryPackage, token.LevelRead},
		{"empty", nil, token.CategoryUser, token.LevelNone},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			is.Equal(tc.scopes.Level(tc.cat), tc.want)
		})
	}
}

func TestScopesPublicOnly(t *testing.T) {
	cases := []struct {
		scopes token.Scopes
		want   bool
	}{
		{token.Scopes{"public-only", "read:repository"}, true},
		{token.Scopes{"all", "public-only"}, true},
		{token.Scopes{"all"}, false},
		{token.Scopes{"read:repository"}, false},
		{nil, false},
	}
	for _, tc := range cases {
		t.Run(tc.scopes.String(), func(t *testing.T) {
			is := is.New(t)
			is.Equal(tc.scopes.PublicOnly(), tc.want)
		})
	}
}

func TestScopesRequire(t *testing.T) {
	cases := []struct {
		name    string
		scopes  token.Scopes
		write   bool
		cats    []token.Category
		wantErr string
	}{
		{name: "no category needs nothing", scopes: nil, write: true},
		{name: "read with read", scopes: token.Scopes{"read:repository"}, cats: []token.Category{token.CategoryRepository}},
		{name: "read with write", scopes: token.Scopes{"write:repository"}, cats: []token.Category{token.CategoryRepository}},
		{name: "write with write", scopes: token.Scopes{"write:repository"}, write: true, cats: []token.Category{token.CategoryRepository}},
		{name: "all reads admin", scopes: token.Scopes{"all"}, cats: []token.Category{token.CategoryAdmin}},
		{name: "all writes admin", scopes: token.Scopes{"all"}, write: true, cats: []token.Category{token.CategoryAdmin}},
		{name: "public-only all still passes", scopes: token.Scopes{"public-only", "all"}, write: true, cats: []token.Category{token.CategoryUser}},
		{name: "both categories held", scopes: token.Scopes{"read:organization", "read:user"}, cats: []token.Category{token.CategoryUser, token.CategoryOrganization}},
		{
			name: "missing category", scopes: token.Scopes{"write:repository"}, cats: []token.Category{token.CategoryUser},
			wantErr: "token does not have at least one of required scope(s), required=[read:user], token scope=write:repository",
		},
		{
			name: "write with read only", scopes: token.Scopes{"read:repository", "read:user"}, write: true, cats: []token.Category{token.CategoryRepository},
			wantErr: "token does not have at least one of required scope(s), required=[write:repository], token scope=read:repository,read:user",
		},
		{
			name: "every listed category is needed", scopes: token.Scopes{"read:user"}, cats: []token.Category{token.CategoryUser, token.CategoryOrganization},
			wantErr: "token does not have at least one of required scope(s), required=[read:user read:organization], token scope=read:user",
		},
		{
			name: "write on two categories", scopes: token.Scopes{"write:organization"}, write: true, cats: []token.Category{token.CategoryOrganization, token.CategoryRepository},
			wantErr: "token does not have at least one of required scope(s), required=[write:organization write:repository], token scope=write:organization",
		},
		{
			name: "public-only grants nothing", scopes: token.Scopes{"public-only"}, cats: []token.Category{token.CategoryRepository},
			wantErr: "token does not have at least one of required scope(s), required=[read:repository], token scope=public-only",
		},
		{
			name: "public-only quoted in token scope", scopes: token.Scopes{"public-only", "read:admin"}, write: true, cats: []token.Category{token.CategoryAdmin},
			wantErr: "token does not have at least one of required scope(s), required=[write:admin], token scope=public-only,read:admin",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			err := tc.scopes.Require(tc.write, tc.cats...)
			if tc.wantErr == "" {
				is.NoErr(err)
				return
			}
			is.True(errors.Is(err, errs.ErrForbidden))
			is.Equal(err.Error(), tc.wantErr)
		})
	}
}

func TestPublicOnlyError(t *testing.T) {
	cases := []struct {
		cat  token.Category
		want string
	}{
		{token.CategoryRepository, "token scope is limited to public repos"},
		{token.CategoryIssue, "token scope is limited to public issues"},
		{token.CategoryOrganization, "token scope is limited to public orgs"},
		{token.CategoryUser, "token scope is limited to public users"},
		{token.CategoryActivityPub, "token scope is limited to public activitypub"},
		{token.CategoryNotification, "token scope is limited to public notifications"},
		{token.CategoryPackage, "token scope is limited to public packages"},
		{token.CategoryAdmin, ""},
		{token.CategoryMisc, ""},
	}
	for _, tc := range cases {
		t.Run(string(tc.cat), func(t *testing.T) {
			is := is.New(t)
			err := token.PublicOnlyError(tc.cat)
			if tc.want == "" {
				is.NoErr(err)
				return
			}
			is.True(errors.Is(err, errs.ErrForbidden))
			is.Equal(err.Error(), tc.want)
		})
	}
}

func TestCategoryAndScopeFor(t *testing.T) {
	is := is.New(t)
	is.Equal(len(token.AllCategories()), 9)
	for _, c := range token.AllCategories() {
		is.True(c.Valid())
	}
	is.True(!token.Category("repo").Valid())
	is.Equal(token.ScopeFor(token.CategoryUser, token.LevelRead), token.Scope("read:user"))
	is.Equal(token.ScopeFor(token.CategoryUser, token.LevelWrite), token.Scope("write:user"))
	is.Equal(token.ScopeFor(token.CategoryUser, token.LevelNone), token.Scope(""))
}

func TestScopesStrings(t *testing.T) {
	is := is.New(t)
	is.Equal(token.Scopes{"public-only", "read:user"}.Strings(), []string{"public-only", "read:user"})
	is.Equal(token.Scopes{"public-only", "read:user"}.String(), "public-only,read:user")
	is.Equal(token.Scopes(nil).Strings(), []string{})
}
