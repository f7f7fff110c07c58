package repository

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/depothq/depot/domain/errs"
)

// invalidOn fails unless err is a 422 naming field: user input is refused
// with a categorised error, never a raw one.
func invalidOn(t *testing.T, err error, field string) {
	t.Helper()
	invalidOnOneOf(t, err, field)
}

// invalidOnOneOf fails unless err is a 422 naming one of fields.
func invalidOnOneOf(t *testing.T, err error, fields ...string) {
	t.Helper()
	var e *errs.Error
	if !errors.As(err, &e) || !errors.Is(err, errs.ErrInvalid) {
		t.Fatalf("error %v (%T) is not an errs.ErrInvalid", err, err)
	}
	if len(e.Fields) != 1 || !slices.Contains(fields, e.Fields[0]) {
		t.Fatalf("error %q names fields %q, want one of %q", e.Msg, e.Fields, fields)
	}
}

func FuzzValidateName(f *testing.F) {
	for _, s := range []string{"repo", "my-repo_1.0", "", ".", "..", "a..b", "x.git", "API", "über", "a/b", "-",
		strings.Repeat("a", 101), "..git", "a\x00b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		err := ValidateName("Name", name)
		if err != nil {
			invalidOn(t, err, "Name")
			return
		}
		// An accepted name is a single safe path segment.
		if name == "." || name == ".." || strings.ContainsAny(name, "/\\\x00 ") || len(name) > MaxNameLength {
			t.Fatalf("accepted unsafe name %q", name)
		}
		for _, s := range reservedSuffixes {
			if strings.HasSuffix(strings.ToLower(name), s) {
				t.Fatalf("accepted reserved suffix in %q", name)
			}
		}
	})
}

func FuzzValidateBranchName(f *testing.F) {
	for _, s := range []string{"main", "feature/x", "", "a..b", "-x", "x.lock", "@", "a@{1}", "/x", "x/", "a//b",
		"a/.b", "a b", "a~1", "ref\x7f", "é/ü"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		err := ValidateBranchName("Branch", name)
		if err != nil {
			invalidOn(t, err, "Branch")
			return
		}
		// What git check-ref-format refuses is refused here too.
		if strings.Contains(name, "..") || strings.HasPrefix(name, "-") || strings.HasPrefix(name, "/") ||
			strings.Contains(name, "//") || strings.Contains(name, "@{") || strings.HasSuffix(name, ".lock") ||
			strings.ContainsAny(name, " ~^:?*[\\\x00\x7f") {
			t.Fatalf("accepted invalid branch name %q", name)
		}
		for _, seg := range strings.Split(name, "/") {
			if seg == "" || strings.HasPrefix(seg, ".") {
				t.Fatalf("accepted branch name %q with segment %q", name, seg)
			}
		}
	})
}

func FuzzNormalizeTopics(f *testing.F) {
	f.Add("go", "Git ", "go")
	f.Add("", "  ", "a-b.c")
	f.Add("-x", "UPPER", strings.Repeat("t", 36))
	f.Fuzz(func(t *testing.T, a, b, c string) {
		out, err := NormalizeTopics([]string{a, b, c})
		if err != nil {
			var te *TopicsError
			if !errors.As(err, &te) || !errors.Is(err, errs.ErrInvalid) {
				t.Fatalf("error %v (%T) is not a TopicsError", err, err)
			}
			return
		}
		for i, topic := range out {
			if !ValidTopic(topic) || NormalizeTopic(topic) != topic {
				t.Fatalf("normalised topic %q is not valid and normal", topic)
			}
			if i > 0 && out[i-1] >= topic {
				t.Fatalf("topics %q are not sorted and unique", out)
			}
		}
		// Normalising is idempotent.
		again, err := NormalizeTopics(out)
		if err != nil || strings.Join(again, ",") != strings.Join(out, ",") {
			t.Fatalf("normalising %q again gave %q, %v", out, again, err)
		}
	})
}

func FuzzValidateURL(f *testing.F) {
	for _, s := range []string{"", "https://example.com", "http://h/p?q#f", "javascript:alert(1)", "//x", "http://",
		"https://[::1]:80/", "ftp://x", "http://%zz"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		err := ValidateURL("Website", s)
		if err != nil {
			invalidOn(t, err, "Website")
			return
		}
		if s != "" && !strings.HasPrefix(strings.ToLower(s), "http://") && !strings.HasPrefix(strings.ToLower(s), "https://") {
			t.Fatalf("accepted %q, which is not an http(s) URL", s)
		}
	})
}
