package security

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"strconv"
	"time"

	"github.com/depothq/depot/domain/actions"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
	"github.com/golang-jwt/jwt/v5"
)

// ActionsSigner implements ports.ActionsSigner with HMAC-SHA256 under keys
// derived from the site key: one for artifact URLs, one for the runtime
// tokens (HS256 JWTs, as Gitea's ACTIONS_RUNTIME_TOKEN).
type ActionsSigner struct {
	urlKey, tokenKey []byte
}

var _ ports.ActionsSigner = (*ActionsSigner)(nil)

// NewActionsSigner derives the signing keys from the site key.
func NewActionsSigner(siteKey []byte) *ActionsSigner {
	derive := func(label string) []byte {
		m := hmac.New(sha256.New, siteKey)
		m.Write([]byte("depot actions " + label))
		return m.Sum(nil)
	}
	return &ActionsSigner{urlKey: derive("artifact url"), tokenKey: derive("runtime token")}
}

func (s *ActionsSigner) mac(msg string) []byte {
	m := hmac.New(sha256.New, s.urlKey)
	m.Write([]byte(msg))
	return m.Sum(nil)
}

// SignURL signs msg, as URL-safe base64 without padding.
func (s *ActionsSigner) SignURL(msg string) string {
	return base64.RawURLEncoding.EncodeToString(s.mac(msg))
}

// VerifyURL checks sig against msg in constant time.
func (s *ActionsSigner) VerifyURL(msg, sig string) bool {
	got, err := base64.RawURLEncoding.DecodeString(sig)
	return err == nil && hmac.Equal(got, s.mac(msg))
}

// runtimeClaims is the runtime token's body: Gitea's scope claim naming
// the run and job, and the task, job and run ids.
type runtimeClaims struct {
	jwt.RegisteredClaims
	Scope  string `json:"scp"`
	TaskID int64  `json:"TaskID"`
	RunID  int64  `json:"RunID"`
	JobID  int64  `json:"JobID"`
}

// RuntimeToken issues a task's runtime token valid until exp.
func (s *ActionsSigner) RuntimeToken(c actions.RuntimeClaims, exp time.Time) (string, error) {
	now := time.Now()
	t := jwt.NewWithClaims(jwt.SigningMethodHS256, runtimeClaims{
		RegisteredClaims: jwt.RegisteredClaims{ExpiresAt: jwt.NewNumericDate(exp), IssuedAt: jwt.NewNumericDate(now),
			NotBefore: jwt.NewNumericDate(now.Add(-time.Minute))},
		Scope:  "Actions.Results:" + strconv.FormatInt(c.RunID, 10) + ":" + strconv.FormatInt(c.JobID, 10),
		TaskID: c.TaskID, RunID: c.RunID, JobID: c.JobID,
	})
	raw, err := t.SignedString(s.tokenKey)
	if err != nil {
		return "", fmt.Errorf("security: sign runtime token: %w", err)
	}
	return raw, nil
}

// ParseRuntimeToken checks a runtime token and returns its claims.
func (s *ActionsSigner) ParseRuntimeToken(raw string, now time.Time) (actions.RuntimeClaims, error) {
	var c runtimeClaims
	_, err := jwt.ParseWithClaims(raw, &c, func(*jwt.Token) (any, error) { return s.tokenKey, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}), jwt.WithTimeFunc(func() time.Time { return now }),
		jwt.WithExpirationRequired())
	if err != nil || c.TaskID <= 0 || c.RunID <= 0 || c.JobID <= 0 {
		return actions.RuntimeClaims{}, errs.Unauthenticated("invalid runtime token")
	}
	return actions.RuntimeClaims{TaskID: c.TaskID, JobID: c.JobID, RunID: c.RunID}, nil
}
