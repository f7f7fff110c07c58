package repository

import (
	"net/url"
	"regexp"
	"sort"
	"strings"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/permission"
)

// MaxNameLength is the longest repository name accepted (Gitea's).
const MaxNameLength = 100

// MaxDescriptionLength is the longest description accepted (Gitea's).
const MaxDescriptionLength = 2048

// MaxWebsiteLength is the longest website accepted (Gitea's).
const MaxWebsiteLength = 1024

var validName = regexp.MustCompile(`^[-.\w]+$`)

// reservedNames collide with routes or Git paths.
var reservedNames = map[string]bool{".": true, "..": true, "-": true, "api": true, "assets": true}

// reservedSuffixes are name endings Gitea keeps for its own paths.
var reservedSuffixes = []string{".git", ".wiki", ".rss", ".atom"}

// ValidateName checks a repository name: letters, digits, '-', '_' and '.',
// at most MaxNameLength long, not a reserved name or pattern.
func ValidateName(field, name string) error {
	if name == "" {
		return errs.Invalid("Required", field)
	}
	if len(name) > MaxNameLength {
		return errs.Invalid("MaxSize", field)
	}
	if !validName.MatchString(name) {
		return errs.Invalid("should contain only alphanumeric, dash ('-'), underscore ('_') and dot ('.') characters", field)
	}
	lower := strings.ToLower(name)
	if reservedNames[lower] {
		return errs.Invalid("name is reserved", field)
	}
	for _, s := range reservedSuffixes {
		if strings.HasSuffix(lower, s) {
			return errs.Invalid("name pattern is not allowed", field)
		}
	}
	return nil
}

// ValidateDescription checks the description's length.
func ValidateDescription(field, d string) error {
	if len([]rune(d)) > MaxDescriptionLength {
		return errs.Invalid("MaxSize", field)
	}
	return nil
}

// ValidateURL checks an optional http(s) URL such as a website or tracker.
func ValidateURL(field, s string) error {
	if s == "" {
		return nil
	}
	if len(s) > MaxWebsiteLength {
		return errs.Invalid("MaxSize", field)
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return errs.Invalid("Url", field)
	}
	return nil
}

// ValidateBranchName checks a branch name the way git check-ref-format does
// (ValidRefName), for the names a user may set as default branch: at most
// 255 bytes, and neither "@" nor an option-like name, which git branch
// refuses.
func ValidateBranchName(field, b string) error {
	if b == "" {
		return errs.Invalid("Required", field)
	}
	if len(b) > 255 || strings.HasPrefix(b, "-") || b == "@" || !ValidRefName("refs/heads/"+b) {
		return errs.Invalid("GitRefName", field)
	}
	return nil
}

// ValidateTrackerStyle checks an external tracker's issue style.
func ValidateTrackerStyle(field string, s TrackerStyle) error {
	switch s {
	case TrackerNumeric, TrackerAlphanumeric, TrackerRegexp:
		return nil
	}
	return errs.Invalid("must be one of numeric, alphanumeric, regexp", field)
}

// ParseCollaboratorMode reads a collaborator permission as the API spells it:
// read, write or admin; empty means write (the spec's default).
func ParseCollaboratorMode(field, s string) (permission.AccessMode, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "":
		return permission.ModeWrite, nil
	case "read":
		return permission.ModeRead, nil
	case "write":
		return permission.ModeWrite, nil
	case "admin":
		return permission.ModeAdmin, nil
	}
	return permission.ModeNone, errs.Invalid("must be one of read, write, admin", field)
}

// MaxTopics is how many topics a repository may have (Gitea's).
const MaxTopics = 25

// MaxTopicLength is the longest topic accepted (Gitea's).
const MaxTopicLength = 35

var validTopic = regexp.MustCompile(`^[a-z0-9][-.a-z0-9]*$`)

// NormalizeTopic trims and lower-cases a topic as Gitea stores it.
func NormalizeTopic(t string) string { return strings.ToLower(strings.TrimSpace(t)) }

// ValidTopic reports whether a normalised topic is acceptable: starts with a
// letter or digit, then letters, digits, '-' and '.', at most MaxTopicLength.
func ValidTopic(t string) bool { return len(t) <= MaxTopicLength && validTopic.MatchString(t) }

// TopicsError is a 422 about topics, which Gitea answers with its own body:
// {"invalidTopics": [...], "message": ...} for a list, {"invalidTopics":
// "<topic>", ...} for the one topic of a path, and no list when the count is
// the problem.
type TopicsError struct {
	// Invalid are the offending topics; nil when the count is the problem.
	Invalid []string
	// Single is set for the one topic named in a path.
	Single bool
	// Msg is Gitea's message.
	Msg string
}

// Gitea's topic messages.
const (
	msgTopicsInvalid = "Topic names are invalid"
	msgTopicInvalid  = "Topic name is invalid"
	msgTooManyTopics = "Exceeding maximum number of topics per repo"
	msgTopicLimit    = "Exceeding maximum allowed topics per repo."
)

// InvalidTopic is the error of one invalid topic named in a path.
func InvalidTopic(t string) error {
	return &TopicsError{Invalid: []string{t}, Single: true, Msg: msgTopicInvalid}
}

// TopicLimitError is the error of adding a topic to a repository that has MaxTopics.
func TopicLimitError() error { return &TopicsError{Single: true, Msg: msgTopicLimit} }

// Error is Gitea's message.
func (e *TopicsError) Error() string { return e.Msg }

// Unwrap makes the error a validation failure.
func (e *TopicsError) Unwrap() error { return errs.ErrInvalid }

// NormalizeTopics normalises, de-duplicates and sorts topics, dropping empty
// ones; it fails with *TopicsError when more than MaxTopics are given or some
// are invalid.
func NormalizeTopics(in []string) ([]string, error) {
	if len(in) > MaxTopics {
		// Gitea counts what was sent, before anything else.
		return nil, &TopicsError{Msg: msgTooManyTopics}
	}
	seen := map[string]bool{}
	var out, bad []string
	for _, t := range in {
		n := NormalizeTopic(t)
		if n == "" || seen[n] {
			continue
		}
		seen[n] = true
		if !ValidTopic(n) {
			bad = append(bad, t)
			continue
		}
		out = append(out, n)
	}
	if len(bad) > 0 {
		return nil, &TopicsError{Invalid: bad, Msg: msgTopicsInvalid}
	}
	sort.Strings(out)
	return out, nil
}
