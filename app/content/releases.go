package content

import (
	"context"
	"errors"
	"strings"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/release"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// Releases are the use cases of a repository's releases. A release names a
// tag; publishing one creates its tag at the target when Git has none (a
// draft creates no tag), and deleting one keeps the tag, as Gitea 1.27.
// Tags pushed with Git get no release row: the list shows releases only,
// so tags made or removed by a push never disturb it.
type Releases struct{ *Service }

// Releases returns the release use cases.
func (s *Service) Releases() Releases { return Releases{s} }

// ReleaseView is a release with its publisher (a ghost when the account
// is gone) and its assets, oldest first.
type ReleaseView struct {
	*release.Release
	Publisher *user.User
	Assets    []*release.Asset
}

// CreateReleaseInput is Gitea's CreateReleaseOption.
type CreateReleaseInput struct {
	TagName string
	// Target is a branch or commit; empty means the default branch.
	Target           string
	Title, Note      string
	IsDraft          bool
	IsPrerelease     bool
	HideArchiveLinks bool
	// TagMessage makes the created tag annotated, tagged by the caller.
	TagMessage string
}

// EditReleaseInput is Gitea's EditReleaseOption: empty strings and nil
// flags leave a field as it is.
type EditReleaseInput struct {
	TagName, Target, Title, Note string
	IsDraft, IsPrerelease        *bool
	HideArchiveLinks             *bool
}

// releaseWriter reports whether the caller may write the repository's
// releases, and so see its drafts.
func releaseWriter(a *repos.Access) bool {
	return a.Perm.Mode >= permission.ModeWrite || a.Perm.CanWrite(permission.UnitReleases)
}

var errReleaseNotFound = errs.NotFound("release does not exist")

// List returns one page of the releases the caller may see that pass f,
// newest first, with their count.
//
// Pages are kept under the repository's releases version
// (release_pages.go): a repeated listing reads only its publishers.
func (s Releases) List(ctx context.Context, a *repos.Access, f release.Filter, opts ports.ListOptions) ([]ReleaseView, int64, error) {
	f.IncludeDrafts = releaseWriter(a)
	repoID, version := a.Repo.ID, a.Repo.ReleasesVersion
	key, keep := newReleasePageKey(f, opts)
	if keep {
		if p, ok := s.releasePages.get(repoID, version, key); ok {
			views, err := s.publishersOf(ctx, p.list, p.assets)
			return views, p.total, err
		}
	}
	list, total, err := s.stores.Releases.List(ctx, repoID, f, opts)
	if err != nil {
		return nil, 0, err
	}
	assets, err := s.assetsOf(ctx, list)
	if err != nil {
		return nil, 0, err
	}
	if keep {
		s.releasePages.put(repoID, version, key, &releasePage{list: list, assets: assets, total: total})
	}
	views, err := s.publishersOf(ctx, list, assets)
	return views, total, err
}

// Latest is the newest published release that is no pre-release.
func (s Releases) Latest(ctx context.Context, a *repos.Access) (ReleaseView, error) {
	r, err := s.stores.Releases.Latest(ctx, a.Repo.ID)
	if err != nil {
		return ReleaseView{}, notFoundAs(err, errReleaseNotFound)
	}
	return s.view(ctx, r)
}

// Get returns one release by id; a draft only to writers.
func (s Releases) Get(ctx context.Context, a *repos.Access, id int64) (ReleaseView, error) {
	r, err := s.get(ctx, a, id)
	if err != nil {
		return ReleaseView{}, err
	}
	return s.view(ctx, r)
}

// GetByTag returns the release of a tag; a draft only to writers.
func (s Releases) GetByTag(ctx context.Context, a *repos.Access, tag string) (ReleaseView, error) {
	r, err := s.stores.Releases.GetByTag(ctx, a.Repo.ID, tag)
	if err != nil {
		return ReleaseView{}, notFoundAs(err, errReleaseNotFound)
	}
	if !r.VisibleTo(releaseWriter(a)) {
		return ReleaseView{}, errReleaseNotFound
	}
	return s.view(ctx, r)
}

// get finds one of the repository's releases the caller may see.
func (s Releases) get(ctx context.Context, a *repos.Access, id int64) (*release.Release, error) {
	r, err := s.stores.Releases.Get(ctx, a.Repo.ID, id)
	if err != nil {
		return nil, notFoundAs(err, errReleaseNotFound)
	}
	if !r.VisibleTo(releaseWriter(a)) {
		return nil, errReleaseNotFound
	}
	return r, nil
}

// Create creates a release and, unless it is a draft, its tag at the
// target when Git has no such tag.
func (s Releases) Create(ctx context.Context, a *repos.Access, in CreateReleaseInput) (ReleaseView, error) {
	if a.Repo.Empty {
		return ReleaseView{}, refUnprocessable("repo is empty")
	}
	if err := refNameValid("TagName", in.TagName); err != nil {
		return ReleaseView{}, err
	}
	if _, err := s.stores.Releases.GetByTag(ctx, a.Repo.ID, in.TagName); err == nil {
		return ReleaseView{}, releaseExists(in.TagName)
	} else if !errors.Is(err, errs.ErrNotFound) {
		return ReleaseView{}, err
	}
	if in.Target == "" {
		in.Target = a.Repo.DefaultBranch
	}
	now := s.clock.Now()
	r := &release.Release{RepoID: a.Repo.ID, PublisherID: a.Caller.UserID(), TagName: in.TagName,
		Target: in.Target, Title: in.Title, Note: in.Note, IsDraft: in.IsDraft, IsPrerelease: in.IsPrerelease,
		HideArchiveLinks: in.HideArchiveLinks, Created: now}
	if err := s.save(ctx, a, r, in.TagMessage, false, func(ctx context.Context, tx ports.Stores) error {
		return tx.Releases.Create(ctx, r)
	}); err != nil {
		return ReleaseView{}, err
	}
	return s.view(ctx, r)
}

// Edit changes a release; publishing a draft creates its tag as Create does.
func (s Releases) Edit(ctx context.Context, a *repos.Access, id int64, in EditReleaseInput) (ReleaseView, error) {
	r, err := s.get(ctx, a, id)
	if err != nil {
		return ReleaseView{}, err
	}
	if in.TagName != "" && in.TagName != r.TagName {
		if err := refNameValid("TagName", in.TagName); err != nil {
			return ReleaseView{}, err
		}
		r.TagName, r.Sha1 = in.TagName, ""
	}
	for _, f := range []struct{ in, field *string }{{&in.Target, &r.Target}, {&in.Title, &r.Title}, {&in.Note, &r.Note}} {
		if *f.in != "" {
			*f.field = *f.in
		}
	}
	for _, f := range []struct{ in, field *bool }{{in.IsDraft, &r.IsDraft}, {in.IsPrerelease, &r.IsPrerelease},
		{in.HideArchiveLinks, &r.HideArchiveLinks}} {
		if f.in != nil {
			*f.field = *f.in
		}
	}
	if err := s.save(ctx, a, r, "", true, func(ctx context.Context, tx ports.Stores) error {
		return tx.Releases.Update(ctx, r)
	}); err != nil {
		return ReleaseView{}, err
	}
	return s.view(ctx, r)
}

// The release webhook's actions (Gitea's HookReleaseAction).
const (
	releasePublished = "published"
	releaseUpdated   = "updated"
	releaseDeleted   = "deleted"
)

// save writes r with write in one transaction. A published release gets
// its tag: the one Git has, or a new one at the target, made inside the
// transaction and removed again if the transaction fails. The same
// transaction queues the release event, as Gitea's release service
// notifies: nothing for a draft; "published" by the publisher when the
// release is created, or edited so that its tag had to be made; else
// "updated" by the caller (an edit, or a draft published on a tag Git
// already had).
func (s Releases) save(ctx context.Context, a *repos.Access, r *release.Release, tagMessage string, edit bool,
	write func(ctx context.Context, tx ports.Stores) error) error {
	var made bool
	if !r.IsDraft {
		sha, create, err := s.tagCommit(ctx, a, r)
		if err != nil {
			return err
		}
		r.Sha1 = sha
		if r.Published.IsZero() {
			r.Published = s.clock.Now()
		}
		made = create
	}
	p := pathOf(a.Repo)
	err := s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		if err := write(ctx, tx); err != nil {
			if errors.Is(err, errs.ErrConflict) {
				return releaseExists(r.TagName)
			}
			return err
		}
		if made {
			if err := s.makeTag(ctx, a, r, tagMessage); err != nil {
				made = false
				return err
			}
		}
		return s.releaseEvent(ctx, tx, a, r, edit, made)
	})
	if err != nil && made {
		if _, derr := s.git.DeleteTag(ctx, p, r.TagName); derr != nil {
			s.log.Error("release: removing the tag of a failed release", "repo", a.Repo.ID, "tag", r.TagName, "err", derr)
		}
	}
	if err == nil {
		s.notifyEvents()
	}
	return err
}

