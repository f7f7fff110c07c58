package outbound

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

var _ ports.RemoteActorKeys = ActorKeys{}

// activityJSON is ActivityPub's media type.
const activityJSON = "application/activity+json"

// maxActorDocument bounds an actor document read (Gitea's federation
// MAX_SIZE defaults to 4 MiB; a document with a key is far smaller).
const maxActorDocument = 1 << 20

// actorFetchTimeout bounds one fetch, so that a slow remote cannot hold
// the inbox request for the guard's full minute.
const actorFetchTimeout = 15 * time.Second

// ActorKeys fetches remote actors' keys through the guard.
type ActorKeys struct{ g *Guard }

// NewActorKeys builds the fetcher over the guard.
func NewActorKeys(g *Guard) ActorKeys { return ActorKeys{g: g} }

// actorDocument is what an actor document says of its key: publicKey is an
// object (or, in some servers, a list of them).
type actorDocument struct {
	ID        string          `json:"id"`
	PublicKey json.RawMessage `json:"publicKey"`
}

type publicKeyDocument struct {
	ID           string `json:"id"`
	Owner        string `json:"owner"`
	PublicKeyPem string `json:"publicKeyPem"`
}

// Fetch reads the actor document at keyID (its fragment dropped) and
// returns the key whose id is keyID.
func (a ActorKeys) Fetch(ctx context.Context, keyID string) (ports.RemoteActorKey, error) {
	refused := func(why string) (ports.RemoteActorKey, error) {
		return ports.RemoteActorKey{}, errs.Unauthenticated("the signature's key cannot be fetched: " + why)
	}
	u, err := url.Parse(keyID)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return refused("keyId is not an http(s) URL")
	}
	if err := a.g.CheckURL(ctx, "keyId", keyID); err != nil {
		return refused("its host is not allowed")
	}
	doc := *u
	doc.Fragment, doc.RawFragment = "", ""
	ctx, cancel := context.WithTimeout(ctx, actorFetchTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, doc.String(), nil)
	if err != nil {
		return refused("keyId is not a URL")
	}
	req.Header.Set("Accept", activityJSON)
	resp, err := a.g.Client().Do(req)
	if err != nil {
		return refused("the request failed")
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return refused("the server answered " + resp.Status)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxActorDocument+1))
	if err != nil || len(body) > maxActorDocument {
		return refused("the document cannot be read")
	}
	var actor actorDocument
	if err := json.Unmarshal(body, &actor); err != nil {
		return refused("the document is not JSON")
	}
	var keys []publicKeyDocument
	var one publicKeyDocument
	if json.Unmarshal(actor.PublicKey, &one) == nil {
		keys = append(keys, one)
	} else if json.Unmarshal(actor.PublicKey, &keys) != nil {
		return refused("the document has no publicKey")
	}
	for _, k := range keys {
		if k.ID != keyID || k.PublicKeyPem == "" {
			continue
		}
		owner := k.Owner
		if owner == "" {
			owner = actor.ID
		}
		// The key must be the document's own actor's.
		if owner != actor.ID {
			return refused("the key's owner is not the document's actor")
		}
		return ports.RemoteActorKey{KeyID: keyID, Owner: owner, PublicPEM: k.PublicKeyPem}, nil
	}
	return refused("the document has no key with that id")
}
