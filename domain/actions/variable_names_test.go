package actions

import (
	"errors"
	"strings"
	"testing"

	"github.com/depothq/depot/domain/errs"
)

func TestVariableName(t *testing.T) {
	for _, tc := range []struct {
		in, want, msg string
	}{
		{"ci_token", "CI_TOKEN", ""},
		{"_", "_", ""},
		{"_9", "_9", ""},
		{"a1_B2", "A1_B2", ""},
		{"GIT_EA", "GIT_EA", ""},
		{"GITEAX", "GITEAX", ""},
		{"CIX", "CIX", ""},
		{"", "", msgVariableNameChars},
		{"1ABC", "", msgVariableNameChars},
		{"A-B", "", msgVariableNameChars},
		{"A B", "", msgVariableNameChars},
		{"ÄB", "", msgVariableNameChars},
		{"ſ", "", msgVariableNameChars},
		{"A\x00", "", msgVariableNameChars},
		{"gitea_x", "", msgVariableNamePrefix},
		{"GITHUB_TOKEN", "", msgVariableNamePrefix},
		{"GiThUb_", "", msgVariableNamePrefix},
		{"ci", "", msgVariableNameReserved},
		{"CI", "", msgVariableNameReserved},
	} {
		got, err := VariableName("name", tc.in)
		if tc.msg == "" {
			if err != nil || got != tc.want {
				t.Errorf("VariableName(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
			}
			continue
		}
		if !errors.Is(err, errs.ErrInvalid) || err.Error() != "name: "+tc.msg {
			t.Errorf("VariableName(%q) error %v; want invalid %q", tc.in, err, tc.msg)
		}
	}
}

func TestLookupVariableName(t *testing.T) {
	for in, want := range map[string]string{"abc": "ABC", "ſ": "ſ", "a-b": "a-b", "Gitea_x": "GITEA_X"} {
		if got := LookupVariableName(in); got != want {
			t.Errorf("LookupVariableName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestVariableText(t *testing.T) {
	data, desc, err := VariableText("a\r\nb\rc\n", "about")
	if err != nil || data != "a\nb\nc\n" || desc != "about" {
		t.Fatalf("got %q %q %v", data, desc, err)
	}
	if _, _, err := VariableText("", "x"); !errors.Is(err, errs.ErrInvalid) || err.Error() != "Value: Required" {
		t.Fatalf("empty value: %v", err)
	}
	// The limit counts characters after the line endings are normalised.
	if _, _, err := VariableText(strings.Repeat("é", VariableDataMaxRunes), ""); err != nil {
		t.Fatalf("at the limit: %v", err)
	}
	if _, _, err := VariableText(strings.Repeat("\r\n", VariableDataMaxRunes), ""); err != nil {
		t.Fatalf("CRLF at the limit: %v", err)
	}
	if _, _, err := VariableText(strings.Repeat("x", VariableDataMaxRunes+1), ""); !errors.Is(err, errs.ErrInvalid) || err.Error() != "Value: data too long" {
		t.Fatalf("over the limit: %v", err)
	}
	_, desc, err = VariableText("v", strings.Repeat("ü", VariableDescriptionMaxRunes+5))
	if err != nil || desc != strings.Repeat("ü", VariableDescriptionMaxRunes) {
		t.Fatalf("description not cut: %d runes, %v", len([]rune(desc)), err)
	}
}
