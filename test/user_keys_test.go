package test

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/rsa"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/test/testserver"
	"github.com/matryer/is"
	"golang.org/x/crypto/ssh"
)

// Gitea's answers to a key that is already registered or a title in use,
// behind the field they concern.
const (
	keysMsgInUse        = "Key: Key content has been used as non-deploy key"
	keysMsgDeployKey    = "Key: Key content has been used as deploy key"
	keysMsgTitleInUse   = "Title: Key title has been used"
	keysMsgNotSiteAdmin = "user should be the site admin"
)

// keysNew makes a fresh ed25519 key and returns its authorized_keys line
// (with comment when one is given) and the key.
func keysNew(t *testing.T, comment string) (string, ssh.PublicKey) {
	t.Helper()
	pub, _, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatalf("ed25519: %v", err)
	}
	sp, err := ssh.NewPublicKey(pub)
	if err != nil {
		t.Fatalf("ssh key: %v", err)
	}
	line := keysBare(sp)
	if comment != "" {
		line += " " + comment
	}
	return line, sp
}

// keysBare is a key as the server stores it: type and base64, no comment.
func keysBare(pub ssh.PublicKey) string {
	return strings.TrimSpace(string(ssh.MarshalAuthorizedKey(pub)))
}

// keysAdd adds a key for the client's account and fails the test otherwise.
func keysAdd(t *testing.T, c *gitea.Client, title, line string) *gitea.PublicKey {
	t.Helper()
	k, resp, err := c.CreatePublicKey(gitea.CreateKeyOption{Title: title, Key: line})
	assertSDKStatus(t, resp, err, http.StatusCreated)
	return k
}

// keysFind lists path (a key listing) filtered by fingerprint, as name,
// and returns the keys and the X-Total-Count header.
func keysFind(t *testing.T, srv *testserver.Server, path, fingerprint, name string) ([]*gitea.PublicKey, string) {
	t.Helper()
	r := srv.Do("GET", path+"?fingerprint="+url.QueryEscape(fingerprint), nil, basicAs(name)...)
	if r.Status != http.StatusOK {
		t.Fatalf("GET %s?fingerprint=%s as %s: %d %s", path, fingerprint, name, r.Status, r.Body)
	}
	var list []*gitea.PublicKey
	r.Decode(t, &list)
	return list, r.Header.Get("X-Total-Count")
}

// keysIDs lists the ids of keys, in order.
func keysIDs(list []*gitea.PublicKey) []int64 {
	out := make([]int64, 0, len(list))
	for _, k := range list {
		out = append(out, k.ID)
	}
	return out
}

// TestKeysLifecycle covers adding, listing, filtering, reading and deleting
// an account's SSH keys, and the refusals of bad and duplicate keys, on
// both backends.
func TestKeysLifecycle(t *testing.T) {
	t.Parallel()
	backends(t, testKeysLifecycle)
}

