package packages

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/url"
	"strings"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/packages"
	"github.com/depothq/depot/domain/user"
)

// PypiUpload is one distribution file as twine uploads it.
type PypiUpload struct {
	Owner   *user.User
	Creator *user.User
	// Name and Version are as the form sent them; the name is stored
	// normalised (PEP 503).
	Name, Version string
	Filename      string
	Metadata      packages.PypiMetadata
	// SHA256 and MD5 are the digests the client computed (hex); at least
	// one is required and each one given must match the bytes.
	SHA256, MD5 string
	Body        io.Reader
}

// errPypiDigest is Gitea's answer to a file whose digests do not match.
var errPypiDigest = errs.BadRequest("hash mismatch")

// PublishPypi stores one file of a PyPI version (the version is created
// with the first, keeping its metadata): 400 for an invalid name, version
// or file name and for digests that do not match, 409 for a file the
// version has already, 413 over the size limit.
func (s *Service) PublishPypi(ctx context.Context, u PypiUpload) (*packages.File, error) {
	name, err := packages.CheckPypi(u.Name, u.Version)
	if err != nil {
		return nil, err
	}
	if !packages.ValidGenericFilename(u.Filename) {
		return nil, errs.BadRequest("invalid file name")
	}
	if u.SHA256 == "" && u.MD5 == "" {
		return nil, errPypiDigest
	}
	meta := u.Metadata
	if p, err := url.Parse(meta.ProjectURL); err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
		meta.ProjectURL = ""
	}
	raw, err := json.Marshal(meta)
	if err != nil {
		return nil, err
	}
	blob, release, err := s.blobs.Put(ctx, u.Body, s.maxBytes)
	if err != nil {
		return nil, err
	}
	defer release()
	if (u.SHA256 != "" && !strings.EqualFold(u.SHA256, blob.SHA256)) || (u.MD5 != "" && !strings.EqualFold(u.MD5, blob.MD5)) {
		release()
		return nil, errors.Join(errPypiDigest, s.dropBlobs(ctx, []string{blob.SHA256}))
	}
	return s.record(ctx, Upload{Owner: u.Owner, Creator: u.Creator, Type: packages.TypePypi, Name: name,
		Version: u.Version, Filename: u.Filename, Metadata: string(raw)}, blob)
}

// PypiRelease is one version of a PyPI package with its files and
// metadata, as the simple index lists them.
type PypiRelease struct {
	Version  *packages.Version
	Metadata packages.PypiMetadata
	Files    []*packages.File
}

// PypiIndex is a PyPI package's releases, oldest first.
type PypiIndex struct {
	Package  *packages.Package
	Releases []PypiRelease
}

// PypiPackage reads a package's releases by any spelling of its name
// (PEP 503) in three queries, whatever its number of versions.
func (s *Service) PypiPackage(ctx context.Context, owner *user.User, name string) (*PypiIndex, error) {
	p, vs, files, err := s.allFiles(ctx, owner, packages.TypePypi, packages.NormalizePypiName(name))
	if err != nil {
		return nil, err
	}
	out := &PypiIndex{Package: p, Releases: make([]PypiRelease, 0, len(vs))}
	for _, v := range vs {
		var meta packages.PypiMetadata
		_ = json.Unmarshal([]byte(v.Metadata), &meta) // a version without metadata lists without it
		out.Releases = append(out.Releases, PypiRelease{Version: v, Metadata: meta, Files: files[v.ID]})
	}
	return out, nil
}

// OpenPypi opens a file of a version, the package named in any spelling.
func (s *Service) OpenPypi(ctx context.Context, owner *user.User, name, version, filename string) (*packages.File, io.ReadSeekCloser, error) {
	return s.Open(ctx, owner, packages.TypePypi, packages.NormalizePypiName(name), version, filename)
}

// allFiles reads a package with every version, oldest first, and their
// files, in three queries; an absent package or one without versions is
// 404.
func (s *Service) allFiles(ctx context.Context, owner *user.User, typ packages.Type, name string) (*packages.Package,
	[]*packages.Version, map[int64][]*packages.File, error) {
	p, err := s.stores.Packages.Get(ctx, owner.ID, typ, name)
	if errors.Is(err, errs.ErrNotFound) {
		return nil, nil, nil, errNoPackage
	}
	if err != nil {
		return nil, nil, nil, err
	}
	vs, err := s.stores.Packages.AllVersions(ctx, p.ID)
	if err != nil {
		return nil, nil, nil, err
	}
	if len(vs) == 0 {
		return nil, nil, nil, errNoPackage
	}
	files, err := s.stores.Packages.PackageFiles(ctx, p.ID)
	if err != nil {
		return nil, nil, nil, err
	}
	return p, vs, files, nil
}
