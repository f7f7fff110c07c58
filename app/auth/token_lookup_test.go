package auth_test

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/domain/token"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
	"github.com/depothq/depot/test/testkit"
)

// gatedTokens is a token store whose lookups wait for gate (or for their
// ctx, as a database's do), counting them.
type gatedTokens struct {
	memTokens
	gate     chan struct{}
	calls    atomic.Int32
	inFlight atomic.Int32
}

func (s *gatedTokens) FindByLastEight(ctx context.Context, lastEight string) ([]*token.AccessToken, error) {
	s.calls.Add(1)
	s.inFlight.Add(1)
	defer s.inFlight.Add(-1)
	select {
	case <-s.gate:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return s.memTokens.FindByLastEight(ctx, lastEight)
}

func newGatedAuth(t *testing.T, wait time.Duration) (*auth.Authenticator, *gatedTokens) {
	t.Helper()
	u := &user.User{ID: 1, Name: "alice", LowerName: "alice", Kind: user.KindIndividual, IsActive: true,
		Visibility: user.VisibilityPublic}
	tok := &token.AccessToken{ID: 7, UserID: 1, Name: "t", Salt: "salt", Hash: token.HashSecret("salt", benchSecret),
		LastEight: token.LastEightOf(benchSecret), Scopes: token.Scopes{"read:user"}}
	tokens := &gatedTokens{memTokens: memTokens{byLastEight: map[string][]*token.AccessToken{tok.LastEight: {tok}}},
		gate: make(chan struct{})}
	stores := ports.Stores{Users: &memUsers{byID: map[int64]*user.User{1: u}, byName: map[string]*user.User{"alice": u}},
		Tokens: tokens}
	log := slog.New(slog.DiscardHandler)
	clock := wallClock{}
	a := auth.NewAuthenticator(stores, plainHasher{}, noOTP{}, auth.NewVerifierCache(clock, time.Minute),
		auth.NewTokenCache(clock, 10*time.Second), auth.NewLastUsedRecorder(clock, stores, log),
		auth.Options{LookupWait: wait}, log)
	return a, tokens
}

// TestTokenLookupIsSharedByABurst: the requests of a burst that miss the
// token cache at once share one lookup, so the burst does not queue on the
// database's few read connections.
func TestTokenLookupIsSharedByABurst(t *testing.T) {
	is := is.New(t)
	a, tokens := newGatedAuth(t, time.Minute)
	const burst = 32
	var started, wg sync.WaitGroup
	started.Add(burst)
	errs := make([]error, burst)
	for i := range burst {
		wg.Go(func() {
			started.Done()
			c, err := a.Authenticate(context.Background(), auth.Credentials{HeaderToken: benchSecret})
			if err == nil && (c.User == nil || c.User.Name != "alice") {
				err = context.Canceled // any wrong answer fails below
			}
			errs[i] = err
		})
	}
	started.Wait()
	testkit.Eventually(t, "the lookup to start", func() bool { return tokens.inFlight.Load() == 1 })
	close(tokens.gate)
	wg.Wait()
	for _, err := range errs {
		is.NoErr(err)
	}
	// One lookup served the burst; a request that missed the cache just as
	// the lookup ended may make a second, never one each.
	is.True(tokens.calls.Load() <= 2)
}

// TestTokenLookupWaitIsBounded: a lookup that the database does not answer
// fails after LookupWait with that cause, rather than holding the request
// until its client gives up; a request that gives up first stops waiting
// at once.
func TestTokenLookupWaitIsBounded(t *testing.T) {
	is := is.New(t)
	a, tokens := newGatedAuth(t, 100*time.Millisecond)
	_ = tokens // never opened: the database does not answer
	start := time.Now()
	_, err := a.Authenticate(context.Background(), auth.Credentials{HeaderToken: benchSecret})
	is.True(err != nil)
	is.True(strings.Contains(err.Error(), "token lookup gave up"))
	is.True(time.Since(start) < 5*time.Second)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = a.Authenticate(ctx, auth.Credentials{HeaderToken: benchSecret})
	is.Equal(err, context.Canceled)
}