func testKeysLifecycle(t *testing.T, opts ...testserver.Option) {
	srv := testserver.Start(t, opts...)
	_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	_, bob := newAccount(t, srv, "bob", gitea.VisibleTypePublic)
	line1, pub1 := keysNew(t, "alice@laptop")
	line2, pub2 := keysNew(t, "")
	var k1, k2 *gitea.PublicKey

	t.Run("add", func(t *testing.T) {
		is := is.New(t)
		k1 = keysAdd(t, alice, "laptop", line1)
		is.True(k1.ID > 0)
		is.Equal(k1.Title, "laptop")
		is.Equal(k1.Key, keysBare(pub1)) // the comment is dropped
		is.Equal(k1.Fingerprint, ssh.FingerprintSHA256(pub1))
		is.Equal(k1.URL, fmt.Sprintf("%s/user/keys/%d", srv.API, k1.ID))
		is.True(!k1.Created.IsZero())
		is.True(!k1.Updated.IsZero()) // last_used_at starts at creation, as in Gitea
		is.Equal(k1.KeyType, "user")
		is.True(k1.Owner != nil)
		is.Equal(k1.Owner.UserName, "alice")
		is.True(!k1.ReadOnly)

		// read_only means nothing for an account's key: accepted, ignored.
		k, resp, err := alice.CreatePublicKey(gitea.CreateKeyOption{Title: "desktop", Key: line2, ReadOnly: true})
		assertSDKStatus(t, resp, err, http.StatusCreated)
		k2 = k
		is.True(!k2.ReadOnly)
		is.Equal(k2.Key, line2)
		is.Equal(k2.Fingerprint, ssh.FingerprintSHA256(pub2))

		// The raw answer carries Gitea's field names.
		r := srv.Do("GET", fmt.Sprintf("/user/keys/%d", k1.ID), nil, basicAs("alice")...)
		is.Equal(r.Status, http.StatusOK)
		var raw map[string]any
		r.Decode(t, &raw)
		for _, f := range []string{"id", "key", "url", "title", "fingerprint", "created_at", "last_used_at", "user", "key_type"} {
			_, ok := raw[f]
			is.True(ok) // field present
		}
		_, ok := raw["read_only"]
		is.True(!ok) // false is left out, as Gitea's omitempty does
	})

	t.Run("list and get", func(t *testing.T) {
		is := is.New(t)
		list, resp, err := alice.ListMyPublicKeys(gitea.ListPublicKeysOptions{})
		is.NoErr(err)
		is.Equal(keysIDs(list), []int64{k1.ID, k2.ID})
		is.Equal(resp.Header.Get("X-Total-Count"), "2")
		is.Equal(list[0].Owner.UserName, "alice")

		list, resp, err = alice.ListMyPublicKeys(gitea.ListPublicKeysOptions{ListOptions: gitea.ListOptions{Page: 2, PageSize: 1}})
		is.NoErr(err)
		is.Equal(keysIDs(list), []int64{k2.ID})
		is.Equal(resp.Header.Get("X-Total-Count"), "2")

		got, _, err := alice.GetPublicKey(k1.ID)
		is.NoErr(err)
		is.Equal(got.Fingerprint, k1.Fingerprint)
		is.Equal(got.Key, k1.Key)
		is.Equal(got.Title, "laptop")
		is.True(got.Created.Equal(k1.Created))

		// Someone else sees the keys, without the private information.
		list, _, err = bob.ListPublicKeys("alice", gitea.ListPublicKeysOptions{})
		is.NoErr(err)
		is.Equal(keysIDs(list), []int64{k1.ID, k2.ID})
		is.True(list[0].Owner == nil)
		is.Equal(list[0].KeyType, "")
		is.Equal(list[0].Key, k1.Key)

		// A site admin sees it all.
		list, _, err = srv.AdminClient().ListPublicKeys("alice", gitea.ListPublicKeysOptions{})
		is.NoErr(err)
		is.Equal(len(list), 2)
		is.Equal(list[1].Owner.UserName, "alice")
		is.Equal(list[1].KeyType, "user")

		// An empty listing is an empty array.
		r := srv.Do("GET", "/users/bob/keys", nil, basicAs("alice")...)
		is.Equal(r.Status, http.StatusOK)
		is.Equal(strings.TrimSpace(string(r.Body)), "[]")
		is.Equal(r.Header.Get("X-Total-Count"), "0")

		assertAPIError(t, srv.Do("GET", "/user/keys/999999", nil, basicAs("alice")...), http.StatusNotFound, "")
		assertAPIError(t, srv.Do("GET", "/user/keys/abc", nil, basicAs("alice")...), http.StatusNotFound, "")
		assertAPIError(t, srv.Do("GET", "/users/nobody/keys", nil, basicAs("alice")...), http.StatusNotFound, "")
	})

	t.Run("fingerprint filter", func(t *testing.T) {
		// The SDK has no fingerprint option; fingerprints hold '+' and '/',
		// so the query is escaped as a client must.
		is := is.New(t)
		list, total := keysFind(t, srv, "/users/alice/keys", k2.Fingerprint, "bob")
		is.Equal(keysIDs(list), []int64{k2.ID})
		is.Equal(total, "1")
		is.True(list[0].Owner == nil) // still no private information for others

		list, _ = keysFind(t, srv, "/user/keys", k1.Fingerprint, "alice")
		is.Equal(keysIDs(list), []int64{k1.ID})
		is.Equal(list[0].Owner.UserName, "alice")

		list, total = keysFind(t, srv, "/users/alice/keys", "SHA256:nope", "bob")
		is.Equal(len(list), 0)
		is.Equal(total, "0")
		// Another account's fingerprint finds nothing under a different name.
		list, _ = keysFind(t, srv, "/users/bob/keys", k1.Fingerprint, "alice")
		is.Equal(len(list), 0)
		// /user/keys looks among the caller's own keys only.
		list, _ = keysFind(t, srv, "/user/keys", k1.Fingerprint, "bob")
		is.Equal(len(list), 0)
	})

	t.Run("invalid", func(t *testing.T) {
		is := is.New(t)
		post := func(body any) testserver.Response {
			return srv.Do("POST", "/user/keys", body, basicAs("alice")...)
		}
		line3, _ := keysNew(t, "")
		assertInvalid(t, post(map[string]any{"title": "garbage", "key": "ssh-ed25519 not-a-key"}), "Key")
		assertInvalid(t, post(map[string]any{"title": "garbage", "key": "hello"}), "Key")
		assertInvalid(t, post(map[string]any{"title": "empty"}), "Key")
		assertInvalid(t, post(map[string]any{"title": "two", "key": line3 + "\n" + line2}), "Key")
		assertInvalid(t, post(map[string]any{"title": "", "key": line3}), "Title")
		assertInvalid(t, post(map[string]any{"title": "   ", "key": line3}), "Title")
		assertInvalid(t, post(map[string]any{"title": strings.Repeat("t", 51), "key": line3}), "Title")
		rk, err := rsa.GenerateKey(rand.Reader, 1024)
		is.NoErr(err)
		sp, err := ssh.NewPublicKey(&rk.PublicKey)
		is.NoErr(err)
		assertAPIError(t, post(map[string]any{"title": "weak", "key": keysBare(sp)}), http.StatusUnprocessableEntity, "Key: key is too weak")
		// Malformed bodies.
		assertAPIError(t, post(`{"title":`), http.StatusBadRequest, "")
		assertAPIError(t, post(`{"title": 5, "key": "x"}`), http.StatusUnprocessableEntity, "")

		// The SDK reports the 422.
		_, resp, err := alice.CreatePublicKey(gitea.CreateKeyOption{Title: "sdk", Key: "nonsense"})
		assertSDKStatus(t, resp, err, http.StatusUnprocessableEntity)

		list, _, err := alice.ListMyPublicKeys(gitea.ListPublicKeysOptions{})
		is.NoErr(err)
		is.Equal(keysIDs(list), []int64{k1.ID, k2.ID}) // nothing was added
	})

	t.Run("duplicate", func(t *testing.T) {
		is := is.New(t)
		line3, pub3 := keysNew(t, "")
		// The same key again, by its owner or anyone else, with or without comment.
		assertAPIError(t, srv.Do("POST", "/user/keys", map[string]any{"title": "again", "key": line1}, basicAs("alice")...),
			http.StatusUnprocessableEntity, keysMsgInUse)
		assertAPIError(t, srv.Do("POST", "/user/keys", map[string]any{"title": "mine", "key": keysBare(pub1) + " bob"}, basicAs("bob")...),
			http.StatusUnprocessableEntity, keysMsgInUse)
		_, resp, err := bob.CreatePublicKey(gitea.CreateKeyOption{Title: "mine", Key: line2})
		assertSDKStatus(t, resp, err, http.StatusUnprocessableEntity)
		// Another key under a title in use.
		assertAPIError(t, srv.Do("POST", "/user/keys", map[string]any{"title": "laptop", "key": line3}, basicAs("alice")...),
			http.StatusUnprocessableEntity, keysMsgTitleInUse)
		// The title is the owner's: someone else may use it.
		k := keysAdd(t, bob, "laptop", line3)
		is.Equal(k.Fingerprint, ssh.FingerprintSHA256(pub3))
		is.NoErr(keysDelete(bob, k.ID))

		// A deploy key cannot also open an account.
		deployLine, _ := keysNew(t, "ci")
		createRepo(t, alice, gitea.CreateRepoOption{Name: "keyed"})
		_, resp, err = alice.CreateDeployKey("alice", "keyed", gitea.CreateKeyOption{Title: "ci", Key: deployLine})
		assertSDKStatus(t, resp, err, http.StatusCreated)
		assertAPIError(t, srv.Do("POST", "/user/keys", map[string]any{"title": "ci", "key": deployLine}, basicAs("alice")...),
			http.StatusUnprocessableEntity, keysMsgDeployKey)
		// Nor an account's key a deploy key.
		accountLine, _ := keysNew(t, "mine")
		mine := keysAdd(t, alice, "mine", accountLine)
		assertAPIError(t, srv.Do("POST", "/repos/alice/keyed/keys", map[string]any{"title": "mine", "key": accountLine},
			basicAs("alice")...), http.StatusUnprocessableEntity, keysMsgInUse)
		is.NoErr(keysDelete(alice, mine.ID))

		list, _, err := bob.ListMyPublicKeys(gitea.ListPublicKeysOptions{})
		is.NoErr(err)
		is.Equal(len(list), 0)
	})

	t.Run("other account's key", func(t *testing.T) {
		is := is.New(t)
		_, resp, err := bob.GetPublicKey(k1.ID)
		assertSDKStatus(t, resp, err, http.StatusNotFound)
		resp, err = bob.DeletePublicKey(k1.ID)
		assertSDKStatus(t, resp, err, http.StatusNotFound)
		got, _, err := alice.GetPublicKey(k1.ID)
		is.NoErr(err) // still there
		is.Equal(got.ID, k1.ID)
	})

	t.Run("delete", func(t *testing.T) {
		is := is.New(t)
		resp, err := alice.DeletePublicKey(k2.ID)
		assertSDKStatus(t, resp, err, http.StatusNoContent)
		_, resp, err = alice.GetPublicKey(k2.ID)
		assertSDKStatus(t, resp, err, http.StatusNotFound)
		resp, err = alice.DeletePublicKey(k2.ID)
		assertSDKStatus(t, resp, err, http.StatusNotFound)
		assertAPIError(t, srv.Do("DELETE", "/user/keys/abc", nil, basicAs("alice")...), http.StatusNotFound, "")
		list, _, err := alice.ListMyPublicKeys(gitea.ListPublicKeysOptions{})
		is.NoErr(err)
		is.Equal(keysIDs(list), []int64{k1.ID})
		// Its key is free again, for anyone.
		k := keysAdd(t, bob, "from-alice", line2)
		is.Equal(k.Fingerprint, k2.Fingerprint)
	})
}

