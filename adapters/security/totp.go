package security

import (
	"fmt"
	"strings"

	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"

	"github.com/depothq/depot/ports"
)

var _ ports.OneTimeCodes = (*TOTP)(nil)

// TOTP implements ports.OneTimeCodes with RFC 6238 codes as authenticator
// apps expect them: HMAC-SHA1, 6 digits, a 30-second period and a 20-byte
// secret. Validation accepts the previous and next period too (skew 1) to
// absorb clock drift between server and phone.
//
// It uses github.com/pquerna/otp, the well-kept standard Go TOTP/HOTP
// library (also used by Gitea), rather than hand-rolled HMAC code.
//
// TOTP does not remember used codes: refusing a replayed code within its
// window is the caller's job.
type TOTP struct {
	clock ports.Clock
}

// NewTOTP returns a TOTP that reads the time from clock; a nil clock means
// SystemClock.
func NewTOTP(clock ports.Clock) *TOTP {
	if clock == nil {
		clock = SystemClock{}
	}
	return &TOTP{clock: clock}
}

func totpOpts() totp.ValidateOpts {
	return totp.ValidateOpts{Period: 30, Skew: 1, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1}
}

// NewSecret creates a random secret for account at issuer and returns it in
// unpadded base32 together with its otpauth:// URI for a QR code.
func (t *TOTP) NewSecret(issuer, account string) (secret, uri string, err error) {
	o := totpOpts()
	key, err := totp.Generate(totp.GenerateOpts{
		Issuer:      issuer,
		AccountName: account,
		Period:      o.Period,
		SecretSize:  20,
		Digits:      o.Digits,
		Algorithm:   o.Algorithm,
	})
	if err != nil {
		return "", "", fmt.Errorf("security: generating TOTP secret: %w", err)
	}
	return key.Secret(), key.URL(), nil
}

// Validate reports whether code is valid for secret at the clock's time.
// A malformed secret or code is simply not valid.
func (t *TOTP) Validate(secret, code string) bool {
	ok, err := totp.ValidateCustom(strings.TrimSpace(code), secret, t.clock.Now(), totpOpts())
	return err == nil && ok
}
