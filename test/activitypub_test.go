package test

import (
	"bytes"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/42wim/httpsig"
	"github.com/matryer/is"

	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/test/testserver"
)

// personAnswer is the Person actor as Gitea serves it.
type personAnswer struct {
	Context           []string `json:"@context"`
	ID                string   `json:"id"`
	Type              string   `json:"type"`
	Name              string   `json:"name"`
	PreferredUsername string   `json:"preferredUsername"`
	URL               string   `json:"url"`
	Icon              struct {
		Type, MediaType, URL string
	} `json:"icon"`
	Inbox     string `json:"inbox"`
	Outbox    string `json:"outbox"`
	PublicKey struct {
		ID           string `json:"id"`
		Owner        string `json:"owner"`
		PublicKeyPem string `json:"publicKeyPem"`
	} `json:"publicKey"`
}

// federationOn turns federation on and lets the outbound guard reach the
// remote actor the tests run on loopback.
func federationOn() testserver.Option {
	return testserver.WithSettings(func(s *site.Settings) {
		s.Federation.Enabled = true
		s.AllowedHosts = "loopback"
	})
}

// TestActivityPubPerson reads an account's actor by id and by name: the
// same actor and key both times, the key stable across reads; 404 for
// unknown accounts and for a private account read anonymously.
func TestActivityPubPerson(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		srv := testserver.Start(t, append(opts, federationOn())...)
		alice, _ := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
		newAccount(t, srv, "hidden", gitea.VisibleTypePrivate)

		r := srv.Do("GET", "/activitypub/user-id/"+strconv.FormatInt(alice.ID, 10), nil)
		is.Equal(r.Status, http.StatusOK)
		is.Equal(r.Header.Get("Content-Type"), "application/activity+json")
		var p personAnswer
		r.Decode(t, &p)
		link := srv.API + "/activitypub/user-id/" + strconv.FormatInt(alice.ID, 10)
		is.Equal(p.Context, []string{"https://www.w3.org/ns/activitystreams", "https://w3id.org/security/v1"})
		is.Equal(p.ID, link)
		is.Equal(p.Type, "Person")
		is.Equal(p.PreferredUsername, "alice")
		is.Equal(p.URL, srv.URL+"/alice")
		is.Equal(p.Icon.Type, "Image")
		is.Equal(p.Icon.MediaType, "image/png")
		is.True(p.Icon.URL != "")
		is.Equal(p.Inbox, link+"/inbox")
		is.Equal(p.Outbox, link+"/outbox")
		is.Equal(p.PublicKey.ID, link+"#main-key")
		is.Equal(p.PublicKey.Owner, link)
		block, _ := pem.Decode([]byte(p.PublicKey.PublicKeyPem))
		is.True(block != nil && block.Type == "PUBLIC KEY")
		_, err := x509.ParsePKIXPublicKey(block.Bytes)
		is.NoErr(err)

		var byName personAnswer
		r = srv.Do("GET", "/activitypub/user/alice", nil)
		is.Equal(r.Status, http.StatusOK)
		r.Decode(t, &byName)
		is.Equal(byName.ID, p.ID)
		is.Equal(byName.PublicKey.PublicKeyPem, p.PublicKey.PublicKeyPem) // one key pair per account

		is.Equal(srv.Do("GET", "/activitypub/user-id/999999", nil).Status, http.StatusNotFound)
		is.Equal(srv.Do("GET", "/activitypub/user-id/x", nil).Status, http.StatusNotFound)
		is.Equal(srv.Do("GET", "/activitypub/user/nobody", nil).Status, http.StatusNotFound)
		is.Equal(srv.Do("GET", "/activitypub/user/hidden", nil).Status, http.StatusNotFound)
		is.Equal(srv.Do("GET", "/activitypub/user/hidden", nil, adminHeader(srv)...).Status, http.StatusOK)
	})
}

// TestActivityPubFederationOff: with federation off (the default) every
// ActivityPub route answers 404.
func TestActivityPubFederationOff(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := testserver.Start(t)
	alice, _ := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	id := strconv.FormatInt(alice.ID, 10)
	is.Equal(srv.Do("GET", "/activitypub/user-id/"+id, nil).Status, http.StatusNotFound)
	is.Equal(srv.Do("GET", "/activitypub/user/alice", nil).Status, http.StatusNotFound)
	is.Equal(srv.Do("POST", "/activitypub/user-id/"+id+"/inbox", "{}").Status, http.StatusNotFound)
	is.Equal(srv.Do("POST", "/activitypub/user/alice/inbox", "{}").Status, http.StatusNotFound)
}

// remoteActor is a second server playing an ActivityPub actor elsewhere:
// it serves its actor document with its public key.
type remoteActor struct {
	srv   *httptest.Server
	key   *rsa.PrivateKey
	id    string
	keyID string
}

func newRemoteActor(t *testing.T) *remoteActor {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	pubPEM := string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))
	a := &remoteActor{key: key}
	mux := http.NewServeMux()
	mux.HandleFunc("/actors/bob", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/activity+json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"@context": []string{"https://www.w3.org/ns/activitystreams", "https://w3id.org/security/v1"},
			"id":       a.id, "type": "Person", "preferredUsername": "bob", "inbox": a.id + "/inbox",
			"publicKey": map[string]string{"id": a.keyID, "owner": a.id, "publicKeyPem": pubPEM},
		})
	})
	a.srv = httptest.NewServer(mux)
	t.Cleanup(a.srv.Close)
	a.id = a.srv.URL + "/actors/bob"
	a.keyID = a.id + "#main-key"
	return a
}

