package token

import (
	"fmt"
	"strings"

	"github.com/depothq/depot/domain/errs"
)

// Scope is one scope string as Gitea spells it: "all", "public-only",
// "read:<category>" or "write:<category>".
type Scope string

// Scopes is the normalised scope list of a token.
type Scopes []Scope

// The two scopes that name no category.
const (
	// ScopeAll grants write (and so read) on every category.
	ScopeAll Scope = "all"
	// ScopePublicOnly limits the token to public resources; it grants nothing by itself.
	ScopePublicOnly Scope = "public-only"
)

// Category is a group of routes a scope grants access to.
type Category string

// The categories, spelled as in Gitea's scope strings. CategoryMisc is kept
// because Gitea still accepts "read:misc" and "write:misc", though no route
// asks for it any more.
const (
	CategoryActivityPub  Category = "activitypub"
	CategoryAdmin        Category = "admin"
	CategoryMisc         Category = "misc"
	CategoryNotification Category = "notification"
	CategoryOrganization Category = "organization"
	CategoryPackage      Category = "package"
	CategoryIssue        Category = "issue"
	CategoryRepository   Category = "repository"
	CategoryUser         Category = "user"
)

// AllCategories returns every category in Gitea's canonical order, the order
// a normalised scope list follows.
func AllCategories() []Category {
	return []Category{
		CategoryActivityPub, CategoryAdmin, CategoryMisc, CategoryNotification,
		CategoryOrganization, CategoryPackage, CategoryIssue, CategoryRepository, CategoryUser,
	}
}

// Valid reports whether c is one of the known categories.
func (c Category) Valid() bool {
	for _, k := range AllCategories() {
		if k == c {
			return true
		}
	}
	return false
}

// Level is how much a token may do within one category.
type Level int

// The levels; write implies read.
const (
	LevelNone Level = iota
	LevelRead
	LevelWrite
)

// ScopeFor returns the scope that grants level l on category c, "" for LevelNone.
func ScopeFor(c Category, l Level) Scope {
	switch l {
	case LevelRead:
		return Scope("read:" + string(c))
	case LevelWrite:
		return Scope("write:" + string(c))
	}
	return ""
}

// grant is what one valid scope string gives: a level on one category, the
// write level on all of them, or the public-only restriction.
type grant struct {
	all        bool
	publicOnly bool
	category   Category
	level      Level
}

// parseScope reads one trimmed scope string; ok is false for unknown ones.
func parseScope(s Scope) (g grant, ok bool) {
	switch s {
	case ScopeAll:
		return grant{all: true, level: LevelWrite}, true
	case ScopePublicOnly:
		return grant{publicOnly: true}, true
	}
	prefix, cat, found := strings.Cut(string(s), ":")
	if !found || !Category(cat).Valid() {
		return grant{}, false
	}
	switch prefix {
	case "read":
		return grant{category: Category(cat), level: LevelRead}, true
	case "write":
		return grant{category: Category(cat), level: LevelWrite}, true
	}
	return grant{}, false
}

// ParseScopes reads the scopes a client asked for. An entry may itself hold
// several comma-separated scopes, as Gitea accepts "read:user,write:repository"
// in one string. Entries are trimmed and empty pieces skipped. The result is
// normalised the way Gitea stores it: "public-only" first when given, then one
// scope per granted category at its highest level, in the order of
// AllCategories; write on every category collapses to "all". An unknown scope,
// or nothing at all (Gitea 1.22 and later refuse a token without a scope),
// is an ErrInvalid on the field "Scopes".
//
// Gitea itself answers both cases with 400 and the messages
// "invalid access token scope provided: invalid access token scope: <x>" and
// "access token must have a scope"; the HTTP layer may choose to do the same.
func ParseScopes(in []string) (Scopes, error) {
	levels := map[Category]Level{}
	publicOnly, seen := false, false
	for _, entry := range in {
		for _, piece := range strings.Split(entry, ",") {
			piece = strings.TrimSpace(piece)
			if piece == "" {
				continue
			}
			g, ok := parseScope(Scope(piece))
			if !ok {
				return nil, errs.Invalid("invalid access token scope: "+piece, "Scopes")
			}
			seen = true
			switch {
			case g.publicOnly:
				publicOnly = true
			case g.all:
				for _, c := range AllCategories() {
					levels[c] = LevelWrite
				}
			default:
				levels[g.category] = max(levels[g.category], g.level)
			}
		}
	}
	if !seen {
		return nil, errs.Invalid("access token must have a scope", "Scopes")
	}
	return normalise(publicOnly, levels), nil
}

