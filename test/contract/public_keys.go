package contract

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

func newPublicKey(ownerID int64, title, fingerprint string) *user.PublicKey {
	return &user.PublicKey{
		OwnerID: ownerID, Title: title, Content: "ssh-ed25519 AAAAC3Nza" + title, Fingerprint: fingerprint,
		Created: at(50), LastUsed: at(50),
	}
}

func (f *fixture) publicKey(ownerID int64, title, fingerprint string) *user.PublicKey {
	f.t.Helper()
	k := newPublicKey(ownerID, title, fingerprint)
	if err := f.PublicKeys.Create(f.ctx, k); err != nil {
		f.t.Fatalf("create public key %q: %v", title, err)
	}
	if k.ID == 0 {
		f.t.Fatalf("create public key %q: id not set", title)
	}
	return k
}

func publicKeyID(k *user.PublicKey) int64 { return k.ID }

// isConflict checks that err is the given conflict, and still of the
// conflict category for callers that only test that.
func isConflict(is *is.I, err, want error) {
	is.Helper()
	is.True(errors.Is(err, want))             // the rule the key broke
	is.True(errors.Is(err, errs.ErrConflict)) // its category
	is.Equal(errs.Message(err), errs.Message(want))
}

var publicKeyTests = map[string]func(t *testing.T, f *fixture){
	"CreateGetAndListRoundTripEveryField": func(t *testing.T, f *fixture) {
		is := is.New(t)
		ann := f.user("ann")
		bob := f.user("bob")
		k1 := f.publicKey(ann.ID, "laptop", "SHA256:one")
		k2 := f.publicKey(ann.ID, "desktop", "SHA256:two")
		k3 := f.publicKey(ann.ID, "phone", "SHA256:three")
		f.publicKey(bob.ID, "laptop", "SHA256:four") // titles are unique per owner only

		got, err := f.PublicKeys.Get(f.ctx, ann.ID, k2.ID)
		is.NoErr(err)
		is.Equal(*got, *k2)

		got, err = f.PublicKeys.GetByFingerprint(f.ctx, "SHA256:three")
		is.NoErr(err)
		is.Equal(*got, *k3)

		list, total, err := f.PublicKeys.List(f.ctx, ann.ID, "", firstPage)
		is.NoErr(err)
		is.Equal(ids(list, publicKeyID), []int64{k1.ID, k2.ID, k3.ID})
		is.Equal(total, int64(3))
		is.Equal(*list[0], *k1)

		list, total, err = f.PublicKeys.List(f.ctx, ann.ID, "", ports.ListOptions{Page: 2, Limit: 2})
		is.NoErr(err)
		is.Equal(ids(list, publicKeyID), []int64{k3.ID})
		is.Equal(total, int64(3))

		list, total, err = f.PublicKeys.List(f.ctx, ann.ID, "", ports.ListOptions{Page: 3, Limit: 2})
		is.NoErr(err)
		is.Equal(len(list), 0)
		is.Equal(total, int64(3))

		list, total, err = f.PublicKeys.List(f.ctx, ann.ID, "SHA256:two", firstPage)
		is.NoErr(err)
		is.Equal(ids(list, publicKeyID), []int64{k2.ID})
		is.Equal(total, int64(1))

		// The filter never reaches another owner's key.
		list, total, err = f.PublicKeys.List(f.ctx, bob.ID, "SHA256:two", firstPage)
		is.NoErr(err)
		is.Equal(len(list), 0)
		is.Equal(total, int64(0))
	},
	"OtherOwnersKeyIsNotFound": func(t *testing.T, f *fixture) {
		is := is.New(t)
		ann := f.user("ann")
		bob := f.user("bob")
		k := f.publicKey(ann.ID, "laptop", "SHA256:one")

		_, err := f.PublicKeys.Get(f.ctx, bob.ID, k.ID)
		isCategory(is, err, errs.ErrNotFound, "public key does not exist")
		isCategory(is, f.PublicKeys.Delete(f.ctx, bob.ID, k.ID), errs.ErrNotFound, "public key does not exist")
		_, err = f.PublicKeys.Get(f.ctx, ann.ID, k.ID) // still there
		is.NoErr(err)
		_, err = f.PublicKeys.Get(f.ctx, ann.ID, 424242)
		isCategory(is, err, errs.ErrNotFound, "public key does not exist")
		_, err = f.PublicKeys.GetByFingerprint(f.ctx, "SHA256:nope")
		isCategory(is, err, errs.ErrNotFound, "public key does not exist")
	},
	"FingerprintIsUniqueAcrossOwners": func(t *testing.T, f *fixture) {
		is := is.New(t)
		ann := f.user("ann")
		bob := f.user("bob")
		f.publicKey(ann.ID, "laptop", "SHA256:one")

		isConflict(is, f.PublicKeys.Create(f.ctx, newPublicKey(ann.ID, "again", "SHA256:one")), user.ErrKeyInUse)
		isConflict(is, f.PublicKeys.Create(f.ctx, newPublicKey(bob.ID, "stolen", "SHA256:one")), user.ErrKeyInUse)
		// A fingerprint clash is reported before a title clash, as Gitea does.
		isConflict(is, f.PublicKeys.Create(f.ctx, newPublicKey(ann.ID, "laptop", "SHA256:one")), user.ErrKeyInUse)

		list, total, err := f.PublicKeys.List(f.ctx, bob.ID, "", firstPage)
		is.NoErr(err)
		is.Equal(len(list), 0)
		is.Equal(total, int64(0))
	},
	"DeployKeyFingerprintIsRefused": func(t *testing.T, f *fixture) {
		is := is.New(t)
		ann := f.user("ann")
		r := f.repo(ann, "repo")
		f.deployKey(r.ID, "ci", "SHA256:deploy")

		isConflict(is, f.PublicKeys.Create(f.ctx, newPublicKey(ann.ID, "laptop", "SHA256:deploy")), user.ErrKeyIsDeployKey)
		_, err := f.PublicKeys.GetByFingerprint(f.ctx, "SHA256:deploy")
		isCategory(is, err, errs.ErrNotFound, "public key does not exist")

		// Once the deploy key is gone the fingerprint is free.
		list, _, err := f.DeployKeys.List(f.ctx, r.ID, "SHA256:deploy", firstPage)
		is.NoErr(err)
		is.NoErr(f.DeployKeys.Delete(f.ctx, r.ID, list[0].ID))
		f.publicKey(ann.ID, "laptop", "SHA256:deploy")
	},
	"TitleIsUniquePerOwner": func(t *testing.T, f *fixture) {
		is := is.New(t)
		ann := f.user("ann")
		bob := f.user("bob")
		f.publicKey(ann.ID, "laptop", "SHA256:one")

		isConflict(is, f.PublicKeys.Create(f.ctx, newPublicKey(ann.ID, "laptop", "SHA256:two")), user.ErrKeyTitleInUse)
		f.publicKey(bob.ID, "laptop", "SHA256:two")
		f.publicKey(ann.ID, "Laptop", "SHA256:three") // titles compare exactly
	},
	"CreateForMissingOwnerIsNotFound": func(t *testing.T, f *fixture) {
		is := is.New(t)
		err := f.PublicKeys.Create(f.ctx, newPublicKey(424242, "laptop", "SHA256:one"))
		isCategory(is, err, errs.ErrNotFound, "user does not exist")
	},
	"DeleteFreesFingerprintAndTitle": func(t *testing.T, f *fixture) {
		is := is.New(t)
		ann := f.user("ann")
		bob := f.user("bob")
		k := f.publicKey(ann.ID, "laptop", "SHA256:one")

		is.NoErr(f.PublicKeys.Delete(f.ctx, ann.ID, k.ID))
		_, err := f.PublicKeys.Get(f.ctx, ann.ID, k.ID)
		isCategory(is, err, errs.ErrNotFound, "public key does not exist")
		isCategory(is, f.PublicKeys.Delete(f.ctx, ann.ID, k.ID), errs.ErrNotFound, "public key does not exist")

		f.publicKey(ann.ID, "laptop", "SHA256:two")
		f.publicKey(bob.ID, "laptop", "SHA256:one")
	},
	"DeletingTheOwnerDeletesTheKeys": func(t *testing.T, f *fixture) {
		is := is.New(t)
		ann := f.user("ann")
		bob := f.user("bob")
		k1 := f.publicKey(ann.ID, "laptop", "SHA256:one")
		f.publicKey(ann.ID, "desktop", "SHA256:two")
		kept := f.publicKey(bob.ID, "laptop", "SHA256:three")

		is.NoErr(f.Users.Delete(f.ctx, ann.ID))
		_, err := f.PublicKeys.GetByFingerprint(f.ctx, "SHA256:one")
		isCategory(is, err, errs.ErrNotFound, "public key does not exist")
		list, total, err := f.PublicKeys.List(f.ctx, ann.ID, "", firstPage)
		is.NoErr(err)
		is.Equal(len(list), 0)
		is.Equal(total, int64(0))
		got, err := f.PublicKeys.Get(f.ctx, bob.ID, kept.ID)
		is.NoErr(err)
		is.Equal(*got, *kept)

		// The fingerprint is free for someone else now.
		k := f.publicKey(bob.ID, "old", "SHA256:one")
		is.True(k.ID != k1.ID)
		got, err = f.PublicKeys.GetByFingerprint(f.ctx, "SHA256:one")
		is.NoErr(err)
		is.Equal(got.OwnerID, bob.ID)
	},
	"TouchLastUsed": func(t *testing.T, f *fixture) {
		is := is.New(t)
		ann := f.user("ann")
		k := f.publicKey(ann.ID, "laptop", "SHA256:one")
		other := f.publicKey(ann.ID, "desktop", "SHA256:two")

		is.NoErr(f.PublicKeys.TouchLastUsed(f.ctx, k.ID, at(55)))
		got, err := f.PublicKeys.Get(f.ctx, ann.ID, k.ID)
		is.NoErr(err)
		is.Equal(got.LastUsed, at(55))
		is.Equal(got.Created, at(50))
		got, err = f.PublicKeys.Get(f.ctx, ann.ID, other.ID)
		is.NoErr(err)
		is.Equal(got.LastUsed, at(50)) // only that key

		isCategory(is, f.PublicKeys.TouchLastUsed(f.ctx, 424242, at(56)), errs.ErrNotFound, "public key does not exist")
	},
	"ConcurrentCreatesKeepOneKey": func(t *testing.T, f *fixture) {
		// Whether a loser is caught by the check or by the constraint, it
		// learns the same rule.
		is := is.New(t)
		ann := f.user("ann")
		const n = 6
		cases := []struct {
			key  func(i int) *user.PublicKey
			want error
		}{
			{func(i int) *user.PublicKey { return newPublicKey(ann.ID, "t"+strconv.Itoa(i), "SHA256:same") }, user.ErrKeyInUse},
			{func(i int) *user.PublicKey { return newPublicKey(ann.ID, "same", "SHA256:fp"+strconv.Itoa(i)) }, user.ErrKeyTitleInUse},
		}
		for _, c := range cases {
			errc := make(chan error, n)
			var wg sync.WaitGroup
			for i := range n {
				wg.Add(1)
				go func() { defer wg.Done(); errc <- f.PublicKeys.Create(f.ctx, c.key(i)) }()
			}
			wg.Wait()
			close(errc)
			wins := 0
			for err := range errc {
				if err == nil {
					wins++
					continue
				}
				isConflict(is, err, c.want)
			}
			is.Equal(wins, 1)
		}
	},
	"CreateInTransactionRollsBack": func(t *testing.T, f *fixture) {
		is := is.New(t)
		ann := f.user("ann")
		boom := errors.New("boom")
		err := f.tx.InTx(f.ctx, func(ctx context.Context, tx ports.Stores) error {
			if err := tx.PublicKeys.Create(ctx, newPublicKey(ann.ID, "laptop", "SHA256:one")); err != nil {
				return err
			}
			// A refused key inside the transaction leaves it usable.
			isConflict(is, tx.PublicKeys.Create(ctx, newPublicKey(ann.ID, "laptop", "SHA256:two")), user.ErrKeyTitleInUse)
			return boom
		})
		is.True(errors.Is(err, boom))
		_, err = f.PublicKeys.GetByFingerprint(f.ctx, "SHA256:one")
		isCategory(is, err, errs.ErrNotFound, "public key does not exist")
	},
}
