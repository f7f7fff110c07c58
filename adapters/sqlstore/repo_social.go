package sqlstore

import (
	"context"
	"errors"
	"sort"
	"strings"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"
	"github.com/uptrace/bun/driver/pgdriver"
	"modernc.org/sqlite"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

var (
	_ ports.CollaboratorStore = (*CollaboratorStore)(nil)
	_ ports.StarStore         = (*StarStore)(nil)
	_ ports.WatchStore        = (*WatchStore)(nil)
	_ ports.TransferStore     = (*TransferStore)(nil)
	_ ports.DeployKeyStore    = (*DeployKeyStore)(nil)
	_ ports.TopicStore        = (*TopicStore)(nil)
)

var (
	collaboratorMapping = mapping{
		op: "collaborator", notFound: "collaborator does not exist", missingRef: "repository or user does not exist",
	}
	starMapping  = mapping{op: "star", missingRef: "repository or user does not exist"}
	watchMapping = mapping{
		op: "watch", notFound: "watch does not exist", missingRef: "repository or user does not exist",
	}
	transferMapping = mapping{
		op: "repository transfer", notFound: "no pending transfer", missingRef: "repository or user does not exist",
	}
	deployKeyMapping = mapping{
		op: "deploy key", notFound: "deploy key does not exist", conflict: "deploy key already exists",
		missingRef: "repository does not exist",
	}
	topicMapping = mapping{op: "topic", missingRef: "repository does not exist"}
)

// now is the creation time of rows whose port methods take none (stars,
// watches, collaborations), at the precision both backends keep.
func now() time.Time { return dbTime(time.Now()) }

// CollaboratorStore is the SQL implementation of ports.CollaboratorStore.
type CollaboratorStore struct{ c conn }

// Set adds a collaborator or changes its mode in one upsert.
func (s *CollaboratorStore) Set(ctx context.Context, c repository.Collaborator) error {
	t := now()
	row := &collaborationRow{RepoID: c.RepoID, UserID: c.UserID, Mode: int(c.Mode), Created: t, Updated: t}
	_, err := s.c.w(ctx).NewInsert().Model(row).
		On("CONFLICT (repo_id, user_id) DO UPDATE").
		Set("mode = EXCLUDED.mode").Set("updated = EXCLUDED.updated").
		Exec(ctx)
	return collaboratorMapping.mapErr(err)
}

// Remove drops a collaborator; errs.ErrNotFound when it was none.
func (s *CollaboratorStore) Remove(ctx context.Context, repoID, userID int64) error {
	res, err := s.c.w(ctx).NewDelete().Model((*collaborationRow)(nil)).
		Where("repo_id = ?", repoID).Where("user_id = ?", userID).Exec(ctx)
	return collaboratorMapping.affected(res, err)
}

// Get returns one collaboration.
func (s *CollaboratorStore) Get(ctx context.Context, repoID, userID int64) (*repository.Collaborator, error) {
	row := new(collaborationRow)
	err := s.c.r(ctx).NewSelect().Model(row).Where("c.repo_id = ?", repoID).Where("c.user_id = ?", userID).Scan(ctx)
	if err != nil {
		return nil, collaboratorMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// List returns one page of collaborators with their accounts, ordered by
// user name, and the total, joining users in the same query.
func (s *CollaboratorStore) List(ctx context.Context, repoID int64, opts ports.ListOptions) ([]ports.CollaboratorUser, int64, error) {
	var rows []collaboratorUserRow
	sel := s.c.r(ctx).NewSelect().Model(&rows).
		ColumnExpr("u.*").ColumnExpr("c.mode AS collab_mode").
		Join("JOIN collaborations AS c ON c.user_id = u.id").
		Where("c.repo_id = ?", repoID).
		OrderExpr("u.lower_name ASC")
	total, err := page(sel, opts).ScanAndCount(ctx)
	if err != nil {
		return nil, 0, collaboratorMapping.mapErr(err)
	}
	out := make([]ports.CollaboratorUser, len(rows))
	for i := range rows {
		out[i] = ports.CollaboratorUser{User: rows[i].userRow.toDomain(), Mode: permission.AccessMode(rows[i].CollabMode)}
	}
	return out, total, nil
}

// StarStore is the SQL implementation of ports.StarStore.
type StarStore struct{ c conn }

// Star records userID's star and recounts the repository's stars in the
// same transaction; starring twice changes nothing.
func (s *StarStore) Star(ctx context.Context, userID, repoID int64) error {
	return s.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		if err := lockRows(ctx, tx, "repos", []int64{repoID}); err != nil {
			return starMapping.mapErr(err)
		}
		row := &starRow{UserID: userID, RepoID: repoID, Created: now()}
		if _, err := tx.NewInsert().Model(row).On("CONFLICT DO NOTHING").Exec(ctx); err != nil {
			return starMapping.mapErr(err)
		}
		if err := recount(ctx, tx, recountStarsSQL, repoID); err != nil {
			return err
		}
		return recountUser(ctx, tx, recountUserStarsSQL, userID)
	})
}

// Unstar removes userID's star, if any, and recounts the repository's stars.
func (s *StarStore) Unstar(ctx context.Context, userID, repoID int64) error {
	return s.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		if err := lockRows(ctx, tx, "repos", []int64{repoID}); err != nil {
			return starMapping.mapErr(err)
		}
		_, err := tx.NewDelete().Model((*starRow)(nil)).Where("user_id = ?", userID).Where("repo_id = ?", repoID).Exec(ctx)
		if err != nil {
			return starMapping.mapErr(err)
		}
		if err := recount(ctx, tx, recountStarsSQL, repoID); err != nil {
			return err
		}
		return recountUser(ctx, tx, recountUserStarsSQL, userID)
	})
}