// keysDelete deletes one of the client's keys.
func keysDelete(c *gitea.Client, id int64) error {
	_, err := c.DeletePublicKey(id)
	return err
}

// TestKeysAdmin covers the administrator's routes to add and remove another
// account's keys, on both backends.
func TestKeysAdmin(t *testing.T) {
	t.Parallel()
	backends(t, testKeysAdmin)
}

func testKeysAdmin(t *testing.T, opts ...testserver.Option) {
	srv := testserver.Start(t, opts...)
	admin := srv.AdminClient()
	_, carol := newAccount(t, srv, "carol", gitea.VisibleTypePrivate)
	_, dan := newAccount(t, srv, "dan", gitea.VisibleTypePublic)
	line, pub := keysNew(t, "ops")
	var k *gitea.PublicKey

	t.Run("add", func(t *testing.T) {
		is := is.New(t)
		var resp *gitea.Response
		var err error
		k, resp, err = admin.AdminCreateUserPublicKey("carol", gitea.CreateKeyOption{Title: "ops", Key: line})
		assertSDKStatus(t, resp, err, http.StatusCreated)
		is.Equal(k.Fingerprint, ssh.FingerprintSHA256(pub))
		is.Equal(k.Owner.UserName, "carol")
		is.Equal(k.KeyType, "user")

		list, _, err := carol.ListMyPublicKeys(gitea.ListPublicKeysOptions{})
		is.NoErr(err)
		is.Equal(keysIDs(list), []int64{k.ID})

		// The same validation as for one's own keys.
		assertAPIError(t, srv.Do("POST", "/admin/users/dan/keys", map[string]any{"title": "dup", "key": line}, adminHeader(srv)...),
			http.StatusUnprocessableEntity, keysMsgInUse)
		assertInvalid(t, srv.Do("POST", "/admin/users/dan/keys", map[string]any{"title": "bad", "key": "nope"}, adminHeader(srv)...), "Key")
		_, resp, err = admin.AdminCreateUserPublicKey("nobody", gitea.CreateKeyOption{Title: "x", Key: line})
		assertSDKStatus(t, resp, err, http.StatusNotFound)
	})

	t.Run("needs a site admin", func(t *testing.T) {
		line2, _ := keysNew(t, "")
		body := map[string]any{"title": "sneaky", "key": line2}
		path := fmt.Sprintf("/admin/users/carol/keys/%d", k.ID)
		assertAPIError(t, srv.Do("POST", "/admin/users/carol/keys", body), http.StatusUnauthorized, "token is required")
		assertAPIError(t, srv.Do("DELETE", path, nil), http.StatusUnauthorized, "token is required")
		assertAPIError(t, srv.Do("POST", "/admin/users/carol/keys", body, basicAs("dan")...), http.StatusForbidden, keysMsgNotSiteAdmin)
		assertAPIError(t, srv.Do("DELETE", path, nil, basicAs("dan")...), http.StatusForbidden, keysMsgNotSiteAdmin)
		// The owner too must use /user/keys.
		assertAPIError(t, srv.Do("DELETE", path, nil, basicAs("carol")...), http.StatusForbidden, keysMsgNotSiteAdmin)
		// Whether the account exists is nobody's business but an admin's.
		assertAPIError(t, srv.Do("POST", "/admin/users/nobody/keys", body, basicAs("dan")...), http.StatusForbidden, keysMsgNotSiteAdmin)
		_, resp, err := dan.AdminCreateUserPublicKey("carol", gitea.CreateKeyOption{Title: "sneaky", Key: line2})
		assertSDKStatus(t, resp, err, http.StatusForbidden)
		resp, err = dan.AdminDeleteUserPublicKey("carol", int(k.ID))
		assertSDKStatus(t, resp, err, http.StatusForbidden)
		list, _, err := carol.ListMyPublicKeys(gitea.ListPublicKeysOptions{})
		is := is.New(t)
		is.NoErr(err)
		is.Equal(keysIDs(list), []int64{k.ID}) // nothing changed
	})

	t.Run("delete", func(t *testing.T) {
		is := is.New(t)
		// The key must belong to the account named.
		resp, err := admin.AdminDeleteUserPublicKey("dan", int(k.ID))
		assertSDKStatus(t, resp, err, http.StatusNotFound)
		resp, err = admin.AdminDeleteUserPublicKey("nobody", int(k.ID))
		assertSDKStatus(t, resp, err, http.StatusNotFound)
		assertAPIError(t, srv.Do("DELETE", "/admin/users/carol/keys/abc", nil, adminHeader(srv)...), http.StatusNotFound, "")

		resp, err = admin.AdminDeleteUserPublicKey("carol", int(k.ID))
		assertSDKStatus(t, resp, err, http.StatusNoContent)
		list, _, err := carol.ListMyPublicKeys(gitea.ListPublicKeysOptions{})
		is.NoErr(err)
		is.Equal(len(list), 0)
		resp, err = admin.AdminDeleteUserPublicKey("carol", int(k.ID))
		assertSDKStatus(t, resp, err, http.StatusNotFound)
	})
}

