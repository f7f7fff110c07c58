package contract

import (
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// newGPGKey is a primary key keyID of ownerID with one subkey per subID.
func newGPGKey(ownerID int64, keyID string, subIDs ...string) *user.GPGKey {
	k := &user.GPGKey{
		OwnerID: ownerID, KeyID: keyID, Content: "content-" + keyID, Armored: "armored-" + keyID,
		Emails: []string{"a@example.com", "b@example.com"}, CanSign: true, CanCertify: true,
		Created: at(10), Expires: at(90),
	}
	for _, id := range subIDs {
		k.Subkeys = append(k.Subkeys, &user.GPGKey{
			KeyID: id, Content: "content-" + id, CanEncryptComms: true, CanEncryptStorage: true, Created: at(11),
		})
	}
	return k
}

func (f *fixture) gpgKey(ownerID int64, keyID string, subIDs ...string) *user.GPGKey {
	f.t.Helper()
	k := newGPGKey(ownerID, keyID, subIDs...)
	if err := f.GPGKeys.Create(f.ctx, k); err != nil {
		f.t.Fatalf("create gpg key %s: %v", keyID, err)
	}
	if k.ID == 0 {
		f.t.Fatalf("create gpg key %s: id not set", keyID)
	}
	return k
}

func gpgKeyID(k *user.GPGKey) int64 { return k.ID }

const gpgKeyNotFound = "GPG key does not exist"

var gpgKeyTests = map[string]func(t *testing.T, f *fixture){
	"CreateGetAndListRoundTripEveryField": func(t *testing.T, f *fixture) {
		is := is.New(t)
		ann := f.user("ann")
		bob := f.user("bob")
		k1 := f.gpgKey(ann.ID, "00000000000000A1", "00000000000000B1", "00000000000000B2")
		noExpiry := newGPGKey(ann.ID, "00000000000000A2")
		noExpiry.Expires, noExpiry.Emails, noExpiry.Verified = time.Time{}, nil, true // never expires, no address
		is.NoErr(f.GPGKeys.Create(f.ctx, noExpiry))
		k3 := f.gpgKey(ann.ID, "00000000000000A3")
		f.gpgKey(bob.ID, "00000000000000C1")

		is.Equal(k1.Subkeys[0].PrimaryKeyID, k1.KeyID)
		is.Equal(k1.Subkeys[1].OwnerID, ann.ID)
		is.True(k1.Subkeys[0].ID > 0)

		got, err := f.GPGKeys.Get(f.ctx, ann.ID, k1.ID)
		is.NoErr(err)
		is.Equal(*got, *k1)
		is.Equal(len(got.Subkeys), 2)
		is.Equal(*got.Subkeys[1], *k1.Subkeys[1])
		got, err = f.GPGKeys.Get(f.ctx, ann.ID, noExpiry.ID)
		is.NoErr(err)
		is.Equal(*got, *noExpiry)
		got, err = f.GPGKeys.GetByKeyID(f.ctx, ann.ID, "00000000000000A3")
		is.NoErr(err)
		is.Equal(*got, *k3)

		list, total, err := f.GPGKeys.List(f.ctx, ann.ID, firstPage)
		is.NoErr(err)
		is.Equal(ids(list, gpgKeyID), []int64{k1.ID, noExpiry.ID, k3.ID})
		is.Equal(total, int64(3))
		is.Equal(*list[0], *k1)
		list, total, err = f.GPGKeys.List(f.ctx, ann.ID, ports.ListOptions{Page: 2, Limit: 2})
		is.NoErr(err)
		is.Equal(ids(list, gpgKeyID), []int64{k3.ID})
		is.Equal(total, int64(3))
	},
	"SubkeysAreNotKeysOfTheirOwn": func(t *testing.T, f *fixture) {
		is := is.New(t)
		ann := f.user("ann")
		k := f.gpgKey(ann.ID, "00000000000000A1", "00000000000000B1")

		_, err := f.GPGKeys.Get(f.ctx, ann.ID, k.Subkeys[0].ID)
		isCategory(is, err, errs.ErrNotFound, gpgKeyNotFound)
		_, err = f.GPGKeys.GetByKeyID(f.ctx, ann.ID, "00000000000000B1")
		isCategory(is, err, errs.ErrNotFound, gpgKeyNotFound)
		isCategory(is, f.GPGKeys.Delete(f.ctx, ann.ID, k.Subkeys[0].ID), errs.ErrNotFound, gpgKeyNotFound)
	},
	"OtherOwnersKeyIsNotFound": func(t *testing.T, f *fixture) {
		is := is.New(t)
		ann := f.user("ann")
		bob := f.user("bob")
		k := f.gpgKey(ann.ID, "00000000000000A1")

		_, err := f.GPGKeys.Get(f.ctx, bob.ID, k.ID)
		isCategory(is, err, errs.ErrNotFound, gpgKeyNotFound)
		_, err = f.GPGKeys.GetByKeyID(f.ctx, bob.ID, k.KeyID)
		isCategory(is, err, errs.ErrNotFound, gpgKeyNotFound)
		isCategory(is, f.GPGKeys.Delete(f.ctx, bob.ID, k.ID), errs.ErrNotFound, gpgKeyNotFound)
		_, err = f.GPGKeys.Get(f.ctx, ann.ID, k.ID)
		is.NoErr(err)
	},
	"KeyIDIsUniqueAcrossOwnersAndSubkeys": func(t *testing.T, f *fixture) {
		is := is.New(t)
		ann := f.user("ann")
		bob := f.user("bob")
		f.gpgKey(ann.ID, "00000000000000A1", "00000000000000B1")

		isConflict(is, f.GPGKeys.Create(f.ctx, newGPGKey(bob.ID, "00000000000000A1")), user.ErrGPGKeyInUse)
		isConflict(is, f.GPGKeys.Create(f.ctx, newGPGKey(bob.ID, "00000000000000B1")), user.ErrGPGKeyInUse)
		isConflict(is, f.GPGKeys.Create(f.ctx, newGPGKey(bob.ID, "00000000000000C1", "00000000000000A1")), user.ErrGPGKeyInUse)
		// Nothing of a refused key is left behind.
		list, total, err := f.GPGKeys.List(f.ctx, bob.ID, firstPage)
		is.NoErr(err)
		is.Equal(len(list), 0)
		is.Equal(total, int64(0))
		f.gpgKey(bob.ID, "00000000000000C1")
	},
	"CreateForMissingOwnerIsNotFound": func(t *testing.T, f *fixture) {
		is := is.New(t)
		isCategory(is, f.GPGKeys.Create(f.ctx, newGPGKey(424242, "00000000000000A1")), errs.ErrNotFound, "user does not exist")
	},
	"MarkVerifiedMarksTheSubkeysToo": func(t *testing.T, f *fixture) {
		is := is.New(t)
		ann := f.user("ann")
		k := f.gpgKey(ann.ID, "00000000000000A1", "00000000000000B1")
		other := f.gpgKey(ann.ID, "00000000000000A2", "00000000000000B2")

		is.NoErr(f.GPGKeys.MarkVerified(f.ctx, k.ID))
		got, err := f.GPGKeys.Get(f.ctx, ann.ID, k.ID)
		is.NoErr(err)
		is.True(got.Verified)
		is.True(got.Subkeys[0].Verified)
		got, err = f.GPGKeys.Get(f.ctx, ann.ID, other.ID)
		is.NoErr(err)
		is.True(!got.Verified)
		is.True(!got.Subkeys[0].Verified)
		isCategory(is, f.GPGKeys.MarkVerified(f.ctx, 424242), errs.ErrNotFound, gpgKeyNotFound)
	},
	"DeleteRemovesTheSubkeysAndFreesTheIDs": func(t *testing.T, f *fixture) {
		is := is.New(t)
		ann := f.user("ann")
		bob := f.user("bob")
		k := f.gpgKey(ann.ID, "00000000000000A1", "00000000000000B1")
		kept := f.gpgKey(ann.ID, "00000000000000A2", "00000000000000B2")

		is.NoErr(f.GPGKeys.Delete(f.ctx, ann.ID, k.ID))
		_, err := f.GPGKeys.Get(f.ctx, ann.ID, k.ID)
		isCategory(is, err, errs.ErrNotFound, gpgKeyNotFound)
		got, err := f.GPGKeys.Get(f.ctx, ann.ID, kept.ID)
		is.NoErr(err)
		is.Equal(*got, *kept)
		f.gpgKey(bob.ID, "00000000000000B1", "00000000000000A1")
	},
	"DeletingTheOwnerDeletesTheKeys": func(t *testing.T, f *fixture) {
		is := is.New(t)
		ann := f.user("ann")
		bob := f.user("bob")
		f.gpgKey(ann.ID, "00000000000000A1", "00000000000000B1")

		is.NoErr(f.Users.Delete(f.ctx, ann.ID))
		list, total, err := f.GPGKeys.List(f.ctx, ann.ID, firstPage)
		is.NoErr(err)
		is.Equal(len(list), 0)
		is.Equal(total, int64(0))
		f.gpgKey(bob.ID, "00000000000000A1", "00000000000000B1")
	},
}
