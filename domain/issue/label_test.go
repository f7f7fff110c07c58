package issue

import (
	"errors"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
)

func strPtr(s string) *string { return &s }
func boolPtr(b bool) *bool    { return &b }

func TestNormalizeColor(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"#00AABB", "00aabb", true},
		{"00aabb", "00aabb", true},
		{" #abc ", "aabbcc", true},
		{"ABC", "aabbcc", true},
		{"#12345g", "", false},
		{"red", "", false},
		{"", "", false},
		{"#", "", false},
		{"#1234", "", false},
		{"##abcdef", "", false},
		{"1234567", "", false},
	} {
		t.Run(tc.in, func(t *testing.T) {
			is := is.New(t)
			got, err := NormalizeColor("Color", tc.in)
			if !tc.ok {
				is.True(errors.Is(err, errs.ErrInvalid))
				is.Equal(errs.Message(err), "Color: must be a hex colour of 3 or 6 digits, like #00aabb")
				return
			}
			is.NoErr(err)
			is.Equal(got, tc.want)
		})
	}
}

func TestNewLabelAndApply(t *testing.T) {
	now := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	later := now.Add(time.Hour)
	for _, tc := range []struct {
		name  string
		in    LabelInput
		field string // the 422's field, "" when valid
	}{
		{"valid", LabelInput{Name: strPtr(" bug "), Color: strPtr("#FF0000")}, ""},
		{"no name", LabelInput{Color: strPtr("#ff0000")}, "Name"},
		{"blank name", LabelInput{Name: strPtr("  "), Color: strPtr("#ff0000")}, "Name"},
		{"no color", LabelInput{Name: strPtr("bug")}, "Color"},
		{"bad color", LabelInput{Name: strPtr("bug"), Color: strPtr("#12345g")}, "Color"},
		{"long name", LabelInput{Name: strPtr(string(make([]byte, 256))), Color: strPtr("fff")}, "Name"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			l, err := NewLabel(tc.in, now)
			if tc.field != "" {
				var e *errs.Error
				is.True(errors.As(err, &e))
				is.Equal(e.Fields, []string{tc.field})
				return
			}
			is.NoErr(err)
			is.Equal(l.Name, "bug")
			is.Equal(l.Color, "ff0000")
			is.Equal(l.ArchivedAt, nil)
			is.Equal(l.CreatedAt, now)
		})
	}

	t.Run("archiving keeps the first date", func(t *testing.T) {
		is := is.New(t)
		l, err := NewLabel(LabelInput{Name: strPtr("x"), Color: strPtr("fff"), IsArchived: boolPtr(true)}, now)
		is.NoErr(err)
		is.Equal(*l.ArchivedAt, now)
		is.NoErr(l.Apply(LabelInput{IsArchived: boolPtr(true)}, later))
		is.Equal(*l.ArchivedAt, now)
		is.Equal(l.UpdatedAt, later)
		is.NoErr(l.Apply(LabelInput{IsArchived: boolPtr(false)}, later))
		is.Equal(l.ArchivedAt, nil)
	})

	t.Run("a failed edit changes nothing", func(t *testing.T) {
		is := is.New(t)
		l, err := NewLabel(LabelInput{Name: strPtr("x"), Color: strPtr("fff")}, now)
		is.NoErr(err)
		before := *l
		is.True(l.Apply(LabelInput{Name: strPtr("y"), Color: strPtr("nope")}, later) != nil)
		is.Equal(*l, before)
	})
}

func TestExclusiveScope(t *testing.T) {
	for _, tc := range []struct {
		name      string
		exclusive bool
		want      string
	}{
		{"kind/bug", true, "kind"},
		{"a/b/c", true, "a/b"},
		{"kind/bug", false, ""},
		{"plain", true, ""},
		{"/lead", true, ""},
		{"trail/", true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			l := &Label{Name: tc.name, Exclusive: tc.exclusive}
			is.Equal(l.ExclusiveScope(), tc.want)
		})
	}
}

func TestUsableIn(t *testing.T) {
	is := is.New(t)
	is.True((&Label{RepoID: 1}).UsableIn(1, 9))
	is.True((&Label{OrgID: 9}).UsableIn(1, 9))
	is.True(!(&Label{RepoID: 2}).UsableIn(1, 9))
	is.True(!(&Label{OrgID: 8}).UsableIn(1, 9))
	is.True(!(&Label{}).UsableIn(0, 0))
}

func TestAddAndReplaceLabels(t *testing.T) {
	bug := &Label{ID: 1, Name: "kind/bug", Exclusive: true}
	feat := &Label{ID: 2, Name: "kind/feature", Exclusive: true}
	doc := &Label{ID: 3, Name: "doc"}
	loose := &Label{ID: 4, Name: "kind/loose"} // same prefix, not exclusive
	prio := &Label{ID: 5, Name: "prio/high", Exclusive: true}
	for _, tc := range []struct {
		name            string
		replace         bool
		current, labels []*Label
		add, remove     []string
	}{
		{"add new", false, []*Label{doc}, []*Label{bug}, []string{"kind/bug"}, nil},
		{"add present", false, []*Label{doc, bug}, []*Label{bug, doc}, nil, nil},
		{"exclusive swaps", false, []*Label{bug, doc, loose}, []*Label{feat}, []string{"kind/feature"}, []string{"kind/bug"}},
		{"last of a scope wins", false, nil, []*Label{bug, feat, prio}, []string{"kind/feature", "prio/high"}, nil},
		{"repeated", false, nil, []*Label{doc, doc}, []string{"doc"}, nil},
		{"replace", true, []*Label{bug, doc}, []*Label{doc, prio}, []string{"prio/high"}, []string{"kind/bug"}},
		{"replace clears", true, []*Label{bug, doc}, nil, nil, []string{"doc", "kind/bug"}},
		{"replace dedupes scope", true, []*Label{bug}, []*Label{bug, feat}, []string{"kind/feature"}, []string{"kind/bug"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			var ch LabelChange
			if tc.replace {
				ch = ReplaceLabels(tc.current, tc.labels)
			} else {
				ch = AddLabels(tc.current, tc.labels)
			}
			is.Equal(labelNames(ch.Add), tc.add)
			is.Equal(labelNames(ch.Remove), tc.remove)
			is.Equal(ch.Empty(), len(tc.add)+len(tc.remove) == 0)
		})
	}
}

func labelNames(ls []*Label) []string {
	if len(ls) == 0 {
		return nil
	}
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = l.Name
	}
	return out
}
