package packages

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/packages"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/token"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// The container registry's refusals, which its adapter answers with the
// distribution spec's error codes.
var (
	ErrDigestInvalid       = errs.BadRequest("provided digest did not match uploaded content")
	ErrBlobUnknown         = errs.NotFound("blob unknown to registry")
	ErrBlobUploadUnknown   = errs.NotFound("blob upload unknown to registry")
	ErrManifestUnknown     = errs.NotFound("manifest unknown")
	ErrManifestBlobUnknown = errs.NotFound("manifest references a blob unknown to registry")
	ErrNameUnknown         = errs.NotFound("repository name not known to registry")
)

// registryTokenLabel binds the registry's bearer tokens to their use.
const registryTokenLabel = "container-registry-token"

// registryTokenTTL is how long a bearer token from /v2/token lasts.
const registryTokenTTL = 24 * time.Hour

// uploadTTL is how long an unfinished blob upload is kept.
const uploadTTL = 24 * time.Hour

// Containers is the container registry's use cases (the OCI distribution
// spec under /v2/): bearer tokens, blob uploads streamed into the package
// blob store, manifests and image indexes stored as package versions (one
// per tag, or per digest when pushed untagged), tags and referrers.
type Containers struct {
	*Service
	uploads   ports.ContainerUploads
	box       ports.SecretBox
	manifests *manifestCache
}

// NewContainers builds the container registry's use cases over the
// package service.
func NewContainers(s *Service, uploads ports.ContainerUploads, box ports.SecretBox) *Containers {
	return &Containers{Service: s, uploads: uploads, box: box, manifests: newManifestCache()}
}

// registryToken is what a bearer token seals: who, with which scopes (nil
// for a password sign-in, which has all), until when.
type registryToken struct {
	UserID  int64    `json:"u"`
	Scoped  bool     `json:"t,omitempty"`
	Scopes  []string `json:"s,omitempty"`
	Expires int64    `json:"e"`
}

// IssueToken makes the bearer token /v2/token answers for c (anonymous
// callers get one too, as docker asks for one before pulling). A token
// without package read scope is refused, as Gitea refuses it.
func (s *Containers) IssueToken(c auth.Caller) (string, error) {
	if err := permission.CheckScope(c.Actor(), false, token.CategoryPackage); err != nil {
		return "", errs.Unauthenticated("token lacks the package scope")
	}
	t := registryToken{UserID: c.UserID(), Expires: s.now().Add(registryTokenTTL).Unix()}
	if c.Token != nil {
		t.Scoped, t.Scopes = true, c.Token.Scopes.Strings()
	}
	raw, err := json.Marshal(t)
	if err != nil {
		return "", err
	}
	return s.box.Seal(raw, registryTokenLabel)
}

// ResolveToken reads a bearer token IssueToken made; ok is false for any
// other string (an access token given as bearer, say), which the caller
// authenticates as usual. An expired token, or one of a user gone, is
// errs.ErrUnauthenticated.
func (s *Containers) ResolveToken(ctx context.Context, raw string) (c auth.Caller, ok bool, err error) {
	plain, err := s.box.Open(raw, registryTokenLabel)
	if err != nil {
		return auth.Caller{}, false, nil
	}
	var t registryToken
	if err := json.Unmarshal(plain, &t); err != nil || s.now().Unix() > t.Expires {
		return auth.Caller{}, true, errs.Unauthenticated("token is expired")
	}
	if t.UserID == 0 {
		return auth.Caller{}, true, nil
	}
	u, err := s.stores.Users.GetByID(ctx, t.UserID)
	if errors.Is(err, errs.ErrNotFound) {
		return auth.Caller{}, true, errs.Unauthenticated("token is invalid")
	}
	if err != nil {
		return auth.Caller{}, true, err
	}
	c = auth.Caller{User: u, Method: auth.MethodToken}
	if t.Scoped {
		scopes, err := token.ParseScopes(t.Scopes)
		if err != nil {
			return auth.Caller{}, true, errs.Unauthenticated("token is invalid")
		}
		c.Token = &token.AccessToken{UserID: u.ID, Name: "container registry", Scopes: scopes}
	}
	return c, true, nil
}

// PushedManifest is what PutManifest stored.
type PushedManifest struct {
	Digest  string
	Subject string
}

