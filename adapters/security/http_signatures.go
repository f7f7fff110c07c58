package security

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/42wim/httpsig"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// HTTP signatures (draft-cavage-http-signatures, as Gitea and the
// ActivityPub servers use them): a Signature header (or "Authorization:
// Signature …") names the key (keyId), the signed headers and the
// signature. This file reads that header, checks that the signature is
// fresh and not replayed, that a signed Digest matches the body, and has
// github.com/42wim/httpsig check the signature itself.

// SignatureSkew is how far a signature's time (its (created) parameter or
// its signed Date header) may be from the server's clock either way; a
// signature is remembered for twice that, so that it cannot be replayed
// while it is fresh.
const SignatureSkew = 5 * time.Minute

// maxSignatureHeader bounds the Signature header parsed.
const maxSignatureHeader = 8 << 10

// maxRememberedSignatures bounds the replay memory; past it, expired entries
// are dropped, and while it stays full new signatures are refused (each
// entry took a valid signature, so only key holders can fill it).
const maxRememberedSignatures = 1 << 17

// Signature is a parsed Signature header.
type Signature struct {
	KeyID     string
	Algorithm string
	// Headers are the signed headers, lower case, in order; "date" when the
	// header names none (the draft's default).
	Headers []string
	// Created and Expires are the (created) and (expires) parameters, Unix
	// seconds; zero when absent.
	Created, Expires int64
	Signature        string
}

// Signs reports whether the signature covers header h (lower case).
func (s Signature) Signs(h string) bool {
	for _, x := range s.Headers {
		if x == h {
			return true
		}
	}
	return false
}

var errNoSignature = errs.Unauthenticated("request signature is missing")

// SignatureOf reads the request's Signature header, or an Authorization
// header of the Signature scheme. A request with neither answers ok false.
func SignatureOf(h http.Header) (sig Signature, ok bool, err error) {
	raw := h.Get("Signature")
	if raw == "" {
		a := h.Get("Authorization")
		scheme, rest, _ := strings.Cut(a, " ")
		if !strings.EqualFold(scheme, "Signature") {
			return Signature{}, false, nil
		}
		raw = rest
	}
	sig, err = ParseSignature(raw)
	return sig, true, err
}

// ParseSignature parses the parameters of a Signature header: a
// comma-separated list of name="value" (or name=digits for created and
// expires). keyId and signature are required.
func ParseSignature(raw string) (Signature, error) {
	bad := func(why string) (Signature, error) {
		return Signature{}, errs.Unauthenticated("malformed request signature: " + why)
	}
	if len(raw) > maxSignatureHeader {
		return bad("too long")
	}
	var s Signature
	seen := map[string]bool{}
	rest := strings.TrimSpace(raw)
	for rest != "" {
		name, after, found := strings.Cut(rest, "=")
		if !found {
			return bad("parameter without a value")
		}
		name = strings.ToLower(strings.TrimSpace(name))
		if name == "" || seen[name] {
			return bad("empty or repeated parameter")
		}
		seen[name] = true
		var value string
		if strings.HasPrefix(after, `"`) {
			end := strings.IndexByte(after[1:], '"')
			if end < 0 {
				return bad("unterminated value")
			}
			value, rest = after[1:1+end], after[2+end:]
		} else {
			end := strings.IndexByte(after, ',')
			if end < 0 {
				end = len(after)
			}
			value, rest = strings.TrimSpace(after[:end]), after[end:]
		}
		rest = strings.TrimSpace(rest)
		if rest != "" {
			if rest[0] != ',' {
				return bad("parameters must be separated by commas")
			}
			rest = strings.TrimSpace(rest[1:])
		}
		switch name {
		case "keyid":
			s.KeyID = value
		case "algorithm":
			s.Algorithm = strings.ToLower(value)
		case "headers":
			s.Headers = strings.Fields(strings.ToLower(value))
		case "signature":
			s.Signature = value
		case "created", "expires":
			n, err := strconv.ParseInt(value, 10, 64)
			if err != nil || n <= 0 {
				return bad(name + " is not a time")
			}
			if name == "created" {
				s.Created = n
			} else {
				s.Expires = n
			}
		}
	}
	if s.KeyID == "" {
		return bad("keyId is missing")
	}
	if s.Signature == "" {
		return bad("signature is missing")
	}
	if _, err := base64.StdEncoding.DecodeString(s.Signature); err != nil {
		return bad("signature is not base64")
	}
	if len(s.Headers) == 0 {
		s.Headers = []string{"date"}
	}
	return s, nil
}

// SignatureChecker checks signed requests: freshness, replay, digest and
// the signature itself. It is safe for concurrent use.
type SignatureChecker struct {
	clock ports.Clock

	mu   sync.Mutex
	seen map[string]time.Time
}

// NewSignatureChecker builds a checker reading the time from clock.
func NewSignatureChecker(clock ports.Clock) *SignatureChecker {
	return &SignatureChecker{clock: clock, seen: map[string]time.Time{}}
}

