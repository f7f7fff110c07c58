// Package actions holds the entities of workflow automation (secrets,
// variables) and the rules on their names, without I/O.
package actions

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/depothq/depot/domain/errs"
)

// Limits of a secret, as Gitea's: the value's bytes, the description's
// characters (a longer description is cut, not refused), and the name's
// length (the width of its column).
const (
	SecretDataMaxLength        = 65536
	SecretDescriptionMaxLength = 4096
	SecretNameMaxLength        = 255
)

// SecretOwner is whose a secret is: a user's or an organisation's
// (OwnerID, RepoID 0) or a repository's (RepoID, OwnerID 0). Exactly one
// is set.
type SecretOwner struct {
	OwnerID int64
	RepoID  int64
}

// AccountSecrets are the secrets of the user or organisation id.
func AccountSecrets(id int64) SecretOwner { return SecretOwner{OwnerID: id} }

// RepoSecrets are the secrets of the repository id.
func RepoSecrets(id int64) SecretOwner { return SecretOwner{RepoID: id} }

// Secret is a value workflows of its owner may read and nobody may read
// back through the API. Data is sealed wherever it is stored.
type Secret struct {
	ID int64
	SecretOwner
	// Name is upper case (NormalizeSecretName).
	Name        string
	Data        string
	Description string
	Created     time.Time
}

// NormalizeSecretName returns name in upper case, the form secrets are
// stored and found under, or a 422 naming secretname when it is not a
// valid name: letters, digits and underscores, not starting with a digit,
// and not starting with GITHUB_ or GITEA_ (the names the runner sets
// itself), in any case.
func NormalizeSecretName(name string) (string, error) {
	if name == "" || len(name) > SecretNameMaxLength {
		return "", errs.Invalid("invalid secret name", "secretname")
	}
	// Only ASCII counts: Unicode case folding would take the long s or
	// the Kelvin sign for a letter and store a name nobody typed.
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z', c == '_':
		case c >= '0' && c <= '9' && i > 0:
		default:
			return "", errs.Invalid("invalid secret name", "secretname")
		}
	}
	upper := strings.ToUpper(name)
	if strings.HasPrefix(upper, "GITHUB_") || strings.HasPrefix(upper, "GITEA_") {
		return "", errs.Invalid("invalid secret name", "secretname")
	}
	return upper, nil
}

// CheckSecretData refuses an empty value and one over the limit.
func CheckSecretData(data string) error {
	if data == "" {
		return errs.Invalid("Required", "Data")
	}
	if len(data) > SecretDataMaxLength {
		return errs.Invalid("data too long", "Data")
	}
	return nil
}

// TruncateSecretDescription cuts description to its limit in characters.
func TruncateSecretDescription(description string) string {
	if utf8.RuneCountInString(description) <= SecretDescriptionMaxLength {
		return description
	}
	r := []rune(description)
	return string(r[:SecretDescriptionMaxLength])
}
