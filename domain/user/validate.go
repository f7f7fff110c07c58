package user

import (
	"net/mail"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/depothq/depot/domain/errs"
)

// MaxNameLength is the longest user or organisation name accepted.
const MaxNameLength = 40

var validName = regexp.MustCompile(`^[A-Za-z0-9]+(?:[-_.][A-Za-z0-9]+)*$`)

// reservedNames cannot be taken by an account because they collide with routes.
var reservedNames = map[string]bool{
	".": true, "..": true, ".well-known": true, "api": true, "assets": true,
	"attachments": true, "avatar": true, "avatars": true, "captcha": true, "commits": true,
	"debug": true, "error": true, "explore": true, "favicon.ico": true, "ghost": true,
	"issues": true, "login": true, "manifest.json": true, "metrics": true, "milestones": true,
	"new": true, "notifications": true, "org": true, "pulls": true, "raw": true, "repo": true,
	"repo-avatars": true, "robots.txt": true, "search": true, "serviceworker.js": true,
	"ssh_info": true, "swagger.v1.json": true, "user": true, "v2": true, "actions-user": true,
}

var reservedSuffixes = []string{".keys", ".gpg", ".rss", ".atom", ".png", ".git", ".wiki"}

// ValidateName checks a user or organisation name: ASCII letters and digits,
// single dashes, underscores or dots between them, at most MaxNameLength long,
// and not a reserved word. field names the input field for the 422 message.
func ValidateName(field, name string) error {
	if name == "" {
		return errs.Invalid("Required", field)
	}
	if len(name) > MaxNameLength {
		return errs.Invalid("MaxSize", field)
	}
	if !validName.MatchString(name) {
		return errs.Invalid("invalid username: only letters, digits, '-', '_' and '.' are allowed, and it must begin and end with a letter or digit", field)
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

// ValidateEmail checks that addr is a plain e-mail address (no display name).
func ValidateEmail(field, addr string) error {
	if addr == "" {
		return errs.Invalid("Required", field)
	}
	if len(addr) > 254 || !utf8.ValidString(addr) {
		return errs.Invalid("invalid email address", field)
	}
	parsed, err := mail.ParseAddress(addr)
	if err != nil || parsed.Address != addr || parsed.Name != "" || strings.ContainsAny(addr, " \t\r\n<>") {
		return errs.Invalid("invalid email address", field)
	}
	return nil
}

// PasswordPolicy is the site's rule for passwords set through the API.
type PasswordPolicy struct {
	MinLength int
}

// DefaultPasswordPolicy asks for eight characters, as Gitea does.
var DefaultPasswordPolicy = PasswordPolicy{MinLength: 8}

// Check validates pw against the policy.
func (p PasswordPolicy) Check(field, pw string) error {
	if pw == "" {
		return errs.Invalid("Required", field)
	}
	if utf8.RuneCountInString(pw) < p.MinLength {
		return errs.Invalid("password is too short", field)
	}
	if len(pw) > 255 {
		return errs.Invalid("password is too long", field)
	}
	return nil
}

// ValidateVisibility checks a visibility string from input.
func ValidateVisibility(field string, v Visibility) error {
	if !v.Valid() {
		return errs.Invalid("must be one of public, limited, private", field)
	}
	return nil
}
