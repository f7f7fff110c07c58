package test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/test/testserver"
	"github.com/google/go-containerregistry/pkg/authn"
	"github.com/google/go-containerregistry/pkg/crane"
	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/random"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/google/go-containerregistry/pkg/v1/remote/transport"
	"github.com/matryer/is"
)

// TestPackagesContainer drives the container registry under /v2/ with
// go-containerregistry's client (crane and remote): the token flow,
// pushing and pulling random images, tags with paging, layers shared by
// two images stored once, mounts across images and owners, deleting tags
// and manifests, referrers, the distribution spec's errors, and who may
// push and pull, on both backends.
func TestPackagesContainer(t *testing.T) {
	t.Parallel()
	backends(t, testPackagesContainer)
}

// ociErrorCode reads the first code of a distribution spec error body.
func ociErrorCode(t *testing.T, r testserver.Response) string {
	t.Helper()
	var body struct {
		Errors []struct{ Code string } `json:"errors"`
	}
	if err := json.Unmarshal(r.Body, &body); err != nil || len(body.Errors) == 0 {
		t.Fatalf("not an OCI error body (%d): %s", r.Status, r.Body)
	}
	return body.Errors[0].Code
}

// transportStatus is the HTTP status and first code of a client error.
func transportStatus(t *testing.T, err error) (int, string) {
	t.Helper()
	var terr *transport.Error
	if !errors.As(err, &terr) {
		t.Fatalf("want a registry error, got %v", err)
	}
	code := ""
	if len(terr.Errors) > 0 {
		code = string(terr.Errors[0].Code)
	}
	return terr.StatusCode, code
}