// IsStarred reports whether userID starred the repository.
func (s *StarStore) IsStarred(ctx context.Context, userID, repoID int64) (bool, error) {
	ok, err := s.c.r(ctx).NewSelect().Model((*starRow)(nil)).
		Where("s.user_id = ?", userID).Where("s.repo_id = ?", repoID).Exists(ctx)
	if err != nil {
		return false, starMapping.mapErr(err)
	}
	return ok, nil
}

// Stargazers lists one page of the users who starred the repository, the
// earliest first, and the total.
func (s *StarStore) Stargazers(ctx context.Context, repoID int64, opts ports.ListOptions) ([]*user.User, int64, error) {
	var rows []userRow
	sel := s.c.r(ctx).NewSelect().Model(&rows).
		Join("JOIN stars AS s ON s.user_id = u.id").
		Where("s.repo_id = ?", repoID).
		OrderExpr("s.created ASC").OrderExpr("u.id ASC")
	total, err := page(sel, opts).ScanAndCount(ctx)
	if err != nil {
		return nil, 0, starMapping.mapErr(err)
	}
	return usersToDomain(rows), total, nil
}

// WatchStore is the SQL implementation of ports.WatchStore.
type WatchStore struct{ c conn }

// Watch subscribes userID in the normal mode (turning a "don't watch" into a
// watch) and recounts the repository's watchers in the same transaction.
func (s *WatchStore) Watch(ctx context.Context, userID, repoID int64) error {
	return s.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		if err := lockRows(ctx, tx, "repos", []int64{repoID}); err != nil {
			return watchMapping.mapErr(err)
		}
		row := &watchRow{UserID: userID, RepoID: repoID, Mode: repository.WatchNormal, Created: now()}
		_, err := tx.NewInsert().Model(row).
			On("CONFLICT (user_id, repo_id) DO UPDATE").Set("mode = EXCLUDED.mode").
			Exec(ctx)
		if err != nil {
			return watchMapping.mapErr(err)
		}
		return recount(ctx, tx, recountWatchesSQL, repoID)
	})
}

// Unwatch removes userID's watch, if any, and recounts the watchers.
func (s *WatchStore) Unwatch(ctx context.Context, userID, repoID int64) error {
	return s.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		if err := lockRows(ctx, tx, "repos", []int64{repoID}); err != nil {
			return watchMapping.mapErr(err)
		}
		_, err := tx.NewDelete().Model((*watchRow)(nil)).Where("user_id = ?", userID).Where("repo_id = ?", repoID).Exec(ctx)
		if err != nil {
			return watchMapping.mapErr(err)
		}
		return recount(ctx, tx, recountWatchesSQL, repoID)
	})
}

