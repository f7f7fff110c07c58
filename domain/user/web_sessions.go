package user

import "time"

// Web sessions are the browser's sign-in to Depot's own pages (the sign-in
// form, the OAuth2 consent page). The browser holds a random token in a
// cookie; the server keeps only its hash, so a copy of the table signs no
// one in.

// Lifetimes of web sessions.
const (
	// WebSessionLifetime is how long a signed-in session lasts.
	WebSessionLifetime = 24 * time.Hour
	// WebSessionPendingLifetime is how long an anonymous session (the
	// sign-in form's) or one waiting for its one-time code lasts.
	WebSessionPendingLifetime = 15 * time.Minute
)

// WebSession is one browser's session.
type WebSession struct {
	ID int64
	// TokenHash is the hex SHA-256 of the cookie's token.
	TokenHash string
	// UserID is the signed-in account, 0 before sign-in.
	UserID int64
	// PendingUserID is the account whose password was right and whose
	// one-time code is awaited, 0 otherwise.
	PendingUserID int64
	Created       time.Time
	Expires       time.Time
}

// Expired reports whether the session is no longer good at now.
func (s *WebSession) Expired(now time.Time) bool { return !now.Before(s.Expires) }
