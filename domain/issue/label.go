package issue

import (
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/depothq/depot/domain/errs"
)

// Limits of a label's texts. Gitea's API sets none, but its columns are
// 255 characters wide, so longer texts could never be stored there either.
const (
	MaxLabelName        = 255
	MaxLabelDescription = 255
)

// NormalizeColor reads a label colour as Gitea does: three or six hex
// digits, with or without a leading '#', any case, surrounding spaces
// ignored. It answers six lower-case digits without '#' ("#ABC" is
// "aabbcc"), or a 422 naming field.
func NormalizeColor(field, color string) (string, error) {
	c := strings.ToLower(strings.TrimSpace(color))
	c = strings.TrimPrefix(c, "#")
	if len(c) != 3 && len(c) != 6 {
		return "", errs.Invalid("must be a hex colour of 3 or 6 digits, like #00aabb", field)
	}
	for i := 0; i < len(c); i++ {
		if !isHex(c[i]) {
			return "", errs.Invalid("must be a hex colour of 3 or 6 digits, like #00aabb", field)
		}
	}
	if len(c) == 3 {
		c = string([]byte{c[0], c[0], c[1], c[1], c[2], c[2]})
	}
	return c, nil
}

func isHex(b byte) bool { return b >= '0' && b <= '9' || b >= 'a' && b <= 'f' }

// LabelInput is what a client sets on a label; nil fields are kept on an
// edit. On a creation Name and Color are required.
type LabelInput struct {
	Name        *string
	Color       *string
	Description *string
	Exclusive   *bool
	IsArchived  *bool
}

// NewLabel validates in and returns the label to insert (RepoID or OrgID
// still to set), created at now.
func NewLabel(in LabelInput, now time.Time) (*Label, error) {
	if in.Name == nil {
		return nil, errs.Invalid("is required", "Name")
	}
	if in.Color == nil {
		return nil, errs.Invalid("is required", "Color")
	}
	l := &Label{CreatedAt: now, UpdatedAt: now}
	if err := l.Apply(in, now); err != nil {
		return nil, err
	}
	return l, nil
}

// Apply validates in and writes its set fields on l at now. Archiving
// stamps ArchivedAt only when the label was not archived yet, as Gitea
// keeps the first archiving date.
func (l *Label) Apply(in LabelInput, now time.Time) error {
	next := *l
	if in.Name != nil {
		name := strings.TrimSpace(*in.Name)
		switch {
		case name == "":
			return errs.Invalid("must not be empty", "Name")
		case utf8.RuneCountInString(name) > MaxLabelName:
			return errs.Invalid("must be at most 255 characters", "Name")
		}
		next.Name = name
	}
	if in.Color != nil {
		c, err := NormalizeColor("Color", *in.Color)
		if err != nil {
			return err
		}
		next.Color = c
	}
	if in.Description != nil {
		d := strings.TrimSpace(*in.Description)
		if utf8.RuneCountInString(d) > MaxLabelDescription {
			return errs.Invalid("must be at most 255 characters", "Description")
		}
		next.Description = d
	}
	if in.Exclusive != nil {
		next.Exclusive = *in.Exclusive
	}
	if in.IsArchived != nil {
		switch {
		case !*in.IsArchived:
			next.ArchivedAt = nil
		case next.ArchivedAt == nil:
			at := now
			next.ArchivedAt = &at
		}
	}
	next.UpdatedAt = now
	*l = next
	return nil
}

// ExclusiveScope is the scope of an exclusive label: its name up to the
// last '/' ("kind/bug" is in scope "kind"). A label that is not exclusive,
// or whose name has no inner '/', has none ("").
func (l *Label) ExclusiveScope() string {
	if !l.Exclusive {
		return ""
	}
	i := strings.LastIndex(l.Name, "/")
	if i <= 0 || i == len(l.Name)-1 {
		return ""
	}
	return l.Name[:i]
}

// UsableIn reports whether l may be put on an issue of the repository
// repoID owned by ownerID: the repository's labels and, for an
// organisation's repository, the organisation's.
func (l *Label) UsableIn(repoID, ownerID int64) bool {
	return (l.RepoID != 0 && l.RepoID == repoID) || (l.OrgID != 0 && l.OrgID == ownerID)
}

// LabelChange is what to add to and remove from an issue's labels.
type LabelChange struct {
	Add, Remove []*Label
}

// Empty reports whether nothing changes.
func (c LabelChange) Empty() bool { return len(c.Add) == 0 && len(c.Remove) == 0 }

// AddLabels plans adding labels to an issue that carries current. Labels
// already there are skipped; each added exclusive label takes the issue's
// other labels of its scope off (a later one in labels wins over an earlier
// one of the same scope, as in Gitea).
func AddLabels(current, labels []*Label) LabelChange {
	have := map[int64]*Label{}
	for _, l := range current {
		have[l.ID] = l
	}
	added := map[int64]bool{}
	var ch LabelChange
	removed := map[int64]bool{}
	for _, l := range dedupeExclusive(labels) {
		if have[l.ID] != nil || added[l.ID] {
			continue
		}
		if scope := l.ExclusiveScope(); scope != "" {
			for id, o := range have {
				if id != l.ID && !removed[id] && o.ExclusiveScope() == scope {
					removed[id] = true
					ch.Remove = append(ch.Remove, o)
				}
			}
		}
		added[l.ID] = true
		ch.Add = append(ch.Add, l)
	}
	sortByName(ch.Add)
	sortByName(ch.Remove)
	return ch
}

// ReplaceLabels plans replacing an issue's labels current with labels: of
// several exclusive labels of one scope only the last is kept.
func ReplaceLabels(current, labels []*Label) LabelChange {
	want := map[int64]bool{}
	kept := dedupeExclusive(labels)
	for _, l := range kept {
		want[l.ID] = true
	}
	have := map[int64]bool{}
	var ch LabelChange
	for _, l := range current {
		have[l.ID] = true
		if !want[l.ID] {
			ch.Remove = append(ch.Remove, l)
		}
	}
	for _, l := range kept {
		if !have[l.ID] {
			ch.Add = append(ch.Add, l)
			have[l.ID] = true
		}
	}
	sortByName(ch.Add)
	sortByName(ch.Remove)
	return ch
}

// dedupeExclusive keeps, of several exclusive labels of one scope, only the
// last, and drops repeated labels.
func dedupeExclusive(labels []*Label) []*Label {
	lastOfScope := map[string]int{}
	for i, l := range labels {
		if s := l.ExclusiveScope(); s != "" {
			lastOfScope[s] = i
		}
	}
	seen := map[int64]bool{}
	out := make([]*Label, 0, len(labels))
	for i, l := range labels {
		if s := l.ExclusiveScope(); s != "" && lastOfScope[s] != i {
			continue
		}
		if seen[l.ID] {
			continue
		}
		seen[l.ID] = true
		out = append(out, l)
	}
	return out
}

func sortByName(ls []*Label) {
	sort.SliceStable(ls, func(i, j int) bool {
		if ls[i].Name != ls[j].Name {
			return ls[i].Name < ls[j].Name
		}
		return ls[i].ID < ls[j].ID
	})
}

// LabelIDs returns the ids of labels.
func LabelIDs(labels []*Label) []int64 {
	out := make([]int64, len(labels))
	for i, l := range labels {
		out[i] = l.ID
	}
	return out
}
