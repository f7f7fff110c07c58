package http

import (
	"net/http"
	"strconv"
	"time"

	"github.com/depothq/depot/app/users"
	"github.com/depothq/depot/domain/user"
)

// gpgKeys serves accounts' OpenPGP keys: the caller's own, another
// account's list, and the token whose signature proves holding a key
// (catalogue 4.4).
type gpgKeys struct{ *kernel }

// gpgKeyRoutes are the rows of gpgKeys.
func (s *kernel) gpgKeyRoutes() []route {
	h := gpgKeys{s}
	return []route{
		{"GET", "/users/{username}/gpg_keys", scopes(catUser), "T", h.listUserKeys},
		{"GET", "/user/gpg_keys", scopes(catUser), "T", h.listMyKeys},
		{"POST", "/user/gpg_keys", scopes(catUser), "T", h.addMyKey},
		{"GET", "/user/gpg_keys/{id}", scopes(catUser), "T", h.getMyKey},
		{"DELETE", "/user/gpg_keys/{id}", scopes(catUser), "T", h.deleteMyKey},
		{"GET", "/user/gpg_key_token", scopes(catUser), "T", h.getToken},
		{"POST", "/user/gpg_key_verify", scopes(catUser), "T", h.verifyMyKey},
	}
}

// createGPGKeyBody is Gitea's CreateGPGKeyOption.
type createGPGKeyBody struct {
	ArmoredKey string `json:"armored_public_key"`
	Signature  string `json:"armored_signature"`
}

// verifyGPGKeyBody is Gitea's VerifyGPGKeyOption.
type verifyGPGKeyBody struct {
	KeyID     string `json:"key_id"`
	Signature string `json:"armored_signature"`
}

// listUserKeys answers GET /users/{username}/gpg_keys.
func (s gpgKeys) listUserKeys(q *request) error { return s.writeList(q, q.subject) }

// listMyKeys answers GET /user/gpg_keys.
func (s gpgKeys) listMyKeys(q *request) error { return s.writeList(q, q.caller.User) }

func (s gpgKeys) writeList(q *request, owner *user.User) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	list, total, err := s.users.GPGKeys().List(q.r.Context(), q.caller, owner, opts)
	if err != nil {
		return err
	}
	s.setPaging(q.w, q.r, opts, total)
	out := make([]gpgKeyDTO, 0, len(list))
	for _, v := range list {
		out = append(out, toGPGKey(v))
	}
	q.json(http.StatusOK, out)
	return nil
}

// getMyKey answers GET /user/gpg_keys/{id}: one of the caller's primary
// keys; another account's key, or a subkey's id, is 404.
func (s gpgKeys) getMyKey(q *request) error {
	id, err := pathID(q, "id")
	if err != nil {
		return err
	}
	v, err := s.users.GPGKeys().Get(q.r.Context(), q.caller.UserID(), id)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, toGPGKey(v))
	return nil
}

// addMyKey answers POST /user/gpg_keys with 201 and the (first) key added.
func (s gpgKeys) addMyKey(q *request) error {
	var b createGPGKeyBody
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	v, err := s.users.GPGKeys().Add(q.r.Context(), q.caller.User, b.ArmoredKey, b.Signature)
	if err != nil {
		return err
	}
	q.json(http.StatusCreated, toGPGKey(v))
	return nil
}

// deleteMyKey answers DELETE /user/gpg_keys/{id} with 204; another
// account's key is 404 (Gitea answers 204 for a key it did not find).
func (s gpgKeys) deleteMyKey(q *request) error {
	id, err := pathID(q, "id")
	if err != nil {
		return err
	}
	return noContent(q, s.users.GPGKeys().Delete(q.r.Context(), q.caller.UserID(), id))
}

// getToken answers GET /user/gpg_key_token with the token to sign, as
// text/plain.
func (s gpgKeys) getToken(q *request) error {
	token := s.users.GPGKeys().Token(q.caller.User)
	h := q.w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(token)))
	q.w.WriteHeader(http.StatusOK)
	_, _ = q.w.Write([]byte(token)) // a failed write means the client left
	return nil
}

// verifyMyKey answers POST /user/gpg_key_verify with 200 and the key, now
// verified (Gitea's code answers 200, its swagger 201).
func (s gpgKeys) verifyMyKey(q *request) error {
	var b verifyGPGKeyBody
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	v, err := s.users.GPGKeys().Verify(q.r.Context(), q.caller.User, b.KeyID, b.Signature)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, toGPGKey(v))
	return nil
}

// gpgKeyDTO is Gitea's GPGKey; subkeys carry no addresses and no subkeys.
type gpgKeyDTO struct {
	ID                int64            `json:"id"`
	PrimaryKeyID      string           `json:"primary_key_id"`
	KeyID             string           `json:"key_id"`
	PublicKey         string           `json:"public_key"`
	Emails            []gpgKeyEmailDTO `json:"emails"`
	SubsKey           []gpgKeyDTO      `json:"subkeys"`
	CanSign           bool             `json:"can_sign"`
	CanEncryptComms   bool             `json:"can_encrypt_comms"`
	CanEncryptStorage bool             `json:"can_encrypt_storage"`
	CanCertify        bool             `json:"can_certify"`
	Verified          bool             `json:"verified"`
	Created           time.Time        `json:"created_at"`
	Expires           time.Time        `json:"expires_at"`
}

// gpgKeyEmailDTO is Gitea's GPGKeyEmail.
type gpgKeyEmailDTO struct {
	Email    string `json:"email"`
	Verified bool   `json:"verified"`
}

func toGPGKey(v users.GPGKeyView) gpgKeyDTO {
	d := gpgKeyFields(v.Key)
	d.Emails = make([]gpgKeyEmailDTO, 0, len(v.Addresses))
	for _, e := range v.Addresses {
		d.Emails = append(d.Emails, gpgKeyEmailDTO(e))
	}
	d.SubsKey = make([]gpgKeyDTO, 0, len(v.Key.Subkeys))
	for _, sub := range v.Key.Subkeys {
		sd := gpgKeyFields(sub)
		sd.Emails, sd.SubsKey = []gpgKeyEmailDTO{}, []gpgKeyDTO{}
		d.SubsKey = append(d.SubsKey, sd)
	}
	return d
}

// gpgKeyFields renders what a primary key and a subkey share. A key that
// never expires shows the zero time, as Gitea's does (its Unix zero).
func gpgKeyFields(k *user.GPGKey) gpgKeyDTO {
	return gpgKeyDTO{
		ID: k.ID, PrimaryKeyID: k.PrimaryKeyID, KeyID: k.KeyID, PublicKey: k.Content,
		CanSign: k.CanSign, CanEncryptComms: k.CanEncryptComms, CanEncryptStorage: k.CanEncryptStorage,
		CanCertify: k.CanCertify, Verified: k.Verified, Created: k.Created.UTC(), Expires: k.Expires.UTC(),
	}
}