// TestKeysAccess covers who may reach the key routes: sign-in, the
// visibility of the account named and the token scopes.
func TestKeysAccess(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	_, erin := newAccount(t, srv, "erin", gitea.VisibleTypePrivate)
	newAccount(t, srv, "lim", gitea.VisibleTypeLimited)
	newAccount(t, srv, "finn", gitea.VisibleTypePublic)
	line, _ := keysNew(t, "")
	k := keysAdd(t, erin, "erin", line)

	t.Run("anonymous", func(t *testing.T) {
		line2, _ := keysNew(t, "")
		for _, rt := range []struct {
			method, path string
			body         any
		}{
			{"GET", "/user/keys", nil},
			{"POST", "/user/keys", map[string]any{"title": "x", "key": line2}},
			{"GET", fmt.Sprintf("/user/keys/%d", k.ID), nil},
			{"DELETE", fmt.Sprintf("/user/keys/%d", k.ID), nil},
			{"GET", "/users/finn/keys", nil},
			{"GET", "/users/erin/keys", nil},
		} {
			assertAPIError(t, srv.Do(rt.method, rt.path, rt.body), http.StatusUnauthorized, "token is required")
		}
		_, resp, err := srv.Client().ListPublicKeys("finn", gitea.ListPublicKeysOptions{})
		assertSDKStatus(t, resp, err, http.StatusUnauthorized)
	})

	t.Run("private and limited accounts", func(t *testing.T) {
		is := is.New(t)
		// A private account's keys are its own business and the admins'.
		assertAPIError(t, srv.Do("GET", "/users/erin/keys", nil, basicAs("finn")...), http.StatusNotFound, "")
		list, _, err := erin.ListPublicKeys("erin", gitea.ListPublicKeysOptions{})
		is.NoErr(err)
		is.Equal(keysIDs(list), []int64{k.ID})
		list, _, err = srv.AdminClient().ListPublicKeys("erin", gitea.ListPublicKeysOptions{})
		is.NoErr(err)
		is.Equal(keysIDs(list), []int64{k.ID})
		// A limited account is visible to anyone signed in.
		r := srv.Do("GET", "/users/lim/keys", nil, basicAs("finn")...)
		is.Equal(r.Status, http.StatusOK)
	})

	t.Run("scopes", func(t *testing.T) {
		is := is.New(t)
		read := []string{"Authorization", "token " + srv.CreateToken("erin", userPassword, "read:user")}
		write := []string{"Authorization", "token " + srv.CreateToken("erin", userPassword, "write:user")}
		repoOnly := []string{"Authorization", "token " + srv.CreateToken("erin", userPassword, "write:repository")}
		line2, _ := keysNew(t, "")
		body := map[string]any{"title": "by-token", "key": line2}

		is.Equal(srv.Do("GET", "/user/keys", nil, read...).Status, http.StatusOK)
		is.Equal(srv.Do("GET", "/users/erin/keys", nil, read...).Status, http.StatusOK)
		scopeWantDenied(is, srv.Do("POST", "/user/keys", body, read...), "write:user", "read:user")
		scopeWantDenied(is, srv.Do("DELETE", fmt.Sprintf("/user/keys/%d", k.ID), nil, read...), "write:user", "read:user")
		is.Equal(srv.Do("GET", "/user/keys", nil, repoOnly...).Status, http.StatusForbidden)

		r := srv.Do("POST", "/user/keys", body, write...)
		is.Equal(r.Status, http.StatusCreated)
		var created gitea.PublicKey
		r.Decode(t, &created)
		is.Equal(srv.Do("DELETE", fmt.Sprintf("/user/keys/%d", created.ID), nil, write...).Status, http.StatusNoContent)

		// The admin routes need an admin scope even from an admin.
		adminUserOnly := []string{"Authorization", "token " + srv.CreateToken("admin", srv.AdminPassword, "write:user")}
		line3, _ := keysNew(t, "")
		r = srv.Do("POST", "/admin/users/finn/keys", map[string]any{"title": "t", "key": line3}, adminUserOnly...)
		scopeWantDenied(is, r, "write:admin", "write:user")
	})
}

