package contract

import (
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/packages"
	"github.com/depothq/depot/ports"
)

// pkgBlob is a blob whose checksums are made from seed.
func pkgBlob(seed string) packages.Blob {
	return packages.Blob{Size: int64(len(seed)), MD5: strings.Repeat(seed[:1], 32), SHA1: strings.Repeat(seed[:1], 40),
		SHA256: strings.Repeat(seed[:1], 64), SHA512: strings.Repeat(seed[:1], 128)}
}

// pkgVersion ensures the package and creates the version.
func (f *fixture) pkgVersion(ownerID int64, typ packages.Type, name, version string, m int) (*packages.Package, *packages.Version) {
	f.t.Helper()
	p := &packages.Package{OwnerID: ownerID, Type: typ, Name: name}
	if err := f.Packages.Ensure(f.ctx, p); err != nil || p.ID == 0 {
		f.t.Fatalf("ensure package %q: %v", name, err)
	}
	v := &packages.Version{PackageID: p.ID, Version: version, CreatorID: ownerID, Metadata: "{}", CreatedAt: at(m)}
	if err := f.Packages.CreateVersion(f.ctx, v); err != nil || v.ID == 0 {
		f.t.Fatalf("create version %q: %v", version, err)
	}
	return p, v
}

func (f *fixture) pkgFile(versionID int64, name, seed string) *packages.File {
	f.t.Helper()
	file := &packages.File{VersionID: versionID, Name: name, Blob: pkgBlob(seed), CreatedAt: at(5)}
	if err := f.Packages.AddFile(f.ctx, file); err != nil || file.ID == 0 {
		f.t.Fatalf("add file %q: %v", name, err)
	}
	return file
}

