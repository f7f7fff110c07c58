package content

import (
	"context"
	"errors"
	"io"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/issues"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/release"
	"github.com/depothq/depot/domain/token"
	"github.com/depothq/depot/ports"
)

// ReleaseAssets are the use cases of a release's files. They share the
// issue attachments' blob store, upload reading and site rules (enabled,
// allowed types, size); the rows are the releases'.
type ReleaseAssets struct{ *Service }

// ReleaseAssets returns the release asset use cases.
func (s *Service) ReleaseAssets() ReleaseAssets { return ReleaseAssets{s} }

var errAssetNotFound = errs.NotFound("attachment does not exist")

// repositoryScope is the token scope category of the release routes.
const repositoryScope = token.Category("repository")

// rules are the site's attachment settings.
func (s ReleaseAssets) rules() issue.AttachmentRules { return issue.AttachmentRulesOf(s.settings) }

// release finds release id for the caller, with attachments enabled.
func (s ReleaseAssets) release(ctx context.Context, a *repos.Access, id int64) (*release.Release, error) {
	if err := s.rules().CheckEnabled(); err != nil {
		return nil, err
	}
	return Releases{s.Service}.get(ctx, a, id)
}

// List returns the assets of release id, oldest first.
func (s ReleaseAssets) List(ctx context.Context, a *repos.Access, releaseID int64) ([]*release.Asset, error) {
	r, err := s.release(ctx, a, releaseID)
	if err != nil {
		return nil, err
	}
	return s.stores.ReleaseAssets.List(ctx, r.ID)
}

// Get returns asset id of release releaseID.
func (s ReleaseAssets) Get(ctx context.Context, a *repos.Access, releaseID, id int64) (*release.Asset, error) {
	r, err := s.release(ctx, a, releaseID)
	if err != nil {
		return nil, err
	}
	return s.asset(ctx, r.ID, id)
}

func (s ReleaseAssets) asset(ctx context.Context, releaseID, id int64) (*release.Asset, error) {
	if id <= 0 {
		return nil, errAssetNotFound
	}
	as, err := s.stores.ReleaseAssets.Get(ctx, releaseID, id)
	return as, notFoundAs(err, errAssetNotFound)
}

// AssetInput is what a new asset is made of: an uploaded file, or (as
// Forgejo's external assets) the address of a file elsewhere and an
// optional name.
type AssetInput struct {
	Upload      *issues.Upload
	ExternalURL string
	Name        string
}

// AssetSource reads the new asset from the request once the release has
// been found.
type AssetSource func() (AssetInput, error)

// Attach adds an asset to release releaseID. An upload's name and type are
// checked first, then its bytes are streamed to the blob store (at most
// the site's size, 413 past it), then the row is written; a failed insert
// removes the blob again. A link is checked (an http or https address,
// else 400) and written with no bytes.
func (s ReleaseAssets) Attach(ctx context.Context, a *repos.Access, releaseID int64, open AssetSource) (*release.Asset, error) {
	r, err := s.release(ctx, a, releaseID)
	if err != nil {
		return nil, err
	}
	in, err := open()
	if err != nil {
		return nil, err
	}
	if in.Upload == nil {
		return s.attachLink(ctx, a, r, in)
	}
	stored, err := issues.StoreUpload(ctx, s.blobs, s.rules(), func() (issues.Upload, error) { return *in.Upload, nil })
	if err != nil {
		return nil, err
	}
	defer stored.Release() // after the commit, or the blob's removal
	uuid := stored.UUID
	as := &release.Asset{UUID: uuid, RepoID: a.Repo.ID, ReleaseID: r.ID, UploaderID: a.Caller.UserID(),
		Name: stored.Name, Size: stored.Size, SHA256: stored.SHA256, Created: s.clock.Now()}
	if err := s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		return tx.ReleaseAssets.Create(ctx, as)
	}); err != nil {
		s.removeBlobs(ctx, []string{uuid})
		return nil, notFoundAs(err, errReleaseNotFound)
	}
	return as, nil
}

