package packages

import (
	"testing"

	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/user"
)

func TestGenericNames(t *testing.T) {
	for _, c := range []struct {
		name, version, file string
		ok                  bool
	}{
		{"tool", "1.0.0", "tool.tar.gz", true},
		{"my_tool+x", "v2-beta", "a file (1).zip", true},
		{"bad/name", "1", "f", false},
		{"", "1", "f", false},
		{"tool", " 1", "f", false},
		{"tool", "1/2", "f", false},
		{"tool", "", "f", false},
		{"tool", "1", "..", false},
		{"tool", "1", " f", false},
		{"tool", "1", "a/b", false},
		{"tool", "1", "a\x00b", false},
		{"tööl", "1", "f", false},
	} {
		err := CheckGeneric(c.name, c.version, c.file)
		if (err == nil) != c.ok {
			t.Errorf("CheckGeneric(%q, %q, %q) = %v, want ok=%v", c.name, c.version, c.file, err, c.ok)
		}
	}
}

func TestPackageAccess(t *testing.T) {
	for _, c := range []struct {
		r    OwnerRelation
		want permission.AccessMode
	}{
		{OwnerRelation{Self: true}, permission.ModeOwner},
		{OwnerRelation{}, permission.ModeRead},
		{OwnerRelation{OwnerIsOrg: true, IsOrgOwner: true, IsOrgMember: true}, permission.ModeOwner},
		{OwnerRelation{OwnerIsOrg: true, IsOrgMember: true, TeamMode: permission.ModeWrite}, permission.ModeWrite},
		{OwnerRelation{OwnerIsOrg: true, IsOrgMember: true}, permission.ModeRead},
		{OwnerRelation{OwnerIsOrg: true, TeamMode: permission.ModeWrite}, permission.ModeRead},
	} {
		if got := Access(c.r); got != c.want {
			t.Errorf("Access(%+v) = %v, want %v", c.r, got, c.want)
		}
	}
}

func TestOwnerVisible(t *testing.T) {
	for _, c := range []struct {
		r    OwnerRelation
		want bool
	}{
		{OwnerRelation{Visibility: user.VisibilityPublic}, true},
		{OwnerRelation{Visibility: user.VisibilityLimited}, false},
		{OwnerRelation{Visibility: user.VisibilityLimited, SignedIn: true}, true},
		{OwnerRelation{Visibility: user.VisibilityPrivate, SignedIn: true}, false},
		{OwnerRelation{Visibility: user.VisibilityPrivate, Self: true}, true},
		{OwnerRelation{Visibility: user.VisibilityPrivate, OwnerIsOrg: true, IsOrgMember: true}, true},
		{OwnerRelation{Visibility: user.VisibilityPrivate, Admin: true}, true},
	} {
		if got := Visible(c.r); got != c.want {
			t.Errorf("Visible(%+v) = %v, want %v", c.r, got, c.want)
		}
	}
}

func FuzzPackageNames(f *testing.F) {
	for _, s := range []string{"tool", "1.0.0", "a b", "..", "@scope/pkg", "x\x00", " v"} {
		f.Add(s, s, s)
	}
	f.Fuzz(func(t *testing.T, name, version, file string) {
		err := CheckGeneric(name, version, file)
		if err != nil {
			return
		}
		// What passes must be safe as a path segment and a stored value.
		for _, s := range []string{name, version, file} {
			if s == "." || s == ".." {
				t.Fatalf("dot segment %q accepted", s)
			}
			for _, r := range s {
				if r == '/' || r < 0x20 {
					t.Fatalf("%q accepted with %q", s, r)
				}
			}
		}
		if _, _, err := ParseNpmName(name); err == nil && name == "" {
			t.Fatal("empty npm name accepted")
		}
	})
}
