package org

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/user"
)

func FuzzProfile(f *testing.F) {
	f.Add("Org Name", "desc", "https://example.com", "Berlin", "org@example.com", "public")
	f.Add("", "", "javascript:x", "", "bad", "secret")
	f.Add(strings.Repeat("n", 101), "", "http://h x", "", "", "limited")
	f.Fuzz(func(t *testing.T, fullName, desc, website, location, email, visibility string) {
		p := Profile{FullName: fullName, Description: desc, Website: website, Location: location, Email: email,
			Visibility: user.Visibility(visibility)}
		if err := p.Validate(); err != nil {
			var e *errs.Error
			if !errors.As(err, &e) || !errors.Is(err, errs.ErrInvalid) || len(e.Fields) != 1 ||
				!slices.Contains([]string{"FullName", "Description", "Website", "Location", "Email", "Visibility"}, e.Fields[0]) {
				t.Fatalf("error %v (%T) is not a 422 on a profile field", err, err)
			}
			return
		}
		if lower := strings.ToLower(website); lower != "" && !strings.HasPrefix(lower, "http://") && !strings.HasPrefix(lower, "https://") {
			t.Fatalf("website %q accepted", website)
		}
		// An organisation built from the profile shows the same profile.
		if got := New("org", p).Profile(); got != p {
			t.Fatalf("profile %+v came back as %+v", p, got)
		}
	})
}

func FuzzTeamName(f *testing.F) {
	for _, s := range []string{"Owners", "dev-team_1.x", "new", "NEW", "", "a b", "../x", strings.Repeat("t", 256)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		if err := ValidateTeamName("name", name); err != nil {
			var e *errs.Error
			if !errors.As(err, &e) || !errors.Is(err, errs.ErrInvalid) || !slices.Equal(e.Fields, []string{"name"}) {
				t.Fatalf("error %v is not a 422 on name", err)
			}
			return
		}
		if strings.ContainsAny(name, "/\\ \x00") || strings.EqualFold(name, "new") {
			t.Fatalf("accepted team name %q", name)
		}
		if mode, ok := ParseMode(name); ok && mode.String() != name {
			t.Fatalf("ParseMode(%q) = %v", name, mode)
		}
	})
}