// releaseEvent queues the event of r written (see save).
func (s Releases) releaseEvent(ctx context.Context, tx ports.Stores, a *repos.Access, r *release.Release, edit, tagMade bool) error {
	if r.IsDraft {
		return nil
	}
	ev := ports.ReleaseEvent{Repo: a.Repo, Release: r, Action: releasePublished, SenderID: r.PublisherID}
	if edit && !tagMade {
		ev.Action, ev.SenderID = releaseUpdated, a.Caller.UserID()
	}
	return s.events.ReleaseChanged(ctx, tx, ev)
}

// makeTag creates r's tag at r.Sha1, annotated when tagMessage is given.
func (s Releases) makeTag(ctx context.Context, a *repos.Access, r *release.Release, tagMessage string) error {
	nt := ports.GitNewTag{Name: r.TagName, CommitID: r.Sha1, Message: tagMessage}
	if tagMessage != "" {
		nt.Tagger = Tags{s.Service}.tagger(a.Caller.User)
	}
	if _, err := s.git.CreateTag(ctx, pathOf(a.Repo), nt); err != nil {
		var c *ports.RefConflictError
		if errors.As(err, &c) {
			return errs.Conflict("tag " + r.TagName + " clashes with an existing reference")
		}
		return err
	}
	return nil
}

