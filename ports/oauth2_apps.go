package ports

import (
	"context"
	"time"

	"github.com/depothq/depot/domain/oauth2"
)

// OAuth2AppStore persists OAuth2 applications.
type OAuth2AppStore interface {
	// Create inserts a and sets a.ID.
	Create(ctx context.Context, a *oauth2.Application) error
	// ListByUser returns one page of the user's applications ordered by id, and the total.
	ListByUser(ctx context.Context, userID int64, opts ListOptions) ([]*oauth2.Application, int64, error)
	// GetByID finds one of the user's applications; another user's is not found.
	GetByID(ctx context.Context, userID, id int64) (*oauth2.Application, error)
	GetByClientID(ctx context.Context, clientID string) (*oauth2.Application, error)
	// Update writes a's name, redirect URIs, flags, secret and updated time.
	Update(ctx context.Context, a *oauth2.Application) error
	// Delete removes the application with its grants and codes.
	Delete(ctx context.Context, userID, id int64) error
}

// OAuth2GrantStore persists users' grants to applications and their
// authorization codes.
type OAuth2GrantStore interface {
	// GetOrCreate returns the user's grant to the application, creating it
	// with g's scope and nonce; an existing grant takes g's scope and nonce.
	GetOrCreate(ctx context.Context, g *oauth2.Grant) (*oauth2.Grant, error)
	GetByID(ctx context.Context, id int64) (*oauth2.Grant, error)
	// GetByUserApp finds the user's grant to the application.
	GetByUserApp(ctx context.Context, userID, appID int64) (*oauth2.Grant, error)
	// Advance moves the grant's counter from `from` to from+1, and reports
	// false when it was no longer `from` (a refresh token reused or raced).
	Advance(ctx context.Context, id, from int64) (bool, error)
	Delete(ctx context.Context, id int64) error
	CreateCode(ctx context.Context, c *oauth2.AuthCode) error
	// TakeCode marks the code with the hash used and returns it as it was:
	// of several takers only the first gets it with Used unset.
	TakeCode(ctx context.Context, codeHash string) (*oauth2.AuthCode, error)
	// DeleteExpiredCodes removes codes, used or not, that expired before now.
	DeleteExpiredCodes(ctx context.Context, now time.Time) error
}

// OAuth2TokenClaims are what Depot's OAuth2 access and refresh tokens say.
type OAuth2TokenClaims struct {
	GrantID int64
	// Refresh is set on refresh tokens.
	Refresh bool
	// Counter is the grant's counter when a refresh token was made.
	Counter   int64
	ExpiresAt time.Time
	IssuedAt  time.Time
}

// OAuth2Signer signs and checks the provider's JSON Web Tokens with the
// site's OAuth2 key.
type OAuth2Signer interface {
	// SignToken makes an access or refresh token.
	SignToken(c OAuth2TokenClaims) (string, error)
	// ParseToken checks a token's signature, algorithm and expiry at now.
	ParseToken(raw string, now time.Time) (OAuth2TokenClaims, error)
	// SignIDToken signs an OpenID Connect ID token with the given claims.
	SignIDToken(claims map[string]any) (string, error)
	// JWKS returns the public key set document (RFC 7517).
	JWKS() map[string]any
	// Algorithm names the signing algorithm ("RS256").
	Algorithm() string
}
