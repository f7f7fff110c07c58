package user

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"time"

	"github.com/depothq/depot/domain/errs"
)

// GPGKey is an OpenPGP public key an account registered: a primary key
// with its subkeys, the e-mail addresses of its identities, and what it may
// be used for. KeyID is the 16-digit upper-case hex key id; a subkey names
// its primary in PrimaryKeyID. Armored is the block the key came in (kept on
// the primary only), so its signatures can be checked again later.
type GPGKey struct {
	ID                int64
	OwnerID           int64
	KeyID             string
	PrimaryKeyID      string
	Content           string // base64 of the public key packet
	Armored           string
	Emails            []string // the identities' addresses, lower case, not revoked
	Subkeys           []*GPGKey
	CanSign           bool
	CanEncryptComms   bool
	CanEncryptStorage bool
	CanCertify        bool
	Verified          bool
	Created           time.Time
	Expires           time.Time // zero: never
}

// GPGKeyEmail is one address of a key's identities and whether it counts
// as the owner's: one of the owner's activated addresses.
type GPGKeyEmail struct {
	Email    string
	Verified bool
}

var (
	// ErrGPGKeyInUse is a key id some account already registered (Gitea's
	// ErrGPGKeyIDAlreadyUsed, a 422).
	ErrGPGKeyInUse = errs.Conflict("A key with the same id already exists")
	// ErrGPGKeyNoEmail is a key none of whose addresses is one of the
	// owner's activated addresses, added without a signature (Gitea's 404);
	// CheckNewGPGKey's answer adds the token to sign.
	ErrGPGKeyNoEmail = errs.NotFound("None of the emails attached to the GPG key could be found. It may still be added if you provide a valid signature for the token: ")
	// ErrGPGSignatureMismatch is a signature that is not the key's over the
	// current token, nor over the previous minute's; SignatureMismatch
	// turns it into the answer naming the token to sign.
	ErrGPGSignatureMismatch = errs.Conflict("The provided GPG key, signature and token do not match or token is out of date. Provide a valid signature for the token: ")
)

// GPGKeyEmails pairs the key's addresses with whether each is one of the
// owner's activated addresses (compared case-insensitively), in the key's
// order.
func GPGKeyEmails(keyEmails []string, owned []*Email) []GPGKeyEmail {
	active := make(map[string]bool, len(owned))
	for _, e := range owned {
		if e.Activated {
			active[strings.ToLower(e.Email)] = true
		}
	}
	out := make([]GPGKeyEmail, 0, len(keyEmails))
	for _, addr := range keyEmails {
		out = append(out, GPGKeyEmail{Email: addr, Verified: active[strings.ToLower(addr)]})
	}
	return out
}

// CheckNewGPGKey decides whether k may be added for its owner, whose
// addresses are owned, at now. A key that expired is refused (422 naming
// field); a key proven by a signature over the token is accepted whatever
// its addresses; otherwise one of its addresses must be one of the owner's
// activated ones, as in Gitea, or the answer is a 404 that repeats token.
func CheckNewGPGKey(field string, k *GPGKey, owned []*Email, signed bool, token string, now time.Time) error {
	if !k.Expires.IsZero() && !k.Expires.After(now) {
		return errs.Invalid("the key "+k.KeyID+" expired on "+k.Expires.UTC().Format(time.RFC3339), field)
	}
	if signed {
		return nil
	}
	for _, e := range GPGKeyEmails(k.Emails, owned) {
		if e.Verified {
			return nil
		}
	}
	return errs.NotFound(errs.Message(ErrGPGKeyNoEmail) + token)
}

// SignatureMismatch is ErrGPGSignatureMismatch as a 422 naming field and the
// token to sign.
func SignatureMismatch(field, token string) error {
	return errs.Invalid(errs.Message(ErrGPGSignatureMismatch)+token, field)
}

// gpgTokenLayout is the time format the token hashes (RFC 1123 with a
// numeric zone), as Gitea's VerificationToken.
const gpgTokenLayout = time.RFC1123Z

// GPGVerificationToken is the text an account signs to prove it holds a
// key: a SHA-256 over the minute (now truncated to the minute, shifted by
// minutes) and the account's creation time, name, primary address and id,
// as Gitea's VerificationToken. A token stays valid for the minute it was
// issued in and the next one.
func GPGVerificationToken(u *User, now time.Time, minutes int) string {
	window := now.Truncate(time.Minute).Add(time.Duration(minutes) * time.Minute)
	sum := sha256.Sum256([]byte(window.Format(gpgTokenLayout) + ":" + u.Created.Format(gpgTokenLayout) + ":" +
		u.Name + ":" + u.Email + ":" + strconv.FormatInt(u.ID, 10)))
	return hex.EncodeToString(sum[:])
}

// GPGTokenMessages are the texts a signature over the token may cover: the
// token issued now and the one of the minute before, each bare or with the
// line end a signing tool may add.
func GPGTokenMessages(u *User, now time.Time) []string {
	var out []string
	for _, minutes := range []int{1, 0} {
		t := GPGVerificationToken(u, now, minutes)
		out = append(out, t, t+"\n", t+"\r\n", t+"\n\n")
	}
	return out
}

// GPGKeyVouchesFor reports whether k, a key of the account whose addresses
// are owned, may verify a commit whose committer address is committerEmail:
// the address must be one of the account's activated ones, and the key
// either proven by a signature over the token or listing that address
// (Gitea's check before it hashes a commit's signature).
func GPGKeyVouchesFor(k *GPGKey, committerEmail string, owned []*Email) bool {
	if !AddressActivated(committerEmail, owned) {
		return false
	}
	if k.Verified {
		return true
	}
	for _, addr := range k.Emails {
		if strings.EqualFold(addr, committerEmail) {
			return true
		}
	}
	return false
}

// AddressActivated reports whether addr is one of owned, activated (any
// case).
func AddressActivated(addr string, owned []*Email) bool {
	for _, e := range owned {
		if e.Activated && strings.EqualFold(e.Email, addr) {
			return true
		}
	}
	return false
}
