package packages

import (
	"regexp"
	"strings"
	"time"

	"github.com/depothq/depot/domain/errs"
)

// CleanupRule is one owner's rule for removing old versions of its packages
// of one type, as Gitea's package cleanup rules (settings → packages) hold
// it: the newest KeepCount versions of each package stay, and of the
// others a version goes when it is older than RemoveDays, matches
// RemovePattern (when one is set) and does not match KeepPattern.
type CleanupRule struct {
	ID      int64
	OwnerID int64
	Type    Type
	Enabled bool
	// KeepCount is how many of the newest versions of each package always
	// stay; 0 keeps none by count.
	KeepCount int
	// KeepPattern is a regular expression; versions it matches stay.
	KeepPattern string
	// RemoveDays: only versions older than that many days go; 0 any age.
	RemoveDays int
	// RemovePattern is a regular expression; when set, only versions it
	// matches go.
	RemovePattern string
	// MatchFullName matches the patterns against "name/version" instead of
	// the version alone.
	MatchFullName bool
	CreatedAt     time.Time
	UpdatedAt     time.Time
}

// Limits of a rule's numbers and patterns.
const (
	maxCleanupCount   = 1 << 20
	maxCleanupDays    = 100 * 365
	maxCleanupPattern = 512
)

// compilePattern compiles a rule's pattern as Gitea does: matched against
// the whole text, ignoring case. The pattern must compile alone too, so
// that one such as "a)|(b" cannot break out of the anchoring group. An
// empty pattern is nil.
func compilePattern(p string) (*regexp.Regexp, error) {
	if p == "" {
		return nil, nil
	}
	if _, err := regexp.Compile(p); err != nil {
		return nil, err
	}
	return regexp.Compile(`(?i)\A(?:` + p + `)\z`)
}

// Validate checks what a caller may set: a type Gitea knows, counts that
// are not negative, patterns that compile. Errors name the JSON field.
func (r *CleanupRule) Validate() error {
	if _, ok := ParseType(string(r.Type)); !ok {
		return errs.Invalid("unknown package type", "type")
	}
	if r.KeepCount < 0 || r.KeepCount > maxCleanupCount {
		return errs.Invalid("must be between 0 and 1048576", "keep_count")
	}
	if r.RemoveDays < 0 || r.RemoveDays > maxCleanupDays {
		return errs.Invalid("must be between 0 and 36500", "remove_days")
	}
	for _, p := range []struct{ field, value string }{
		{"keep_pattern", r.KeepPattern}, {"remove_pattern", r.RemovePattern},
	} {
		if len(p.value) > maxCleanupPattern {
			return errs.Invalid("must be at most 512 characters", p.field)
		}
		if _, err := compilePattern(p.value); err != nil {
			return errs.Invalid("invalid regular expression: "+err.Error(), p.field)
		}
	}
	return nil
}

// CleanupCandidate is one version of a package a rule looks at.
type CleanupCandidate struct {
	Version Version
	// Protected versions never go: a container image's "latest" tag and its
	// untagged manifests (which an index may list).
	Protected bool
}

// CleanupPolicy is a rule compiled for selecting versions.
type CleanupPolicy struct {
	rule          CleanupRule
	keep, remove  *regexp.Regexp
	removedBefore time.Time
}

// Policy compiles the rule for now; a pattern that does not compile is the
// Validate error.
func (r CleanupRule) Policy(now time.Time) (*CleanupPolicy, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	keep, _ := compilePattern(r.KeepPattern)
	remove, _ := compilePattern(r.RemovePattern)
	p := &CleanupPolicy{rule: r, keep: keep, remove: remove}
	if r.RemoveDays > 0 {
		p.removedBefore = now.AddDate(0, 0, -r.RemoveDays)
	}
	return p, nil
}

// Select returns the versions of the package named name that the rule
// removes, given all its versions newest first.
func (p *CleanupPolicy) Select(name string, newestFirst []CleanupCandidate) []Version {
	var out []Version
	for i, c := range newestFirst {
		if i < p.rule.KeepCount || c.Protected {
			continue
		}
		subject := strings.ToLower(c.Version.Version)
		if p.rule.MatchFullName {
			subject = strings.ToLower(name) + "/" + subject
		}
		if p.keep != nil && p.keep.MatchString(subject) {
			continue
		}
		if !p.removedBefore.IsZero() && !c.Version.CreatedAt.Before(p.removedBefore) {
			continue
		}
		if p.remove != nil && !p.remove.MatchString(subject) {
			continue
		}
		out = append(out, c.Version)
	}
	return out
}

// ContainerProtected reports whether a container image's version stays
// whatever a rule says: the "latest" tag, and a manifest pushed by digest
// only, which an index of the image may list.
func ContainerProtected(version string) bool {
	v := strings.ToLower(version)
	return v == "latest" || strings.HasPrefix(v, "sha256:")
}
