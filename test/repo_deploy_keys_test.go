package test

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/rsa"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/test/testserver"
	"github.com/matryer/is"
	"golang.org/x/crypto/ssh"
)

// ed25519Key makes a fresh ed25519 public key and returns it as an
// authorized_keys line (with comment when one is given) and as a key.
func ed25519Key(t *testing.T, comment string) (string, ssh.PublicKey) {
	t.Helper()
	pub, _, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatalf("ed25519: %v", err)
	}
	return authorizedLine(t, pub, comment)
}

// authorizedLine renders a crypto public key as an authorized_keys line.
func authorizedLine(t *testing.T, pub any, comment string) (string, ssh.PublicKey) {
	t.Helper()
	sp, err := ssh.NewPublicKey(pub)
	if err != nil {
		t.Fatalf("ssh key: %v", err)
	}
	line := strings.TrimSpace(string(ssh.MarshalAuthorizedKey(sp)))
	if comment != "" {
		line += " " + comment
	}
	return line, sp
}

// bareKey is a key as the server stores it: type and base64, no comment.
func bareKey(pub ssh.PublicKey) string {
	return strings.TrimSpace(string(ssh.MarshalAuthorizedKey(pub)))
}

// topicsBody is the shape of GET R/topics and of /topics/search.
type topicsBody struct {
	Topics []string `json:"topics"`
}

// TestSocDeployKeys covers adding, listing, reading and deleting deploy
// keys, their validation, and the access rules, on both backends.
func TestSocDeployKeys(t *testing.T) {
	t.Parallel()
	backends(t, testSocDeployKeys)
}

