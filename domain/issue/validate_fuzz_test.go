package issue

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/depothq/depot/domain/errs"
)

// invalidOn fails unless err is a 422 naming one of fields.
func invalidOn(t *testing.T, err error, fields ...string) {
	t.Helper()
	var e *errs.Error
	if !errors.As(err, &e) || !errors.Is(err, errs.ErrInvalid) || len(e.Fields) != 1 || !slices.Contains(fields, e.Fields[0]) {
		t.Fatalf("error %v (%T) is not a 422 naming one of %q", err, err, fields)
	}
}

func FuzzNormaliseTitle(f *testing.F) {
	for _, s := range []string{"Bug", "  padded  ", "", "\t\n", strings.Repeat("é", 256), "\xff\xfe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, title string) {
		got, err := NormaliseTitle(title)
		if err != nil {
			invalidOn(t, err, "Title")
			return
		}
		if got == "" || got != strings.TrimSpace(got) || utf8.RuneCountInString(got) > MaxTitleLength {
			t.Fatalf("NormaliseTitle(%q) = %q", title, got)
		}
		if again, err := NormaliseTitle(got); err != nil || again != got {
			t.Fatalf("NormaliseTitle is not idempotent on %q: %q, %v", got, again, err)
		}
	})
}

func FuzzLabel(f *testing.F) {
	f.Add("bug", "#ABC", "something broke", true)
	f.Add(" kind/feature ", "00aaFF", "", false)
	f.Add("", "red", strings.Repeat("d", 256), true)
	f.Add("x", " #12345 ", "\xff", false)
	now := time.Unix(1700000000, 0)
	f.Fuzz(func(t *testing.T, name, color, desc string, archived bool) {
		l, err := NewLabel(LabelInput{Name: &name, Color: &color, Description: &desc, IsArchived: &archived}, now)
		if err != nil {
			invalidOn(t, err, "Name", "Color", "Description")
			return
		}
		if len(l.Color) != 6 || strings.IndexFunc(l.Color, func(r rune) bool { return !isHex(byte(r)) || r > 0x7f }) >= 0 {
			t.Fatalf("colour %q kept from %q", l.Color, color)
		}
		if l.Name == "" || l.Name != strings.TrimSpace(l.Name) || (l.ArchivedAt != nil) != archived {
			t.Fatalf("label %+v from %q", l, name)
		}
		// Its own values validate to themselves.
		again, err := NewLabel(LabelInput{Name: &l.Name, Color: &l.Color, Description: &l.Description}, now)
		if err != nil || again.Name != l.Name || again.Color != l.Color || again.Description != l.Description {
			t.Fatalf("label %+v does not validate to itself: %+v, %v", l, again, err)
		}
	})
}

func FuzzMilestone(f *testing.F) {
	f.Add("v1.0", "desc", "open", int64(1700000000), false)
	f.Add(" ", "", "closed", int64(-1), true)
	f.Add(strings.Repeat("m", 256), "", "merged", int64(0), false)
	now := time.Unix(1700000000, 0)
	f.Fuzz(func(t *testing.T, title, desc, state string, due int64, clear bool) {
		d := time.Unix(due, 0)
		m, err := NewMilestone(MilestoneInput{Title: &title, Description: &desc, State: &state, DueAt: &d, ClearDue: clear}, now)
		if err != nil {
			invalidOn(t, err, "Title", "State", "DueAt", "Description")
			return
		}
		if m.Title == "" || m.Title != strings.TrimSpace(m.Title) || m.IsClosed != (m.ClosedAt != nil) ||
			(clear && m.DueAt != nil) {
			t.Fatalf("milestone %+v", m)
		}
	})
}

func FuzzCommentBody(f *testing.F) {
	for _, s := range []string{"hello", "", " \n", "\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		if err := ValidateCommentBody(body); err != nil {
			invalidOn(t, err, "Body")
			return
		}
		if strings.TrimSpace(body) == "" || len(body) > MaxCommentBodyBytes {
			t.Fatalf("accepted body of %d bytes %q", len(body), body)
		}
	})
}

func FuzzCleanAttachmentName(f *testing.F) {
	for _, s := range []string{"a.png", "C:\\Users\\x\\a.txt", "../../etc/passwd", "dir/", " . ", "a\x01b", "\u200b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		got, err := CleanAttachmentName(name)
		if err != nil {
			invalidOn(t, err, "name")
			return
		}
		if got == "" || got == "." || got == ".." || strings.ContainsAny(got, "/\\") || got != strings.TrimSpace(got) ||
			strings.IndexFunc(got, func(r rune) bool { return r < 0x20 || r == 0x7f }) >= 0 {
			t.Fatalf("CleanAttachmentName(%q) = %q", name, got)
		}
		if again, err := CleanAttachmentName(got); err != nil || again != got {
			t.Fatalf("CleanAttachmentName is not idempotent on %q: %q, %v", got, again, err)
		}
	})
}

func FuzzSearchTerms(f *testing.F) {
	for _, s := range []string{"fix the BUG", "a-b_c.d", "", "日本語 テキスト", strings.Repeat("x", 100), "1 2 3 4 5 6 7 8 9 10 11"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, keyword string) {
		terms := SearchTerms(keyword)
		if len(terms) > MaxSearchTerms {
			t.Fatalf("%d terms", len(terms))
		}
		seen := map[string]bool{}
		for _, w := range terms {
			if w == "" || seen[w] || utf8.RuneCountInString(w) > maxTermLength ||
				strings.IndexFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) >= 0 {
				t.Fatalf("term %q of %q", w, keyword)
			}
			seen[w] = true
		}
	})
}
