package security

import (
	"bytes"
	"encoding/base64"
	"sort"
	"strings"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp"
	"github.com/ProtonMail/go-crypto/openpgp/armor"
	"github.com/ProtonMail/go-crypto/openpgp/packet"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

var _ ports.GPGKeys = GPGKeys{}

// maxArmoredGPGKeyLen bounds the input before parsing: a key with a
// photo identity is tens of KiB; a megabyte is no key anyone signs with.
const maxArmoredGPGKeyLen = 1 << 20

// GPGKeys implements ports.GPGKeys with ProtonMail's go-crypto. Its
// signature checks keep the key rings they parsed (see keyRings), so a
// commit page that checks fifty commits of one committer parses the
// committer's key once; the zero value parses every time.
type GPGKeys struct{ rings *keyRings }

// NewGPGKeys returns a GPGKeys with a cache of parsed key rings.
func NewGPGKeys() GPGKeys { return GPGKeys{rings: newKeyRings(keyRingCacheSize)} }

// CacheStats counts the key ring cache's lookups, for the metrics page;
// nil for the zero value, which keeps nothing.
func (k GPGKeys) CacheStats() *ports.CacheStats {
	if k.rings == nil {
		return nil
	}
	return k.rings.stats
}

// Read reads an armored public key block. Entities that repeat a primary
// key are merged into the first (their new subkeys and identities added),
// as Gitea does. A private key block is refused, so that a secret pasted by
// mistake is never stored. Errors say why the block is unreadable without
// repeating it.
func (GPGKeys) Read(field, armored string) ([]*user.GPGKey, error) {
	armored = strings.TrimSpace(armored)
	if armored == "" {
		return nil, errs.Invalid("Required", field)
	}
	if len(armored) > maxArmoredGPGKeyLen {
		return nil, errs.Invalid("the key is too large", field)
	}
	block, err := armor.Decode(strings.NewReader(armored))
	if err != nil {
		return nil, errs.Invalid("no armored public key block found", field)
	}
	if block.Type != openpgp.PublicKeyType {
		return nil, errs.Invalid("expected a "+openpgp.PublicKeyType+" block, got "+block.Type, field)
	}
	list, err := openpgp.ReadKeyRing(block.Body)
	if err != nil {
		return nil, errs.Invalid("unable to read the key: "+err.Error(), field)
	}
	var out []*user.GPGKey
	byID := map[string]*user.GPGKey{}
	for _, e := range list {
		if e.PrimaryKey == nil {
			continue
		}
		k, err := gpgKeyOf(e)
		if err != nil {
			return nil, errs.Invalid("unable to read the key: "+err.Error(), field)
		}
		if first, ok := byID[k.KeyID]; ok {
			mergeGPGKey(first, k)
			continue
		}
		k.Armored = armored
		byID[k.KeyID] = k
		out = append(out, k)
	}
	if len(out) == 0 {
		return nil, errs.Invalid("the block holds no public key", field)
	}
	return out, nil
}

// gpgKeyOf turns an entity into a key: its primary, its subkeys (expiring
// with their own binding signature, or else with the primary) and the
// addresses of its identities that are not revoked.
func gpgKeyOf(e *openpgp.Entity) (*user.GPGKey, error) {
	now := time.Now()
	pk := e.PrimaryKey
	content, err := packetBase64(pk)
	if err != nil {
		return nil, err
	}
	expires := primaryExpiry(e)
	k := &user.GPGKey{
		KeyID: pk.KeyIdString(), Content: content, Created: pk.CreationTime, Expires: expires,
		CanSign: pk.CanSign(), CanEncryptComms: pk.PubKeyAlgo.CanEncrypt(),
		CanEncryptStorage: pk.PubKeyAlgo.CanEncrypt(), CanCertify: pk.PubKeyAlgo.CanSign(),
	}
	seen := map[string]bool{}
	for _, name := range sortedIdentityNames(e) {
		id := e.Identities[name]
		if id.UserId == nil || id.Revoked(now) {
			continue
		}
		addr := strings.ToLower(strings.TrimSpace(id.UserId.Email))
		if addr != "" && !seen[addr] {
			seen[addr] = true
			k.Emails = append(k.Emails, addr)
		}
	}
	for _, sk := range e.Subkeys {
		if sk.PublicKey == nil {
			continue
		}
		sub, err := subkeyOf(k.KeyID, sk, expires)
		if err != nil {
			return nil, err
		}
		k.Subkeys = append(k.Subkeys, sub)
	}
	return k, nil
}

func subkeyOf(primaryID string, sk openpgp.Subkey, primaryExpires time.Time) (*user.GPGKey, error) {
	content, err := packetBase64(sk.PublicKey)
	if err != nil {
		return nil, err
	}
	expires := primaryExpires
	if sk.Sig != nil && sk.Sig.KeyLifetimeSecs != nil && *sk.Sig.KeyLifetimeSecs != 0 {
		expires = sk.PublicKey.CreationTime.Add(time.Duration(*sk.Sig.KeyLifetimeSecs) * time.Second)
	}
	return &user.GPGKey{
		KeyID: sk.PublicKey.KeyIdString(), PrimaryKeyID: primaryID, Content: content,
		Created: sk.PublicKey.CreationTime, Expires: expires,
		CanSign: sk.PublicKey.CanSign(), CanEncryptComms: sk.PublicKey.PubKeyAlgo.CanEncrypt(),
		CanEncryptStorage: sk.PublicKey.PubKeyAlgo.CanEncrypt(), CanCertify: sk.PublicKey.PubKeyAlgo.CanSign(),
	}, nil
}

// primaryExpiry is when the primary key expires by its primary identity's
// self-signature (or its direct-key signature); zero is never.
func primaryExpiry(e *openpgp.Entity) time.Time {
	var sig *packet.Signature
	if id := e.PrimaryIdentity(); id != nil {
		sig = id.SelfSignature
	}
	if sig == nil {
		sig = e.SelfSignature
	}
	if sig == nil || sig.KeyLifetimeSecs == nil || *sig.KeyLifetimeSecs == 0 {
		return time.Time{}
	}
	return e.PrimaryKey.CreationTime.Add(time.Duration(*sig.KeyLifetimeSecs) * time.Second)
}

// mergeGPGKey adds to first the subkeys and addresses of a repetition of
// the same primary key that it lacks.
func mergeGPGKey(first, again *user.GPGKey) {
	for _, sub := range again.Subkeys {
		if !hasSubkey(first, sub.KeyID) {
			first.Subkeys = append(first.Subkeys, sub)
		}
	}
	for _, addr := range again.Emails {
		found := false
		for _, have := range first.Emails {
			found = found || have == addr
		}
		if !found {
			first.Emails = append(first.Emails, addr)
		}
	}
}

func hasSubkey(k *user.GPGKey, keyID string) bool {
	for _, s := range k.Subkeys {
		if s.KeyID == keyID {
			return true
		}
	}
	return false
}

func packetBase64(pk *packet.PublicKey) (string, error) {
	var buf bytes.Buffer
	if err := pk.Serialize(&buf); err != nil {
		return "", err
	}
	return base64.StdEncoding.EncodeToString(buf.Bytes()), nil
}

// SignerOf checks the armored detached signature against each message
// with the keys of armored, and returns the key id of the primary key of
// the entity that made it.
func (g GPGKeys) SignerOf(armored, signature string, messages []string) (string, error) {
	if len(armored) > maxArmoredGPGKeyLen || len(signature) > maxArmoredGPGKeyLen {
		return "", user.ErrGPGSignatureMismatch
	}
	list, err := g.rings.parse(armored)
	if err != nil {
		return "", user.ErrGPGSignatureMismatch
	}
	for _, m := range messages {
		signer, err := openpgp.CheckArmoredDetachedSignature(list, strings.NewReader(m), strings.NewReader(signature), nil)
		if err == nil && signer != nil && signer.PrimaryKey != nil {
			return signer.PrimaryKey.KeyIdString(), nil
		}
	}
	return "", user.ErrGPGSignatureMismatch
}

// sortedIdentityNames lists an entity's identities in a stable order (the
// map has none), so a key's addresses read the same every time: the
// primary identity first, then the others by name.
func sortedIdentityNames(e *openpgp.Entity) []string {
	primary := ""
	if id := e.PrimaryIdentity(); id != nil {
		primary = id.Name
	}
	names := make([]string, 0, len(e.Identities))
	for name := range e.Identities {
		if name != primary {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	if primary != "" {
		names = append([]string{primary}, names...)
	}
	return names
}
