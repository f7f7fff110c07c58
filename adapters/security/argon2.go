package security

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"golang.org/x/crypto/argon2"

	"github.com/depothq/depot/ports"
)

var _ ports.PasswordHasher = (*Argon2idHasher)(nil)

// ErrMalformedHash is returned by Verify when the stored hash is not a PHC
// argon2id string this package can read. It points at corrupt data, not at a
// wrong password, so callers should treat it as an internal failure.
var ErrMalformedHash = errors.New("security: malformed argon2id hash")

// Bounds on parameters read back from a stored hash, so that a corrupt or
// planted row cannot make Verify allocate gigabytes or spin for minutes.
const (
	maxMemoryKiB = 1 << 21 // 2 GiB, RFC 9106's first recommended option
	maxTime      = 64
	minSaltLen   = 8  // RFC 9106 asks for at least 8 bytes; we write 16
	minKeyLen    = 16 // shorter tags make forgery by guessing plausible
	maxKeyLen    = 1024
)

// Argon2Params are the Argon2id cost parameters used for new hashes. Old
// hashes keep the parameters written into their encoding, so these may be
// raised later without invalidating stored passwords.
type Argon2Params struct {
	// Memory is the memory cost in KiB.
	Memory uint32
	// Time is the number of passes over the memory.
	Time uint32
	// Threads is the degree of parallelism.
	Threads uint8
	// SaltLen is the length of the random salt in bytes.
	SaltLen uint32
	// KeyLen is the length of the derived key in bytes.
	KeyLen uint32
}

// DefaultArgon2Params returns OWASP's minimum recommendation for Argon2id
// (19 MiB, 2 passes, 1 thread) with a 16-byte salt and a 32-byte key. It is
// a function rather than a variable so no caller can change it for everyone.
func DefaultArgon2Params() Argon2Params {
	return Argon2Params{Memory: 19 * 1024, Time: 2, Threads: 1, SaltLen: 16, KeyLen: 32}
}

// Argon2idHasher implements ports.PasswordHasher with Argon2id, encoding
// hashes in the PHC string format:
//
//	$argon2id$v=19$m=<KiB>,t=<passes>,p=<threads>$<salt>$<hash>
//
// where salt and hash are unpadded standard base64, as the reference
// implementation and most other libraries write them.
type Argon2idHasher struct {
	params Argon2Params
	// arena bounds concurrent derivations and returns their memory after
	// a burst (argon2_memory.go).
	arena *argon2Arena
}

// NewArgon2idHasher returns a hasher that hashes with p. Zero fields of p take
// the value from DefaultArgon2Params, so tests can lower only the costs.
func NewArgon2idHasher(p Argon2Params) *Argon2idHasher {
	d := DefaultArgon2Params()
	if p.Memory == 0 {
		p.Memory = d.Memory
	}
	if p.Time == 0 {
		p.Time = d.Time
	}
	if p.Threads == 0 {
		p.Threads = d.Threads
	}
	if p.SaltLen == 0 {
		p.SaltLen = d.SaltLen
	}
	if p.KeyLen == 0 {
		p.KeyLen = d.KeyLen
	}
	return &Argon2idHasher{params: p, arena: newArgon2Arena()}
}

// Params returns the parameters used for new hashes.
func (h *Argon2idHasher) Params() Argon2Params { return h.params }

// Hash derives a key from password with a fresh random salt and returns the
// PHC-encoded result.
func (h *Argon2idHasher) Hash(password string) (string, error) {
	salt := make([]byte, h.params.SaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", fmt.Errorf("security: reading salt: %w", err)
	}
	key := h.arena.derive(func() []byte {
		return argon2.IDKey([]byte(password), salt, h.params.Time, h.params.Memory, h.params.Threads, h.params.KeyLen)
	})
	return encodeArgon2id(h.params, salt, key), nil
}

