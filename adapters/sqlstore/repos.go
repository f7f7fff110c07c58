package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

var _ ports.RepoStore = (*RepoStore)(nil)

// RepoStore is the SQL implementation of ports.RepoStore.
type RepoStore struct{ c conn }

var (
	repoMapping = mapping{
		op: "repository", notFound: "repository does not exist", conflict: "repository already exists",
		missingRef: "owner does not exist",
	}
	repoRedirectMapping = mapping{
		op: "repository redirect", notFound: "repository redirect does not exist",
		missingRef: "repository does not exist",
	}
)

// Create inserts r with its topics column and sets r.ID (and r.LowerName
// when it was empty).
func (s *RepoStore) Create(ctx context.Context, r *repository.Repository) error {
	row := toRepoRow(r)
	row.ID = 0
	if _, err := s.c.w(ctx).NewInsert().Model(row).Returning("id").Exec(ctx); err != nil {
		return repoMapping.mapErr(err)
	}
	r.ID, r.LowerName = row.ID, row.LowerName
	return nil
}

// Update writes every column of r but the counters, the size and the topics,
// which have writers of their own that must not be raced by a stale copy.
func (s *RepoStore) Update(ctx context.Context, r *repository.Repository) error {
	row := toRepoRow(r)
	res, err := s.c.w(ctx).NewUpdate().Model(row).WherePK().ExcludeColumn(repoUpdateExcluded...).Exec(ctx)
	if err == nil {
		r.LowerName = row.LowerName
	}
	return repoMapping.affected(res, err)
}

// Delete removes the repository in one transaction: the foreign keys cascade
// to its redirects, collaborators, keys, topics, stars, watches and transfer;
// forks of it become source repositories (as in Gitea), and the parent's
// forks counter and its topics' counts are recounted.
func (s *RepoStore) Delete(ctx context.Context, id int64) error {
	return s.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		var forkID int64
		err := tx.NewSelect().Model((*repoRow)(nil)).Column("fork_id").Where("repo.id = ?", id).Scan(ctx, &forkID)
		if err != nil {
			return repoMapping.mapErr(err)
		}
		var topicIDs []int64
		err = tx.NewSelect().Model((*repoTopicRow)(nil)).Column("topic_id").Where("rt.repo_id = ?", id).Scan(ctx, &topicIDs)
		if err != nil {
			return repoMapping.mapErr(err)
		}
		res, err := tx.NewDelete().Model((*repoRow)(nil)).Where("id = ?", id).Exec(ctx)
		if err := repoMapping.affected(res, err); err != nil {
			return err
		}
		if _, err := tx.NewUpdate().Model((*repoRow)(nil)).Set("fork_id = 0").Where("fork_id = ?", id).Exec(ctx); err != nil {
			return repoMapping.mapErr(err)
		}
		if forkID != 0 {
			if err := lockRows(ctx, tx, "repos", []int64{forkID}); err != nil {
				return repoMapping.mapErr(err)
			}
			if err := recountSocial(ctx, tx, []int64{forkID}); err != nil {
				return err
			}
		}
		if err := lockRows(ctx, tx, "topics", topicIDs); err != nil {
			return topicMapping.mapErr(err)
		}
		return recountTopics(ctx, tx, topicIDs)
	})
}

// GetByID finds a repository with its owner by primary key.
func (s *RepoStore) GetByID(ctx context.Context, id int64) (*repository.Repository, error) {
	return s.getOne(ctx, func(q *bun.SelectQuery) *bun.SelectQuery { return q.Where("repo.id = ?", id) })
}

// GetByName finds a repository by owner id and name, case-insensitively,
// through the (owner_id, lower_name) unique index.
func (s *RepoStore) GetByName(ctx context.Context, ownerID int64, name string) (*repository.Repository, error) {
	return s.getOne(ctx, func(q *bun.SelectQuery) *bun.SelectQuery {
		return q.Where("repo.owner_id = ?", ownerID).Where("repo.lower_name = ?", strings.ToLower(name))
	})
}

