package actions

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"time"
)

// RunnerToken is the registration token runners of one scope present to
// register: an account's (OwnerID), a repository's (RepoID) or, with
// neither, the whole site's. It stays valid until the scope's token is
// reset. Only its hash is matched; the token itself is kept sealed so the
// scope's admins can read it again.
type RunnerToken struct {
	ID      int64
	Scope   Scope
	Hash    string
	Sealed  string
	Created time.Time
}

// NewRunnerTokenSecret returns a fresh registration token: 40 hex digits
// (160 random bits), as long as Gitea's.
func NewRunnerTokenSecret() string {
	b := make([]byte, 20)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go ≥ 1.24)
	return hex.EncodeToString(b)
}

// HashRunnerToken is the stored form of a runner registration token.
func HashRunnerToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}
