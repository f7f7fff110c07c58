package test

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/test/testserver"
	"github.com/matryer/is"
)

// TestPackages covers the generic registry over plain HTTP and the
// package management API with the SDK's types: publishing, duplicates,
// bad names, downloads, listing, files with their checksums, latest,
// repository links, deletion with its blobs, content-addressed dedup, and
// who may read and write an owner's packages, on both backends.
func TestPackages(t *testing.T) {
	t.Parallel()
	backends(t, testPackages)
}

// countPackageBlobs counts the stored package blobs under the data directory.
func countPackageBlobs(t *testing.T, srv *testserver.Server) int {
	t.Helper()
	n := 0
	root := filepath.Join(srv.DataDir, "packages")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() && len(d.Name()) == 64 {
			n++
		}
		return nil
	})
	if err != nil {
		t.Fatalf("walk package blobs: %v", err)
	}
	return n
}

func testPackages(t *testing.T, opts ...testserver.Option) {
	srv := testserver.Start(t, opts...)
	socialAccounts(t, srv, "alice", "bob", "carol", "dave", "erin")
	newAccount(t, srv, "hermit", gitea.VisibleTypePrivate)
	createRepoAs(t, srv, "alice", "tools", false)
	carol := userClient(srv, "carol")
	orgCreate(t, carol, "acme", gitea.VisibleTypePublic)
	orgTeam(t, carol, "acme", gitea.CreateTeamOption{Name: "publishers", Permission: gitea.AccessModeWrite,
		Units: []gitea.RepoUnitType{gitea.RepoUnitPackages}}, "dave")
	orgTeam(t, carol, "acme", gitea.CreateTeamOption{Name: "readers", Permission: gitea.AccessModeRead,
		Units: []gitea.RepoUnitType{gitea.RepoUnitPackages}}, "erin")
	reg := func(path string) string { return srv.URL + "/api/packages" + path }
	content := []byte("#!/bin/sh\necho tool\n")
	sum := sha256.Sum256(content)
	wantSHA := hex.EncodeToString(sum[:])

	t.Run("generic registry", func(t *testing.T) {
		is := is.New(t)
		r := srv.Do("PUT", reg("/alice/generic/tool/1.0.0/tool.sh"), content, basicAs("alice")...)
		is.Equal(r.Status, http.StatusCreated)
		// The same file again is a conflict; another name with the same
		// bytes is a second file but not a second blob.
		r = srv.Do("PUT", reg("/alice/generic/tool/1.0.0/tool.sh"), content, basicAs("alice")...)
		is.Equal(r.Status, http.StatusConflict)
		r = srv.Do("PUT", reg("/alice/generic/tool/1.0.0/copy.sh"), content, basicAs("alice")...)
		is.Equal(r.Status, http.StatusCreated)
		r = srv.Do("PUT", reg("/alice/generic/tool/1.1.0/tool.sh"), "newer", basicAs("alice")...)
		is.Equal(r.Status, http.StatusCreated)
		is.Equal(countPackageBlobs(t, srv), 2)

		// Anyone who sees the owner downloads.
		r = srv.Do("GET", reg("/alice/generic/tool/1.0.0/tool.sh"), nil)
		is.Equal(r.Status, http.StatusOK)
		is.Equal(string(r.Body), string(content))
		is.Equal(r.Header.Get("X-Checksum-Sha256"), wantSHA)
		r = srv.Do("GET", reg("/alice/generic/tool/1.0.0/absent.sh"), nil)
		is.Equal(r.Status, http.StatusNotFound)
		r = srv.Do("GET", reg("/nobody/generic/tool/1.0.0/tool.sh"), nil)
		is.Equal(r.Status, http.StatusNotFound)

		// Bad names, versions and file names are 400 and store nothing.
		for _, p := range []string{"/alice/generic/to%2Fol/1/f", "/alice/generic/tool/%201/f",
			"/alice/generic/tool/1/..", "/alice/generic/t%C3%B6%C3%B6l/1/f", "/alice/generic/tool/1/%20f"} {
			r = srv.Do("PUT", reg(p), "x", basicAs("alice")...)
			if r.Status != http.StatusBadRequest && r.Status != http.StatusNotFound {
				t.Fatalf("PUT %s: status %d, want 400 (body %s)", p, r.Status, r.Body)
			}
		}

		// Writes: anonymous 401 with the challenge, others 403, a token
		// without the package scope 403.
		r = srv.Do("PUT", reg("/alice/generic/tool/2.0.0/f"), "x")
		is.Equal(r.Status, http.StatusUnauthorized)
		is.True(strings.HasPrefix(r.Header.Get("WWW-Authenticate"), "Basic"))
		r = srv.Do("PUT", reg("/alice/generic/tool/2.0.0/f"), "x", basicAs("bob")...)
		is.Equal(r.Status, http.StatusForbidden)
		r = srv.Do("PUT", reg("/alice/generic/tool/2.0.0/f"), "x", tokenHeader(srv, "alice", "read:package")...)
		is.Equal(r.Status, http.StatusForbidden)
		r = srv.Do("PUT", reg("/alice/generic/tool/2.0.0/f"), "x", tokenHeader(srv, "alice", "write:user")...)
		is.Equal(r.Status, http.StatusForbidden)
		r = srv.Do("PUT", reg("/alice/generic/tool/2.0.0/f"), "x", tokenHeader(srv, "alice", "write:package")...)
		is.Equal(r.Status, http.StatusCreated)

		// Organisation: a team with package write publishes, a team with
		// read and an outsider may not, the owner may.
		is.Equal(srv.Do("PUT", reg("/acme/generic/lib/1.0/lib.tgz"), "lib", basicAs("dave")...).Status, http.StatusCreated)
		is.Equal(srv.Do("PUT", reg("/acme/generic/lib/1.1/lib.tgz"), "lib", basicAs("erin")...).Status, http.StatusForbidden)
		is.Equal(srv.Do("PUT", reg("/acme/generic/lib/1.1/lib.tgz"), "lib", basicAs("bob")...).Status, http.StatusForbidden)
		is.Equal(srv.Do("PUT", reg("/acme/generic/lib/1.1/lib.tgz"), "lib", basicAs("carol")...).Status, http.StatusCreated)

		// A private user's packages are 404 to outsiders.
		r = srv.Do("PUT", reg("/hermit/generic/secret/1/s.bin"), "s", basicAs("hermit")...)
		is.Equal(r.Status, http.StatusCreated)
		is.Equal(srv.Do("GET", reg("/hermit/generic/secret/1/s.bin"), nil, basicAs("bob")...).Status, http.StatusNotFound)
		is.Equal(srv.Do("GET", reg("/hermit/generic/secret/1/s.bin"), nil).Status, http.StatusNotFound)
		is.Equal(srv.Do("GET", reg("/hermit/generic/secret/1/s.bin"), nil, basicAs("hermit")...).Status, http.StatusOK)
	})

	t.Run("management API", func(t *testing.T) {
		is := is.New(t)
		alice, bob := userClient(srv, "alice"), userClient(srv, "bob")
		list, resp, err := bob.ListPackages("alice", gitea.ListPackagesOptions{})
		is.NoErr(err)
		is.Equal(resp.Header.Get("X-Total-Count"), "3")
		is.Equal(len(list), 3)
		is.Equal(list[0].Version, "2.0.0") // newest first
		is.Equal(list[0].Type, "generic")
		is.Equal(list[0].Name, "tool")
		is.Equal(list[0].Owner.UserName, "alice")
		is.Equal(list[0].Creator.UserName, "alice")
		list, _, err = bob.ListPackages("alice", gitea.ListPackagesOptions{Q: "nomatch"})
		is.NoErr(err)
		is.Equal(len(list), 0)
		list, _, err = bob.ListPackages("alice", gitea.ListPackagesOptions{Type: "npm"})
		is.NoErr(err)
		is.Equal(len(list), 0)
		list, resp, err = bob.ListPackages("alice", gitea.ListPackagesOptions{ListOptions: gitea.ListOptions{Page: 2, PageSize: 2}})
		is.NoErr(err)
		is.Equal(len(list), 1)
		is.Equal(list[0].Version, "1.0.0")

		p, _, err := bob.GetPackage("alice", "generic", "tool", "1.0.0")
		is.NoErr(err)
		is.Equal(p.Version, "1.0.0")
		is.True(p.Repository == nil)
		latest, _, err := bob.GetLatestPackage("alice", "generic", "tool")
		is.NoErr(err)
		is.Equal(latest.Version, "2.0.0")
		files, _, err := bob.ListPackageFiles("alice", "generic", "tool", "1.0.0")
		is.NoErr(err)
		is.Equal(len(files), 2)
		is.Equal(files[1].Name, "tool.sh")
		is.Equal(files[1].SHA256, wantSHA)
		is.Equal(files[1].Size, int64(len(content)))
		is.Equal(len(files[1].MD5), 32)
		is.Equal(len(files[1].SHA512), 128)
		_, resp, err = bob.GetPackage("alice", "generic", "tool", "9.9.9")
		assertSDKStatus(t, resp, err, http.StatusNotFound)
		_, resp, err = bob.GetPackage("alice", "generic", "absent", "1")
		assertSDKStatus(t, resp, err, http.StatusNotFound)

		// The spec's T: anonymous callers are refused; a token without the
		// package scope too; a private owner is 404 to outsiders.
		assertAPIError(t, srv.Do("GET", "/packages/alice", nil), http.StatusUnauthorized, "")
		is.Equal(srv.Do("GET", "/packages/alice", nil, tokenHeader(srv, "bob", "read:user")...).Status, http.StatusForbidden)
		is.Equal(srv.Do("GET", "/packages/alice", nil, tokenHeader(srv, "bob", "read:package")...).Status, http.StatusOK)
		is.Equal(srv.Do("GET", "/packages/hermit", nil, basicAs("bob")...).Status, http.StatusNotFound)
		is.Equal(srv.Do("GET", "/packages/hermit", nil, basicAs("hermit")...).Status, http.StatusOK)
		is.Equal(srv.Do("GET", "/packages/hermit", nil, socialAdmin(srv)...).Status, http.StatusOK)

		// Links: outsiders may not; the owner links to its repository and unlinks.
		assertAPIError(t, srv.Do("POST", "/packages/alice/generic/tool/-/link/tools", nil, basicAs("bob")...),
			http.StatusForbidden, "user should have specific permission or be a site admin")
		is.Equal(srv.Do("POST", "/packages/alice/generic/tool/-/link/absent", nil, basicAs("alice")...).Status, http.StatusNotFound)
		resp, err = alice.LinkPackage("alice", "generic", "tool", "tools")
		assertSDKStatus(t, resp, err, http.StatusCreated)
		p, _, err = bob.GetPackage("alice", "generic", "tool", "1.0.0")
		is.NoErr(err)
		is.True(p.Repository != nil)
		is.Equal(p.Repository.Name, "tools")
		resp, err = alice.UnlinkPackage("alice", "generic", "tool")
		assertSDKStatus(t, resp, err, http.StatusNoContent)
		p, _, err = bob.GetPackage("alice", "generic", "tool", "1.0.0")
		is.NoErr(err)
		is.True(p.Repository == nil)

		// Organisation members read; only package writers delete.
		is.Equal(srv.Do("DELETE", "/packages/acme/generic/lib/1.0", nil, basicAs("erin")...).Status, http.StatusForbidden)
		is.Equal(srv.Do("DELETE", "/packages/acme/generic/lib/1.0", nil, basicAs("dave")...).Status, http.StatusNoContent)

		// Deletion: outsiders 403; the owner's removes the version, and its
		// blobs once no file names them.
		blobs := countPackageBlobs(t, srv)
		resp, err = bob.DeletePackage("alice", "generic", "tool", "1.0.0")
		assertSDKStatus(t, resp, err, http.StatusForbidden)
		resp, err = alice.DeletePackage("alice", "generic", "tool", "1.0.0")
		assertSDKStatus(t, resp, err, http.StatusNoContent)
		_, resp, err = bob.GetPackage("alice", "generic", "tool", "1.0.0")
		assertSDKStatus(t, resp, err, http.StatusNotFound)
		is.Equal(countPackageBlobs(t, srv), blobs-1)
		is.Equal(srv.Do("GET", reg("/alice/generic/tool/1.0.0/tool.sh"), nil).Status, http.StatusNotFound)

		// The generic registry deletes a file, then the version with its last file.
		is.Equal(srv.Do("DELETE", reg("/alice/generic/tool/1.1.0/tool.sh"), nil, basicAs("bob")...).Status, http.StatusForbidden)
		is.Equal(srv.Do("DELETE", reg("/alice/generic/tool/1.1.0/tool.sh"), nil, basicAs("alice")...).Status, http.StatusNoContent)
		_, resp, err = bob.GetPackage("alice", "generic", "tool", "1.1.0")
		assertSDKStatus(t, resp, err, http.StatusNotFound)
		is.Equal(srv.Do("DELETE", reg("/alice/generic/tool/2.0.0"), nil, basicAs("alice")...).Status, http.StatusNoContent)
		list, _, err = alice.ListPackages("alice", gitea.ListPackagesOptions{})
		is.NoErr(err)
		is.Equal(len(list), 0)
	})
}
