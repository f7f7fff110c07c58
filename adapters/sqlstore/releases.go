package sqlstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/domain/release"
	"github.com/depothq/depot/ports"
)

var releaseMapping = mapping{
	op: "release", notFound: "release does not exist", conflict: "release already exists",
	missingRef: "repository does not exist",
}

var _ ports.ReleaseStore = (*ReleaseStore)(nil)

// ReleaseStore is the SQL implementation of ports.ReleaseStore.
type ReleaseStore struct{ c conn }

// Create inserts r and sets r.ID.
func (s *ReleaseStore) Create(ctx context.Context, r *release.Release) error {
	return s.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		row := toReleaseRow(r)
		row.ID = 0
		if _, err := tx.NewInsert().Model(row).Returning("id").Exec(ctx); err != nil {
			return releaseMapping.mapErr(err)
		}
		r.ID = row.ID
		return countReleases(ctx, tx, r.RepoID)
	})
}

// Get finds one of the repository's releases.
func (s *ReleaseStore) Get(ctx context.Context, repoID, id int64) (*release.Release, error) {
	row := new(releaseRow)
	if err := s.c.r(ctx).NewSelect().Model(row).Where("rel.repo_id = ?", repoID).Where("rel.id = ?", id).
		Scan(ctx); err != nil {
		return nil, releaseMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// GetByTag finds the repository's release of tag.
func (s *ReleaseStore) GetByTag(ctx context.Context, repoID int64, tag string) (*release.Release, error) {
	row := new(releaseRow)
	if err := s.c.r(ctx).NewSelect().Model(row).Where("rel.repo_id = ?", repoID).Where("rel.tag_name = ?", tag).
		Scan(ctx); err != nil {
		return nil, releaseMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// List returns one page of the releases that pass f, newest first, and
// their count: one query for the page and one for the count.
func (s *ReleaseStore) List(ctx context.Context, repoID int64, f release.Filter, opts ports.ListOptions) ([]*release.Release, int64, error) {
	var rows []releaseRow
	sel := s.c.r(ctx).NewSelect().Model(&rows).Where("rel.repo_id = ?", repoID)
	if !f.IncludeDrafts {
		sel = sel.Where("rel.is_draft = ?", false)
	}
	if f.Draft != nil {
		sel = sel.Where("rel.is_draft = ?", *f.Draft)
	}
	if f.Prerelease != nil {
		sel = sel.Where("rel.is_prerelease = ?", *f.Prerelease)
	}
	if kw := f.NormalisedKeyword(); kw != "" {
		sel = sel.WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
			return q.Where(contains(q, "lower(rel.tag_name)"), kw).WhereOr(contains(q, "lower(rel.title)"), kw)
		})
	}
	sel = sel.OrderExpr("rel.created DESC, rel.id DESC")
	total, err := page(sel, opts).ScanAndCount(ctx)
	if err != nil {
		return nil, 0, releaseMapping.mapErr(err)
	}
	return domainAll(rows, (*releaseRow).toDomain), total, nil
}

// Latest is the newest published release that is no pre-release.
func (s *ReleaseStore) Latest(ctx context.Context, repoID int64) (*release.Release, error) {
	row := new(releaseRow)
	if err := s.c.r(ctx).NewSelect().Model(row).Where("rel.repo_id = ?", repoID).
		Where("rel.is_draft = ?", false).Where("rel.is_prerelease = ?", false).
		OrderExpr("rel.created DESC, rel.id DESC").Limit(1).Scan(ctx); err != nil {
		return nil, releaseMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// Update writes r's fields but its repository, id and creation time.
func (s *ReleaseStore) Update(ctx context.Context, r *release.Release) error {
	return s.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		res, err := tx.NewUpdate().Model(toReleaseRow(r)).
			Column("publisher_id", "tag_name", "target", "title", "note", "sha1", "is_draft", "is_prerelease",
				"hide_archive_links", "published").
			Where("repo_id = ?", r.RepoID).Where("id = ?", r.ID).Exec(ctx)
		if err := releaseMapping.affected(res, err); err != nil {
			return err
		}
		return countReleases(ctx, tx, r.RepoID)
	})
}

// Delete removes one of the repository's releases.
func (s *ReleaseStore) Delete(ctx context.Context, repoID, id int64) error {
	return s.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		res, err := tx.NewDelete().Model((*releaseRow)(nil)).Where("repo_id = ?", repoID).Where("id = ?", id).Exec(ctx)
		if err := releaseMapping.affected(res, err); err != nil {
			return err
		}
		return countReleases(ctx, tx, repoID)
	})
}

// DraftByTags turns the releases of these tags into drafts without a commit.
func (s *ReleaseStore) DraftByTags(ctx context.Context, repoID int64, tags []string) error {
	if len(tags) == 0 {
		return nil
	}
	return s.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		if _, err := tx.NewUpdate().Model((*releaseRow)(nil)).Set("is_draft = ?", true).Set("sha1 = ?", "").
			Where("repo_id = ?", repoID).Where("tag_name IN (?)", bun.In(tags)).Exec(ctx); err != nil {
			return releaseMapping.mapErr(err)
		}
		return countReleases(ctx, tx, repoID)
	})
}

// countReleases sets the repository's release counter to its number of
// published releases.
func countReleases(ctx context.Context, tx bun.IDB, repoID int64) error {
	_, err := tx.NewRaw(`UPDATE repos SET num_releases = (SELECT count(*) FROM releases
		WHERE releases.repo_id = repos.id AND releases.is_draft = ?) WHERE id = ?`, false, repoID).Exec(ctx)
	return releaseMapping.mapErr(err)
}

type releaseRow struct {
	bun.BaseModel `bun:"table:releases,alias:rel"`

	ID               int64     `bun:"id,pk,autoincrement"`
	RepoID           int64     `bun:"repo_id"`
	PublisherID      int64     `bun:"publisher_id"`
	TagName          string    `bun:"tag_name"`
	Target           string    `bun:"target"`
	Title            string    `bun:"title"`
	Note             string    `bun:"note"`
	Sha1             string    `bun:"sha1"`
	IsDraft          bool      `bun:"is_draft"`
	IsPrerelease     bool      `bun:"is_prerelease"`
	HideArchiveLinks bool      `bun:"hide_archive_links"`
	Created          time.Time `bun:"created"`
	Published        time.Time `bun:"published,nullzero"`
}

func toReleaseRow(r *release.Release) *releaseRow {
	return &releaseRow{ID: r.ID, RepoID: r.RepoID, PublisherID: r.PublisherID, TagName: r.TagName,
		Target: r.Target, Title: r.Title, Note: r.Note, Sha1: r.Sha1, IsDraft: r.IsDraft,
		IsPrerelease: r.IsPrerelease, HideArchiveLinks: r.HideArchiveLinks,
		Created: dbTime(r.Created), Published: dbTime(r.Published)}
}

func (r *releaseRow) toDomain() *release.Release {
	return &release.Release{ID: r.ID, RepoID: r.RepoID, PublisherID: r.PublisherID, TagName: r.TagName,
		Target: r.Target, Title: r.Title, Note: r.Note, Sha1: r.Sha1, IsDraft: r.IsDraft,
		IsPrerelease: r.IsPrerelease, HideArchiveLinks: r.HideArchiveLinks,
		Created: domainTime(r.Created), Published: domainTime(r.Published)}
}
