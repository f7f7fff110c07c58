package packages

import (
	"strings"
	"unicode"

	"github.com/depothq/depot/domain/errs"
)

// maxNameLen bounds names, versions and file names: longer ones are
// refused before they reach the store (Gitea's columns are 255 wide).
const maxNameLen = 255

// wordRune reports whether r is one of regexp's \w: an ASCII letter, digit
// or underscore.
func wordRune(r rune) bool {
	return r < unicode.MaxASCII && (r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
}

// ValidGenericName reports whether s is a generic package name: one or more
// of letters, digits and "-_+." (Gitea's `\A[-_+.\w]+\z`), but not "."
// or "..", which no URL can address.
func ValidGenericName(s string) bool {
	if s == "" || len(s) > maxNameLen || s == "." || s == ".." {
		return false
	}
	for _, r := range s {
		if !wordRune(r) && !strings.ContainsRune("-_+.", r) {
			return false
		}
	}
	return true
}

// ValidGenericFilename reports whether s is a generic package file name:
// letters, digits, spaces and "-_+=:;.()[]{}~!@#$%^&", without leading or
// trailing spaces, and not "." or "..".
func ValidGenericFilename(s string) bool {
	if s == "" || len(s) > maxNameLen || s == "." || s == ".." || strings.TrimSpace(s) != s {
		return false
	}
	for _, r := range s {
		if !wordRune(r) && !strings.ContainsRune("-_+=:;.()[]{}~!@#$%^& ", r) {
			return false
		}
	}
	return true
}

// ValidVersion reports whether s can be a version: not empty, no
// surrounding white space, not "." or "..", no control characters and no
// slash (Gitea refuses versions with surrounding spaces; the others could
// not round-trip through a path).
func ValidVersion(s string) bool {
	if s == "" || len(s) > maxNameLen || strings.TrimSpace(s) != s || s == "." || s == ".." {
		return false
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f || r == '/' || r == '\\' {
			return false
		}
	}
	return true
}

// CheckGeneric validates the name, version and file name of a generic
// upload: errs.BadRequest as Gitea answers (400 "invalid package name,
// version or filename").
func CheckGeneric(name, version, filename string) error {
	if !ValidGenericName(name) || !ValidVersion(version) || (filename != "" && !ValidGenericFilename(filename)) {
		return errs.BadRequest("invalid package name, version or filename")
	}
	return nil
}
