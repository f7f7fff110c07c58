package auth

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"strings"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// Messages of the sign-in pages.
const (
	MsgWebBadCredentials = "Username or password is incorrect."
	MsgWebBadPasscode    = "Passcode incorrect."
)

// WebSessions are browsers' sessions on Depot's own pages: a random token
// in a cookie, its hash in the store. Every browser that opens the sign-in
// form gets an anonymous session, whose token its form's CSRF token is
// bound to; signing in (and the one-time code step) replaces the session
// with a new one, so a token planted before sign-in is worth nothing after.
type WebSessions struct {
	auth    *Authenticator
	stores  ports.Stores
	tx      ports.Transactor
	secrets ports.SecretGenerator
	clock   ports.Clock
}

// NewWebSessions builds the sessions over the Authenticator's password and
// one-time code checks.
func NewWebSessions(a *Authenticator, stores ports.Stores, tx ports.Transactor, secrets ports.SecretGenerator,
	clock ports.Clock) *WebSessions {
	return &WebSessions{auth: a, stores: stores, tx: tx, secrets: secrets, clock: clock}
}

// WebSession is a browser's session as a request finds it.
type WebSession struct {
	// Token is the cookie's value.
	Token string
	*user.WebSession
	// User is the signed-in account, nil before sign-in.
	User *user.User
}

// SignedIn reports whether the session belongs to an account.
func (s *WebSession) SignedIn() bool { return s != nil && s.User != nil }

// AwaitsPasscode reports whether the password was right and the one-time
// code is awaited.
func (s *WebSession) AwaitsPasscode() bool { return s != nil && s.PendingUserID != 0 }

// Caller is the session's account as a caller.
func (s *WebSession) Caller() Caller {
	if !s.SignedIn() {
		return Caller{}
	}
	return Caller{User: s.User, Method: MethodWebSession}
}

// CSRFToken is the token the session's forms carry: a hash of the session
// token under a label of its own, so it reveals nothing of the cookie and
// no other session's forms carry it.
func (s *WebSession) CSRFToken() string { return csrfToken(s.Token) }

// CheckCSRF reports, in constant time, whether got is the session's CSRF token.
func (s *WebSession) CheckCSRF(got string) bool {
	if s == nil || got == "" {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(csrfToken(s.Token)), []byte(got)) == 1
}

func csrfToken(sessionToken string) string {
	sum := sha256.Sum256([]byte("depot-csrf\x00" + sessionToken))
	return hex.EncodeToString(sum[:])
}

func hashSessionToken(t string) string {
	sum := sha256.Sum256([]byte(t))
	return hex.EncodeToString(sum[:])
}

// Open finds the session whose token the cookie holds; nil (and no error)
// when there is none, or it expired, or its account is gone.
func (w *WebSessions) Open(ctx context.Context, tok string) (*WebSession, error) {
	if tok == "" || len(tok) > 128 {
		return nil, nil
	}
	ws, err := w.stores.WebSessions.GetByHash(ctx, hashSessionToken(tok))
	if errors.Is(err, errs.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if ws.Expired(w.clock.Now()) {
		return nil, nil
	}
	s := &WebSession{Token: tok, WebSession: ws}
	if ws.UserID != 0 {
		u, err := w.stores.Users.GetByID(ctx, ws.UserID)
		if errors.Is(err, errs.ErrNotFound) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		s.User = u
	}
	return s, nil
}

// Start makes an anonymous session, and sweeps the expired ones.
func (w *WebSessions) Start(ctx context.Context) (*WebSession, error) {
	return w.replace(ctx, nil, 0, 0)
}

// replace ends old (when not nil) and makes a new session for userID or,
// awaiting the one-time code, for pendingID.
func (w *WebSessions) replace(ctx context.Context, old *WebSession, userID, pendingID int64) (*WebSession, error) {
	tok, err := w.secrets.TokenSecret()
	if err != nil {
		return nil, err
	}
	now := w.clock.Now()
	life := user.WebSessionPendingLifetime
	if userID != 0 {
		life = user.WebSessionLifetime
	}
	ws := &user.WebSession{TokenHash: hashSessionToken(tok), UserID: userID, PendingUserID: pendingID,
		Created: now, Expires: now.Add(life)}
	err = w.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		if old != nil {
			if err := tx.WebSessions.Delete(ctx, old.ID); err != nil {
				return err
			}
		}
		if err := tx.WebSessions.DeleteExpired(ctx, now); err != nil {
			return err
		}
		return tx.WebSessions.Create(ctx, ws)
	})
	if err != nil {
		return nil, err
	}
	return &WebSession{Token: tok, WebSession: ws}, nil
}

// SignIn checks the login (a username or an e-mail address) and password.
// Right, it replaces the session with a signed-in one or, when the account
// has two-factor sign-in, with one awaiting the one-time code. Wrong, it is
// an ErrUnauthenticated error and the session stays as it was.
func (w *WebSessions) SignIn(ctx context.Context, s *WebSession, login, password string) (*WebSession, error) {
	u, err := w.findLogin(ctx, strings.TrimSpace(login))
	if err != nil {
		return nil, err
	}
	if u == nil || !w.auth.passwordMatches(u, password) {
		return nil, errs.Unauthenticated(MsgWebBadCredentials)
	}
	if u.HasTwoFactor() {
		return w.replace(ctx, s, 0, u.ID)
	}
	next, err := w.replace(ctx, s, u.ID, 0)
	if err != nil {
		return nil, err
	}
	next.User = u
	return next, nil
}

// findLogin finds the individual account with the name, or with the
// activated e-mail address; nil when none.
func (w *WebSessions) findLogin(ctx context.Context, login string) (*user.User, error) {
	if login == "" {
		return nil, nil
	}
	var (
		u   *user.User
		err error
	)
	if strings.Contains(login, "@") {
		var e *user.Email
		e, err = w.stores.Emails.GetByEmail(ctx, login)
		if err == nil && !e.Activated {
			return nil, nil
		}
		if err == nil {
			u, err = w.stores.Users.GetByID(ctx, e.UserID)
		}
	} else {
		u, err = w.stores.Users.GetByName(ctx, login)
	}
	if errors.Is(err, errs.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if u.Kind != user.KindIndividual {
		return nil, nil
	}
	return u, nil
}

// VerifyPasscode checks the one-time code of the account whose password
// was right, and replaces the session with a signed-in one.
func (w *WebSessions) VerifyPasscode(ctx context.Context, s *WebSession, code string) (*WebSession, error) {
	if !s.AwaitsPasscode() {
		return nil, errs.Unauthenticated(MsgWebBadPasscode)
	}
	u, err := w.stores.Users.GetByID(ctx, s.PendingUserID)
	if err != nil {
		if errors.Is(err, errs.ErrNotFound) {
			return nil, errs.Unauthenticated(MsgWebBadPasscode)
		}
		return nil, err
	}
	if !u.HasTwoFactor() || !w.auth.otp.Validate(u.TOTPSecret, strings.TrimSpace(code)) {
		return nil, errs.Unauthenticated(MsgWebBadPasscode)
	}
	next, err := w.replace(ctx, s, u.ID, 0)
	if err != nil {
		return nil, err
	}
	next.User = u
	return next, nil
}

// SignOut ends the session.
func (w *WebSessions) SignOut(ctx context.Context, s *WebSession) error {
	if s == nil {
		return nil
	}
	return w.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		return tx.WebSessions.Delete(ctx, s.ID)
	})
}
