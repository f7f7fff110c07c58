package auth

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/token"
	"github.com/depothq/depot/domain/user"
)

// DefaultLookupWait is Options.LookupWait's default: a token lookup is two
// indexed reads, so one that takes this long waited behind something else
// (a read pool whose connections are all taken), and the request fails
// with that cause in the log instead of waiting until its client gives up.
const DefaultLookupWait = 10 * time.Second

// tokenLookups makes the requests that miss the token cache for the same
// secret at once — every request of a busy client when its entry expires —
// share one lookup: two reads for all of them instead of two each, which
// on SQLite would otherwise queue the whole burst on the few read
// connections.
type tokenLookups struct {
	group singleflight.Group
	wait  time.Duration
}

// tokenFound is a shared lookup's answer.
type tokenFound struct {
	tok  *token.AccessToken
	user *user.User
}

// lookupToken finds the token of secret and its user, and caches them. The
// lookup runs under its own deadline (a.lookups.wait), not under the
// request's, so that the requests sharing it do not fail with the one that
// started it; each request still stops waiting when its own ctx ends.
func (a *Authenticator) lookupToken(ctx context.Context, secret string) (*token.AccessToken, *user.User, error) {
	sum := sha256.Sum256([]byte(secret))
	ch := a.lookups.group.DoChan(string(sum[:]), func() (any, error) {
		lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), a.lookups.wait)
		defer cancel()
		started := time.Now()
		t, err := a.findToken(lctx, secret)
		if err != nil {
			return nil, a.lookupFailed(lctx, started, err)
		}
		u, err := a.users.GetByID(lctx, t.UserID)
		if err != nil {
			if errors.Is(err, errs.ErrNotFound) {
				return nil, errs.Unauthenticated(msgBadCredentials)
			}
			return nil, a.lookupFailed(lctx, started, err)
		}
		a.tokenMemo.Put(secret, t, u)
		return tokenFound{tok: t, user: u}, nil
	})
	select {
	case res := <-ch:
		if res.Err != nil {
			return nil, nil, res.Err
		}
		f := res.Val.(tokenFound)
		// Every sharer gets a user of its own to change, as from the cache.
		u := *f.user
		return f.tok, &u, nil
	case <-ctx.Done():
		return nil, nil, ctx.Err()
	}
}

// lookupFailed names a lookup that ran out of time as such; the store's
// error says what it waited for.
func (a *Authenticator) lookupFailed(lctx context.Context, started time.Time, err error) error {
	if lctx.Err() != nil {
		return fmt.Errorf("auth: token lookup gave up after %s: %w", time.Since(started).Round(time.Millisecond), err)
	}
	return err
}