// notifyEvents wakes the events port's workers after a transaction that
// queued deliveries.
func (s Releases) notifyEvents() {
	if n, ok := s.events.(interface{ Notify() }); ok {
		n.Notify()
	}
}

// tagCommit is the commit r's tag names: the existing tag's, or the
// target's when the tag is still to be made (create), which the tag
// protection rules must allow the caller.
func (s Releases) tagCommit(ctx context.Context, a *repos.Access, r *release.Release) (sha string, create bool, err error) {
	p := pathOf(a.Repo)
	t, err := s.git.Tag(ctx, p, r.TagName)
	if err == nil {
		if t.CommitID != "" {
			return t.CommitID, false, nil
		}
		return t.ObjectID, false, nil
	}
	if !errors.Is(err, errs.ErrNotFound) {
		return "", false, err
	}
	refused, err := s.repos.TagProtections().RefusedTag(ctx, a.Repo, a.Caller.UserID(), r.TagName)
	if err != nil {
		return "", false, err
	}
	if refused != "" {
		return "", false, refUnprocessable(msgTagCreateProtected)
	}
	rev, err := s.git.Resolve(ctx, p, r.Target)
	if errors.Is(err, errs.ErrNotFound) {
		return "", false, errs.NotFound("target \"" + r.Target + "\" not found")
	}
	if err != nil {
		return "", false, err
	}
	return rev.CommitID, true, nil
}

// Delete deletes a release by id and keeps its tag.
func (s Releases) Delete(ctx context.Context, a *repos.Access, id int64) error {
	r, err := s.get(ctx, a, id)
	if err != nil {
		return err
	}
	return s.delete(ctx, a, r)
}

// DeleteByTag deletes the release of a tag and keeps the tag.
func (s Releases) DeleteByTag(ctx context.Context, a *repos.Access, tag string) error {
	r, err := s.stores.Releases.GetByTag(ctx, a.Repo.ID, tag)
	if err != nil {
		return notFoundAs(err, errReleaseNotFound)
	}
	return s.delete(ctx, a, r)
}