// normalise builds the canonical list for the given grants.
func normalise(publicOnly bool, levels map[Category]Level) Scopes {
	out := Scopes{}
	if publicOnly {
		out = append(out, ScopePublicOnly)
	}
	all := true
	for _, c := range AllCategories() {
		all = all && levels[c] == LevelWrite
	}
	if all {
		return append(out, ScopeAll)
	}
	for _, c := range AllCategories() {
		if levels[c] != LevelNone {
			out = append(out, ScopeFor(c, levels[c]))
		}
	}
	return out
}

// Strings returns the scopes as plain strings, as the API shows them.
func (s Scopes) Strings() []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = string(v)
	}
	return out
}

// String joins the scopes with commas, the form Gitea stores and quotes in
// its scope errors.
func (s Scopes) String() string { return strings.Join(s.Strings(), ",") }

// PublicOnly reports whether the token is limited to public resources.
func (s Scopes) PublicOnly() bool {
	for _, v := range s {
		if strings.TrimSpace(string(v)) == string(ScopePublicOnly) {
			return true
		}
	}
	return false
}

// Level returns the highest level the scopes grant on c. It does not need a
// normalised list; unknown entries grant nothing.
func (s Scopes) Level(c Category) Level {
	best := LevelNone
	for _, v := range s {
		g, ok := parseScope(Scope(strings.TrimSpace(string(v))))
		if !ok {
			continue
		}
		if g.all || g.category == c {
			best = max(best, g.level)
		}
	}
	return best
}

// Require checks that the scopes allow a request on a route of the given
// categories: write for POST, PUT, PATCH and DELETE, read otherwise. No
// category means no requirement.
//
// Gitea's message says "at least one of", but its check (HasScope in
// models/auth/access_token_scope.go, called by tokenRequiresScopes in
// routers/api/v1/api.go) demands every listed scope: GET /user/orgs, which
// lists user and organization, fails with read:user alone. Require does the
// same. The message quotes the required scopes in the order given, separated
// by spaces inside brackets (Go's %v of a slice, as Gitea prints them), and
// the token's scopes comma-joined:
//
//	token does not have at least one of required scope(s), required=[read:user], token scope=write:repository
func (s Scopes) Require(write bool, cats ...Category) error {
	need := LevelRead
	if write {
		need = LevelWrite
	}
	ok := true
	required := make([]string, len(cats))
	for i, c := range cats {
		required[i] = string(ScopeFor(c, need))
		if s.Level(c) < need {
			ok = false
		}
	}
	if ok {
		return nil
	}
	return errs.Forbidden(fmt.Sprintf(
		"token does not have at least one of required scope(s), required=[%s], token scope=%s",
		strings.Join(required, " "), s.String()))
}

// PublicOnlyError returns the 403 a public-only token gets when a route of
// category c touches a non-public resource (spec section 5 rule 5; Gitea's
// checkTokenPublicOnly in routers/api/v1/api.go). Whether the resource is
// non-public is the caller's to decide: a private repository for repository,
// issue and notification; a non-public organization for organization; a
// non-public user for user and activitypub; a package whose owner is not
// public for package. It returns nil for categories without such a rule
// (admin, misc).
func PublicOnlyError(c Category) error {
	var what string
	switch c {
	case CategoryRepository:
		what = "repos"
	case CategoryIssue:
		what = "issues"
	case CategoryOrganization:
		what = "orgs"
	case CategoryUser:
		what = "users"
	case CategoryActivityPub:
		what = "activitypub"
	case CategoryNotification:
		what = "notifications"
	case CategoryPackage:
		what = "packages"
	default:
		return nil
	}
	return errs.Forbidden("token scope is limited to public " + what)
}
