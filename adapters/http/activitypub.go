package http

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"

	"github.com/depothq/depot/adapters/security"
	"github.com/depothq/depot/app/users"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/token"
	"github.com/depothq/depot/domain/user"
)

// activityPub serves accounts as ActivityPub actors (catalogue 4.2), while
// federation is on: the Person actor with its public key, and the inbox,
// which takes only requests signed by the posting actor's key.
type activityPub struct{ *kernel }

const catActivityPub = token.CategoryActivityPub

// activityPubRoutes are the rows of /activitypub; the user/{username} pair
// is deprecated in favour of user-id/{user-id}.
func (s *kernel) activityPubRoutes() []route {
	h := activityPub{s}
	return []route{
		{"GET", "/activitypub/user/{username}", scopes(catActivityPub), "-", h.getPerson},
		{"POST", "/activitypub/user/{username}/inbox", scopes(catActivityPub), "HTTPSig", h.postInbox},
		{"GET", "/activitypub/user-id/{user-id}", scopes(catActivityPub), "-", h.getPerson},
		{"POST", "/activitypub/user-id/{user-id}/inbox", scopes(catActivityPub), "HTTPSig", h.postInbox},
	}
}

// activityJSONType is the media type actors are served with.
const activityJSONType = "application/activity+json"

// maxInboxBody bounds an activity posted to an inbox.
const maxInboxBody = 1 << 20

// personDTO is the Person actor as Gitea serves it (go-ap's Person with
// the ActivityStreams and security contexts).
type personDTO struct {
	Context           []string           `json:"@context"`
	ID                string             `json:"id"`
	Type              string             `json:"type"`
	Name              string             `json:"name"`
	PreferredUsername string             `json:"preferredUsername"`
	URL               string             `json:"url"`
	Icon              personIconDTO      `json:"icon"`
	Inbox             string             `json:"inbox"`
	Outbox            string             `json:"outbox"`
	PublicKey         personPublicKeyDTO `json:"publicKey"`
}

type personIconDTO struct {
	Type      string `json:"type"`
	MediaType string `json:"mediaType"`
	URL       string `json:"url"`
}

type personPublicKeyDTO struct {
	ID           string `json:"id"`
	Owner        string `json:"owner"`
	PublicKeyPem string `json:"publicKeyPem"`
}

// actor resolves the account the path names: 404 while federation is off,
// for an unknown account, and for one the caller may not see.
func (h activityPub) actor(q *request) (*user.User, error) {
	if !h.federation.Enabled() {
		return nil, errs.NotFound("route not found")
	}
	u := q.subject
	if raw, ok := q.vars["user-id"]; ok {
		id, err := strconv.ParseInt(raw, 10, 64)
		if err != nil || id <= 0 {
			return nil, errs.NotFound("user does not exist")
		}
		if u, err = h.users.ViewByID(q.r.Context(), q.caller, id); err != nil {
			return nil, err
		}
		notPublic := u.Visibility != user.VisibilityPublic
		if err := permission.CheckPublicOnly(q.caller.Actor(), scopes(catActivityPub), permission.PublicTarget{
			UserNotPublic: notPublic && u.Kind == user.KindIndividual,
			OrgNotPublic:  notPublic && u.Kind == user.KindOrganization,
		}); err != nil {
			return nil, err
		}
	}
	if u == nil || !user.CanSee(users.Viewer(q.caller), u) {
		return nil, errs.NotFound("user does not exist")
	}
	return u, nil
}

// actorIRI is the actor's id: its user-id link.
func (h activityPub) actorIRI(u *user.User) string {
	return h.baseURL + apiPrefix + "/activitypub/user-id/" + strconv.FormatInt(u.ID, 10)
}

// getPerson answers the Person actor.
func (h activityPub) getPerson(q *request) error {
	u, err := h.actor(q)
	if err != nil {
		return err
	}
	pem, err := h.federation.ActivityPub().ActorKey(q.r.Context(), u)
	if err != nil {
		return err
	}
	link := h.actorIRI(u)
	d := personDTO{
		Context: []string{"https://www.w3.org/ns/activitystreams", "https://w3id.org/security/v1"},
		ID:      link, Type: "Person", Name: u.FullName, PreferredUsername: u.Name,
		URL:       h.baseURL + "/" + url.PathEscape(u.Name),
		Icon:      personIconDTO{Type: "Image", MediaType: "image/png", URL: h.userAvatarURL(u)},
		Inbox:     link + "/inbox",
		Outbox:    link + "/outbox",
		PublicKey: personPublicKeyDTO{ID: link + "#main-key", Owner: link, PublicKeyPem: pem},
	}
	body, err := json.Marshal(d)
	if err != nil {
		return err
	}
	q.w.Header().Set("Content-Type", activityJSONType)
	q.w.WriteHeader(http.StatusOK)
	_, _ = q.w.Write(body)
	return nil
}

// postInbox takes an activity signed by its actor's key: 401 unsigned,
// mis-signed, stale or replayed, 400 malformed, 202 accepted.
func (h activityPub) postInbox(q *request) error {
	u, err := h.actor(q)
	if err != nil {
		return err
	}
	q.r.Body = http.MaxBytesReader(q.w, q.r.Body, maxInboxBody)
	body, err := readBody(q.r)
	if err != nil {
		return err
	}
	sig, _, err := security.SignatureOf(q.r.Header) // present: HTTPSig
	if err != nil {
		return err
	}
	ap := h.federation.ActivityPub()
	ctx := q.r.Context()
	key, err := ap.RemoteKey(ctx, sig.KeyID, false)
	if err != nil {
		return err
	}
	if err := h.verifyWith(q, sig, body, key.PublicPEM); err != nil {
		// The actor may have changed its key since it was cached.
		fresh, ferr := ap.RemoteKey(ctx, sig.KeyID, true)
		if ferr != nil || fresh.PublicPEM == key.PublicPEM {
			return err
		}
		if err := h.verifyWith(q, sig, body, fresh.PublicPEM); err != nil {
			return err
		}
		key = fresh
	}
	selves := []string{h.actorIRI(u), h.baseURL + apiPrefix + "/activitypub/user/" + url.PathEscape(u.Name)}
	if err := ap.Receive(ctx, u, selves, key, body); err != nil {
		return err
	}
	q.w.WriteHeader(http.StatusAccepted)
	return nil
}

func (h activityPub) verifyWith(q *request, sig security.Signature, body []byte, pemText string) error {
	pub, err := security.ParsePublicKeyPEM(pemText)
	if err != nil {
		return errs.Unauthenticated("the signature's key cannot be read")
	}
	return h.signatures.Verify(q.r, sig, body, pub)
}
