package actions_test

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/depothq/depot/domain/actions"
	"github.com/depothq/depot/domain/errs"
)

// gitHubSecretName is the documented rule the validator implements by hand.
var gitHubSecretName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

func FuzzNormalizeSecretName(f *testing.F) {
	for _, s := range []string{"TOKEN", "token", "_", "1A", "GITHUB_X", "gitea_x", "a-b", "ſ", "\x00", "Ä"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		got, err := actions.NormalizeSecretName(name)
		upper := strings.ToUpper(name)
		valid := len(name) <= actions.SecretNameMaxLength && gitHubSecretName.MatchString(name) &&
			!strings.HasPrefix(upper, "GITHUB_") && !strings.HasPrefix(upper, "GITEA_")
		if !valid {
			if !errors.Is(err, errs.ErrInvalid) || got != "" {
				t.Fatalf("NormalizeSecretName(%q) = %q, %v; want a 422", name, got, err)
			}
			return
		}
		if err != nil || got != upper {
			t.Fatalf("NormalizeSecretName(%q) = %q, %v; want %q", name, got, err, upper)
		}
		// Normalising is idempotent: a stored name is found again under itself.
		again, err := actions.NormalizeSecretName(got)
		if err != nil || again != got {
			t.Fatalf("NormalizeSecretName(%q) = %q, %v on its own answer", got, again, err)
		}
	})
}