var packageTests = map[string]func(t *testing.T, f *fixture){
	"ImageManifestByTagOrDigest": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice, bob := f.user("alice"), f.user("bob")
		_, v := f.pkgVersion(alice.ID, packages.TypeContainer, "app/Web", "Latest", 1)
		f.pkgFile(v.ID, "manifest.json", "m")
		f.pkgVersion(bob.ID, packages.TypeContainer, "app/web", "other", 2)
		f.pkgVersion(alice.ID, packages.TypeGeneric, "app/web", "latest", 3)
		digest := "sha256:" + pkgBlob("m").SHA256
		is.NoErr(f.Containers.SaveManifest(f.ctx, &packages.ContainerManifest{VersionID: v.ID, Digest: digest,
			MediaType: packages.MediaTypeOCIManifest, Size: 1, BlobSHA256: pkgBlob("m").SHA256}))

		byTag, err := f.Containers.ImageManifest(f.ctx, alice.ID, "APP/web", packages.Reference{Tag: "latest"})
		is.NoErr(err) // the image's name and the tag in any case
		is.Equal(byTag.VersionID, v.ID)
		is.Equal(byTag.Digest, digest)
		is.Equal(byTag.BlobSHA256, pkgBlob("m").SHA256)
		byDigest, err := f.Containers.ImageManifest(f.ctx, alice.ID, "app/web", packages.Reference{Digest: digest})
		is.NoErr(err)
		is.Equal(byDigest.VersionID, v.ID)

		for _, c := range []struct {
			owner int64
			image string
			ref   packages.Reference
		}{
			{bob.ID, "app/web", packages.Reference{Tag: "latest"}},   // another owner's image of that name
			{bob.ID, "app/web", packages.Reference{Digest: digest}},  // idem, by digest
			{alice.ID, "app/web", packages.Reference{Tag: "other"}},  // a tag of bob's image
			{alice.ID, "app/api", packages.Reference{Tag: "latest"}}, // no such image
			{alice.ID, "app/web", packages.Reference{Digest: "sha256:" + pkgBlob("x").SHA256}},
		} {
			_, err := f.Containers.ImageManifest(f.ctx, c.owner, c.image, c.ref)
			isCategory(is, err, errs.ErrNotFound, "manifest unknown")
		}
	},
	"EnsureListAndVersions": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice, bob := f.user("alice"), f.user("bob")
		p, _ := f.pkgVersion(alice.ID, packages.TypeGeneric, "Tool", "1.0", 1)
		f.pkgVersion(alice.ID, packages.TypeGeneric, "tool", "2.0", 2)
		f.pkgVersion(alice.ID, packages.TypeNpm, "left_pad", "1.0.0", 3)
		f.pkgVersion(bob.ID, packages.TypeGeneric, "tool", "1.0", 4)
		// Names are matched in any case: "tool" is "Tool".
		again := &packages.Package{OwnerID: alice.ID, Type: packages.TypeGeneric, Name: "TOOL"}
		is.NoErr(f.Packages.Ensure(f.ctx, again))
		is.Equal(again.ID, p.ID)
		is.Equal(again.Name, "Tool")
		err := f.Packages.CreateVersion(f.ctx, &packages.Version{PackageID: p.ID, Version: "1.0", CreatedAt: at(9)})
		isCategory(is, err, errs.ErrConflict, "package version already exists")

		list, total, err := f.Packages.List(f.ctx, ports.PackageFilter{OwnerID: alice.ID}, ports.ListOptions{Page: 1, Limit: 2})
		is.NoErr(err)
		is.Equal(total, int64(3))
		is.Equal(len(list), 2)
		is.Equal(list[0].Version.Version, "1.0.0")
		is.Equal(list[0].Package.Type, packages.TypeNpm)
		is.Equal(list[1].Version.Version, "2.0")
		list, total, err = f.Packages.List(f.ctx, ports.PackageFilter{OwnerID: alice.ID, Type: packages.TypeGeneric}, ports.ListOptions{Page: 1, Limit: 10})
		is.NoErr(err)
		is.Equal(total, int64(2))
		// The name filter is a substring, LIKE's wildcards taken literally.
		_, total, err = f.Packages.List(f.ctx, ports.PackageFilter{OwnerID: alice.ID, Query: "T%L"}, ports.ListOptions{Page: 1, Limit: 10})
		is.NoErr(err)
		is.Equal(total, int64(0))
		_, total, err = f.Packages.List(f.ctx, ports.PackageFilter{OwnerID: alice.ID, Query: "T_P"}, ports.ListOptions{Page: 1, Limit: 10})
		is.NoErr(err)
		is.Equal(total, int64(1))

		vs, total, err := f.Packages.Versions(f.ctx, p.ID, ports.ListOptions{Page: 1, Limit: 10})
		is.NoErr(err)
		is.Equal(total, int64(2))
		is.Equal(vs[0].Version, "2.0")
		latest, err := f.Packages.Latest(f.ctx, p.ID)
		is.NoErr(err)
		is.Equal(latest.Version, "2.0")
		v, err := f.Packages.GetVersion(f.ctx, p.ID, "1.0")
		is.NoErr(err)
		is.Equal(v.CreatedAt, at(1))
		is.Equal(v.Metadata, "{}")
		_, err = f.Packages.GetVersion(f.ctx, p.ID, "3.0")
		is.True(err != nil && strings.Contains(err.Error(), "does not exist"))
	},
	"FilesShareBlobs": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice, bob := f.user("alice"), f.user("bob")
		_, v1 := f.pkgVersion(alice.ID, packages.TypeGeneric, "tool", "1", 1)
		_, v2 := f.pkgVersion(bob.ID, packages.TypeGeneric, "tool", "1", 2)
		a := f.pkgFile(v1.ID, "a.bin", "a")
		f.pkgFile(v1.ID, "b.bin", "b")
		shared := f.pkgFile(v2.ID, "a.bin", "a")
		is.Equal(shared.Blob.ID, a.Blob.ID) // one blob row for equal bytes
		err := f.Packages.AddFile(f.ctx, &packages.File{VersionID: v1.ID, Name: "A.BIN", Blob: pkgBlob("c"), CreatedAt: at(6)})
		isCategory(is, err, errs.ErrConflict, "package file already exists")

		files, err := f.Packages.Files(f.ctx, v1.ID)
		is.NoErr(err)
		is.Equal(len(files), 2)
		is.Equal(files[0].Name, "a.bin")
		is.Equal(files[0].Blob, a.Blob)
		got, err := f.Packages.GetFile(f.ctx, v1.ID, "A.bin")
		is.NoErr(err)
		is.Equal(got.ID, a.ID)
		byVersion, err := f.Packages.FilesOf(f.ctx, []int64{v1.ID, v2.ID})
		is.NoErr(err)
		is.Equal(len(byVersion[v1.ID]), 2)
		is.Equal(len(byVersion[v2.ID]), 1)
		ofPackage, err := f.Packages.PackageFiles(f.ctx, v1.PackageID)
		is.NoErr(err)
		is.Equal(len(ofPackage), 1) // bob's version is another package's
		is.Equal(len(ofPackage[v1.ID]), 2)
		is.Equal(ofPackage[v1.ID][0].Name, "a.bin")
		is.Equal(ofPackage[v1.ID][0].Blob, a.Blob)

		// Deleting alice's version frees only the blob no other file names.
		gone, err := f.Packages.DeleteVersion(f.ctx, v1.ID)
		is.NoErr(err)
		is.Equal(gone, []string{pkgBlob("b").SHA256})
		kept, err := f.Packages.BlobsReferenced(f.ctx, []string{pkgBlob("a").SHA256, pkgBlob("b").SHA256})
		is.NoErr(err)
		is.Equal(kept, map[string]bool{pkgBlob("a").SHA256: true})
		_, err = f.Packages.Get(f.ctx, alice.ID, packages.TypeGeneric, "tool")
		isCategory(is, err, errs.ErrNotFound, "package does not exist") // its last version went

		sum, err := f.Packages.DeleteFile(f.ctx, shared.ID)
		is.NoErr(err)
		is.Equal(sum, pkgBlob("a").SHA256)
	},
	"RepoLinks": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice := f.user("alice")
		p, _ := f.pkgVersion(alice.ID, packages.TypeGeneric, "tool", "1", 1)
		is.NoErr(f.Packages.SetRepo(f.ctx, p.ID, 42))
		got, err := f.Packages.Get(f.ctx, alice.ID, packages.TypeGeneric, "tool")
		is.NoErr(err)
		is.Equal(got.RepoID, int64(42))
		is.NoErr(f.Packages.SetRepo(f.ctx, p.ID, 0))
		isCategory(is, f.Packages.SetRepo(f.ctx, p.ID+100, 1), errs.ErrNotFound, "package does not exist")
	},
}
