package repository

import "strings"

// MaxRefNameLength is the longest full reference name (refs/heads/…
// included) Depot looks up or writes, in bytes. Git sets no bound, but
// libgit2 normalises a name into a buffer of 1,024 bytes (its
// GIT_REFNAME_MAX, the terminating NUL included) and fails on a longer one
// instead of saying it does not exist.
const MaxRefNameLength = 1023

// ValidRefName reports whether full, a full reference name such as
// refs/heads/main, is one Git accepts (git check-ref-format's rules) and
// libgit2 can hold. A name that is not cannot exist in a repository, so a
// lookup of it is answered as a missing reference without asking Git.
func ValidRefName(full string) bool {
	if full == "" || len(full) > MaxRefNameLength || full == "@" ||
		strings.HasPrefix(full, "/") || strings.HasSuffix(full, "/") || strings.HasSuffix(full, ".") ||
		strings.Contains(full, "..") || strings.Contains(full, "//") || strings.Contains(full, "@{") {
		return false
	}
	for i := 0; i < len(full); i++ {
		if c := full[i]; c < 0x20 || c == 0x7f || strings.IndexByte(" ~^:?*[\\", c) >= 0 {
			return false
		}
	}
	for part := range strings.SplitSeq(full, "/") {
		if strings.HasPrefix(part, ".") || strings.HasSuffix(part, ".lock") {
			return false
		}
	}
	return true
}