func testSocDeployKeys(t *testing.T, opts ...testserver.Option) {
	srv := testserver.Start(t, opts...)
	socialAccounts(t, srv, "carol", "rita", "ada", "sam")
	createRepoAs(t, srv, "carol", "deploy", false)
	createRepoAs(t, srv, "carol", "other", false)
	createRepoAs(t, srv, "carol", "hidden", true)
	socialCollab(t, srv, "carol", "deploy", "rita", gitea.AccessModeRead)
	socialCollab(t, srv, "carol", "deploy", "ada", gitea.AccessModeAdmin)
	carol := userClient(srv, "carol")
	line1, pub1 := ed25519Key(t, "ci@build-host")
	line2, pub2 := ed25519Key(t, "")
	var k1, k2 *gitea.DeployKey

	t.Run("add", func(t *testing.T) {
		is := is.New(t)
		var err error
		k1, _, err = carol.CreateDeployKey("carol", "deploy", gitea.CreateKeyOption{Title: "ci", Key: line1, ReadOnly: true})
		is.NoErr(err)
		is.True(k1.ID > 0)
		is.Equal(k1.KeyID, k1.ID)
		is.Equal(k1.Title, "ci")
		is.True(strings.HasPrefix(k1.Fingerprint, "SHA256:"))
		is.Equal(k1.Fingerprint, ssh.FingerprintSHA256(pub1))
		is.Equal(k1.Key, bareKey(pub1)) // the comment is dropped
		is.True(k1.ReadOnly)
		is.Equal(k1.URL, fmt.Sprintf("%s/repos/carol/deploy/keys/%d", srv.API, k1.ID))
		is.True(!k1.Created.IsZero())

		// Without a comment, writable.
		r := srv.Do("POST", "/repos/carol/deploy/keys", map[string]any{"title": "pusher", "key": line2, "read_only": false}, basicAs("carol")...)
		is.Equal(r.Status, http.StatusCreated)
		k2 = new(gitea.DeployKey)
		r.Decode(t, k2)
		is.Equal(k2.Fingerprint, ssh.FingerprintSHA256(pub2))
		is.Equal(k2.Key, line2)
		is.True(!k2.ReadOnly)
		is.True(k2.ID != k1.ID)
	})

	t.Run("list and get", func(t *testing.T) {
		is := is.New(t)
		list, _, err := carol.ListDeployKeys("carol", "deploy", gitea.ListDeployKeysOptions{})
		is.NoErr(err)
		is.Equal(len(list), 2)
		is.Equal(list[0].ID, k1.ID)
		is.Equal(list[1].ID, k2.ID)
		is.True(list[0].ReadOnly)
		is.True(!list[1].ReadOnly)

		list, _, err = carol.ListDeployKeys("carol", "deploy", gitea.ListDeployKeysOptions{Fingerprint: k2.Fingerprint})
		is.NoErr(err)
		is.Equal(len(list), 1)
		is.Equal(list[0].Title, "pusher")
		list, _, err = carol.ListDeployKeys("carol", "deploy", gitea.ListDeployKeysOptions{Fingerprint: "SHA256:nope"})
		is.NoErr(err)
		is.Equal(len(list), 0)
		list, _, err = carol.ListDeployKeys("carol", "deploy", gitea.ListDeployKeysOptions{KeyID: k1.ID})
		is.NoErr(err)
		is.Equal(len(list), 1)
		is.Equal(list[0].Title, "ci")

		got, _, err := carol.GetDeployKey("carol", "deploy", k1.ID)
		is.NoErr(err)
		is.Equal(got.Title, "ci")
		is.Equal(got.Fingerprint, k1.Fingerprint)
		is.Equal(got.Key, k1.Key)
		is.True(got.ReadOnly)

		assertAPIError(t, srv.Do("GET", "/repos/carol/deploy/keys/999999", nil, basicAs("carol")...), http.StatusNotFound, "")
		assertAPIError(t, srv.Do("GET", "/repos/carol/deploy/keys/abc", nil, basicAs("carol")...), http.StatusNotFound, "")
		// A key belongs to its repository only.
		assertAPIError(t, srv.Do("GET", fmt.Sprintf("/repos/carol/other/keys/%d", k1.ID), nil, basicAs("carol")...), http.StatusNotFound, "")
	})

	t.Run("invalid", func(t *testing.T) {
		is := is.New(t)
		post := func(body any) testserver.Response {
			return srv.Do("POST", "/repos/carol/deploy/keys", body, basicAs("carol")...)
		}
		line3, _ := ed25519Key(t, "x")
		// The same key again, even under another title or comment.
		assertAPIError(t, post(map[string]any{"title": "again", "key": line1}), http.StatusUnprocessableEntity, "")
		assertAPIError(t, post(map[string]any{"title": "again", "key": bareKey(pub1) + " other-comment"}), http.StatusUnprocessableEntity, "")
		// Another key under a title in use.
		assertAPIError(t, post(map[string]any{"title": "ci", "key": line3}), http.StatusUnprocessableEntity, "")
		assertAPIError(t, post(map[string]any{"title": "garbage", "key": "ssh-ed25519 not-a-key"}), http.StatusUnprocessableEntity, "")
		assertAPIError(t, post(map[string]any{"title": "garbage", "key": "hello"}), http.StatusUnprocessableEntity, "")
		assertAPIError(t, post(map[string]any{"title": "", "key": line3}), http.StatusUnprocessableEntity, "")
		assertAPIError(t, post(map[string]any{"title": "   ", "key": line3}), http.StatusUnprocessableEntity, "")
		assertAPIError(t, post(map[string]any{"title": "empty"}), http.StatusUnprocessableEntity, "")
		assertAPIError(t, post(map[string]any{"title": strings.Repeat("t", 51), "key": line3}), http.StatusUnprocessableEntity, "")
		// Two keys in one field are ambiguous.
		assertAPIError(t, post(map[string]any{"title": "two", "key": line3 + "\n" + line2}), http.StatusUnprocessableEntity, "")
		rk, err := rsa.GenerateKey(rand.Reader, 1024)
		is.NoErr(err)
		weak, _ := authorizedLine(t, &rk.PublicKey, "weak")
		assertAPIError(t, post(map[string]any{"title": "weak", "key": weak}), http.StatusUnprocessableEntity, "")
		list, _, err := carol.ListDeployKeys("carol", "deploy", gitea.ListDeployKeysOptions{})
		is.NoErr(err)
		is.Equal(len(list), 2) // nothing was added
	})

	t.Run("same key on another repository", func(t *testing.T) {
		is := is.New(t)
		k, _, err := carol.CreateDeployKey("carol", "other", gitea.CreateKeyOption{Title: "ci", Key: line1})
		is.NoErr(err)
		is.Equal(k.Fingerprint, k1.Fingerprint)
		is.True(!k.ReadOnly)
	})

	t.Run("access", func(t *testing.T) {
		is := is.New(t)
		line, _ := ed25519Key(t, "")
		body := map[string]any{"title": "t", "key": line}
		keyPath := fmt.Sprintf("/repos/carol/deploy/keys/%d", k1.ID)
		for _, rt := range []struct{ method, path string }{
			{"GET", "/repos/carol/deploy/keys"}, {"POST", "/repos/carol/deploy/keys"}, {"GET", keyPath}, {"DELETE", keyPath},
		} {
			assertAPIError(t, srv.Do(rt.method, rt.path, body), http.StatusUnauthorized, msgTokenRequired)
			// Readers of the public repository, collaborators or not, are no admins.
			assertAPIError(t, srv.Do(rt.method, rt.path, body, basicAs("sam")...), http.StatusForbidden, msgRepoAdmin)
			assertAPIError(t, srv.Do(rt.method, rt.path, body, basicAs("rita")...), http.StatusForbidden, msgRepoAdmin)
		}
		assertAPIError(t, srv.Do("GET", "/repos/carol/hidden/keys", nil, basicAs("sam")...), http.StatusNotFound, "")
		assertAPIError(t, srv.Do("GET", "/repos/carol/hidden/keys", nil), http.StatusNotFound, "")
		assertAPIError(t, srv.Do("POST", "/repos/carol/hidden/keys", body, basicAs("sam")...), http.StatusNotFound, "")
		// A repository admin and the site admin manage keys.
		is.Equal(srv.Do("GET", "/repos/carol/deploy/keys", nil, basicAs("ada")...).Status, http.StatusOK)
		is.Equal(srv.Do("GET", keyPath, nil, socialAdmin(srv)...).Status, http.StatusOK)
		is.Equal(srv.Do("POST", "/repos/carol/hidden/keys", body, socialAdmin(srv)...).Status, http.StatusCreated)
		// Tokens: the repository scope, and public repositories only when so limited.
		scopeWantDenied(is, srv.Do("GET", "/repos/carol/deploy/keys", nil, tokenHeader(srv, "carol", "read:user")...), "read:repository", "read:user")
		scopeWantDenied(is, srv.Do("POST", "/repos/carol/deploy/keys", body, tokenHeader(srv, "carol", "read:repository")...),
			"write:repository", "read:repository")
		publicOnly := tokenHeader(srv, "carol", "public-only", "read:repository")
		is.Equal(srv.Do("GET", "/repos/carol/deploy/keys", nil, publicOnly...).Status, http.StatusOK)
		assertAPIError(t, srv.Do("GET", "/repos/carol/hidden/keys", nil, publicOnly...), http.StatusForbidden, msgPublicOnly)
	})

	t.Run("delete", func(t *testing.T) {
		is := is.New(t)
		resp, err := carol.DeleteDeployKey("carol", "deploy", k2.ID)
		assertSDKStatus(t, resp, err, http.StatusNoContent)
		_, resp, err = carol.GetDeployKey("carol", "deploy", k2.ID)
		assertSDKStatus(t, resp, err, http.StatusNotFound)
		assertAPIError(t, srv.Do("DELETE", fmt.Sprintf("/repos/carol/deploy/keys/%d", k2.ID), nil, basicAs("carol")...), http.StatusNotFound, "")
		// Another repository's copy of a key stays.
		list, _, err := carol.ListDeployKeys("carol", "other", gitea.ListDeployKeysOptions{})
		is.NoErr(err)
		is.Equal(len(list), 1)
		// The key may come back once deleted.
		_, _, err = carol.CreateDeployKey("carol", "deploy", gitea.CreateKeyOption{Title: "pusher", Key: line2})
		is.NoErr(err)
	})

	t.Run("archived", func(t *testing.T) {
		is := is.New(t)
		_, _, err := carol.EditRepo("carol", "deploy", gitea.EditRepoOption{Archived: gitea.OptionalBool(true)})
		is.NoErr(err)
		line, _ := ed25519Key(t, "")
		assertAPIError(t, srv.Do("POST", "/repos/carol/deploy/keys", map[string]any{"title": "late", "key": line}, basicAs("carol")...),
			http.StatusLocked, "carol/deploy is archived")
		assertAPIError(t, srv.Do("DELETE", fmt.Sprintf("/repos/carol/deploy/keys/%d", k1.ID), nil, basicAs("carol")...),
			http.StatusLocked, "carol/deploy is archived")
		// Reading still works.
		list, _, err := carol.ListDeployKeys("carol", "deploy", gitea.ListDeployKeysOptions{})
		is.NoErr(err)
		is.Equal(len(list), 2)
	})
}