func sha256Digest(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

func testPackagesContainer(t *testing.T, opts ...testserver.Option) {
	srv := testserver.Start(t, opts...)
	socialAccounts(t, srv, "alice", "bob")
	newAccount(t, srv, "hermit", gitea.VisibleTypePrivate)
	u, err := url.Parse(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	host := u.Host
	as := func(user string) crane.Option {
		return crane.WithAuth(&authn.Basic{Username: user, Password: userPassword})
	}
	anon := crane.WithAuth(authn.Anonymous)
	v2 := srv.URL + "/v2"
	challenge := `Bearer realm="` + srv.URL + `/v2/token",service="container_registry",scope="*"`

	t.Run("token flow", func(t *testing.T) {
		is := is.New(t)
		r := srv.Do("GET", v2+"/", nil)
		is.Equal(r.Status, http.StatusUnauthorized)
		is.Equal(r.Header.Get("WWW-Authenticate"), challenge)
		is.Equal(ociErrorCode(t, r), "UNAUTHORIZED")
		var tok struct{ Token string }
		r = srv.Do("GET", v2+"/token", nil)
		is.Equal(r.Status, http.StatusOK)
		r.Decode(t, &tok)
		is.True(tok.Token != "")
		r = srv.Do("GET", v2, nil, "Authorization", "Bearer "+tok.Token)
		is.Equal(r.Status, http.StatusOK)
		is.Equal(r.Header.Get("Docker-Distribution-Api-Version"), "registry/2.0")

		r = srv.Do("GET", v2+"/token", nil, "Authorization", testserver.Basic("alice", userPassword))
		is.Equal(r.Status, http.StatusOK)
		r.Decode(t, &tok)
		is.Equal(srv.Do("GET", v2+"/", nil, "Authorization", "Bearer "+tok.Token).Status, http.StatusOK)
		is.Equal(srv.Do("GET", v2+"/token", nil, "Authorization", testserver.Basic("alice", "wrong")).Status, http.StatusUnauthorized)
		is.Equal(srv.Do("GET", v2+"/", nil, "Authorization", "Bearer not-a-token").Status, http.StatusUnauthorized)

		// A token without the package scope gets no registry token.
		noPkg := srv.CreateToken("alice", userPassword, "read:notification")
		is.Equal(srv.Do("GET", v2+"/token", nil, "Authorization", testserver.Basic("alice", noPkg)).Status, http.StatusUnauthorized)
		readPkg := srv.CreateToken("alice", userPassword, "read:package")
		r = srv.Do("GET", v2+"/token", nil, "Authorization", testserver.Basic("alice", readPkg))
		is.Equal(r.Status, http.StatusOK)
		r.Decode(t, &tok)
		// Its registry token reads but does not write.
		r = srv.Do("POST", v2+"/alice/scoped/blobs/uploads/", nil, "Authorization", "Bearer "+tok.Token)
		is.Equal(r.Status, http.StatusForbidden)
		is.Equal(ociErrorCode(t, r), "DENIED")
	})

	img, err := random.Image(2048, 2)
	if err != nil {
		t.Fatal(err)
	}
	ref := host + "/alice/app"
	baseBlobs := 0

	t.Run("push and pull", func(t *testing.T) {
		is := is.New(t)
		is.NoErr(crane.Push(img, ref+":v1", as("alice")))
		want, err := img.Digest()
		is.NoErr(err)
		got, err := crane.Pull(ref+":v1", anon)
		is.NoErr(err)
		gotDigest, err := got.Digest()
		is.NoErr(err)
		is.Equal(gotDigest, want)
		layers, err := got.Layers()
		is.NoErr(err)
		is.Equal(len(layers), 2)
		for _, l := range layers {
			rc, err := l.Compressed() // verified against its digest while read
			is.NoErr(err)
			_, err = io.ReadAll(rc)
			is.NoErr(err)
			is.NoErr(rc.Close())
		}
		d, err := crane.Digest(ref+":v1", anon)
		is.NoErr(err)
		is.Equal(d, want.String())
		// Two layers, the config and the manifest.
		baseBlobs = countPackageBlobs(t, srv)
		is.Equal(baseBlobs, 4)

		// Pushing the same tag again changes nothing.
		is.NoErr(crane.Push(img, ref+":v1", as("alice")))
		is.Equal(countPackageBlobs(t, srv), 4)
	})

	t.Run("shared layers stored once", func(t *testing.T) {
		is := is.New(t)
		extra, err := random.Layer(1024, "application/vnd.oci.image.layer.v1.tar+gzip")
		is.NoErr(err)
		img2, err := mutate.AppendLayers(img, extra)
		is.NoErr(err)
		is.NoErr(crane.Push(img2, ref+":v2", as("alice")))
		// One new layer, a new config and a new manifest.
		is.Equal(countPackageBlobs(t, srv), baseBlobs+3)
		got, err := crane.Pull(ref+":v2", anon)
		is.NoErr(err)
		layers, err := got.Layers()
		is.NoErr(err)
		is.Equal(len(layers), 3)
	})

	t.Run("tags", func(t *testing.T) {
		is := is.New(t)
		tags, err := crane.ListTags(ref, anon)
		is.NoErr(err)
		is.Equal(tags, []string{"v1", "v2"})
		tok := bearerFor(t, srv, "alice")
		r := srv.Do("GET", v2+"/alice/app/tags/list?n=1", nil, "Authorization", "Bearer "+tok)
		is.Equal(r.Status, http.StatusOK)
		var list struct {
			Name string
			Tags []string
		}
		r.Decode(t, &list)
		is.Equal(list.Name, "alice/app")
		is.Equal(list.Tags, []string{"v1"})
		is.Equal(r.Header.Get("Link"), `</v2/alice/app/tags/list?last=v1&n=1>; rel="next"`)
		r = srv.Do("GET", v2+"/alice/app/tags/list?n=1&last=v1", nil, "Authorization", "Bearer "+tok)
		r.Decode(t, &list)
		is.Equal(list.Tags, []string{"v2"})
		r = srv.Do("GET", v2+"/alice/nothing/tags/list", nil, "Authorization", "Bearer "+tok)
		is.Equal(r.Status, http.StatusNotFound)
		is.Equal(ociErrorCode(t, r), "NAME_UNKNOWN")

		// Each tag is a version of the package in the management API.
		pkgs, _, err := userClient(srv, "alice").ListPackages("alice", gitea.ListPackagesOptions{})
		is.NoErr(err)
		var versions []string
		for _, p := range pkgs {
			if p.Type == "container" && p.Name == "app" {
				versions = append(versions, p.Version)
			}
		}
		is.Equal(len(versions), 2)
		files, _, err := userClient(srv, "alice").ListPackageFiles("alice", "container", "app", "v1")
		is.NoErr(err)
		is.Equal(len(files), 4) // manifest.json, config, two layers
	})

	t.Run("copy and mount across images", func(t *testing.T) {
		is := is.New(t)
		before := countPackageBlobs(t, srv)
		is.NoErr(crane.Copy(ref+":v1", host+"/alice/copy:v1", as("alice")))
		is.NoErr(crane.Copy(ref+":v1", host+"/bob/mirror:latest", as("bob")))
		is.Equal(countPackageBlobs(t, srv), before)
		for _, r := range []string{host + "/alice/copy:v1", host + "/bob/mirror:latest"} {
			d, err := crane.Digest(r, anon)
			is.NoErr(err)
			want, _ := img.Digest()
			is.Equal(d, want.String())
		}
		// An explicit mount answers 201 with the blob's place.
		layers, _ := img.Layers()
		ld, _ := layers[0].Digest()
		tok := bearerFor(t, srv, "bob")
		r := srv.Do("POST", v2+"/bob/mounted/blobs/uploads/?mount="+ld.String()+"&from=alice/app", nil, "Authorization", "Bearer "+tok)
		is.Equal(r.Status, http.StatusCreated)
		is.Equal(r.Header.Get("Location"), "/v2/bob/mounted/blobs/"+ld.String())
		is.Equal(r.Header.Get("Docker-Content-Digest"), ld.String())
		// A blob nobody has is not mounted: an upload starts instead.
		r = srv.Do("POST", v2+"/bob/mounted/blobs/uploads/?mount=sha256:"+strings.Repeat("0", 64)+"&from=alice/app", nil, "Authorization", "Bearer "+tok)
		is.Equal(r.Status, http.StatusAccepted)
	})

	t.Run("chunked upload", func(t *testing.T) {
		is := is.New(t)
		tok := bearerFor(t, srv, "alice")
		authz := []string{"Authorization", "Bearer " + tok}
		r := srv.Do("POST", v2+"/alice/chunks/blobs/uploads/", nil, authz...)
		is.Equal(r.Status, http.StatusAccepted)
		loc := r.Header.Get("Location")
		is.True(strings.HasPrefix(loc, "/v2/alice/chunks/blobs/uploads/"))
		is.Equal(r.Header.Get("Range"), "0-0")
		is.True(r.Header.Get("Docker-Upload-UUID") != "")
		part1, part2 := []byte("hello, "), []byte("container world")
		r = srv.Do("PATCH", srv.URL+loc, part1, append(authz, "Content-Range", fmt.Sprintf("0-%d", len(part1)-1))...)
		is.Equal(r.Status, http.StatusAccepted)
		is.Equal(r.Header.Get("Range"), fmt.Sprintf("0-%d", len(part1)-1))
		// A chunk that does not start where the upload ends: 416.
		r = srv.Do("PATCH", srv.URL+loc, part2, append(authz, "Content-Range", "1-5")...)
		is.Equal(r.Status, http.StatusRequestedRangeNotSatisfiable)
		r = srv.Do("GET", srv.URL+loc, nil, authz...)
		is.Equal(r.Status, http.StatusNoContent)
		is.Equal(r.Header.Get("Range"), fmt.Sprintf("0-%d", len(part1)-1))
		// Nothing of an upload in progress is a blob yet.
		whole := append(append([]byte{}, part1...), part2...)
		digest := sha256Digest(whole)
		is.Equal(srv.Do("HEAD", v2+"/alice/chunks/blobs/"+digest, nil, authz...).Status, http.StatusNotFound)
		r = srv.Do("PUT", srv.URL+loc+"?digest="+digest, part2, authz...)
		is.Equal(r.Status, http.StatusCreated)
		is.Equal(r.Header.Get("Docker-Content-Digest"), digest)
		r = srv.Do("GET", v2+"/alice/chunks/blobs/"+digest, nil, authz...)
		is.Equal(r.Status, http.StatusOK)
		is.Equal(string(r.Body), string(whole))
		is.Equal(srv.Do("GET", srv.URL+loc, nil, authz...).Status, http.StatusNotFound) // finished
		// Cancelled uploads are gone.
		r = srv.Do("POST", v2+"/alice/chunks/blobs/uploads/", nil, authz...)
		loc = r.Header.Get("Location")
		is.Equal(srv.Do("DELETE", srv.URL+loc, nil, authz...).Status, http.StatusNoContent)
		r = srv.Do("PATCH", srv.URL+loc, "x", authz...)
		is.Equal(r.Status, http.StatusNotFound)
		is.Equal(ociErrorCode(t, r), "BLOB_UPLOAD_UNKNOWN")
		// Someone else's upload id is unknown to bob's image.
		r = srv.Do("POST", v2+"/alice/chunks/blobs/uploads/", nil, authz...)
		id := r.Header.Get("Docker-Upload-UUID")
		r = srv.Do("GET", v2+"/bob/chunks/blobs/uploads/"+id, nil, "Authorization", "Bearer "+bearerFor(t, srv, "bob"))
		is.Equal(r.Status, http.StatusNotFound)
		// Deleting a blob.
		is.Equal(srv.Do("DELETE", v2+"/alice/chunks/blobs/"+digest, nil, authz...).Status, http.StatusAccepted)
		r = srv.Do("GET", v2+"/alice/chunks/blobs/"+digest, nil, authz...)
		is.Equal(r.Status, http.StatusNotFound)
		is.Equal(ociErrorCode(t, r), "BLOB_UNKNOWN")
	})

	t.Run("digest mismatch", func(t *testing.T) {
		is := is.New(t)
		tok := bearerFor(t, srv, "alice")
		before := countPackageBlobs(t, srv)
		wrong := sha256Digest([]byte("something else"))
		r := srv.Do("POST", v2+"/alice/app/blobs/uploads/?digest="+wrong, "the bytes", "Authorization", "Bearer "+tok)
		is.Equal(r.Status, http.StatusBadRequest)
		is.Equal(ociErrorCode(t, r), "DIGEST_INVALID")
		r = srv.Do("POST", v2+"/alice/app/blobs/uploads/", nil, "Authorization", "Bearer "+tok)
		r = srv.Do("PUT", srv.URL+r.Header.Get("Location")+"?digest="+wrong, "the bytes", "Authorization", "Bearer "+tok)
		is.Equal(r.Status, http.StatusBadRequest)
		is.Equal(ociErrorCode(t, r), "DIGEST_INVALID")
		is.Equal(countPackageBlobs(t, srv), before) // nothing kept
		// A manifest pushed by a digest it does not have.
		raw, err := img.RawManifest()
		is.NoErr(err)
		mt, _ := img.MediaType()
		r = srv.Do("PUT", v2+"/alice/app/manifests/"+wrong, raw, "Authorization", "Bearer "+tok, "Content-Type", string(mt))
		is.Equal(r.Status, http.StatusBadRequest)
		is.Equal(ociErrorCode(t, r), "DIGEST_INVALID")
		// A manifest naming a blob the image lacks.
		r = srv.Do("PUT", v2+"/alice/empty/manifests/v1", raw, "Authorization", "Bearer "+tok, "Content-Type", string(mt))
		is.Equal(r.Status, http.StatusNotFound)
		is.Equal(ociErrorCode(t, r), "MANIFEST_BLOB_UNKNOWN")
		r = srv.Do("PUT", v2+"/alice/app/manifests/v1", "{not json", "Authorization", "Bearer "+tok, "Content-Type", string(mt))
		is.Equal(r.Status, http.StatusBadRequest)
		is.Equal(ociErrorCode(t, r), "MANIFEST_INVALID")
		r = srv.Do("GET", v2+"/alice/Bad_Name/manifests/v1", nil, "Authorization", "Bearer "+tok)
		is.Equal(r.Status, http.StatusBadRequest)
		is.Equal(ociErrorCode(t, r), "NAME_INVALID")
	})

	t.Run("referrers", func(t *testing.T) {
		is := is.New(t)
		subject, err := img.Digest()
		is.NoErr(err)
		sub, err := name.NewDigest(ref + "@" + subject.String())
		is.NoErr(err)
		tok := bearerFor(t, srv, "alice")
		cfg := []byte("{}")
		r := srv.Do("POST", v2+"/alice/app/blobs/uploads/?digest="+sha256Digest(cfg), cfg, "Authorization", "Bearer "+tok)
		is.Equal(r.Status, http.StatusCreated)
		rawSub, _ := img.RawManifest()
		artifact := fmt.Sprintf(`{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json",`+
			`"artifactType":"application/vnd.example.sbom","config":{"mediaType":"application/vnd.oci.empty.v1+json",`+
			`"digest":"%s","size":2},"layers":[],"subject":{"mediaType":"application/vnd.oci.image.manifest.v1+json",`+
			`"digest":"%s","size":%d},"annotations":{"org.example":"yes"}}`, sha256Digest(cfg), subject, len(rawSub))
		r = srv.Do("PUT", v2+"/alice/app/manifests/"+sha256Digest([]byte(artifact)), artifact, "Authorization", "Bearer "+tok,
			"Content-Type", "application/vnd.oci.image.manifest.v1+json")
		is.Equal(r.Status, http.StatusCreated)
		is.Equal(r.Header.Get("OCI-Subject"), subject.String())

		idx, err := remote.Referrers(sub, remote.WithAuth(authn.Anonymous))
		is.NoErr(err)
		im, err := idx.IndexManifest()
		is.NoErr(err)
		is.Equal(len(im.Manifests), 1)
		is.Equal(im.Manifests[0].Digest.String(), sha256Digest([]byte(artifact)))
		is.Equal(im.Manifests[0].ArtifactType, "application/vnd.example.sbom")
		is.Equal(im.Manifests[0].Annotations["org.example"], "yes")

		r = srv.Do("GET", v2+"/alice/app/referrers/"+subject.String()+"?artifactType=application/other", nil, "Authorization", "Bearer "+tok)
		is.Equal(r.Status, http.StatusOK)
		is.Equal(r.Header.Get("OCI-Filters-Applied"), "artifactType")
		is.Equal(r.Header.Get("Content-Type"), "application/vnd.oci.image.index.v1+json")
		var empty v1.IndexManifest
		r.Decode(t, &empty)
		is.Equal(len(empty.Manifests), 0)
	})

	t.Run("delete tag and manifest", func(t *testing.T) {
		is := is.New(t)
		v2Digest, err := crane.Digest(ref+":v2", anon)
		is.NoErr(err)
		before := countPackageBlobs(t, srv)
		is.NoErr(crane.Delete(ref+":v2", as("alice")))
		_, err = crane.Digest(ref+":v2", anon)
		status, code := transportStatus(t, err)
		is.Equal(status, http.StatusNotFound)
		is.Equal(code, "MANIFEST_UNKNOWN")
		// The manifest's bytes went with its last version; layers the
		// image still holds stay.
		is.Equal(countPackageBlobs(t, srv), before-1)
		_, err = crane.Pull(ref+"@"+v2Digest, anon)
		is.True(err != nil)

		// By digest, every version of that manifest goes.
		v1Digest, err := crane.Digest(ref+":v1", anon)
		is.NoErr(err)
		is.NoErr(crane.Delete(ref+"@"+v1Digest, as("alice")))
		_, err = crane.Digest(ref+":v1", anon)
		status, _ = transportStatus(t, err)
		is.Equal(status, http.StatusNotFound)
		tok := bearerFor(t, srv, "alice")
		r := srv.Do("DELETE", v2+"/alice/app/manifests/v1", nil, "Authorization", "Bearer "+tok)
		is.Equal(r.Status, http.StatusNotFound)
		is.Equal(ociErrorCode(t, r), "MANIFEST_UNKNOWN")
		// The copy elsewhere is untouched.
		_, err = crane.Digest(host+"/alice/copy:v1", anon)
		is.NoErr(err)
	})

	t.Run("who may push and pull", func(t *testing.T) {
		is := is.New(t)
		// Anonymous push: 401 with the challenge.
		err := crane.Push(img, host+"/alice/anon:v1", anon)
		status, code := transportStatus(t, err)
		is.Equal(status, http.StatusUnauthorized)
		is.Equal(code, "UNAUTHORIZED")
		r := srv.Do("POST", v2+"/alice/anon/blobs/uploads/", nil)
		is.Equal(r.Status, http.StatusUnauthorized)
		is.Equal(r.Header.Get("WWW-Authenticate"), challenge)
		// An outsider pushing to alice's images is denied.
		err = crane.Push(img, host+"/alice/bobs:v1", as("bob"))
		status, code = transportStatus(t, err)
		is.Equal(status, http.StatusForbidden)
		is.Equal(code, "DENIED")
		// A private owner's images are hidden: anonymous callers are asked
		// to sign in, others learn nothing of them.
		is.NoErr(crane.Push(img, host+"/hermit/secret:v1", as("hermit")))
		_, err = crane.Pull(host+"/hermit/secret:v1", as("hermit"))
		is.NoErr(err)
		_, err = crane.Pull(host+"/hermit/secret:v1", anon)
		status, _ = transportStatus(t, err)
		is.Equal(status, http.StatusUnauthorized)
		_, err = crane.Pull(host+"/hermit/secret:v1", as("bob"))
		status, code = transportStatus(t, err)
		is.Equal(status, http.StatusNotFound)
		is.Equal(code, "NAME_UNKNOWN")
		// Nor does the package API show them.
		r = srv.Do("GET", "/packages/hermit?type=container", nil, basicAs("bob")...)
		is.Equal(r.Status, http.StatusNotFound)
		// A mount from a private image the caller cannot read uploads instead.
		layers, _ := img.Layers()
		ld, _ := layers[0].Digest()
		r = srv.Do("POST", v2+"/bob/steal/blobs/uploads/?mount="+ld.String()+"&from=hermit/secret", nil,
			"Authorization", "Bearer "+bearerFor(t, srv, "bob"))
		is.Equal(r.Status, http.StatusAccepted)
	})

	t.Run("image index", func(t *testing.T) {
		is := is.New(t)
		idx, err := random.Index(512, 1, 2)
		is.NoErr(err)
		tag, err := name.NewTag(host + "/alice/multi:v1")
		is.NoErr(err)
		is.NoErr(remote.WriteIndex(tag, idx, remote.WithAuth(&authn.Basic{Username: "alice", Password: userPassword})))
		want, err := idx.Digest()
		is.NoErr(err)
		got, err := remote.Index(tag, remote.WithAuth(authn.Anonymous))
		is.NoErr(err)
		gotDigest, err := got.Digest()
		is.NoErr(err)
		is.Equal(gotDigest, want)
		desc, err := remote.Head(tag, remote.WithAuth(authn.Anonymous))
		is.NoErr(err)
		is.Equal(string(desc.MediaType), "application/vnd.oci.image.index.v1+json")
		im, err := got.IndexManifest()
		is.NoErr(err)
		is.Equal(len(im.Manifests), 2)
		child, err := got.Image(im.Manifests[0].Digest)
		is.NoErr(err)
		_, err = child.Layers()
		is.NoErr(err)
		// The tag and its two children pushed by digest are three versions.
		r := srv.Do("GET", "/packages/alice/container/multi", nil, basicAs("alice")...)
		is.Equal(r.Status, http.StatusOK)
		var versions []gitea.Package
		r.Decode(t, &versions)
		is.Equal(len(versions), 3)
		// An index naming a manifest the image lacks is refused.
		tok := bearerFor(t, srv, "alice")
		bad := `{"schemaVersion":2,"mediaType":"application/vnd.oci.image.index.v1+json","manifests":[{"mediaType":` +
			`"application/vnd.oci.image.manifest.v1+json","digest":"sha256:` + strings.Repeat("1", 64) + `","size":9}]}`
		r = srv.Do("PUT", v2+"/alice/multi/manifests/broken", bad, "Authorization", "Bearer "+tok,
			"Content-Type", "application/vnd.oci.image.index.v1+json")
		is.Equal(r.Status, http.StatusNotFound)
		is.Equal(ociErrorCode(t, r), "MANIFEST_BLOB_UNKNOWN")
	})
}

// TestPackagesContainerSizeLimit refuses blobs over site.package_max_bytes,
// sent whole or in chunks, with 413 SIZE_INVALID, and keeps nothing of them.
func TestPackagesContainerSizeLimit(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := testserver.Start(t, testserver.WithSettings(func(s *site.Settings) { s.PackageMaxBytes = 10 }))
	socialAccounts(t, srv, "alice")
	authz := []string{"Authorization", "Bearer " + bearerFor(t, srv, "alice")}
	v2 := srv.URL + "/v2/alice/big/blobs/uploads/"
	big := []byte("01234567890")
	r := srv.Do("POST", v2+"?digest="+sha256Digest(big), big, authz...)
	is.Equal(r.Status, http.StatusRequestEntityTooLarge)
	is.Equal(ociErrorCode(t, r), "SIZE_INVALID")
	r = srv.Do("POST", v2, nil, authz...)
	loc := srv.URL + r.Header.Get("Location")
	is.Equal(srv.Do("PATCH", loc, big[:6], authz...).Status, http.StatusAccepted)
	r = srv.Do("PATCH", loc, big[6:], authz...)
	is.Equal(r.Status, http.StatusRequestEntityTooLarge)
	r = srv.Do("GET", loc, nil, authz...)
	is.Equal(r.Header.Get("Range"), "0-5") // the refused chunk left nothing
	is.Equal(countPackageBlobs(t, srv), 0)
	is.Equal(srv.Do("PUT", loc+"?digest="+sha256Digest(big[:6]), nil, authz...).Status, http.StatusCreated)
}

// bearerFor exchanges user's password for a registry bearer token.
func bearerFor(t *testing.T, srv *testserver.Server, user string) string {
	t.Helper()
	r := srv.Do("GET", srv.URL+"/v2/token", nil, "Authorization", testserver.Basic(user, userPassword))
	if r.Status != http.StatusOK {
		t.Fatalf("token for %s: %d %s", user, r.Status, r.Body)
	}
	var tok struct{ Token string }
	r.Decode(t, &tok)
	return tok.Token
}
