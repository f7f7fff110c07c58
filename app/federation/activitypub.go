package federation

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// ActivityPub serves accounts as ActivityPub actors (catalogue 4.2): each
// account's key pair, made on first need, and its inbox, which takes
// Follow, Like and their Undo from remote actors whose signed requests the
// HTTP adapter checked with the keys this fetches.
type ActivityPub struct{ *Service }

// ActivityPub returns the actor use cases.
func (s *Service) ActivityPub() ActivityPub { return ActivityPub{s} }

// remoteKeyTTL is how long a remote actor's key is trusted without fetching
// it again; a signature that fails with a cached key fetches it afresh.
const remoteKeyTTL = time.Hour

// maxRemoteKeys bounds the cache; past it, expired keys are dropped, then
// all of them.
const maxRemoteKeys = 4096

// maxIRI bounds the IRIs an inbox records.
const maxIRI = 2048

// remoteKeyCache holds fetched remote keys by key URL.
type remoteKeyCache struct {
	mu   sync.Mutex
	keys map[string]cachedRemoteKey
	// stats counts the lookups, for the metrics page.
	stats *ports.CacheStats
}

type cachedRemoteKey struct {
	key     ports.RemoteActorKey
	fetched time.Time
}

// ActorKey returns u's public key as a PKIX PEM block, making and storing
// the pair (the private half sealed with the site key) on first need.
func (a ActivityPub) ActorKey(ctx context.Context, u *user.User) (string, error) {
	if !a.settings.Enabled {
		return "", errs.NotFound("route not found")
	}
	k, err := a.stores.ActorKeys.Get(ctx, u.ID)
	if err == nil {
		return k.PublicPEM, nil
	}
	if !errors.Is(err, errs.ErrNotFound) {
		return "", err
	}
	pub, priv, err := a.keyPairs.NewActorKeyPair()
	if err != nil {
		return "", err
	}
	sealed, err := a.box.Seal([]byte(priv), ports.ActorKeyLabel(u.ID))
	if err != nil {
		return "", err
	}
	var stored *ports.ActorKey
	err = a.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		var err error
		stored, err = tx.ActorKeys.Add(ctx, &ports.ActorKey{UserID: u.ID, PublicPEM: pub, PrivateSealed: sealed, Created: a.clock.Now()})
		return err
	})
	if err != nil {
		return "", err
	}
	return stored.PublicPEM, nil
}

// RemoteKey returns the remote key named keyID, from the cache unless it is
// stale or fresh is set.
func (a ActivityPub) RemoteKey(ctx context.Context, keyID string, fresh bool) (ports.RemoteActorKey, error) {
	if !a.settings.Enabled {
		return ports.RemoteActorKey{}, errs.NotFound("route not found")
	}
	now := a.clock.Now()
	c := a.remoteKeys
	if !fresh {
		c.mu.Lock()
		e, ok := c.keys[keyID]
		c.mu.Unlock()
		if ok && now.Sub(e.fetched) < remoteKeyTTL {
			c.stats.Hit()
			return e.key, nil
		}
		c.stats.Miss()
	}
	k, err := a.remote.Fetch(ctx, keyID)
	if err != nil {
		return ports.RemoteActorKey{}, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.keys) >= maxRemoteKeys {
		before := len(c.keys)
		for id, e := range c.keys {
			if now.Sub(e.fetched) >= remoteKeyTTL {
				delete(c.keys, id)
			}
		}
		if len(c.keys) >= maxRemoteKeys {
			clear(c.keys)
		}
		c.stats.Evicted(before - len(c.keys))
	}
	c.keys[keyID] = cachedRemoteKey{key: k, fetched: now}
	c.stats.SetEntries(len(c.keys))
	return k, nil
}

// Activity is what an inbox reads of an activity.
type Activity struct {
	ID    string
	Type  string
	Actor string
	// Object is the object's id (an IRI, or the id of an embedded object).
	Object string
	// Inner is the embedded activity an Undo undoes, nil when the object
	// was given by IRI alone.
	Inner *Activity
}

// maxActivityDepth bounds the nesting of embedded activities read.
const maxActivityDepth = 4

// ParseActivity reads an activity (ActivityStreams 2.0 JSON). The type and
// actor are required; the actor and object may be IRIs or embedded objects
// with an id.
func ParseActivity(body []byte) (Activity, error) {
	var raw json.RawMessage
	if err := json.Unmarshal(body, &raw); err != nil {
		return Activity{}, errs.BadRequest("the activity is not JSON")
	}
	a, err := parseActivity(raw, 0)
	if err != nil {
		return Activity{}, err
	}
	if a.Actor == "" {
		return Activity{}, errs.BadRequest("the activity has no actor")
	}
	return a, nil
}

