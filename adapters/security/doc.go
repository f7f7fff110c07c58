// Package security holds the adapters for the security ports: password
// hashing with Argon2id, random secrets from crypto/rand, TOTP one-time codes
// and the system clock. Nothing here touches storage; callers persist what
// these return.
package security