// attachLink writes a link asset of r: the address checked, the name
// given or taken from the address.
func (s ReleaseAssets) attachLink(ctx context.Context, a *repos.Access, r *release.Release, in AssetInput) (*release.Asset, error) {
	if in.ExternalURL == "" {
		return nil, errs.BadRequest("One of 'attachment' or 'external_url' is required")
	}
	u, err := release.ParseExternalURL(in.ExternalURL)
	if err != nil {
		return nil, err
	}
	name := in.Name
	if name == "" {
		name = release.ExternalAssetName(u)
	}
	if name, err = issue.CleanAttachmentName(name); err != nil {
		return nil, err
	}
	uuid, err := s.blobs.NewUUID()
	if err != nil {
		return nil, err
	}
	as := &release.Asset{UUID: uuid, RepoID: a.Repo.ID, ReleaseID: r.ID, UploaderID: a.Caller.UserID(),
		Name: name, ExternalURL: u.String(), Created: s.clock.Now()}
	err = s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error { return tx.ReleaseAssets.Create(ctx, as) })
	return as, notFoundAs(err, errReleaseNotFound)
}

// AssetEdit is Gitea's EditAttachmentOptions with Forgejo's
// browser_download_url: empty fields keep what the asset has.
type AssetEdit struct {
	Name string
	// ExternalURL is a link asset's new address; an uploaded file has
	// none to change (400).
	ExternalURL string
}

// Edit gives asset id a new name (of an allowed type, for an uploaded
// file) or, for a link, a new address.
func (s ReleaseAssets) Edit(ctx context.Context, a *repos.Access, releaseID, id int64, in AssetEdit) (*release.Asset, error) {
	r, err := s.release(ctx, a, releaseID)
	if err != nil {
		return nil, err
	}
	as, err := s.asset(ctx, r.ID, id)
	if err != nil || (in.Name == "" && in.ExternalURL == "") {
		return as, err
	}
	if in.ExternalURL != "" {
		if !as.IsExternal() {
			return nil, errs.BadRequest("existing attachment is not external")
		}
		u, err := release.ParseExternalURL(in.ExternalURL)
		if err != nil {
			return nil, err
		}
		as.ExternalURL = u.String()
	}
	if in.Name != "" {
		clean, err := issue.CleanAttachmentName(in.Name)
		if err != nil {
			return nil, err
		}
		if !as.IsExternal() {
			if err := s.rules().CheckType(clean, ""); err != nil {
				return nil, err
			}
		}
		as.Name = clean
	}
	err = s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error { return tx.ReleaseAssets.Edit(ctx, as) })
	return as, notFoundAs(err, errAssetNotFound)
}

// Delete deletes asset id: the row in a transaction, the blob after.
func (s ReleaseAssets) Delete(ctx context.Context, a *repos.Access, releaseID, id int64) error {
	r, err := s.release(ctx, a, releaseID)
	if err != nil {
		return err
	}
	as, err := s.asset(ctx, r.ID, id)
	if err != nil {
		return err
	}
	if err := s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		return notFoundAs(tx.ReleaseAssets.Delete(ctx, r.ID, as.ID), errAssetNotFound)
	}); err != nil {
		return err
	}
	if !as.IsExternal() {
		s.removeBlobs(ctx, []string{as.UUID})
	}
	return nil
}

// DownloadByName opens asset name of the release of tag in owner/repo
// for caller c (Gitea's /{owner}/{repo}/releases/download/{tag}/{name}):
// 404 unless c may read the repository's releases (and, for a draft,
// write them). The download is counted; a link has no bytes (a nil
// reader) and is not counted, as Forgejo only redirects to it.
func (s ReleaseAssets) DownloadByName(ctx context.Context, c auth.Caller, owner, repo, tag, name string) (*release.Asset, io.ReadSeekCloser, error) {
	if err := s.rules().CheckEnabled(); err != nil {
		return nil, nil, err
	}
	a, err := s.repos.Open(ctx, c, owner, repo)
	if err != nil {
		return nil, nil, assetRepoErr(err)
	}
	if err := readsReleases(c, a); err != nil {
		return nil, nil, err
	}
	v, err := Releases{s.Service}.GetByTag(ctx, a, tag)
	if err != nil {
		return nil, nil, errAssetNotFound
	}
	as, err := s.stores.ReleaseAssets.GetByName(ctx, v.ID, name)
	if err != nil {
		return nil, nil, notFoundAs(err, errAssetNotFound)
	}
	return s.open(ctx, as)
}

