package actions

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/depothq/depot/domain/errs"
)

var variableNamePattern = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// FuzzVariableName checks the name validator against the rule written as a
// regular expression: it accepts exactly the names the rule allows, returns
// them upper-cased, and refuses the rest as invalid input, never panicking.
func FuzzVariableName(f *testing.F) {
	for _, s := range []string{"", "A", "_1", "1A", "ci", "GITEA_X", "github_", "a-b", "ſ", "\x00", "A\u212a"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		got, err := VariableName("name", name)
		upper := strings.ToUpper(name)
		allowed := variableNamePattern.MatchString(name) && upper != "CI" &&
			!strings.HasPrefix(upper, "GITEA_") && !strings.HasPrefix(upper, "GITHUB_")
		if allowed != (err == nil) {
			t.Fatalf("VariableName(%q): err %v, rule allows %v", name, err, allowed)
		}
		if err != nil {
			if !errors.Is(err, errs.ErrInvalid) {
				t.Fatalf("VariableName(%q): error %v is not invalid input", name, err)
			}
			return
		}
		if got != upper || LookupVariableName(name) != got {
			t.Fatalf("VariableName(%q) = %q, lookup %q", name, got, LookupVariableName(name))
		}
	})
}
