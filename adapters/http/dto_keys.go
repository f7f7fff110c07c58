package http

import (
	"time"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/domain/user"
)

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
func (s *kernel) toPublicKey(c auth.Caller, owner *user.User, k *user.PublicKey) publicKeyDTO {
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

func (s *kernel) toPublicKeys(c auth.Caller, owner *user.User, list []*user.PublicKey) []publicKeyDTO {
	out := make([]publicKeyDTO, 0, len(list))
	for _, k := range list {
		out = append(out, s.toPublicKey(c, owner, k))
	}
	return out
}