// delete deletes r with its asset rows in one transaction, then their bytes.
func (s Releases) delete(ctx context.Context, a *repos.Access, r *release.Release) error {
	var uuids []string
	if err := s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		assets, err := tx.ReleaseAssets.List(ctx, r.ID)
		if err != nil {
			return err
		}
		uuids = uuids[:0]
		for _, as := range assets {
			if !as.IsExternal() {
				uuids = append(uuids, as.UUID)
			}
		}
		// Gitea tells of a deleted release that was published, with its
		// assets: the event is queued while they are still there.
		if !r.IsDraft {
			ev := ports.ReleaseEvent{Repo: a.Repo, Release: r, Action: releaseDeleted, SenderID: a.Caller.UserID()}
			if err := s.events.ReleaseChanged(ctx, tx, ev); err != nil {
				return err
			}
		}
		return notFoundAs(tx.Releases.Delete(ctx, a.Repo.ID, r.ID), errReleaseNotFound)
	}); err != nil {
		return err
	}
	s.notifyEvents()
	s.removeBlobs(ctx, uuids)
	return nil
}

// recordPush, inside the transaction that records a push, turns the
// releases whose tags the push deleted into drafts, as Gitea does: the
// release stays, and publishing it again makes its tag anew.
func (s Releases) recordPush(ctx context.Context, tx ports.Stores, r *repository.Repository, _ int64,
	changes []repository.RefChange) error {
	var tags []string
	for _, c := range changes {
		if name, ok := strings.CutPrefix(c.Ref, "refs/tags/"); ok && c.IsDelete() {
			tags = append(tags, name)
		}
	}
	return tx.Releases.DraftByTags(ctx, r.ID, tags)
}

// tagHasRelease reports whether a release names tag, for refusing to
// delete the tag under it.
func (s Service) tagHasRelease(ctx context.Context, repoID int64, tag string) (bool, error) {
	_, err := s.stores.Releases.GetByTag(ctx, repoID, tag)
	if errors.Is(err, errs.ErrNotFound) {
		return false, nil
	}
	return err == nil, err
}

// view is r with its publisher.
func (s Releases) view(ctx context.Context, r *release.Release) (ReleaseView, error) {
	v, err := s.withPublishers(ctx, []*release.Release{r})
	if err != nil {
		return ReleaseView{}, err
	}
	return v[0], nil
}

// withPublishers pairs releases with their publishers and their assets,
// each fetched in one query.
func (s Releases) withPublishers(ctx context.Context, list []*release.Release) ([]ReleaseView, error) {
	assets, err := s.assetsOf(ctx, list)
	if err != nil {
		return nil, err
	}
	return s.publishersOf(ctx, list, assets)
}

// assetsOf reads the assets of list's releases in one query.
func (s Releases) assetsOf(ctx context.Context, list []*release.Release) (map[int64][]*release.Asset, error) {
	if len(list) == 0 {
		return nil, nil
	}
	relIDs := make([]int64, len(list))
	for i, r := range list {
		relIDs[i] = r.ID
	}
	return s.stores.ReleaseAssets.OfReleases(ctx, relIDs)
}

// publishersOf pairs releases with their publishers, read in one query,
// and their assets.
func (s Releases) publishersOf(ctx context.Context, list []*release.Release, assets map[int64][]*release.Asset) ([]ReleaseView, error) {
	out := make([]ReleaseView, len(list))
	if len(list) == 0 {
		return out, nil
	}
	ids := make([]int64, 0, len(list))
	for _, r := range list {
		ids = append(ids, r.PublisherID)
	}
	users, err := s.stores.Users.GetByIDs(ctx, ids)
	if err != nil {
		return nil, err
	}
	byID := make(map[int64]*user.User, len(users))
	for _, u := range users {
		byID[u.ID] = u
	}
	for i, r := range list {
		out[i] = ReleaseView{Release: r, Publisher: byID[r.PublisherID], Assets: assets[r.ID]}
		if out[i].Publisher == nil {
			out[i].Publisher = ghost()
		}
	}
	return out, nil
}

// ghost is Gitea's stand-in for a deleted account.
func ghost() *user.User {
	return &user.User{ID: -1, Name: "Ghost", LowerName: "ghost", Visibility: user.VisibilityPublic}
}

// releaseExists is the conflict of a second release for a tag.
func releaseExists(tag string) error {
	return errs.Conflict("release with tag " + tag + " already exists")
}

// notFoundAs replaces a not-found err by nf, passing other errors on.
func notFoundAs(err, nf error) error {
	if errors.Is(err, errs.ErrNotFound) {
		return nf
	}
	return err
}
