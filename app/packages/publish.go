package packages

import (
	"context"
	"errors"
	"io"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/packages"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// Upload is one file a registry publishes into a version.
type Upload struct {
	Owner   *user.User
	Creator *user.User
	Type    packages.Type
	Name    string
	Version string
	// Filename is the file's name within the version.
	Filename string
	// Metadata is stored with a version this upload creates.
	Metadata string
	// NewVersion refuses the upload (409) when the version exists already,
	// as npm's publish does; else a file is added to an existing version.
	NewVersion bool
	// Tags are pointed at the version in the same transaction (npm's
	// dist-tags).
	Tags []string
	Body io.Reader
}

// errVersionExists is the conflict of publishing a version again.
var errVersionExists = errs.Conflict("package version already exists")

// Publish streams the file into the blob store, then records the package,
// the version (when new) and the file in one transaction. The blob is
// written and synced before its row commits and held meanwhile, so a crash
// leaves at most a blob without a row, which the sweep removes.
func (s *Service) Publish(ctx context.Context, u Upload) (*packages.File, error) {
	blob, release, err := s.blobs.Put(ctx, u.Body, s.maxBytes)
	if err != nil {
		return nil, err
	}
	defer release()
	return s.record(ctx, u, blob)
}

// record adds the file of u, whose bytes are the held blob, to its
// version (created when new) and package in one transaction.
func (s *Service) record(ctx context.Context, u Upload, blob packages.Blob) (*packages.File, error) {
	now := s.now()
	f := &packages.File{Name: u.Filename, Blob: blob, CreatedAt: now}
	var created *packages.Version
	err := s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		created = nil
		p := &packages.Package{OwnerID: u.Owner.ID, Type: u.Type, Name: u.Name}
		if err := tx.Packages.Ensure(ctx, p); err != nil {
			return err
		}
		v, err := tx.Packages.GetVersion(ctx, p.ID, u.Version)
		switch {
		case err == nil && u.NewVersion:
			return errVersionExists
		case errors.Is(err, errs.ErrNotFound):
			v = &packages.Version{PackageID: p.ID, Version: u.Version, CreatorID: u.Creator.ID,
				Metadata: u.Metadata, CreatedAt: now}
			if err := tx.Packages.CreateVersion(ctx, v); err != nil {
				return err
			}
			created = v
		case err != nil:
			return err
		}
		f.VersionID = v.ID
		for _, tag := range u.Tags {
			if err := tx.Packages.SetTag(ctx, p.ID, tag, v.Version); err != nil {
				return err
			}
		}
		if err := tx.Packages.AddFile(ctx, f); err != nil {
			return err
		}
		if created != nil {
			return s.created(ctx, tx, u.Creator, *p, *created)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if created != nil {
		s.notifyCommitted()
	}
	return f, nil
}

// Open finds a version's file and opens its bytes.
func (s *Service) Open(ctx context.Context, owner *user.User, typ packages.Type, name, version, filename string) (*packages.File, io.ReadSeekCloser, error) {
	v, err := s.Get(ctx, owner, string(typ), name, version)
	if err != nil {
		return nil, nil, err
	}
	f, err := s.stores.Packages.GetFile(ctx, v.Version.ID, filename)
	if err != nil {
		return nil, nil, err
	}
	r, err := s.blobs.Open(ctx, f.Blob.SHA256)
	if err != nil {
		return nil, nil, err
	}
	return f, r, nil
}

// DeleteFile removes one file of a version, and the version with its last
// file (doer then is the package hooks' sender).
func (s *Service) DeleteFile(ctx context.Context, doer, owner *user.User, typ packages.Type, name, version, filename string) error {
	v, err := s.Get(ctx, owner, string(typ), name, version)
	if err != nil {
		return err
	}
	var gone []string
	var versionGone bool
	err = s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		gone, versionGone = nil, false
		f, err := tx.Packages.GetFile(ctx, v.Version.ID, filename)
		if err != nil {
			return err
		}
		sum, err := tx.Packages.DeleteFile(ctx, f.ID)
		if err != nil {
			return err
		}
		if sum != "" {
			gone = append(gone, sum)
		}
		left, err := tx.Packages.Files(ctx, v.Version.ID)
		if err != nil || len(left) > 0 {
			return err
		}
		more, err := tx.Packages.DeleteVersion(ctx, v.Version.ID)
		if err != nil {
			return err
		}
		gone, versionGone = append(gone, more...), true
		return s.deleted(ctx, tx, doer, v.Package, v.Version)
	})
	if err != nil {
		return err
	}
	if versionGone {
		s.notifyCommitted()
	}
	return s.dropBlobs(ctx, gone)
}