// Get returns userID's watch of the repository, whatever its mode.
func (s *WatchStore) Get(ctx context.Context, userID, repoID int64) (*ports.Watch, error) {
	row := new(watchRow)
	err := s.c.r(ctx).NewSelect().Model(row).Where("w.user_id = ?", userID).Where("w.repo_id = ?", repoID).Scan(ctx)
	if err != nil {
		return nil, watchMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// Watchers lists one page of the users watching the repository (normal or
// automatic watches), the earliest first, and the total.
func (s *WatchStore) Watchers(ctx context.Context, repoID int64, opts ports.ListOptions) ([]*user.User, int64, error) {
	var rows []userRow
	sel := s.c.r(ctx).NewSelect().Model(&rows).
		Join("JOIN watches AS w ON w.user_id = u.id").
		Where("w.repo_id = ?", repoID).
		Where("w.mode IN (?)", bun.List([]int{repository.WatchNormal, repository.WatchAuto})).
		OrderExpr("w.created ASC").OrderExpr("u.id ASC")
	total, err := page(sel, opts).ScanAndCount(ctx)
	if err != nil {
		return nil, 0, watchMapping.mapErr(err)
	}
	return usersToDomain(rows), total, nil
}

// TransferStore is the SQL implementation of ports.TransferStore.
type TransferStore struct{ c conn }

// Create records an offer, replacing any earlier one for the repository.
func (s *TransferStore) Create(ctx context.Context, t *repository.Transfer) error {
	_, err := s.c.w(ctx).NewInsert().Model(toTransferRow(t)).
		On("CONFLICT (repo_id) DO UPDATE").
		Set("doer_id = EXCLUDED.doer_id").Set("recipient_id = EXCLUDED.recipient_id").Set("created = EXCLUDED.created").
		Exec(ctx)
	return transferMapping.mapErr(err)
}

// Get returns the repository's pending transfer.
func (s *TransferStore) Get(ctx context.Context, repoID int64) (*repository.Transfer, error) {
	row := new(transferRow)
	if err := s.c.r(ctx).NewSelect().Model(row).Where("tr.repo_id = ?", repoID).Scan(ctx); err != nil {
		return nil, transferMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// Delete drops the repository's pending transfer.
func (s *TransferStore) Delete(ctx context.Context, repoID int64) error {
	res, err := s.c.w(ctx).NewDelete().Model((*transferRow)(nil)).Where("repo_id = ?", repoID).Exec(ctx)
	return transferMapping.affected(res, err)
}

// The single-counter recounts of the social stores. Watchers are the normal
// (1) and automatic (3) watches.
const (
	recountStarsSQL = `UPDATE repos SET
	num_stars = (SELECT count(*) FROM stars WHERE stars.repo_id = repos.id)
	WHERE repos.id = ?`
	recountUserStarsSQL = `UPDATE users SET
	num_stars = (SELECT count(*) FROM stars WHERE stars.user_id = users.id)
	WHERE users.id = ?`
	recountWatchesSQL = `UPDATE repos SET
	num_watches = (SELECT count(*) FROM watches WHERE watches.repo_id = repos.id AND watches.mode IN (1, 3))
	WHERE repos.id = ?`
)

// recountUser runs a recount of one user's counter.
func recountUser(ctx context.Context, tx bun.IDB, query string, userID int64) error {
	_, err := tx.ExecContext(ctx, query, userID)
	return starMapping.mapErr(err)
}

func recount(ctx context.Context, tx bun.IDB, query string, repoID int64) error {
	_, err := tx.ExecContext(ctx, query, repoID)
	return repoMapping.mapErr(err)
}

// lockRows locks the rows a recount is about to derive from, in id order.
// On Postgres, under read committed, two transactions that each insert a
// child row and then recount by subquery would otherwise both count from a
// snapshot missing the other's row, and the last write would lose one.
// Taking the parent's lock first makes the later recount see the earlier
// commit. SQLite has a single writer, so there is nothing to lock.
func lockRows(ctx context.Context, tx bun.IDB, table string, ids []int64) error {
	if len(ids) == 0 || tx.Dialect().Name() != dialect.PG {
		return nil
	}
	_, err := tx.ExecContext(ctx, "SELECT id FROM ? WHERE id IN (?) ORDER BY id FOR UPDATE", bun.Ident(table), bun.List(ids))
	return err
}

// DeployKeyStore is the SQL implementation of ports.DeployKeyStore.
type DeployKeyStore struct{ c conn }

// Create inserts k and sets k.ID. A title or fingerprint already used on the
// repository is a conflict, told apart by the constraint that refused it.
func (s *DeployKeyStore) Create(ctx context.Context, k *repository.DeployKey) error {
	row := toDeployKeyRow(k)
	row.ID = 0
	if _, err := s.c.w(ctx).NewInsert().Model(row).Returning("id").Exec(ctx); err != nil {
		if violationOf(err) == uniqueViolation && uniqueOn(err, "deploy_keys_repo_title", "deploy_keys.title") {
			return errs.Conflict("a deploy key with this title already exists")
		}
		return deployKeyMapping.mapErr(err)
	}
	k.ID = row.ID
	return nil
}

// uniqueOn reports whether a unique violation is of the named constraint
// (Postgres) or of a constraint covering table.column (SQLite, whose error
// names the columns instead).
func uniqueOn(err error, constraint, tableColumn string) bool {
	var pe pgdriver.Error
	if errors.As(err, &pe) {
		return pe.Field('n') == constraint
	}
	var le *sqlite.Error
	if errors.As(err, &le) {
		return strings.Contains(le.Error(), tableColumn)
	}
	return false
}

// Get returns one of the repository's keys; another repository's is not found.
func (s *DeployKeyStore) Get(ctx context.Context, repoID, id int64) (*repository.DeployKey, error) {
	row := new(deployKeyRow)
	err := s.c.r(ctx).NewSelect().Model(row).Where("dk.repo_id = ?", repoID).Where("dk.id = ?", id).Scan(ctx)
	if err != nil {
		return nil, deployKeyMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// List returns one page of the repository's keys ordered by id, and the
// total; a non-empty fingerprint keeps only that key.
func (s *DeployKeyStore) List(ctx context.Context, repoID int64, fingerprint string, opts ports.ListOptions) ([]*repository.DeployKey, int64, error) {
	var rows []deployKeyRow
	sel := s.c.r(ctx).NewSelect().Model(&rows).Where("dk.repo_id = ?", repoID)
	if fingerprint != "" {
		sel = sel.Where("dk.fingerprint = ?", fingerprint)
	}
	total, err := page(sel.OrderExpr("dk.id ASC"), opts).ScanAndCount(ctx)
	if err != nil {
		return nil, 0, deployKeyMapping.mapErr(err)
	}
	out := domainAll(rows, (*deployKeyRow).toDomain)
	return out, total, nil
}

// GetByFingerprint finds the repository's key with this fingerprint through
// the (repo_id, fingerprint) unique index.
func (s *DeployKeyStore) GetByFingerprint(ctx context.Context, repoID int64, fingerprint string) (*repository.DeployKey, error) {
	row := new(deployKeyRow)
	err := s.c.r(ctx).NewSelect().Model(row).Where("dk.repo_id = ?", repoID).Where("dk.fingerprint = ?", fingerprint).Scan(ctx)
	if err != nil {
		return nil, deployKeyMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// FingerprintInUse reports whether any repository has a deploy key with
// this fingerprint.
func (s *DeployKeyStore) FingerprintInUse(ctx context.Context, fingerprint string) (bool, error) {
	ok, err := s.c.r(ctx).NewSelect().Model((*deployKeyRow)(nil)).Where("dk.fingerprint = ?", fingerprint).Exists(ctx)
	if err != nil {
		return false, deployKeyMapping.mapErr(err)
	}
	return ok, nil
}

// Delete removes one of the repository's keys.
func (s *DeployKeyStore) Delete(ctx context.Context, repoID, id int64) error {
	res, err := s.c.w(ctx).NewDelete().Model((*deployKeyRow)(nil)).Where("repo_id = ?", repoID).Where("id = ?", id).Exec(ctx)
	return deployKeyMapping.affected(res, err)
}

// TopicStore is the SQL implementation of ports.TopicStore.
type TopicStore struct{ c conn }

// Replace sets the repository's topics in one transaction: it creates the
// topics not seen before, swaps the repository's links, recounts every
// topic it gained or lost, and rewrites the repository's topics column that
// reads use. Topics are normalised, de-duplicated and sorted on the way in;
// validating them is the caller's job.
func (s *TopicStore) Replace(ctx context.Context, repoID int64, topics []string) error {
	names := normalizeTopicNames(topics)
	return s.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		// Writing the column first also locks the repository, so two
		// replacements of one repository's topics run one after the other.
		res, err := tx.NewUpdate().Model((*repoRow)(nil)).Set("topics = ?", strings.Join(names, ",")).
			Where("id = ?", repoID).Exec(ctx)
		if err := repoMapping.affected(res, err); err != nil {
			return err
		}
		var affected []int64
		err = tx.NewSelect().Model((*repoTopicRow)(nil)).Column("topic_id").Where("rt.repo_id = ?", repoID).Scan(ctx, &affected)
		if err != nil {
			return topicMapping.mapErr(err)
		}
		var newIDs []int64
		if len(names) > 0 {
			t := now()
			rows := make([]topicRow, len(names))
			for i, n := range names {
				rows[i] = topicRow{Name: n, Created: t, Updated: t}
			}
			// Sorted names make concurrent creators wait for each other in
			// one order rather than deadlock.
			if _, err := tx.NewInsert().Model(&rows).ExcludeColumn("id").On("CONFLICT (name) DO NOTHING").Exec(ctx); err != nil {
				return topicMapping.mapErr(err)
			}
			err = tx.NewSelect().Model((*topicRow)(nil)).Column("id").Where("tp.name IN (?)", bun.List(names)).Scan(ctx, &newIDs)
			if err != nil {
				return topicMapping.mapErr(err)
			}
		}
		affected = append(affected, newIDs...)
		if err := lockRows(ctx, tx, "topics", affected); err != nil {
			return topicMapping.mapErr(err)
		}
		if _, err := tx.NewDelete().Model((*repoTopicRow)(nil)).Where("repo_id = ?", repoID).Exec(ctx); err != nil {
			return topicMapping.mapErr(err)
		}
		if len(newIDs) > 0 {
			links := make([]repoTopicRow, len(newIDs))
			for i, id := range newIDs {
				links[i] = repoTopicRow{RepoID: repoID, TopicID: id}
			}
			if _, err := tx.NewInsert().Model(&links).Exec(ctx); err != nil {
				return topicMapping.mapErr(err)
			}
		}
		return recountTopics(ctx, tx, affected)
	})
}

func normalizeTopicNames(topics []string) []string {
	seen := make(map[string]bool, len(topics))
	names := make([]string, 0, len(topics))
	for _, t := range topics {
		n := repository.NormalizeTopic(t)
		if n == "" || seen[n] {
			continue
		}
		seen[n] = true
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// recountTopics recomputes the repository count of the topics listed from
// their links, in one statement.
func recountTopics(ctx context.Context, tx bun.IDB, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	_, err := tx.NewUpdate().Model((*topicRow)(nil)).
		Set("repo_count = (SELECT count(*) FROM repo_topics AS x WHERE x.topic_id = tp.id)").
		Set("updated = ?", now()).
		Where("tp.id IN (?)", bun.List(ids)).
		Exec(ctx)
	return topicMapping.mapErr(err)
}

// Search lists the topics in use whose name contains keyword (all when it
// is empty), most used first and then by name, one page, and the total.
func (s *TopicStore) Search(ctx context.Context, keyword string, opts ports.ListOptions) ([]ports.TopicCount, int64, error) {
	var rows []topicRow
	sel := s.c.r(ctx).NewSelect().Model(&rows).Where("tp.repo_count > 0")
	if kw := strings.ToLower(strings.TrimSpace(keyword)); kw != "" {
		sel = sel.Where("tp.name LIKE ? ESCAPE '!'", likeContains(kw))
	}
	sel = sel.OrderExpr("tp.repo_count DESC").OrderExpr("tp.name ASC")
	total, err := page(sel, opts).ScanAndCount(ctx)
	if err != nil {
		return nil, 0, topicMapping.mapErr(err)
	}
	out := domainAll(rows, (*topicRow).toDomain)
	return out, total, nil
}