// PutManifest stores a manifest or image index under ref (a tag, or the
// digest it must match) as a version of the image: the tag's version is
// created or repointed, or a version named by the digest is made for an
// untagged push. Every blob an image manifest names must be the image's
// (ErrManifestBlobUnknown), as must every manifest an index lists.
func (s *Containers) PutManifest(ctx context.Context, owner, creator *user.User, image string, ref packages.Reference,
	body []byte, contentType string) (PushedManifest, error) {
	m, err := packages.ParseManifest(body, contentType)
	if err != nil {
		return PushedManifest{}, err
	}
	sum := sha256.Sum256(body)
	digest := "sha256:" + hex.EncodeToString(sum[:])
	if ref.Digest != "" && ref.Digest != digest {
		return PushedManifest{}, ErrDigestInvalid
	}
	layers := map[string]*packages.Blob{}
	if m.IsIndex() {
		if err := s.checkIndex(ctx, owner, image, m); err != nil {
			return PushedManifest{}, err
		}
	} else {
		for _, d := range m.Blobs() {
			b, err := s.stores.Containers.GetBlob(ctx, owner.ID, image, packages.DigestHex(d.Digest))
			if errors.Is(err, errs.ErrNotFound) {
				return PushedManifest{}, ErrManifestBlobUnknown
			}
			if err != nil {
				return PushedManifest{}, err
			}
			layers[d.Digest] = b
		}
	}
	blob, release, err := s.blobs.Put(ctx, bytes.NewReader(body), packages.MaxManifestBytes)
	if err != nil {
		return PushedManifest{}, err
	}
	defer release()
	name := ref.Tag
	if name == "" {
		name = digest
	}
	meta, err := json.Marshal(map[string]string{"digest": digest, "media_type": m.MediaType})
	if err != nil {
		return PushedManifest{}, err
	}
	out := PushedManifest{Digest: digest}
	if m.Subject != nil {
		out.Subject = m.Subject.Digest
	}
	now := s.now()
	var gone []string
	var created *packages.Version
	err = s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		gone, created = nil, nil
		p := &packages.Package{OwnerID: owner.ID, Type: packages.TypeContainer, Name: image}
		if err := tx.Packages.Ensure(ctx, p); err != nil {
			return err
		}
		v, err := tx.Packages.GetVersion(ctx, p.ID, name)
		switch {
		case errors.Is(err, errs.ErrNotFound):
			v = &packages.Version{PackageID: p.ID, Version: name, CreatorID: creator.ID, Metadata: string(meta), CreatedAt: now}
			if err := tx.Packages.CreateVersion(ctx, v); err != nil {
				return err
			}
			created = v
		case err != nil:
			return err
		default:
			// A tag pushed again points at the new manifest: the old one's
			// description and files go, the version stays.
			if err := tx.Containers.DeleteManifest(ctx, v.ID); err != nil {
				return err
			}
			old, err := tx.Packages.Files(ctx, v.ID)
			if err != nil {
				return err
			}
			for _, f := range old {
				sum, err := tx.Packages.DeleteFile(ctx, f.ID)
				if err != nil {
					return err
				}
				if sum != "" {
					gone = append(gone, sum)
				}
			}
			if err := tx.Packages.SetMetadata(ctx, v.ID, string(meta)); err != nil {
				return err
			}
		}
		if err := tx.Packages.AddFile(ctx, &packages.File{VersionID: v.ID, Name: "manifest.json", Blob: blob, CreatedAt: now}); err != nil {
			return err
		}
		for _, d := range m.Blobs() {
			b, ok := layers[d.Digest]
			if !ok {
				continue
			}
			delete(layers, d.Digest)
			f := &packages.File{VersionID: v.ID, Name: strings.Replace(d.Digest, ":", "_", 1), Blob: *b, CreatedAt: now}
			if err := tx.Packages.AddFile(ctx, f); err != nil {
				return err
			}
		}
		if err := tx.Containers.SaveManifest(ctx, &packages.ContainerManifest{VersionID: v.ID, Digest: digest,
			MediaType: m.MediaType, ArtifactType: m.ArtifactType, Subject: out.Subject, Size: int64(len(body)),
			BlobSHA256: blob.SHA256, Annotations: m.Annotations}); err != nil {
			return err
		}
		if created != nil {
			return s.created(ctx, tx, creator, *p, *created)
		}
		return nil
	})
	if err == nil && created != nil {
		s.notifyCommitted()
	}
	if err != nil {
		return PushedManifest{}, err
	}
	return out, s.dropBlobs(ctx, gone)
}

// checkIndex refuses an index that lists a manifest the image lacks.
func (s *Containers) checkIndex(ctx context.Context, owner *user.User, image string, m packages.Manifest) error {
	if len(m.Manifests) == 0 {
		return nil
	}
	p, err := s.stores.Packages.Get(ctx, owner.ID, packages.TypeContainer, image)
	if errors.Is(err, errs.ErrNotFound) {
		return ErrManifestBlobUnknown
	}
	if err != nil {
		return err
	}
	digests := make([]string, 0, len(m.Manifests))
	for _, d := range m.Manifests {
		digests = append(digests, d.Digest)
	}
	missing, err := s.stores.Containers.MissingManifests(ctx, p.ID, digests)
	if err != nil {
		return err
	}
	if len(missing) > 0 {
		return ErrManifestBlobUnknown
	}
	return nil
}

// image finds the owner's image; absent is notFound.
func (s *Containers) image(ctx context.Context, owner *user.User, image string, notFound error) (*packages.Package, error) {
	p, err := s.stores.Packages.Get(ctx, owner.ID, packages.TypeContainer, image)
	if errors.Is(err, errs.ErrNotFound) {
		return nil, notFound
	}
	return p, err
}