// Verify reports whether password matches encoded, using the parameters
// written in encoded rather than the hasher's own. A mismatch is (false, nil);
// an unreadable hash is an error wrapping ErrMalformedHash.
func (h *Argon2idHasher) Verify(encoded, password string) (bool, error) {
	p, salt, key, err := decodeArgon2id(encoded)
	if err != nil {
		return false, err
	}
	got := h.arena.derive(func() []byte {
		return argon2.IDKey([]byte(password), salt, p.Time, p.Memory, p.Threads, p.KeyLen)
	})
	return subtle.ConstantTimeCompare(got, key) == 1, nil
}

// NeedsRehash reports whether encoded was made with parameters other than the
// hasher's, so that a caller who has just verified the password can store a
// fresh hash. A malformed hash needs rehashing too.
func (h *Argon2idHasher) NeedsRehash(encoded string) bool {
	p, salt, _, err := decodeArgon2id(encoded)
	if err != nil {
		return true
	}
	p.SaltLen = uint32(len(salt))
	return p != h.params
}

func encodeArgon2id(p Argon2Params, salt, key []byte) string {
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s",
		argon2.Version, p.Memory, p.Time, p.Threads, b64.EncodeToString(salt), b64.EncodeToString(key))
}

// decodeArgon2id parses a PHC argon2id string. The returned params have
// KeyLen set from the hash; SaltLen is left zero (the salt itself is returned).
func decodeArgon2id(encoded string) (Argon2Params, []byte, []byte, error) {
	var p Argon2Params
	malformed := func(why string) (Argon2Params, []byte, []byte, error) {
		return p, nil, nil, fmt.Errorf("%w: %s", ErrMalformedHash, why)
	}

	parts := strings.Split(encoded, "$")
	// "", "argon2id", "v=19", "m=..,t=..,p=..", salt, hash
	if len(parts) != 6 || parts[0] != "" {
		return malformed("want 5 $-separated fields")
	}
	if parts[1] != "argon2id" {
		return malformed(fmt.Sprintf("algorithm %q is not argon2id", parts[1]))
	}
	v, ok := strings.CutPrefix(parts[2], "v=")
	if !ok {
		return malformed("missing version")
	}
	if n, err := strconv.Atoi(v); err != nil || n != argon2.Version {
		return malformed(fmt.Sprintf("unsupported version %q", v))
	}

	var seen [3]bool
	for _, kv := range strings.Split(parts[3], ",") {
		k, val, ok := strings.Cut(kv, "=")
		if !ok {
			return malformed(fmt.Sprintf("parameter %q has no value", kv))
		}
		n, err := strconv.ParseUint(val, 10, 32)
		if err != nil {
			return malformed(fmt.Sprintf("parameter %s=%q is not a number", k, val))
		}
		switch k {
		case "m":
			p.Memory, seen[0] = uint32(n), true
		case "t":
			p.Time, seen[1] = uint32(n), true
		case "p":
			if n > 255 {
				return malformed("parallelism over 255")
			}
			p.Threads, seen[2] = uint8(n), true
		default:
			return malformed(fmt.Sprintf("unknown parameter %q", k))
		}
	}
	if !seen[0] || !seen[1] || !seen[2] {
		return malformed("want parameters m, t and p")
	}
	switch {
	case p.Time < 1 || p.Time > maxTime:
		return malformed(fmt.Sprintf("time %d out of range", p.Time))
	case p.Threads < 1:
		return malformed("parallelism below 1")
	case p.Memory < 8*uint32(p.Threads) || p.Memory > maxMemoryKiB:
		return malformed(fmt.Sprintf("memory %d KiB out of range", p.Memory))
	}

	salt, err := base64.RawStdEncoding.Strict().DecodeString(parts[4])
	if err != nil {
		return malformed("salt is not unpadded base64")
	}
	key, err := base64.RawStdEncoding.Strict().DecodeString(parts[5])
	if err != nil {
		return malformed("hash is not unpadded base64")
	}
	if len(salt) < minSaltLen {
		return malformed("salt too short")
	}
	if len(key) < minKeyLen || len(key) > maxKeyLen {
		return malformed(fmt.Sprintf("hash length %d out of range", len(key)))
	}
	p.KeyLen = uint32(len(key))
	return p, salt, key, nil
}
