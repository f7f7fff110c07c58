// Package protection holds the rules that guard a repository's refs: which
// tags and branches may be created, moved or deleted, and by whom. It
// compiles the rules' name patterns and decides, from the rules and the facts
// about who is writing, whether a write may proceed; it does no I/O.
package protection

import (
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/gobwas/glob"

	"github.com/depothq/depot/domain/errs"
)

// TagRule is one tag protection rule of a repository: a tag whose name
// matches NamePattern may be created, moved or deleted only by a user the
// rule allows by id or by a member of a team it allows.
type TagRule struct {
	ID     int64
	RepoID int64
	// NamePattern is a glob ("v*", "release-{1,2}.*") or a regular
	// expression between slashes ("/^v[0-9]+$/"), as Gitea reads it.
	NamePattern string
	// AllowlistUserIDs and AllowlistTeamIDs are who may change matching tags.
	AllowlistUserIDs []int64
	AllowlistTeamIDs []int64
	Created, Updated time.Time
}

// MaxTagPatternLength bounds a name pattern, the width of Gitea's column.
const MaxTagPatternLength = 255

// fieldNamePattern is the API field a pattern comes from, named by 422s.
const fieldNamePattern = "name_pattern"

// TagPattern is a compiled name pattern: a regular expression when the
// pattern was written between slashes, else a glob in which "*" crosses "/"
// (Gitea compiles tag globs without separators).
type TagPattern struct {
	re *regexp.Regexp
	g  *glob.Pattern
}

// ParseTagPattern compiles pattern as Gitea's EnsureCompiledPattern reads it:
// a pattern of at least two characters that starts and ends with "/" is the
// regular expression between them (unanchored, Go's syntax); anything else
// is a glob. An invalid or over-long pattern is a 422 naming name_pattern.
// The caller trims the pattern first; ParseTagPattern takes it as given.
func ParseTagPattern(pattern string) (TagPattern, error) {
	if pattern == "" {
		return TagPattern{}, errs.Invalid("Required", fieldNamePattern)
	}
	if len(pattern) > MaxTagPatternLength {
		return TagPattern{}, errs.Invalid("MaxSize", fieldNamePattern)
	}
	if len(pattern) >= 2 && strings.HasPrefix(pattern, "/") && strings.HasSuffix(pattern, "/") {
		re, err := regexp.Compile(pattern[1 : len(pattern)-1])
		if err != nil {
			return TagPattern{}, errs.Invalid("invalid regular expression: "+err.Error(), fieldNamePattern)
		}
		return TagPattern{re: re}, nil
	}
	g, err := glob.Compile(pattern)
	if err != nil {
		return TagPattern{}, errs.Invalid("invalid glob pattern: "+err.Error(), fieldNamePattern)
	}
	return TagPattern{g: g}, nil
}

// IsRegexp reports whether the pattern is a regular expression.
func (p TagPattern) IsRegexp() bool { return p.re != nil }

// Match reports whether the tag name matches. The zero TagPattern matches nothing.
func (p TagPattern) Match(tag string) bool {
	switch {
	case p.re != nil:
		return p.re.MatchString(tag)
	case p.g != nil:
		return p.g.Match(tag)
	}
	return false
}

// TagChanger is who creates, moves or deletes a tag: the account and the
// teams of the repository owner's organisation it belongs to.
type TagChanger struct {
	UserID  int64
	TeamIDs []int64
}

// TagRules are a repository's rules compiled for deciding; the zero value
// holds none and protects nothing.
type TagRules struct {
	rules    []TagRule
	patterns []TagPattern
}

// CompileTagRules compiles every rule's pattern. A stored pattern that no
// longer compiles is an error rather than a rule skipped: skipping it would
// open the tags it was meant to guard.
func CompileTagRules(list []*TagRule) (TagRules, error) {
	out := TagRules{rules: make([]TagRule, 0, len(list)), patterns: make([]TagPattern, 0, len(list))}
	for _, r := range list {
		p, err := ParseTagPattern(r.NamePattern)
		if err != nil {
			return TagRules{}, err
		}
		out.rules = append(out.rules, *r)
		out.patterns = append(out.patterns, p)
	}
	return out, nil
}

// Len is the number of rules.
func (rs TagRules) Len() int { return len(rs.rules) }

// Protected reports whether some rule matches the tag.
func (rs TagRules) Protected(tag string) bool {
	for i := range rs.rules {
		if rs.patterns[i].Match(tag) {
			return true
		}
	}
	return false
}

// NeedsTeams reports whether deciding for userID on these tags depends on
// the teams the user is in: some tag is protected by a rule that allows
// teams, and no rule matching it allows the user by id. Callers look the
// user's teams up only then.
func (rs TagRules) NeedsTeams(userID int64, tags ...string) bool {
	for _, tag := range tags {
		byID, teams := false, false
		for i, r := range rs.rules {
			if !rs.patterns[i].Match(tag) {
				continue
			}
			if slices.Contains(r.AllowlistUserIDs, userID) {
				byID = true
				break
			}
			teams = teams || len(r.AllowlistTeamIDs) > 0
		}
		if !byID && teams {
			return true
		}
	}
	return false
}

// MayChange decides, as Gitea's IsUserAllowedToControlTag does, whether who
// may create, move or delete the tag: a tag no rule matches is free; a
// protected tag may be changed by whoever one of the rules matching it
// allows, by id or through a team. Site and repository administrators get
// no exemption.
func (rs TagRules) MayChange(tag string, who TagChanger) bool {
	protected := false
	for i, r := range rs.rules {
		if !rs.patterns[i].Match(tag) {
			continue
		}
		protected = true
		if who.UserID != 0 && slices.Contains(r.AllowlistUserIDs, who.UserID) {
			return true
		}
		for _, t := range who.TeamIDs {
			if slices.Contains(r.AllowlistTeamIDs, t) {
				return true
			}
		}
	}
	return !protected
}

// FirstRefused returns the first of the tags who may not change, and
// whether there is one.
func (rs TagRules) FirstRefused(who TagChanger, tags ...string) (string, bool) {
	for _, tag := range tags {
		if !rs.MayChange(tag, who) {
			return tag, true
		}
	}
	return "", false
}

// TagProtectedMessage is the refusal a push of a protected tag gets, in
// Gitea's words.
func TagProtectedMessage(tag string) string { return "Tag " + tag + " is protected" }
