// Package oauth2 is Depot as an OAuth2 and OpenID Connect provider: the
// applications users register (applications.go) and the authorization-code
// flow with PKCE, the token endpoint with refresh rotation, and the bearer
// tokens the API accepts (provider.go).
package oauth2

import (
	"strings"

	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/ports"
)

// Service holds the OAuth2 use cases.
type Service struct {
	stores  ports.Stores
	tx      ports.Transactor
	signer  ports.OAuth2Signer
	secrets ports.SecretGenerator
	clock   ports.Clock
	// issuer is the site's base URL, the "iss" of ID tokens.
	issuer string
	// bearers caches what bearer tokens resolve to (bearer_cache.go).
	bearers *bearerCache
}

// NewService builds the service.
func NewService(stores ports.Stores, tx ports.Transactor, signer ports.OAuth2Signer, secrets ports.SecretGenerator,
	clock ports.Clock, settings site.Settings) *Service {
	return &Service{stores: stores, tx: tx, signer: signer, secrets: secrets, clock: clock,
		issuer: strings.TrimSuffix(settings.BaseURL, "/") + "/", bearers: &bearerCache{stats: ports.NewCacheStats("oauth2_grants", true)}}
}

// BearerCache is the cache of what bearer tokens resolve to, which the
// servers sharing a database keep in step (ports.CacheDropBus).
func (s *Service) BearerCache() ports.SharedCache { return s.bearers }

// BearerCacheStats counts the bearer cache's lookups, for the metrics page.
func (s *Service) BearerCacheStats() *ports.CacheStats { return s.bearers.stats }

// Issuer is the provider's issuer identifier (the site's base URL with a
// trailing slash, as Gitea's).
func (s *Service) Issuer() string { return s.issuer }

// JWKS is the public key set that verifies the provider's tokens.
func (s *Service) JWKS() map[string]any { return s.signer.JWKS() }

// SigningAlgorithm names the algorithm of the provider's tokens.
func (s *Service) SigningAlgorithm() string { return s.signer.Algorithm() }