// GetByFullName finds a repository by owner name and name, both
// case-insensitively, in one query; outside transactions it runs as a
// prepared statement, being the lookup behind every repository route.
func (s *RepoStore) GetByFullName(ctx context.Context, ownerName, name string) (*repository.Repository, error) {
	row := new(repoOwnerRow)
	owner, lower := strings.ToLower(ownerName), strings.ToLower(name)
	var err error
	if ps := s.c.hotStmt(ctx, hotRepoByFullName); ps != nil {
		err = s.c.scanOne(ctx, ps, row, owner, lower)
	} else {
		err = repoByFullNameQuery(s.c.r(ctx), row, owner, lower).Scan(ctx)
	}
	if err != nil {
		return nil, repoMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// repoByFullNameQuery is GetByFullName's query, shared with its prepared form.
func repoByFullNameQuery(db bun.IDB, model, ownerLower, lower any) *bun.SelectQuery {
	return selectRepos(db, model).
		Where("u.lower_name = ?", ownerLower).Where("repo.lower_name = ?", lower)
}

// selectRepos selects repositories joined with their owners into model.
func selectRepos(db bun.IDB, model any) *bun.SelectQuery {
	q := db.NewSelect().Model(model)
	for _, c := range repoOwnerColumns {
		q = q.ColumnExpr(c)
	}
	return q.Join(repoOwnerJoin)
}

func (s *RepoStore) getOne(ctx context.Context, where func(*bun.SelectQuery) *bun.SelectQuery) (*repository.Repository, error) {
	row := new(repoOwnerRow)
	if err := where(selectRepos(s.c.r(ctx), row)).Scan(ctx); err != nil {
		return nil, repoMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// CountByOwner returns how many repositories an account owns.
func (s *RepoStore) CountByOwner(ctx context.Context, ownerID int64) (int64, error) {
	n, err := s.c.r(ctx).NewSelect().Model((*repoRow)(nil)).Where("repo.owner_id = ?", ownerID).Count(ctx)
	if err != nil {
		return 0, repoMapping.mapErr(err)
	}
	return int64(n), nil
}

// NamesByOwners returns the lower-case names of the owners' repositories
// in one query.
func (s *RepoStore) NamesByOwners(ctx context.Context, ownerIDs []int64) (map[int64][]string, error) {
	out := map[int64][]string{}
	if len(ownerIDs) == 0 {
		return out, nil
	}
	var rows []struct {
		OwnerID   int64  `bun:"owner_id"`
		LowerName string `bun:"lower_name"`
	}
	if err := s.c.r(ctx).NewSelect().Model((*repoRow)(nil)).Column("repo.owner_id", "repo.lower_name").
		Where("repo.owner_id IN (?)", bun.In(ownerIDs)).OrderExpr("repo.owner_id, repo.lower_name").
		Scan(ctx, &rows); err != nil {
		return nil, repoMapping.mapErr(err)
	}
	for _, r := range rows {
		out[r.OwnerID] = append(out[r.OwnerID], r.LowerName)
	}
	return out, nil
}

// Relations returns userID's ties to the repository with at most one query
// (none for anonymous callers).
func (s *RepoStore) Relations(ctx context.Context, r permission.Repo, userID int64) (permission.Relations, error) {
	rel := permission.Relations{IsOwner: userID != 0 && userID == r.OwnerID, CollaboratorMode: permission.ModeNone}
	if userID == 0 {
		return rel, nil
	}
	if r.OwnerIsOrg {
		// Teams and membership count too: one query for all of it.
		many, err := s.RelationsMany(ctx, []permission.Repo{r}, userID)
		return many[r.ID], err
	}
	var mode int
	err := s.c.r(ctx).NewSelect().Model((*collaborationRow)(nil)).Column("mode").
		Where("c.repo_id = ?", r.ID).Where("c.user_id = ?", userID).Scan(ctx, &mode)
	switch {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return permission.Relations{}, collaboratorMapping.mapErr(err)
	default:
		rel.CollaboratorMode = permission.AccessMode(mode)
	}
	return rel, nil
}

// RecountSocial recomputes the stars, watchers and forks counters from their
// rows in one statement.
func (s *RepoStore) RecountSocial(ctx context.Context, repoID int64) error {
	res, err := s.c.w(ctx).ExecContext(ctx, recountSocialSQL, bun.List([]int64{repoID}))
	return repoMapping.affected(res, err)
}

// recountSocialSQL recomputes the social counters of the repositories listed.
// Watchers are those in modes normal (1) and auto (3); "don't watch" is not one.
const recountSocialSQL = `UPDATE repos SET
	num_stars = (SELECT count(*) FROM stars WHERE stars.repo_id = repos.id),
	num_watches = (SELECT count(*) FROM watches WHERE watches.repo_id = repos.id AND watches.mode IN (1, 3)),
	num_forks = (SELECT count(*) FROM repos AS f WHERE f.fork_id = repos.id)
	WHERE repos.id IN (?)`

func recountSocial(ctx context.Context, db bun.IDB, repoIDs []int64) error {
	if len(repoIDs) == 0 {
		return nil
	}
	_, err := db.ExecContext(ctx, recountSocialSQL, bun.List(repoIDs))
	return repoMapping.mapErr(err)
}

// SetSize records the Git repository's size in bytes.
func (s *RepoStore) SetSize(ctx context.Context, repoID, size int64) error {
	res, err := s.c.w(ctx).NewUpdate().Model((*repoRow)(nil)).Set("size = ?", size).Where("id = ?", repoID).Exec(ctx)
	return repoMapping.affected(res, err)
}

// AddRedirect records that ownerID's oldName now means repoID, overwriting an
// older redirect of that name so the latest rename or transfer wins.
func (s *RepoStore) AddRedirect(ctx context.Context, ownerID int64, oldName string, repoID int64) error {
	row := &repoRedirectRow{OwnerID: ownerID, LowerName: strings.ToLower(oldName), RepoID: repoID}
	_, err := s.c.w(ctx).NewInsert().Model(row).
		On("CONFLICT (owner_id, lower_name) DO UPDATE").Set("repo_id = EXCLUDED.repo_id").
		Exec(ctx)
	return repoRedirectMapping.mapErr(err)
}

// LookupRedirect returns the repository an old owner/name points at.
func (s *RepoStore) LookupRedirect(ctx context.Context, ownerID int64, oldName string) (int64, error) {
	var id int64
	err := s.c.r(ctx).NewSelect().Model((*repoRedirectRow)(nil)).Column("repo_id").
		Where("rr.owner_id = ?", ownerID).Where("rr.lower_name = ?", strings.ToLower(oldName)).Scan(ctx, &id)
	if err != nil {
		return 0, repoRedirectMapping.mapErr(err)
	}
	return id, nil
}

// DeleteRedirect forgets an old name; forgetting one that is not there is
// not an error, since callers do it before taking a name either way.
func (s *RepoStore) DeleteRedirect(ctx context.Context, ownerID int64, name string) error {
	_, err := s.c.w(ctx).NewDelete().Model((*repoRedirectRow)(nil)).
		Where("owner_id = ?", ownerID).Where("lower_name = ?", strings.ToLower(name)).Exec(ctx)
	return repoRedirectMapping.mapErr(err)
}

// atomic runs fn with all its statements in one transaction: the ctx's
// transaction when there is one (through a savepoint, so a failure undoes
// only fn's writes), else a new one on the writer. fn must use the handle
// it is given, not the store's pools.
func (c conn) atomic(ctx context.Context, fn func(ctx context.Context, tx bun.IDB) error) error {
	// bun hands savepoint callbacks the outer transaction's ctx; the caller's
	// ctx (deadline, values) is kept instead.
	return c.w(ctx).RunInTx(ctx, nil, func(_ context.Context, tx bun.Tx) error { return fn(ctx, tx) })
}

// GetByIDs finds these repositories with their owners in one query (the
// query GetByID runs, for many ids), keyed by id; absent ids are left out.
func (s *RepoStore) GetByIDs(ctx context.Context, ids []int64) (map[int64]*repository.Repository, error) {
	out := make(map[int64]*repository.Repository, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	var rows []repoOwnerRow
	var err error
	if ps := s.c.sqliteReadStmt(ctx, s.byIDsText()); ps != nil {
		err = s.c.scanAll(ctx, ps, &rows, idsJSON(ids))
	} else {
		err = selectRepos(s.c.r(ctx), &rows).Where("repo.id IN (?)", bun.List(ids)).Scan(ctx)
	}
	if err != nil {
		return nil, repoMapping.mapErr(err)
	}
	for _, r := range reposToDomain(rows) {
		out[r.ID] = r
	}
	return out, nil
}

// reposByIDsKey is the shape of GetByIDs' prepared statement.
type reposByIDsKey struct{}

// byIDsText is GetByIDs' SQLite statement, the ids as one JSON array
// (json_each), prepared once for pages of any length (a pull request
// list reads its fork heads with it; prepared_reads.go); "" without an
// owning DB or on Postgres.
func (s *RepoStore) byIDsText() string {
	d := s.c.owner
	if d == nil || d.dialect != DialectSQLite {
		return ""
	}
	return d.stmts.text(reposByIDsKey{}, func() string {
		return selectRepos(d.read, (*repoOwnerRow)(nil)).
			Where("repo.id IN ?", bun.Safe("(SELECT value FROM json_each(?))")).String()
	})
}
