package auth

import (
	"cmp"
	"context"
	"errors"
	"log/slog"
	"strings"
	"time"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/token"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// Messages of authentication failures. Gitea answers a failed credential
// check with 401; the wording here is ours where the spec gives none.
const (
	msgBadCredentials = "invalid username, password or token"
	msgOTPRequired    = "otp is required"
	msgOTPInvalid     = "invalid provided OTP"
	msgSudoNotAdmin   = "Only administrators allowed to sudo."
)

// Authenticator turns credentials into a Caller.
type Authenticator struct {
	users     ports.UserStore
	tokens    ports.AccessTokenStore
	hasher    ports.PasswordHasher
	otp       ports.OneTimeCodes
	verified  *VerifierCache
	tokenMemo *TokenCache
	lastUsed  *LastUsedRecorder
	log       *slog.Logger
	// acceptQueryToken keeps the deprecated query tokens working as credentials.
	acceptQueryToken bool
	lookups          tokenLookups
	// bearer resolves OAuth2 access tokens (JWTs); nil when none are accepted.
	bearer BearerVerifier
}

// BearerVerifier resolves an OAuth2 access token to its user and the API
// scopes its grant carries.
type BearerVerifier interface {
	VerifyBearer(ctx context.Context, raw string) (*user.User, token.Scopes, error)
}

// Options are the site choices the Authenticator reads.
type Options struct {
	AcceptQueryToken bool
	// LookupWait bounds a token lookup that missed the cache; zero means
	// DefaultLookupWait.
	LookupWait time.Duration
	// Bearer resolves OAuth2 access tokens given as "Authorization: Bearer".
	Bearer BearerVerifier
}

// NewAuthenticator builds an Authenticator over the stores and security ports.
func NewAuthenticator(stores ports.Stores, hasher ports.PasswordHasher, otp ports.OneTimeCodes,
	verified *VerifierCache, tokens *TokenCache, lastUsed *LastUsedRecorder, opts Options, log *slog.Logger) *Authenticator {
	return &Authenticator{
		users: stores.Users, tokens: stores.Tokens, hasher: hasher, otp: otp,
		verified: verified, tokenMemo: tokens, lastUsed: lastUsed, log: log,
		acceptQueryToken: opts.AcceptQueryToken,
		lookups:          tokenLookups{wait: cmp.Or(opts.LookupWait, DefaultLookupWait)},
		bearer:           opts.Bearer,
	}
}

// Authenticate resolves c. It returns an anonymous Caller when no credentials
// were given, and an ErrUnauthenticated error when credentials were given but
// are wrong. Sudo is applied last. Account-state checks are the caller's
// (they depend on the route), see permission.CheckAccount.
func (a *Authenticator) Authenticate(ctx context.Context, c Credentials) (Caller, error) {
	caller, err := a.primary(ctx, c)
	if err != nil {
		return Caller{}, err
	}
	if c.Sudo == "" {
		return caller, nil
	}
	if !caller.IsAdmin() {
		return Caller{}, errs.Forbidden(msgSudoNotAdmin)
	}
	target, err := a.users.GetByName(ctx, c.Sudo)
	if err != nil {
		if errors.Is(err, errs.ErrNotFound) {
			return Caller{}, errs.NotFound("user does not exist")
		}
		return Caller{}, err
	}
	caller.Sudoer, caller.User = caller.User, target
	return caller, nil
}

func (a *Authenticator) primary(ctx context.Context, c Credentials) (Caller, error) {
	switch {
	case c.HeaderToken != "" && a.bearer != nil && looksLikeJWT(c.HeaderToken):
		return a.byBearer(ctx, c.HeaderToken)
	case c.HeaderToken != "":
		return a.byToken(ctx, c.HeaderToken, MethodToken)
	case c.Signed != nil:
		return a.bySignature(ctx, c.Signed)
	case c.Basic:
		return a.byBasic(ctx, c)
	case c.QueryToken != "" && a.acceptQueryToken:
		return a.byToken(ctx, c.QueryToken, MethodToken)
	}
	return Caller{}, nil
}

// bySignature resolves an HTTP signature (core reference 5: second in the
// order, after OAuth2 bearer and access tokens, before Basic). Like
// Gitea's httpsign it acts as the account without a token's scopes.
func (a *Authenticator) bySignature(ctx context.Context, s SignedRequest) (Caller, error) {
	id, err := s.SignerID(ctx)
	if err != nil {
		return Caller{}, err
	}
	u, err := a.users.GetByID(ctx, id)
	if err != nil {
		if errors.Is(err, errs.ErrNotFound) {
			return Caller{}, errs.Unauthenticated(msgBadCredentials)
		}
		return Caller{}, err
	}
	return Caller{User: u, Method: MethodHTTPSignature}, nil
}

// looksLikeJWT reports whether s has a JWT's three dot-separated parts;
// access token secrets are hex and never do.
func looksLikeJWT(s string) bool { return strings.Count(s, ".") == 2 }

// byBearer resolves an OAuth2 access token. Its scopes are enforced like an
// access token's: the caller carries a token record without an id.
func (a *Authenticator) byBearer(ctx context.Context, raw string) (Caller, error) {
	u, scopes, err := a.bearer.VerifyBearer(ctx, raw)
	if err != nil {
		return Caller{}, err
	}
	return Caller{User: u, Token: &token.AccessToken{UserID: u.ID, Name: "oauth2", Scopes: scopes}, Method: MethodOAuth2}, nil
}

// byToken finds the token whose secret is given. Lookups go through a short
// cache keyed by a hash of the secret, so a busy client costs one user read.
func (a *Authenticator) byToken(ctx context.Context, secret string, m Method) (Caller, error) {
	if !token.LooksLikeSecret(secret) {
		return Caller{}, errs.Unauthenticated(msgBadCredentials)
	}
	if t, u, ok := a.tokenMemo.Get(secret); ok {
		a.lastUsed.Record(t.ID)
		return Caller{User: u, Token: t, Method: m}, nil
	}
	t, u, err := a.lookupToken(ctx, secret)
	if err != nil {
		return Caller{}, err
	}
	a.lastUsed.Record(t.ID)
	return Caller{User: u, Token: t, Method: m}, nil
}

// findToken looks the secret up by its last eight characters and checks the
// salted hash of each candidate.
func (a *Authenticator) findToken(ctx context.Context, secret string) (*token.AccessToken, error) {
	candidates, err := a.tokens.FindByLastEight(ctx, token.LastEightOf(secret))
	if err != nil {
		return nil, err
	}
	for _, t := range candidates {
		if t.Matches(secret) {
			return t, nil
		}
	}
	return nil, errs.Unauthenticated(msgBadCredentials)
}

// byBasic accepts a password, or a token in either half of the pair (Gitea
// accepts a token as the username with an empty or "x-oauth-basic" password).
func (a *Authenticator) byBasic(ctx context.Context, c Credentials) (Caller, error) {
	if token.LooksLikeSecret(c.BasicUser) && (c.BasicPassword == "" || c.BasicPassword == "x-oauth-basic") {
		return a.byToken(ctx, c.BasicUser, MethodBasicToken)
	}
	if token.LooksLikeSecret(c.BasicPassword) {
		caller, err := a.byToken(ctx, c.BasicPassword, MethodBasicToken)
		if err == nil {
			return caller, nil
		}
		if !errors.Is(err, errs.ErrUnauthenticated) {
			return Caller{}, err
		}
		// Not a token after all: it may be a password of that shape.
	}
	u, err := a.users.GetByName(ctx, c.BasicUser)
	if err != nil {
		if errors.Is(err, errs.ErrNotFound) {
			return Caller{}, errs.Unauthenticated(msgBadCredentials)
		}
		return Caller{}, err
	}
	if u.Kind != user.KindIndividual || u.PasswordHash == "" {
		return Caller{}, errs.Unauthenticated(msgBadCredentials)
	}
	if !a.verified.Check(u, c.BasicPassword) {
		ok, err := a.hasher.Verify(u.PasswordHash, c.BasicPassword)
		if err != nil {
			a.log.Error("password hash unreadable", "user", u.Name, "err", err)
			return Caller{}, errs.Unauthenticated(msgBadCredentials)
		}
		if !ok {
			return Caller{}, errs.Unauthenticated(msgBadCredentials)
		}
		a.verified.Remember(u, c.BasicPassword)
	}
	if u.HasTwoFactor() {
		if c.OTP == "" {
			return Caller{}, errs.Unauthenticated(msgOTPRequired)
		}
		if !a.otp.Validate(u.TOTPSecret, c.OTP) {
			return Caller{}, errs.Unauthenticated(msgOTPInvalid)
		}
	}
	return Caller{User: u, Method: MethodBasic}, nil
}

// FlushInterval is how often last-use times are written back.
const FlushInterval = time.Minute
