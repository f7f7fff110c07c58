package contract

import (
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/packages"
	"github.com/depothq/depot/ports"
)

var packageCleanupRuleTests = map[string]func(t *testing.T, f *fixture){
	"CreateGetListUpdateDelete": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice, bob := f.user("alice"), f.user("bob")
		npm := &packages.CleanupRule{OwnerID: alice.ID, Type: packages.TypeNpm, Enabled: true, KeepCount: 3,
			KeepPattern: `1\..*`, RemoveDays: 7, RemovePattern: `.*-rc.*`, MatchFullName: true,
			CreatedAt: at(1), UpdatedAt: at(1)}
		is.NoErr(f.PackageCleanupRules.Create(f.ctx, npm))
		is.True(npm.ID != 0)
		generic := &packages.CleanupRule{OwnerID: alice.ID, Type: packages.TypeGeneric, CreatedAt: at(2), UpdatedAt: at(2)}
		is.NoErr(f.PackageCleanupRules.Create(f.ctx, generic))
		// One rule per owner and type.
		err := f.PackageCleanupRules.Create(f.ctx, &packages.CleanupRule{OwnerID: alice.ID, Type: packages.TypeNpm,
			CreatedAt: at(3), UpdatedAt: at(3)})
		isCategory(is, err, errs.ErrConflict, "a cleanup rule for this package type already exists")
		is.NoErr(f.PackageCleanupRules.Create(f.ctx, &packages.CleanupRule{OwnerID: bob.ID, Type: packages.TypeNpm,
			CreatedAt: at(3), UpdatedAt: at(3)}))

		got, err := f.PackageCleanupRules.Get(f.ctx, alice.ID, npm.ID)
		is.NoErr(err)
		is.Equal(*got, *npm)
		_, err = f.PackageCleanupRules.Get(f.ctx, bob.ID, npm.ID)
		isCategory(is, err, errs.ErrNotFound, "cleanup rule does not exist")

		list, total, err := f.PackageCleanupRules.List(f.ctx, alice.ID, ports.ListOptions{Page: 1, Limit: 1})
		is.NoErr(err)
		is.Equal(total, int64(2))
		is.Equal(len(list), 1)
		is.Equal(list[0].Type, packages.TypeGeneric) // by type
		list, _, err = f.PackageCleanupRules.List(f.ctx, alice.ID, ports.ListOptions{Page: 2, Limit: 1})
		is.NoErr(err)
		is.Equal(list[0].ID, npm.ID)

		generic.Enabled, generic.KeepCount, generic.RemovePattern, generic.UpdatedAt = true, 5, "x", at(9)
		is.NoErr(f.PackageCleanupRules.Update(f.ctx, generic))
		got, err = f.PackageCleanupRules.Get(f.ctx, alice.ID, generic.ID)
		is.NoErr(err)
		is.Equal(*got, *generic)
		generic.Type = packages.TypeNpm
		err = f.PackageCleanupRules.Update(f.ctx, generic)
		isCategory(is, err, errs.ErrConflict, "a cleanup rule for this package type already exists")
		err = f.PackageCleanupRules.Update(f.ctx, &packages.CleanupRule{ID: generic.ID, OwnerID: bob.ID, Type: "pypi"})
		isCategory(is, err, errs.ErrNotFound, "cleanup rule does not exist")

		err = f.PackageCleanupRules.Delete(f.ctx, bob.ID, npm.ID)
		isCategory(is, err, errs.ErrNotFound, "cleanup rule does not exist")
		is.NoErr(f.PackageCleanupRules.Delete(f.ctx, alice.ID, npm.ID))
		_, err = f.PackageCleanupRules.Get(f.ctx, alice.ID, npm.ID)
		isCategory(is, err, errs.ErrNotFound, "cleanup rule does not exist")
	},
	"EnabledPagesByID": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice, bob := f.user("alice"), f.user("bob")
		var enabled []int64
		for i, r := range []packages.CleanupRule{
			{OwnerID: alice.ID, Type: "npm", Enabled: true}, {OwnerID: alice.ID, Type: "pypi"},
			{OwnerID: bob.ID, Type: "npm", Enabled: true}, {OwnerID: bob.ID, Type: "generic", Enabled: true},
		} {
			r.CreatedAt, r.UpdatedAt = at(i), at(i)
			is.NoErr(f.PackageCleanupRules.Create(f.ctx, &r))
			if r.Enabled {
				enabled = append(enabled, r.ID)
			}
		}
		first, err := f.PackageCleanupRules.Enabled(f.ctx, 0, 2)
		is.NoErr(err)
		is.Equal(len(first), 2)
		is.Equal(first[0].ID, enabled[0])
		is.Equal(first[1].ID, enabled[1])
		rest, err := f.PackageCleanupRules.Enabled(f.ctx, first[1].ID, 2)
		is.NoErr(err)
		is.Equal(len(rest), 1)
		is.Equal(rest[0].ID, enabled[2])
	},
	"PackagesOfType": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice := f.user("alice")
		a, _ := f.pkgVersion(alice.ID, packages.TypeGeneric, "a", "1", 1)
		f.pkgVersion(alice.ID, packages.TypeNpm, "b", "1", 2)
		c, _ := f.pkgVersion(alice.ID, packages.TypeGeneric, "c", "1", 3)
		got, err := f.Packages.OfType(f.ctx, alice.ID, packages.TypeGeneric, 0, 1)
		is.NoErr(err)
		is.Equal(len(got), 1)
		is.Equal(got[0].ID, a.ID)
		got, err = f.Packages.OfType(f.ctx, alice.ID, packages.TypeGeneric, a.ID, 10)
		is.NoErr(err)
		is.Equal(len(got), 1)
		is.Equal(got[0].ID, c.ID)
	},
}
