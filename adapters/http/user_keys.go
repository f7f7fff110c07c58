package http

import (
	"net/http"
	"time"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/domain/user"
)

// userKeys serves accounts' SSH public keys: the caller's own, another
// account's, and a site admin's on an account's behalf (catalogue 4.4 and 4.9).
type userKeys struct{ *kernel }

// userKeyRoutes are the rows of userKeys.
func (s *kernel) userKeyRoutes() []route {
	h := userKeys{s}
	return []route{
		{"GET", "/users/{username}/keys", scopes(catUser), "T", h.listUserKeys},
		{"GET", "/user/keys", scopes(catUser), "T", h.listMyKeys},
		{"POST", "/user/keys", scopes(catUser), "T", h.addMyKey},
		{"GET", "/user/keys/{id}", scopes(catUser), "T", h.getMyKey},
		{"DELETE", "/user/keys/{id}", scopes(catUser), "T", h.deleteMyKey},
		{"POST", "/admin/users/{username}/keys", scopes(catAdmin), "T,SA", h.adminAddKey},
		{"DELETE", "/admin/users/{username}/keys/{id}", scopes(catAdmin), "T,SA", h.adminDeleteKey},
	}
}

// createKeyBody is Gitea's CreateKeyOption. read_only is accepted and
// ignored: it only means something for deploy keys.
type createKeyBody struct {
	Title    string `json:"title"`
	Key      string `json:"key"`
	ReadOnly bool   `json:"read_only"`
}

// listUserKeys answers GET /users/{username}/keys (?fingerprint).
func (s userKeys) listUserKeys(q *request) error { return s.writeKeyList(q, q.subject) }

// listMyKeys answers GET /user/keys (?fingerprint). Unlike Gitea, a
// fingerprint looks among the caller's own keys only; /users/{username}/keys
// is the place to look at someone else's.
func (s userKeys) listMyKeys(q *request) error { return s.writeKeyList(q, q.caller.User) }

func (s userKeys) writeKeyList(q *request, owner *user.User) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	list, total, err := s.users.Keys().List(q.r.Context(), q.caller, owner, q.r.URL.Query().Get("fingerprint"), opts)
	if err != nil {
		return err
	}
	s.setPaging(q.w, q.r, opts, total)
	q.json(http.StatusOK, s.toPublicKeys(q.caller, owner, list))
	return nil
}

// getMyKey answers GET /user/keys/{id}: one of the caller's keys (Gitea
// shows any account's key here; another account's key is 404 in Depot).
func (s userKeys) getMyKey(q *request) error {
	id, err := pathID(q, "id")
	if err != nil {
		return err
	}
	k, err := s.users.Keys().Get(q.r.Context(), q.caller.UserID(), id)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, s.toPublicKey(q.caller, q.caller.User, k))
	return nil
}

// addMyKey answers POST /user/keys with 201 and the key.
func (s userKeys) addMyKey(q *request) error { return s.addKey(q, q.caller.User) }

// adminAddKey answers POST /admin/users/{username}/keys with 201 and the key.
func (s userKeys) adminAddKey(q *request) error { return s.addKey(q, q.subject) }

func (s userKeys) addKey(q *request, owner *user.User) error {
	var b createKeyBody
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	k, err := s.users.Keys().Add(q.r.Context(), owner, b.Title, b.Key)
	if err != nil {
		return err
	}
	q.json(http.StatusCreated, s.toPublicKey(q.caller, owner, k))
	return nil
}

// deleteMyKey answers DELETE /user/keys/{id} with 204; another account's
// key is 404 (Gitea answers 403, which tells the id exists).
func (s userKeys) deleteMyKey(q *request) error {
	id, err := pathID(q, "id")
	if err != nil {
		return err
	}
	return noContent(q, s.users.Keys().Delete(q.r.Context(), q.caller.UserID(), id))
}

// adminDeleteKey answers DELETE /admin/users/{username}/keys/{id} with 204;
// a key of another account than the one named is 404.
func (s userKeys) adminDeleteKey(q *request) error {
	id, err := pathID(q, "id")
	if err != nil {
		return err
	}
	return noContent(q, s.users.Keys().Delete(q.r.Context(), q.subject.ID, id))
}

// publicKeyDTO is Gitea's PublicKey.
type publicKeyDTO struct {
	ID          int64     `json:"id"`
	Key         string    `json:"key"`
	URL         string    `json:"url,omitempty"`
	Title       string    `json:"title,omitempty"`
	Fingerprint string    `json:"fingerprint,omitempty"`
	Created     time.Time `json:"created_at"`
	LastUsed    time.Time `json:"last_used_at"`
	Owner       *userDTO  `json:"user,omitempty"`
	// ReadOnly is always false for an account's key (it grants the
	// account's own access); Gitea keeps the field for its shared key table.
	ReadOnly bool   `json:"read_only,omitempty"`
	KeyType  string `json:"key_type,omitempty"`
}

// keyTypeUser is Gitea's key_type of an account's key.
const keyTypeUser = "user"

// toPublicKey renders owner's key k for caller c. The owner and the key type
// are private information, shown to the owner and to site admins only, as
// Gitea's appendPrivateInformation does. URLs point at /user/keys/{id}
// whoever owns the key, as in Gitea.
func (s userKeys) toPublicKey(c auth.Caller, owner *user.User, k *user.PublicKey) publicKeyDTO {
	d := publicKeyDTO{
		ID: k.ID, Key: k.Content, URL: s.baseURL + apiPrefix + "/user/keys/" + itoa(k.ID), Title: k.Title,
		Fingerprint: k.Fingerprint, Created: k.Created.UTC(), LastUsed: k.LastUsed.UTC(),
	}
	if c.IsAdmin() || c.UserID() == k.OwnerID {
		o := s.toUser(c, owner)
		d.Owner, d.KeyType = &o, keyTypeUser
	}
	return d
}

func (s userKeys) toPublicKeys(c auth.Caller, owner *user.User, list []*user.PublicKey) []publicKeyDTO {
	out := make([]publicKeyDTO, 0, len(list))
	for _, k := range list {
		out = append(out, s.toPublicKey(c, owner, k))
	}
	return out
}
