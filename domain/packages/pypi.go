package packages

import (
	"regexp"
	"strings"

	"github.com/depothq/depot/domain/errs"
)

// TypePypi is the Python package index's type.
const TypePypi Type = "pypi"

// pypiName is a distribution name as PEP 508 allows it: letters and
// digits, with ".", "_" and "-" inside.
var pypiName = regexp.MustCompile(`\A(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9._-]*[a-zA-Z0-9])\z`)

// pypiVersion is a PEP 440 version as its appendix B reads one (Gitea's
// check): epoch, release, pre-, post- and dev-release, local label.
var pypiVersion = regexp.MustCompile(`(?i)\Av?(?:[0-9]+!)?[0-9]+(?:\.[0-9]+)*` +
	`(?:[-_.]?(?:a|b|c|rc|alpha|beta|pre|preview)[-_.]?[0-9]*)?` +
	`(?:-[0-9]+|[-_.]?(?:post|rev|r)[-_.]?[0-9]*)?` +
	`(?:[-_.]?dev[-_.]?[0-9]*)?` +
	`(?:\+[a-z0-9]+(?:[-_.][a-z0-9]+)*)?\z`)

// NormalizePypiName is a distribution name as PEP 503 compares it: lower
// case, each run of ".", "_" and "-" one "-". The index stores and finds
// packages by it.
func NormalizePypiName(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	sep := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '.' || c == '_' || c == '-' {
			sep = true
			continue
		}
		if sep {
			b.WriteByte('-')
			sep = false
		}
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
	if sep {
		b.WriteByte('-')
	}
	return b.String()
}

// CheckPypi validates an upload's name and version and returns the name
// normalised: errs.BadRequest as Gitea answers (400 "invalid name or
// version").
func CheckPypi(name, version string) (string, error) {
	if len(name) > maxNameLen || len(version) > maxNameLen || !pypiName.MatchString(name) || !pypiVersion.MatchString(version) {
		return "", errs.BadRequest("invalid name or version")
	}
	return NormalizePypiName(name), nil
}

// PypiMetadata is what an upload says of its version, kept with the
// version as Gitea keeps it.
type PypiMetadata struct {
	Author          string `json:"author,omitempty"`
	Description     string `json:"description,omitempty"`
	LongDescription string `json:"long_description,omitempty"`
	Summary         string `json:"summary,omitempty"`
	ProjectURL      string `json:"project_url,omitempty"`
	License         string `json:"license,omitempty"`
	RequiresPython  string `json:"requires_python,omitempty"`
	Keywords        string `json:"keywords,omitempty"`
}
