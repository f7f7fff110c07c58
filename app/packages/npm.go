package packages

import (
	"context"
	"errors"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/packages"
	"github.com/depothq/depot/domain/user"
)

// NpmDocument is what npm's package document is made of: the package, its
// versions oldest first with their files, and its dist-tags.
type NpmDocument struct {
	Package  *packages.Package
	Versions []*packages.Version
	Files    map[int64][]*packages.File
	Tags     map[string]string
}

// NpmPackage reads an npm package's document in four queries, whatever
// its number of versions.
func (s *Service) NpmPackage(ctx context.Context, owner *user.User, name string) (*NpmDocument, error) {
	p, err := s.stores.Packages.Get(ctx, owner.ID, packages.TypeNpm, name)
	if errors.Is(err, errs.ErrNotFound) {
		return nil, errNoPackage
	}
	if err != nil {
		return nil, err
	}
	vs, err := s.stores.Packages.AllVersions(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	files, err := s.stores.Packages.PackageFiles(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	tags, err := s.stores.Packages.Tags(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	return &NpmDocument{Package: p, Versions: vs, Files: files, Tags: tags}, nil
}

// SetTag points a dist-tag of an npm package at one of its versions.
func (s *Service) SetTag(ctx context.Context, owner *user.User, name, tag, version string) error {
	v, err := s.Get(ctx, owner, string(packages.TypeNpm), name, version)
	if err != nil {
		return err
	}
	return s.stores.Packages.SetTag(ctx, v.Package.ID, tag, v.Version.Version)
}

// DeleteTag removes a dist-tag; "latest" may not be removed (400).
func (s *Service) DeleteTag(ctx context.Context, owner *user.User, name, tag string) error {
	if tag == "latest" {
		return errs.BadRequest("the latest tag cannot be removed")
	}
	p, err := s.pkg(ctx, owner, string(packages.TypeNpm), name)
	if err != nil {
		return err
	}
	return s.stores.Packages.DeleteTag(ctx, p.ID, tag)
}

// SetMetadata replaces the metadata of an existing version (npm's
// deprecate rewrites the document of the versions it marks).
func (s *Service) SetMetadata(ctx context.Context, owner *user.User, typ packages.Type, name, version, metadata string) error {
	v, err := s.Get(ctx, owner, string(typ), name, version)
	if err != nil {
		return err
	}
	return s.stores.Packages.SetMetadata(ctx, v.Version.ID, metadata)
}
