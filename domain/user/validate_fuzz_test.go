package user

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/depothq/depot/domain/errs"
)

// invalidOn fails unless err is a 422 naming field.
func invalidOn(t *testing.T, err error, field string) {
	t.Helper()
	var e *errs.Error
	if !errors.As(err, &e) || !errors.Is(err, errs.ErrInvalid) || !slices.Equal(e.Fields, []string{field}) {
		t.Fatalf("error %v (%T) is not a 422 naming %s", err, err, field)
	}
}

func FuzzValidateUserName(f *testing.F) {
	for _, s := range []string{"alice", "a.b-c_d", "..", "-a", "a-", "a..b", "api", "x.keys", "Ünï", "a/b", strings.Repeat("a", 41)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		if err := ValidateName("UserName", name); err != nil {
			invalidOn(t, err, "UserName")
			return
		}
		// An accepted name is one plain path segment of ASCII.
		if len(name) > MaxNameLength || strings.Contains(name, "..") || strings.ContainsAny(name, "/\\ \x00") ||
			strings.HasPrefix(name, ".") || strings.HasPrefix(name, "-") || strings.IndexFunc(name, func(r rune) bool { return r > 0x7e }) >= 0 {
			t.Fatalf("accepted name %q", name)
		}
	})
}

func FuzzValidateEmail(f *testing.F) {
	for _, s := range []string{"a@b.c", "A <a@b.c>", "a@b", "", "a b@c", "\"q\"@x.org", "a@[127.0.0.1]", "\xff@x", "a@b.c\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, addr string) {
		if err := ValidateEmail("Email", addr); err != nil {
			invalidOn(t, err, "Email")
			return
		}
		if !utf8.ValidString(addr) || len(addr) > 254 || !strings.Contains(addr, "@") || strings.ContainsAny(addr, " \t\r\n<>") {
			t.Fatalf("accepted address %q", addr)
		}
	})
}

func FuzzPasswordPolicy(f *testing.F) {
	f.Add("password1", 8)
	f.Add("", 1)
	f.Add("ééé", 3)
	f.Fuzz(func(t *testing.T, pw string, minLength int) {
		p := PasswordPolicy{MinLength: minLength}
		if err := p.Check("Password", pw); err != nil {
			invalidOn(t, err, "Password")
			return
		}
		if pw == "" || utf8.RuneCountInString(pw) < minLength || len(pw) > 255 {
			t.Fatalf("accepted password of %d bytes under minimum %d", len(pw), minLength)
		}
	})
}
