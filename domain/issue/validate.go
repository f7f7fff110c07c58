package issue

import (
	"strings"
	"unicode/utf8"

	"github.com/depothq/depot/domain/errs"
)

// MaxTitleLength is the longest title, in characters, as Gitea's column allows.
const MaxTitleLength = 255

// NormaliseTitle trims a title and checks it: required, at most
// MaxTitleLength characters. The field name is Gitea's binding name.
func NormaliseTitle(title string) (string, error) {
	t := strings.TrimSpace(title)
	if t == "" {
		return "", errs.Invalid("Required", "Title")
	}
	if utf8.RuneCountInString(t) > MaxTitleLength {
		return "", errs.Invalid("MaxSize", "Title")
	}
	return t, nil
}

// AssigneeNames merges the deprecated single assignee with the list, as
// Gitea does: the single one is added unless already listed, and names are
// de-duplicated case-insensitively, keeping the first spelling. Empty names
// are dropped.
func AssigneeNames(one string, many []string) []string {
	seen := map[string]bool{}
	var out []string
	add := func(n string) {
		n = strings.TrimSpace(n)
		if n == "" || seen[strings.ToLower(n)] {
			return
		}
		seen[strings.ToLower(n)] = true
		out = append(out, n)
	}
	for _, n := range many {
		add(n)
	}
	add(one)
	return out
}

// DiffIDs returns the ids of next missing from prev (added) and those of
// prev missing from next (removed), each in the order of its list.
func DiffIDs(prev, next []int64) (added, removed []int64) {
	in := func(list []int64, id int64) bool {
		for _, x := range list {
			if x == id {
				return true
			}
		}
		return false
	}
	for _, id := range next {
		if !in(prev, id) && !in(added, id) {
			added = append(added, id)
		}
	}
	for _, id := range prev {
		if !in(next, id) {
			removed = append(removed, id)
		}
	}
	return added, removed
}