// assetRepoErr answers a repository that cannot be opened (absent,
// hidden or moved) as an absent asset.
func assetRepoErr(err error) error {
	var moved *repos.RenamedError
	if errors.Is(err, errs.ErrNotFound) || errors.As(err, &moved) {
		return errAssetNotFound
	}
	return err
}

// readsReleases checks that caller c, through a, may read the repository's
// releases as the release routes' RR(releases) and token scope do: a token
// needs the repository scope (403), and others answer 404.
func readsReleases(c auth.Caller, a *repos.Access) error {
	if err := permission.CheckScope(c.Actor(), false, repositoryScope); err != nil {
		return err
	}
	if err := permission.CheckPublicOnly(c.Actor(), []token.Category{repositoryScope},
		permission.PublicTarget{RepoPrivate: a.Repo.Private}); err != nil {
		return errAssetNotFound
	}
	if !a.Perm.CanRead(permission.UnitReleases) && !a.Perm.IsAdmin() {
		return errAssetNotFound
	}
	return nil
}

// DownloadByUUID finds the asset with this download UUID for caller c and
// opens its bytes: 404 unless c may read the repository's releases (and,
// for a draft, write them). The download is counted; a link opens nothing
// (a nil reader) and is not counted. ok is false when no
// release asset has the UUID, so the caller may look elsewhere.
func (s ReleaseAssets) DownloadByUUID(ctx context.Context, c auth.Caller, uuid string) (_ *release.Asset, _ io.ReadSeekCloser, ok bool, _ error) {
	as, err := s.stores.ReleaseAssets.GetByUUID(ctx, uuid)
	if errors.Is(err, errs.ErrNotFound) {
		return nil, nil, false, nil
	}
	if err != nil {
		return nil, nil, true, err
	}
	if err := s.rules().CheckEnabled(); err != nil {
		return nil, nil, true, err
	}
	a, err := s.repos.OpenByID(ctx, c, as.RepoID)
	if err != nil {
		return nil, nil, true, assetRepoErr(err)
	}
	if err := readsReleases(c, a); err != nil {
		return nil, nil, true, err
	}
	if _, err := (Releases{s.Service}).get(ctx, a, as.ReleaseID); err != nil {
		return nil, nil, true, errAssetNotFound
	}
	_, f, err := s.open(ctx, as)
	return as, f, true, err
}

func (s ReleaseAssets) open(ctx context.Context, as *release.Asset) (*release.Asset, io.ReadSeekCloser, error) {
	if as.IsExternal() {
		return as, nil, nil
	}
	f, err := s.blobs.Open(ctx, as.UUID)
	if errors.Is(err, errs.ErrNotFound) {
		return nil, nil, errAssetNotFound
	}
	if err != nil {
		return nil, nil, err
	}
	if err := s.stores.ReleaseAssets.CountDownload(ctx, as.ID); err != nil {
		s.log.Warn("counting a release asset download failed", "asset", as.ID, "err", err)
	}
	return as, f, nil
}

// removeBlobs deletes stored bytes whose rows are gone (or were never
// written); a failure leaves an orphan, which is logged.
func (s Service) removeBlobs(ctx context.Context, uuids []string) {
	for _, u := range uuids {
		if err := s.blobs.Delete(ctx, u); err != nil && !errors.Is(err, errs.ErrNotFound) {
			s.log.Warn("removing a release asset's bytes failed", "uuid", u, "err", err)
		}
	}
}