func parseActivity(raw json.RawMessage, depth int) (Activity, error) {
	var doc struct {
		ID     string          `json:"id"`
		Type   json.RawMessage `json:"type"`
		Actor  json.RawMessage `json:"actor"`
		Object json.RawMessage `json:"object"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return Activity{}, errs.BadRequest("the activity is not a JSON object")
	}
	typ, err := typeOf(doc.Type)
	if err != nil {
		return Activity{}, err
	}
	a := Activity{ID: doc.ID, Type: typ}
	if a.Actor, _, err = iriOf(doc.Actor, "actor"); err != nil {
		return Activity{}, err
	}
	obj, embedded, err := iriOf(doc.Object, "object")
	if err != nil {
		return Activity{}, err
	}
	a.Object = obj
	if embedded && depth < maxActivityDepth {
		inner, err := parseActivity(doc.Object, depth+1)
		if err == nil {
			a.Inner = &inner
		}
	}
	for _, iri := range []string{a.ID, a.Type, a.Actor, a.Object} {
		if len(iri) > maxIRI {
			return Activity{}, errs.BadRequest("an IRI of the activity is too long")
		}
		// No store keeps a NUL character.
		if strings.IndexByte(iri, 0) >= 0 {
			return Activity{}, errs.BadRequest("the activity contains a NUL character")
		}
	}
	return a, nil
}

// typeOf reads "type": a string, or an array whose first string is taken.
func typeOf(raw json.RawMessage) (string, error) {
	var s string
	if json.Unmarshal(raw, &s) == nil && s != "" {
		return s, nil
	}
	var list []string
	if json.Unmarshal(raw, &list) == nil && len(list) > 0 && list[0] != "" {
		return list[0], nil
	}
	return "", errs.BadRequest("the activity has no type")
}

// iriOf reads an IRI given as a string or as an object's id; embedded says
// it was an object. An absent field is "".
func iriOf(raw json.RawMessage, field string) (iri string, embedded bool, err error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", false, nil
	}
	if json.Unmarshal(raw, &iri) == nil {
		return iri, false, nil
	}
	var obj struct {
		ID string `json:"id"`
	}
	if json.Unmarshal(raw, &obj) == nil {
		return obj.ID, true, nil
	}
	return "", false, errs.BadRequest("the activity's " + field + " is neither an IRI nor an object")
}

// Receive records an activity posted to target's inbox by the actor that
// owns signer (the key that signed the request). selves are target's own
// actor IRIs, which a Follow must name. Follow adds a remote follower, Like
// a remote like, Undo removes either; other types are accepted and
// ignored, as ActivityPub servers do with what they do not understand.
func (a ActivityPub) Receive(ctx context.Context, target *user.User, selves []string, signer ports.RemoteActorKey, body []byte) error {
	if !a.settings.Enabled {
		return errs.NotFound("route not found")
	}
	act, err := ParseActivity(body)
	if err != nil {
		return err
	}
	if act.Actor != signer.Owner {
		return errs.Unauthenticated("the activity's actor did not sign the request")
	}
	now := a.clock.Now()
	return a.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		switch act.Type {
		case "Follow":
			if !names(selves, act.Object) {
				return errs.BadRequest("the Follow's object is not this actor")
			}
			return tx.ActivityPubInbox.AddFollower(ctx, ports.RemoteFollower{UserID: target.ID, ActorIRI: act.Actor, Created: now})
		case "Like":
			if act.Object == "" {
				return errs.BadRequest("the Like has no object")
			}
			return tx.ActivityPubInbox.AddLike(ctx, ports.RemoteLike{UserID: target.ID, ActorIRI: act.Actor, ObjectIRI: act.Object, Created: now})
		case "Undo":
			return undo(ctx, tx, target, act)
		}
		return nil
	})
}

// undo removes what the undone activity recorded; one given by IRI alone,
// or by another actor, changes nothing.
func undo(ctx context.Context, tx ports.Stores, target *user.User, act Activity) error {
	in := act.Inner
	if in == nil || (in.Actor != "" && in.Actor != act.Actor) {
		return nil
	}
	switch in.Type {
	case "Follow":
		return tx.ActivityPubInbox.RemoveFollower(ctx, target.ID, act.Actor)
	case "Like":
		return tx.ActivityPubInbox.RemoveLike(ctx, target.ID, act.Actor, in.Object)
	}
	return nil
}

func names(selves []string, iri string) bool {
	for _, s := range selves {
		if strings.EqualFold(s, iri) {
			return true
		}
	}
	return false
}
