package ports

import "time"

// PasswordHasher hashes passwords with a slow KDF and checks them in constant time.
type PasswordHasher interface {
	Hash(password string) (string, error)
	// Verify reports whether password matches the encoded hash.
	Verify(encoded, password string) (bool, error)
}

// SecretGenerator makes random secrets.
type SecretGenerator interface {
	// TokenSecret returns 40 random lowercase hex characters.
	TokenSecret() (string, error)
	// Salt returns a random salt string.
	Salt() (string, error)
	// Password returns a random password fit to print once.
	Password() (string, error)
}

// OneTimeCodes checks and enrols time-based one-time passwords.
type OneTimeCodes interface {
	// NewSecret creates a secret for account and returns it with its otpauth:// URI.
	NewSecret(issuer, account string) (secret, uri string, err error)
	// Validate reports whether code is valid for secret now.
	Validate(secret, code string) bool
}

// Clock tells the time, so that tests can set it.
type Clock interface {
	Now() time.Time
}
