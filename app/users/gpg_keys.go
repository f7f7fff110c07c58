package users

import (
	"context"
	"errors"
	"strings"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// GPGKeys are the use cases of accounts' OpenPGP keys.
type GPGKeys struct{ *Service }

// GPGKeys returns the OpenPGP key use cases.
func (s *Service) GPGKeys() GPGKeys { return GPGKeys{s} }

// GPGKeyView is a key with its addresses, each marked whether it is one of
// the owner's activated addresses now.
type GPGKeyView struct {
	Key       *user.GPGKey
	Addresses []user.GPGKeyEmail
}

// The fields of the request bodies, for 422 answers.
const (
	gpgKeyField       = "armored_public_key"
	gpgSignatureField = "armored_signature"
)

// List lists one page of owner's primary keys with their subkeys as c may
// see them; an account c may not see is absent.
func (s GPGKeys) List(ctx context.Context, c auth.Caller, owner *user.User, opts ports.ListOptions) ([]GPGKeyView, int64, error) {
	if !user.CanSee(Viewer(c), owner) {
		return nil, 0, errs.NotFound("user does not exist")
	}
	keys, total, err := s.stores.GPGKeys.List(ctx, owner.ID, opts)
	if err != nil {
		return nil, 0, err
	}
	views, err := s.views(ctx, s.stores, owner.ID, keys)
	return views, total, err
}

// Get returns one of ownerID's keys; another account's key is absent.
func (s GPGKeys) Get(ctx context.Context, ownerID, id int64) (GPGKeyView, error) {
	k, err := s.stores.GPGKeys.Get(ctx, ownerID, id)
	if err != nil {
		return GPGKeyView{}, err
	}
	views, err := s.views(ctx, s.stores, ownerID, []*user.GPGKey{k})
	if err != nil {
		return GPGKeyView{}, err
	}
	return views[0], nil
}

// Token is the text owner signs now to prove holding a key.
func (s GPGKeys) Token(owner *user.User) string {
	return user.GPGVerificationToken(owner, s.clock.Now(), 1)
}

// Add registers the keys of an armored public key block for owner and
// returns the first. With a signature, it must be a key's detached
// signature over the current token (or the previous minute's), and only
// that key is added, verified, whatever its addresses; without one, each key
// must carry one of owner's activated addresses (user.CheckNewGPGKey). A
// key id any account registered is a 422, as in Gitea.
func (s GPGKeys) Add(ctx context.Context, owner *user.User, armored, signature string) (GPGKeyView, error) {
	if !user.CanHoldKeys(owner) {
		return GPGKeyView{}, errs.NotFound("user does not exist")
	}
	keys, err := s.gpg.Read(gpgKeyField, armored)
	if err != nil {
		return GPGKeyView{}, err
	}
	now := s.clock.Now()
	token := user.GPGVerificationToken(owner, now, 1)
	signed := strings.TrimSpace(signature) != ""
	if signed {
		signer, err := s.gpg.SignerOf(armored, signature, user.GPGTokenMessages(owner, now))
		if err != nil {
			return GPGKeyView{}, signatureError(err, token)
		}
		keys = keepKey(keys, signer)
	}
	var views []GPGKeyView
	err = s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		owned, err := tx.Emails.ListByUser(ctx, owner.ID)
		if err != nil {
			return err
		}
		for _, k := range keys {
			if err := user.CheckNewGPGKey(gpgKeyField, k, owned, signed, token, now); err != nil {
				return err
			}
			k.OwnerID, k.Verified = owner.ID, signed
			if err := tx.GPGKeys.Create(ctx, k); err != nil {
				return errs.AsInvalid(err, errs.ErrConflict, gpgKeyField)
			}
		}
		views, err = s.views(ctx, tx, owner.ID, keys)
		return err
	})
	if err != nil {
		return GPGKeyView{}, err
	}
	return views[0], nil
}

// Verify marks owner's key keyID verified when signature is its detached
// signature over the current token (or the previous minute's). Key ids
// are compared upper case, left-padded with zeros to 16 digits.
func (s GPGKeys) Verify(ctx context.Context, owner *user.User, keyID, signature string) (GPGKeyView, error) {
	keyID = strings.ToUpper(strings.TrimSpace(keyID))
	if keyID == "" || len(keyID) > 16 {
		return GPGKeyView{}, errs.NotFound("GPG key does not exist")
	}
	keyID = strings.Repeat("0", 16-len(keyID)) + keyID
	k, err := s.stores.GPGKeys.GetByKeyID(ctx, owner.ID, keyID)
	if err != nil {
		return GPGKeyView{}, err
	}
	now := s.clock.Now()
	token := user.GPGVerificationToken(owner, now, 1)
	signer, err := s.gpg.SignerOf(k.Armored, signature, user.GPGTokenMessages(owner, now))
	if err != nil {
		return GPGKeyView{}, signatureError(err, token)
	}
	if signer != k.KeyID {
		return GPGKeyView{}, user.SignatureMismatch(gpgSignatureField, token)
	}
	if err := s.stores.GPGKeys.MarkVerified(ctx, k.ID); err != nil {
		return GPGKeyView{}, err
	}
	return s.Get(ctx, owner.ID, k.ID)
}

// Delete removes one of ownerID's keys with its subkeys; another account's
// key is absent.
func (s GPGKeys) Delete(ctx context.Context, ownerID, id int64) error {
	return s.stores.GPGKeys.Delete(ctx, ownerID, id)
}

// views pairs keys with the owner's addresses, read once.
func (s GPGKeys) views(ctx context.Context, stores ports.Stores, ownerID int64, keys []*user.GPGKey) ([]GPGKeyView, error) {
	owned, err := stores.Emails.ListByUser(ctx, ownerID)
	if err != nil {
		return nil, err
	}
	out := make([]GPGKeyView, 0, len(keys))
	for _, k := range keys {
		out = append(out, GPGKeyView{Key: k, Addresses: user.GPGKeyEmails(k.Emails, owned)})
	}
	return out, nil
}

// signatureError answers a signature that does not check with the token to
// sign; other errors pass through.
func signatureError(err error, token string) error {
	if errors.Is(err, user.ErrGPGSignatureMismatch) {
		return user.SignatureMismatch(gpgSignatureField, token)
	}
	return err
}

// keepKey keeps the key whose id is keyID (the signer is one of keys).
func keepKey(keys []*user.GPGKey, keyID string) []*user.GPGKey {
	for _, k := range keys {
		if k.KeyID == keyID {
			return []*user.GPGKey{k}
		}
	}
	return keys[:1]
}