// Verify checks that sig, read from r, is fresh, covers the request line
// (and, when body is not nil, a Digest header that matches body), was made
// with pub, and has not been seen before. Every refusal is
// errs.ErrUnauthenticated.
func (c *SignatureChecker) Verify(r *http.Request, sig Signature, body []byte, pub crypto.PublicKey) error {
	if err := c.fresh(r, sig); err != nil {
		return err
	}
	if !sig.Signs("(request-target)") {
		return errs.Unauthenticated("request signature must cover (request-target)")
	}
	if body != nil {
		if !sig.Signs("digest") {
			return errs.Unauthenticated("request signature must cover the Digest header")
		}
		if !digestMatches(r.Header.Get("Digest"), body) {
			return errs.Unauthenticated("the Digest header does not match the body")
		}
	}
	v, err := httpsig.NewVerifier(r)
	if err != nil {
		return errs.Unauthenticated("malformed request signature")
	}
	verified := false
	for _, algo := range algorithmsFor(pub) {
		if v.Verify(pub, algo) == nil {
			verified = true
			break
		}
	}
	if !verified {
		return errs.Unauthenticated("request signature verification failed")
	}
	return c.remember(sig)
}

// fresh refuses a signature whose time is not signed, lies outside the
// skew, or has expired.
func (c *SignatureChecker) fresh(r *http.Request, sig Signature) error {
	now := c.clock.Now()
	var at time.Time
	switch {
	case sig.Signs("(created)") && sig.Created != 0:
		at = time.Unix(sig.Created, 0)
	case sig.Signs("date"):
		d, err := http.ParseTime(r.Header.Get("Date"))
		if err != nil {
			return errs.Unauthenticated("the Date header is missing or malformed")
		}
		at = d
	default:
		return errs.Unauthenticated("request signature must cover the Date header or (created)")
	}
	if at.Before(now.Add(-SignatureSkew)) || at.After(now.Add(SignatureSkew)) {
		return errs.Unauthenticated("request signature has expired or is not yet valid")
	}
	if sig.Signs("(expires)") && (sig.Expires == 0 || time.Unix(sig.Expires, 0).Before(now)) {
		return errs.Unauthenticated("request signature has expired")
	}
	return nil
}

// remember records sig until it could no longer pass as fresh, refusing
// one already recorded: a replay.
func (c *SignatureChecker) remember(sig Signature) error {
	now := c.clock.Now()
	c.mu.Lock()
	defer c.mu.Unlock()
	if until, ok := c.seen[sig.Signature]; ok && now.Before(until) {
		return errs.Unauthenticated("request signature was already used")
	}
	if len(c.seen) >= maxRememberedSignatures {
		for k, until := range c.seen {
			if !now.Before(until) {
				delete(c.seen, k)
			}
		}
		if len(c.seen) >= maxRememberedSignatures {
			return errs.Unauthenticated("too many signed requests; retry later")
		}
	}
	c.seen[sig.Signature] = now.Add(2 * SignatureSkew)
	return nil
}

// algorithmsFor lists the algorithms a key of pub's kind may have signed
// with (the deprecated algorithm parameter is not trusted).
func algorithmsFor(pub crypto.PublicKey) []httpsig.Algorithm {
	switch k := pub.(type) {
	case *rsa.PublicKey:
		return []httpsig.Algorithm{httpsig.RSA_SHA256, httpsig.RSA_SHA512}
	case ed25519.PublicKey:
		return []httpsig.Algorithm{httpsig.ED25519}
	case *ecdsa.PublicKey:
		switch k.Curve.Params().BitSize {
		case 384:
			return []httpsig.Algorithm{httpsig.ECDSA_SHA384}
		case 521:
			return []httpsig.Algorithm{httpsig.ECDSA_SHA512}
		}
		return []httpsig.Algorithm{httpsig.ECDSA_SHA256}
	}
	return nil
}

// digestMatches reports whether a Digest header (RFC 3230:
// "SHA-256=base64", several comma-separated) names body's SHA-256 or
// SHA-512; every supported entry must match, and one must be there.
func digestMatches(header string, body []byte) bool {
	matched := false
	for _, part := range strings.Split(header, ",") {
		algo, value, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			return false
		}
		var sum []byte
		switch strings.ToUpper(algo) {
		case "SHA-256":
			s := sha256.Sum256(body)
			sum = s[:]
		case "SHA-512":
			s := sha512.Sum512(body)
			sum = s[:]
		default:
			continue
		}
		got, err := base64.StdEncoding.DecodeString(value)
		if err != nil || !bytes.Equal(got, sum) {
			return false
		}
		matched = true
	}
	return matched
}

// ParsePublicKeyPEM reads a PKIX "PUBLIC KEY" PEM block (an ActivityPub
// actor's publicKeyPem).
func ParsePublicKeyPEM(s string) (crypto.PublicKey, error) {
	block, _ := pem.Decode([]byte(s))
	if block == nil || block.Type != "PUBLIC KEY" {
		return nil, errors.New("not a PUBLIC KEY PEM block")
	}
	return x509.ParsePKIXPublicKey(block.Bytes)
}