// TestKeysGoWithTheirOwner checks that deleting an account deletes its keys,
// which frees them for other accounts, on both backends.
func TestKeysGoWithTheirOwner(t *testing.T) {
	t.Parallel()
	backends(t, testKeysGoWithTheirOwner)
}

func testKeysGoWithTheirOwner(t *testing.T, opts ...testserver.Option) {
	is := is.New(t)
	srv := testserver.Start(t, opts...)
	admin := srv.AdminClient()
	_, gus := newAccount(t, srv, "gus", gitea.VisibleTypePublic)
	_, hal := newAccount(t, srv, "hal", gitea.VisibleTypePublic)
	line1, _ := keysNew(t, "")
	line2, _ := keysNew(t, "")
	keysAdd(t, gus, "one", line1)
	keysAdd(t, gus, "two", line2)
	kept := keysAdd(t, hal, "hal", func() string { l, _ := keysNew(t, ""); return l }())

	resp, err := admin.AdminDeleteUser("gus")
	assertSDKStatus(t, resp, err, http.StatusNoContent)
	assertAPIError(t, srv.Do("GET", "/users/gus/keys", nil, basicAs("hal")...), http.StatusNotFound, "")

	// The keys are free again.
	k := keysAdd(t, hal, "was-gus", line1)
	is.True(k.ID > kept.ID)
	// A new account under the old name starts without keys.
	_, gus2 := newAccount(t, srv, "gus", gitea.VisibleTypePublic)
	list, _, err := gus2.ListMyPublicKeys(gitea.ListPublicKeysOptions{})
	is.NoErr(err)
	is.Equal(len(list), 0)
	keysAdd(t, gus2, "two", line2)
	// The other account's keys were untouched.
	list, _, err = hal.ListMyPublicKeys(gitea.ListPublicKeysOptions{})
	is.NoErr(err)
	is.Equal(keysIDs(list), []int64{kept.ID, k.ID})
}