// Manifest finds the image's manifest by tag or digest.
func (s *Containers) Manifest(ctx context.Context, owner *user.User, image string, ref packages.Reference) (*packages.ContainerManifest, error) {
	m, err := s.stores.Containers.ImageManifest(ctx, owner.ID, image, ref)
	if errors.Is(err, errs.ErrNotFound) {
		return nil, ErrManifestUnknown
	}
	return m, err
}

// OpenManifest finds the image's manifest and opens its bytes; a small
// manifest's bytes are kept in memory by their SHA-256 (they cannot
// change under it), so pulling it again reads no file.
func (s *Containers) OpenManifest(ctx context.Context, owner *user.User, image string, ref packages.Reference) (*packages.ContainerManifest, io.ReadSeekCloser, error) {
	m, err := s.Manifest(ctx, owner, image, ref)
	if err != nil {
		return nil, nil, err
	}
	if raw, ok := s.manifests.get(m.BlobSHA256); ok {
		return m, nopSeekCloser{bytes.NewReader(raw)}, nil
	}
	r, err := s.blobs.Open(ctx, m.BlobSHA256)
	if errors.Is(err, errs.ErrNotFound) {
		return nil, nil, ErrManifestUnknown
	}
	if err != nil || m.Size > manifestCacheEntry {
		return m, r, err
	}
	defer r.Close()
	raw, err := io.ReadAll(io.LimitReader(r, manifestCacheEntry+1))
	if err != nil {
		return nil, nil, err
	}
	s.manifests.put(m.BlobSHA256, raw)
	return m, nopSeekCloser{bytes.NewReader(raw)}, nil
}

// DeleteManifest deletes a tag's version, or every version whose manifest
// has the digest, with their files.
//
// doer is the package hooks' sender.
func (s *Containers) DeleteManifest(ctx context.Context, doer, owner *user.User, image string, ref packages.Reference) error {
	p, err := s.image(ctx, owner, image, ErrManifestUnknown)
	if err != nil {
		return err
	}
	var vs []*packages.Version
	if ref.Digest != "" {
		ids, err := s.stores.Containers.VersionsWithDigest(ctx, p.ID, ref.Digest)
		if err != nil {
			return err
		}
		if len(ids) > 0 {
			all, err := s.stores.Packages.AllVersions(ctx, p.ID)
			if err != nil {
				return err
			}
			for _, v := range all {
				if slices.Contains(ids, v.ID) {
					vs = append(vs, v)
				}
			}
		}
	} else {
		v, err := s.stores.Packages.GetVersion(ctx, p.ID, ref.Tag)
		if err != nil && !errors.Is(err, errs.ErrNotFound) {
			return err
		}
		if v != nil {
			vs = append(vs, v)
		}
	}
	if len(vs) == 0 {
		return ErrManifestUnknown
	}
	var gone []string
	err = s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		gone = nil
		for _, v := range vs {
			g, err := tx.Packages.DeleteVersion(ctx, v.ID)
			if err != nil {
				return err
			}
			gone = append(gone, g...)
			if err := s.deleted(ctx, tx, doer, *p, *v); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	s.notifyCommitted()
	return s.dropBlobs(ctx, gone)
}

// Tags lists the image's tags after last in name order, at most n (n < 0:
// all); an image that does not exist is ErrNameUnknown.
func (s *Containers) Tags(ctx context.Context, owner *user.User, image, last string, n int) ([]string, error) {
	p, err := s.image(ctx, owner, image, ErrNameUnknown)
	if err != nil {
		return nil, err
	}
	return s.stores.Containers.Tags(ctx, p.ID, last, n)
}

// MaxCatalogPage bounds one page of the catalog: a client asking for
// more (or for no bound) gets this many and a link to the next page.
const MaxCatalogPage = 1000

// Catalog lists the images ("owner/image") of the owners c may see, after
// last in name order, at most n: anonymous callers and public-only tokens
// see public owners' images, signed-in callers also limited owners' and
// their own and their organisations', site administrators all.
func (s *Containers) Catalog(ctx context.Context, c auth.Caller, last string, n int) ([]string, error) {
	v := ports.RepoViewer{PublicOnly: true}
	if c.User != nil {
		v = ports.RepoViewer{UserID: c.User.ID, IsAdmin: c.IsAdmin(), PublicOnly: c.Scopes().PublicOnly()}
	}
	return s.stores.Containers.Catalog(ctx, v, last, min(n, MaxCatalogPage))
}

// Referrers lists the image's manifests whose subject is digest, filtered
// by artifact type unless it is "".
func (s *Containers) Referrers(ctx context.Context, owner *user.User, image, digest, artifactType string) ([]packages.ContainerManifest, error) {
	p, err := s.image(ctx, owner, image, nil)
	if p == nil {
		return []packages.ContainerManifest{}, err
	}
	return s.stores.Containers.Referrers(ctx, p.ID, digest, artifactType)
}
