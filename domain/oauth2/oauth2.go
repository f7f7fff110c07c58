// Package oauth2 holds Depot's OAuth2 provider rules: the applications users
// register (client id, hashed secret, redirect URIs), the grants a user gives
// them, the authorization codes with their PKCE challenge, and the parsing of
// an authorization request. It does no I/O.
package oauth2

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/token"
)

// Lifetimes of what the provider hands out, as Gitea's defaults.
const (
	CodeLifetime         = 10 * time.Minute
	AccessTokenLifetime  = time.Hour
	RefreshTokenLifetime = 730 * time.Hour
)

// Application is an OAuth2 client registered by a user.
type Application struct {
	ID       int64
	UserID   int64
	Name     string
	ClientID string
	// SecretHash is the hex SHA-256 of SecretSalt || secret; the secret is
	// shown once, when it is made.
	SecretHash, SecretSalt string
	RedirectURIs           []string
	Confidential           bool
	// SkipSecondaryAuthorization lets the application skip the consent step.
	SkipSecondaryAuthorization bool
	Created, Updated           time.Time
}

// HashSecret hashes a client secret with its salt. Secrets carry enough
// random bits that a fast hash cannot be brute-forced.
func HashSecret(salt, secret string) string {
	sum := sha256.Sum256([]byte(salt + secret))
	return hex.EncodeToString(sum[:])
}

// SecretMatches reports, in constant time, whether secret is the application's.
func (a *Application) SecretMatches(secret string) bool {
	if a.SecretHash == "" || secret == "" {
		return false
	}
	want := HashSecret(a.SecretSalt, secret)
	return subtle.ConstantTimeCompare([]byte(want), []byte(a.SecretHash)) == 1
}

// HasRedirectURI reports whether uri is one of the registered redirect URIs,
// compared exactly (RFC 6749 3.1.2.3 with no pattern matching).
func (a *Application) HasRedirectURI(uri string) bool {
	return uri != "" && slices.Contains(a.RedirectURIs, uri)
}

// ValidateApplication checks an application's name and redirect URIs (the
// fields of Gitea's CreateOAuth2ApplicationOptions).
func ValidateApplication(name string, redirectURIs []string) error {
	if strings.TrimSpace(name) == "" {
		return errs.Invalid("Required", "Name")
	}
	if len(name) > 255 {
		return errs.Invalid("MaxSize", "Name")
	}
	if len(redirectURIs) == 0 {
		return errs.Invalid("Required", "RedirectURIs")
	}
	for _, u := range redirectURIs {
		if err := validateRedirectURI(u); err != nil {
			return err
		}
	}
	return nil
}

// validateRedirectURI accepts absolute URIs without a fragment (RFC 6749
// 3.1.2); custom schemes are allowed for native applications.
func validateRedirectURI(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" || u.Fragment != "" || strings.ContainsAny(raw, " \t\r\n") || len(raw) > 2048 {
		return errs.Invalid("invalid redirect URI: "+raw, "RedirectURIs")
	}
	if (u.Scheme == "http" || u.Scheme == "https") && u.Host == "" {
		return errs.Invalid("invalid redirect URI: "+raw, "RedirectURIs")
	}
	return nil
}

// Grant is a user's authorization of an application. Its Counter numbers the
// refresh token in force: a refresh moves it on, so an older refresh token no
// longer matches.
type Grant struct {
	ID, UserID, AppID int64
	// Scope is the space-separated scope the application asked for.
	Scope   string
	Nonce   string
	Counter int64
	Created time.Time
}

// SameScope reports whether two space-separated scopes name the same
// scopes, in any order.
func SameScope(a, b string) bool {
	x, y := strings.Fields(a), strings.Fields(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(slices.Compact(x), slices.Compact(y))
}

// APIScopes returns the API access a grant's tokens carry: the token scopes
// named in its scope ("read:repository", "write:user"...), or every category
// when it names none, as Gitea does for grants without API scopes.
func APIScopes(scope string) token.Scopes {
	var named []string
	for _, s := range strings.Fields(scope) {
		if _, err := token.ParseScopes([]string{s}); err == nil {
			named = append(named, s)
		}
	}
	if len(named) == 0 {
		return token.Scopes{token.ScopeAll}
	}
	parsed, err := token.ParseScopes(named)
	if err != nil {
		return token.Scopes{}
	}
	return parsed
}

// HasScope reports whether the space-separated scope names s.
func HasScope(scope, s string) bool { return slices.Contains(strings.Fields(scope), s) }

// PKCE methods (RFC 7636).
const (
	PKCEPlain = "plain"
	PKCES256  = "S256"
)

// AuthCode is an authorization code: single use, short lived, bound to a
// grant, a redirect URI and a PKCE challenge.
type AuthCode struct {
	ID      int64
	GrantID int64
	// CodeHash is the hex SHA-256 of the code; the code itself is not stored.
	CodeHash            string
	RedirectURI         string
	CodeChallenge       string
	CodeChallengeMethod string
	ValidUntil          time.Time
	// Used is set once the code was exchanged; a second exchange revokes
	// the grant (RFC 6749 4.1.2).
	Used bool
}

// HashCode hashes an authorization code for storage and lookup.
func HashCode(code string) string {
	sum := sha256.Sum256([]byte(code))
	return hex.EncodeToString(sum[:])
}

// Expired reports whether the code may no longer be exchanged at now.
func (c *AuthCode) Expired(now time.Time) bool { return !now.Before(c.ValidUntil) }

// VerifyPKCE checks a code verifier against the code's challenge. A code
// made without a challenge accepts any (confidential clients need none).
func (c *AuthCode) VerifyPKCE(verifier string) bool {
	if c.CodeChallenge == "" {
		return true
	}
	if verifier == "" {
		return false
	}
	var got string
	switch c.CodeChallengeMethod {
	case PKCES256:
		sum := sha256.Sum256([]byte(verifier))
		got = base64.RawURLEncoding.EncodeToString(sum[:])
	case PKCEPlain, "":
		got = verifier
	default:
		return false
	}
	return subtle.ConstantTimeCompare([]byte(got), []byte(c.CodeChallenge)) == 1
}
