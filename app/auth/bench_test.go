package auth_test

import (
	"context"
	"crypto/subtle"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/token"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// The benchmarks measure the Authenticator itself over in-memory stores, so
// that the numbers are the cost of the caches, hashing and bookkeeping
// without a database (adapters/sqlstore has the store benchmarks).

// memUsers is the part of a user store the Authenticator reads. Like a real
// store it returns a fresh copy on every read.
type memUsers struct {
	ports.UserStore
	byID   map[int64]*user.User
	byName map[string]*user.User
}

func (s *memUsers) GetByID(_ context.Context, id int64) (*user.User, error) {
	u, ok := s.byID[id]
	if !ok {
		return nil, errs.ErrNotFound
	}
	c := *u
	return &c, nil
}

func (s *memUsers) GetByName(_ context.Context, name string) (*user.User, error) {
	u, ok := s.byName[strings.ToLower(name)]
	if !ok {
		return nil, errs.ErrNotFound
	}
	c := *u
	return &c, nil
}

// memTokens is the part of a token store the Authenticator reads.
type memTokens struct {
	ports.AccessTokenStore
	byLastEight map[string][]*token.AccessToken
}

func (s *memTokens) FindByLastEight(_ context.Context, lastEight string) ([]*token.AccessToken, error) {
	var out []*token.AccessToken
	for _, t := range s.byLastEight[lastEight] {
		c := *t
		out = append(out, &c)
	}
	return out, nil
}

func (s *memTokens) TouchLastUsed(context.Context, map[int64]time.Time) error { return nil }

// plainHasher stands in for Argon2id: these benchmarks are about what
// happens when the KDF is skipped (adapters/security benchmarks the KDF).
type plainHasher struct{}

func (plainHasher) Hash(pw string) (string, error) { return "plain$" + pw, nil }
func (plainHasher) Verify(encoded, pw string) (bool, error) {
	return subtle.ConstantTimeCompare([]byte(encoded), []byte("plain$"+pw)) == 1, nil
}

type noOTP struct{}

func (noOTP) NewSecret(string, string) (string, string, error) { return "", "", nil }
func (noOTP) Validate(string, string) bool                     { return false }

type wallClock struct{}

func (wallClock) Now() time.Time { return time.Now() }

const (
	benchSecret   = "0123456789abcdef0123456789abcdef01234567"
	benchPassword = "correct horse battery staple"
)

// newBenchAuth is an Authenticator over one user with one token, and the
// token's id.
// newBenchAuth returns an Authenticator over in-memory stores, with its
// token cache so that a benchmark can empty it.
func newBenchAuth(b *testing.B) (*auth.Authenticator, *auth.TokenCache) {
	b.Helper()
	u := &user.User{
		ID: 1, Name: "alice", LowerName: "alice", Kind: user.KindIndividual, Email: "alice@example.com",
		PasswordHash: "plain$" + benchPassword, PasswordVersion: 1, IsActive: true, Visibility: user.VisibilityPublic,
	}
	t := &token.AccessToken{
		ID: 7, UserID: 1, Name: "bench", Salt: "salt", Hash: token.HashSecret("salt", benchSecret),
		LastEight: token.LastEightOf(benchSecret), Scopes: token.Scopes{"read:user"},
	}
	stores := ports.Stores{
		Users:  &memUsers{byID: map[int64]*user.User{1: u}, byName: map[string]*user.User{"alice": u}},
		Tokens: &memTokens{byLastEight: map[string][]*token.AccessToken{t.LastEight: {t}}},
	}
	log := slog.New(slog.DiscardHandler)
	clock := wallClock{}
	tokens := auth.NewTokenCache(clock, 10*time.Second)
	a := auth.NewAuthenticator(stores, plainHasher{}, noOTP{},
		auth.NewVerifierCache(clock, 5*time.Minute), tokens,
		auth.NewLastUsedRecorder(clock, stores, log), auth.Options{}, log)
	return a, tokens
}

func authenticate(b *testing.B, a *auth.Authenticator, c auth.Credentials) {
	caller, err := a.Authenticate(context.Background(), c)
	if err != nil || caller.User == nil {
		b.Fatalf("authenticate: %v", err)
	}
}

// BenchmarkAuthenticateToken is a token in the Authorization header, found in
// the token cache (hit) or looked up by its last eight characters, checked
// against its salted hash and cached again (miss).
func BenchmarkAuthenticateToken(b *testing.B) {
	c := auth.Credentials{HeaderToken: benchSecret}
	b.Run("cache-hit", func(b *testing.B) {
		a, _ := newBenchAuth(b)
		authenticate(b, a, c) // fills the cache
		b.ReportAllocs()
		for b.Loop() {
			authenticate(b, a, c)
		}
	})
	b.Run("cache-hit-parallel", func(b *testing.B) {
		a, _ := newBenchAuth(b)
		authenticate(b, a, c)
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if _, err := a.Authenticate(context.Background(), c); err != nil {
					b.Error(err)
					return
				}
			}
		})
	})
	b.Run("cache-miss", func(b *testing.B) {
		a, tokens := newBenchAuth(b)
		b.ReportAllocs()
		for b.Loop() {
			tokens.Forget(7)
			authenticate(b, a, c)
		}
	})
}

// BenchmarkAuthenticateBasic is HTTP Basic with the account password once the
// verifier cache holds it: an HMAC of the password instead of the KDF.
func BenchmarkAuthenticateBasic(b *testing.B) {
	c := auth.Credentials{Basic: true, BasicUser: "alice", BasicPassword: benchPassword}
	b.Run("verifier-hit", func(b *testing.B) {
		a, _ := newBenchAuth(b)
		authenticate(b, a, c)
		b.ReportAllocs()
		for b.Loop() {
			authenticate(b, a, c)
		}
	})
	b.Run("verifier-hit-parallel", func(b *testing.B) {
		a, _ := newBenchAuth(b)
		authenticate(b, a, c)
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if _, err := a.Authenticate(context.Background(), c); err != nil {
					b.Error(err)
					return
				}
			}
		})
	})
	b.Run("token-as-password", func(b *testing.B) {
		a, _ := newBenchAuth(b)
		tc := auth.Credentials{Basic: true, BasicUser: "alice", BasicPassword: benchSecret}
		authenticate(b, a, tc)
		b.ReportAllocs()
		for b.Loop() {
			authenticate(b, a, tc)
		}
	})
}
