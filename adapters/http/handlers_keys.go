package http

import (
	"net/http"

	"github.com/depothq/depot/domain/user"
)

// keyRoutes are the rows of accounts' SSH public keys (catalogue 4.4 and 4.9).
func (s *kernel) keyRoutes() []route {
	return []route{
		{"GET", "/users/{username}/keys", scopes(catUser), "T", s.listUserKeys},
		{"GET", "/user/keys", scopes(catUser), "T", s.listMyKeys},
		{"POST", "/user/keys", scopes(catUser), "T", s.addMyKey},
		{"GET", "/user/keys/{id}", scopes(catUser), "T", s.getMyKey},
		{"DELETE", "/user/keys/{id}", scopes(catUser), "T", s.deleteMyKey},
		{"POST", "/admin/users/{username}/keys", scopes(catAdmin), "T,SA", s.adminAddKey},
		{"DELETE", "/admin/users/{username}/keys/{id}", scopes(catAdmin), "T,SA", s.adminDeleteKey},
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
func (s *kernel) listUserKeys(q *request) error { return s.writeKeyList(q, q.subject) }

// listMyKeys answers GET /user/keys (?fingerprint). Unlike Gitea, a
// fingerprint looks among the caller's own keys only; /users/{username}/keys
// is the place to look at someone else's.
func (s *kernel) listMyKeys(q *request) error { return s.writeKeyList(q, q.caller.User) }

func (s *kernel) writeKeyList(q *request, owner *user.User) error {
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
func (s *kernel) getMyKey(q *request) error {
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
func (s *kernel) addMyKey(q *request) error { return s.addKey(q, q.caller.User) }

// adminAddKey answers POST /admin/users/{username}/keys with 201 and the key.
func (s *kernel) adminAddKey(q *request) error { return s.addKey(q, q.subject) }

func (s *kernel) addKey(q *request, owner *user.User) error {
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
func (s *kernel) deleteMyKey(q *request) error {
	id, err := pathID(q, "id")
	if err != nil {
		return err
	}
	return noContent(q, s.users.Keys().Delete(q.r.Context(), q.caller.UserID(), id))
}

// adminDeleteKey answers DELETE /admin/users/{username}/keys/{id} with 204;
// a key of another account than the one named is 404.
func (s *kernel) adminDeleteKey(q *request) error {
	id, err := pathID(q, "id")
	if err != nil {
		return err
	}
	return noContent(q, s.users.Keys().Delete(q.r.Context(), q.subject.ID, id))
}