// post sends body to inbox signed with key under keyID, dated at date.
func (a *remoteActor) post(t *testing.T, inbox string, body []byte, key *rsa.PrivateKey, date time.Time) *http.Response {
	t.Helper()
	req := a.signed(t, inbox, body, key, date)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp
}

func (a *remoteActor) signed(t *testing.T, inbox string, body []byte, key *rsa.PrivateKey, date time.Time) *http.Request {
	t.Helper()
	req, err := http.NewRequest("POST", inbox, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/activity+json")
	req.Header.Set("Date", date.UTC().Format(http.TimeFormat))
	req.Header.Set("Host", req.URL.Host)
	signer, _, err := httpsig.NewSigner([]httpsig.Algorithm{httpsig.RSA_SHA256}, httpsig.DigestSha256,
		[]string{httpsig.RequestTarget, "host", "date", "digest"}, httpsig.Signature, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := signer.SignRequest(key, a.keyID, req, body); err != nil {
		t.Fatal(err)
	}
	req.Body = io.NopCloser(bytes.NewReader(body))
	return req
}

// TestActivityPubInbox posts activities to an account's inbox from a remote
// actor whose key Depot fetches: signed Follow, Like and Undo are accepted
// (202); unsigned, forged, stale, replayed and other actors' activities are
// refused (401); a malformed body is 400.
func TestActivityPubInbox(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		srv := testserver.Start(t, append(opts, federationOn())...)
		alice, _ := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
		self := srv.API + "/activitypub/user-id/" + strconv.FormatInt(alice.ID, 10)
		inbox := self + "/inbox"
		bob := newRemoteActor(t)
		now := time.Now()

		follow, _ := json.Marshal(map[string]any{"@context": "https://www.w3.org/ns/activitystreams",
			"id": bob.id + "/follows/1", "type": "Follow", "actor": bob.id, "object": self})
		is.Equal(bob.post(t, inbox, follow, bob.key, now).StatusCode, http.StatusAccepted)
		// The deprecated name route is the same inbox.
		like, _ := json.Marshal(map[string]any{"id": bob.id + "/likes/1", "type": "Like", "actor": bob.id,
			"object": srv.URL + "/alice/some-repo"})
		is.Equal(bob.post(t, srv.API+"/activitypub/user/alice/inbox", like, bob.key, now).StatusCode, http.StatusAccepted)
		undo, _ := json.Marshal(map[string]any{"id": bob.id + "/undo/1", "type": "Undo", "actor": bob.id,
			"object": map[string]any{"id": bob.id + "/follows/1", "type": "Follow", "actor": bob.id, "object": self}})
		is.Equal(bob.post(t, inbox, undo, bob.key, now).StatusCode, http.StatusAccepted)

		// Unsigned.
		r := srv.Do("POST", "/activitypub/user-id/"+strconv.FormatInt(alice.ID, 10)+"/inbox", follow)
		is.Equal(r.Status, http.StatusUnauthorized)
		// Forged: signed with another key under bob's key id.
		other, err := rsa.GenerateKey(rand.Reader, 2048)
		is.NoErr(err)
		is.Equal(bob.post(t, inbox, follow, other, now).StatusCode, http.StatusUnauthorized)
		// Stale Date.
		is.Equal(bob.post(t, inbox, follow, bob.key, now.Add(-time.Hour)).StatusCode, http.StatusUnauthorized)
		// Replayed: the same signed request twice.
		again, _ := json.Marshal(map[string]any{"id": bob.id + "/follows/2", "type": "Follow", "actor": bob.id, "object": self})
		req := bob.signed(t, inbox, again, bob.key, now)
		replay := req.Clone(req.Context())
		replay.Body = io.NopCloser(bytes.NewReader(again))
		resp, err := http.DefaultClient.Do(req)
		is.NoErr(err)
		resp.Body.Close()
		is.Equal(resp.StatusCode, http.StatusAccepted)
		resp, err = http.DefaultClient.Do(replay)
		is.NoErr(err)
		resp.Body.Close()
		is.Equal(resp.StatusCode, http.StatusUnauthorized)
		// A body that does not match its signed digest.
		tampered := bob.signed(t, inbox, follow, bob.key, now)
		tampered.Body = io.NopCloser(bytes.NewReader(like))
		tampered.ContentLength = int64(len(like))
		resp, err = http.DefaultClient.Do(tampered)
		is.NoErr(err)
		resp.Body.Close()
		is.Equal(resp.StatusCode, http.StatusUnauthorized)
		// Someone else's activity, signed by bob.
		forgedActor, _ := json.Marshal(map[string]any{"type": "Follow", "actor": "https://elsewhere.example/carol", "object": self})
		is.Equal(bob.post(t, inbox, forgedActor, bob.key, now).StatusCode, http.StatusUnauthorized)
		// Malformed bodies, properly signed.
		is.Equal(bob.post(t, inbox, []byte("not json"), bob.key, now).StatusCode, http.StatusBadRequest)
		noType, _ := json.Marshal(map[string]any{"actor": bob.id, "object": self})
		is.Equal(bob.post(t, inbox, noType, bob.key, now).StatusCode, http.StatusBadRequest)
		wrongObject, _ := json.Marshal(map[string]any{"type": "Follow", "actor": bob.id, "object": bob.id})
		is.Equal(bob.post(t, inbox, wrongObject, bob.key, now).StatusCode, http.StatusBadRequest)
		// Unknown account.
		is.Equal(bob.post(t, srv.API+"/activitypub/user-id/999999/inbox", follow, bob.key, now).StatusCode, http.StatusNotFound)
	})
}
