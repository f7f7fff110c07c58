package user

import (
	"github.com/depothq/depot/domain/errs"
)

// Badge is a site-defined badge an administrator gives users (Gitea's
// user.Badge). Badges are defined with the admin CLI: Gitea has no API
// that creates one.
type Badge struct {
	ID          int64
	Slug        string
	Description string
	ImageURL    string
}

// MaxBadgeSlugLength bounds a slug, as Gitea's column does.
const MaxBadgeSlugLength = 255

// ValidateBadgeSlug accepts a slug of ASCII letters, digits, '-', '_' and
// '.', starting with a letter or digit, at most MaxBadgeSlugLength long.
func ValidateBadgeSlug(slug string) error {
	if slug == "" || len(slug) > MaxBadgeSlugLength {
		return errs.Invalid("invalid badge slug", "Slug")
	}
	for i := 0; i < len(slug); i++ {
		c := slug[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case (c == '-' || c == '_' || c == '.') && i > 0:
		default:
			return errs.Invalid("invalid badge slug", "Slug")
		}
	}
	return nil
}
