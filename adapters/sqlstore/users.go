package sqlstore

import (
	"context"
	"strings"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

var _ ports.UserStore = (*UserStore)(nil)

// UserStore is the SQL implementation of ports.UserStore.
type UserStore struct{ c conn }

var (
	userMapping     = mapping{op: "user", notFound: "user does not exist", conflict: "user already exists"}
	redirectMapping = mapping{op: "user redirect", notFound: "user redirect does not exist", missingRef: "user does not exist"}
)

// Create inserts u and sets u.ID.
func (s *UserStore) Create(ctx context.Context, u *user.User) error {
	row := toUserRow(u)
	row.ID = 0
	if _, err := s.c.w(ctx).NewInsert().Model(row).Returning("id").Exec(ctx); err != nil {
		return userMapping.mapErr(err)
	}
	u.ID = row.ID
	return nil
}

// Update writes every column of u.
func (s *UserStore) Update(ctx context.Context, u *user.User) error {
	res, err := s.c.w(ctx).NewUpdate().Model(toUserRow(u)).WherePK().ExcludeColumn(accountCounters...).Exec(ctx)
	return userMapping.affected(res, err)
}

// Delete removes the user in one transaction. The foreign keys cascade to its
// e-mails, tokens, redirects, collaborations, stars, watches and follows; the
// star and watcher counters of the repositories it starred or watched, and
// the follow counters of the accounts it followed or was followed by, are
// recounted.
// The repositories' owner reference does not cascade, so a user who still
// owns repositories is a conflict.
func (s *UserStore) Delete(ctx context.Context, id int64) error {
	return s.c.atomic(ctx, func(ctx context.Context, tx bun.IDB) error {
		var repoIDs []int64
		err := tx.NewRaw("SELECT repo_id FROM stars WHERE user_id = ? UNION SELECT repo_id FROM watches WHERE user_id = ?", id, id).
			Scan(ctx, &repoIDs)
		if err != nil {
			return userMapping.mapErr(err)
		}
		// The counters' rows are locked before the user's, as starring locks
		// them before it checks the user, so the two cannot deadlock.
		if err := lockRows(ctx, tx, "repos", repoIDs); err != nil {
			return userMapping.mapErr(err)
		}
		partners, err := followPartners(ctx, tx, id)
		if err != nil {
			return err
		}
		res, err := tx.NewDelete().Model((*userRow)(nil)).Where("id = ?", id).Exec(ctx)
		if err != nil && violationOf(err) == foreignKeyViolation {
			return errs.Conflict("user still owns repositories")
		}
		if err := userMapping.affected(res, err); err != nil {
			return err
		}
		if err := recountFollows(ctx, tx, partners); err != nil {
			return err
		}
		return recountSocial(ctx, tx, repoIDs)
	})
}

// GetByID finds a user by id with one primary-key lookup.
func (s *UserStore) GetByID(ctx context.Context, id int64) (*user.User, error) {
	row := new(userRow)
	var err error
	if ps := s.c.hotStmt(ctx, hotUserByID); ps != nil {
		err = s.c.scanHotUser(ctx, ps, row, id)
	} else {
		err = s.c.r(ctx).NewSelect().Model(row).Where("u.id = ?", id).Scan(ctx)
	}
	if err != nil {
		return nil, userMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// GetByName finds a user by name, case-insensitively, through the unique
// lower_name index.
func (s *UserStore) GetByName(ctx context.Context, name string) (*user.User, error) {
	row := new(userRow)
	lower := strings.ToLower(name)
	var err error
	if ps := s.c.hotStmt(ctx, hotUserByName); ps != nil {
		err = s.c.scanHotUser(ctx, ps, row, lower)
	} else {
		err = s.c.r(ctx).NewSelect().Model(row).Where("u.lower_name = ?", lower).Scan(ctx)
	}
	if err != nil {
		return nil, userMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// GetByIDs finds the users with these ids in one query; absent ids are skipped.
func (s *UserStore) GetByIDs(ctx context.Context, ids []int64) ([]*user.User, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	// A page names its accounts once per item (fifty releases of one
	// publisher): each is read once.
	if ids = distinctIDs(ids); len(ids) == 0 {
		return nil, nil
	}
	var rows []userRow
	if ps := s.c.sqliteReadStmt(ctx, s.c.pageTexts(ctx).users); ps != nil {
		var err error
		if rows, err = queryRows(ctx, ps, scanUserRows, idsJSON(ids)); err != nil {
			return nil, userMapping.mapErr(err)
		}
	} else if err := s.c.r(ctx).NewSelect().Model(&rows).Where("u.id IN (?)", bun.In(ids)).Scan(ctx); err != nil {
		return nil, userMapping.mapErr(err)
	}
	out := domainAll(rows, (*userRow).toDomain)
	return out, nil
}

// GetByNames finds the accounts with these names, any case, in one query.
func (s *UserStore) GetByNames(ctx context.Context, names []string) ([]*user.User, error) {
	if len(names) == 0 {
		return nil, nil
	}
	lower := make([]string, len(names))
	for i, n := range names {
		lower[i] = strings.ToLower(n)
	}
	var rows []userRow
	if err := s.c.r(ctx).NewSelect().Model(&rows).Where("u.lower_name IN (?)", bun.In(lower)).Order("u.id").Scan(ctx); err != nil {
		return nil, userMapping.mapErr(err)
	}
	return domainAll(rows, (*userRow).toDomain), nil
}

// Search returns one page ordered by id, and the total count matching.
func (s *UserStore) Search(ctx context.Context, q ports.UserSearch) ([]*user.User, int64, error) {
	var rows []userRow
	sel := s.c.r(ctx).NewSelect().Model(&rows).Where("u.kind = ?", int(q.Kind))
	if kw := strings.ToLower(strings.TrimSpace(q.Keyword)); kw != "" {
		pat := likeContains(kw)
		sel = sel.Where("(u.lower_name LIKE ? ESCAPE '!' OR lower(u.full_name) LIKE ? ESCAPE '!')", pat, pat)
	}
	if q.UID != 0 {
		sel = sel.Where("u.id = ?", q.UID)
	}
	if q.LoginName != "" {
		sel = sel.Where("u.lower_name = ?", strings.ToLower(q.LoginName))
	}
	if len(q.Visibilities) > 0 {
		vis := make([]string, len(q.Visibilities))
		for i, v := range q.Visibilities {
			vis[i] = string(v)
		}
		if q.IncludeUserID != 0 {
			sel = sel.Where("(u.visibility IN (?) OR u.id = ?)", bun.List(vis), q.IncludeUserID)
		} else {
			sel = sel.Where("u.visibility IN (?)", bun.List(vis))
		}
	}
	sel = page(sel.Order("u.id ASC"), q.ListOptions)
	total, err := sel.ScanAndCount(ctx)
	if err != nil {
		return nil, 0, userMapping.mapErr(err)
	}
	out := domainAll(rows, (*userRow).toDomain)
	return out, total, nil
}

// Count returns how many accounts of any kind exist.
func (s *UserStore) Count(ctx context.Context) (int64, error) {
	n, err := s.c.r(ctx).NewSelect().Model((*userRow)(nil)).Count(ctx)
	if err != nil {
		return 0, userMapping.mapErr(err)
	}
	return int64(n), nil
}

// AddRedirect records that oldName now means userID. It overwrites an older
// redirect of the same name, so a name given up twice points at the latest.
func (s *UserStore) AddRedirect(ctx context.Context, oldName string, userID int64) error {
	row := &redirectRow{LowerName: strings.ToLower(oldName), UserID: userID}
	_, err := s.c.w(ctx).NewInsert().Model(row).
		On("CONFLICT (lower_name) DO UPDATE").Set("user_id = EXCLUDED.user_id").
		Exec(ctx)
	return redirectMapping.mapErr(err)
}

// LookupRedirect returns the user id an old name points at.
func (s *UserStore) LookupRedirect(ctx context.Context, oldName string) (int64, error) {
	var id int64
	err := s.c.r(ctx).NewSelect().Model((*redirectRow)(nil)).Column("user_id").
		Where("r.lower_name = ?", strings.ToLower(oldName)).Scan(ctx, &id)
	if err != nil {
		return 0, redirectMapping.mapErr(err)
	}
	return id, nil
}

// DeleteRedirect forgets an old name. Forgetting one that is not there is not
// an error: callers do it before taking a name, whether or not it redirects.
func (s *UserStore) DeleteRedirect(ctx context.Context, oldName string) error {
	_, err := s.c.w(ctx).NewDelete().Model((*redirectRow)(nil)).
		Where("lower_name = ?", strings.ToLower(oldName)).Exec(ctx)
	return redirectMapping.mapErr(err)
}

// likeContains builds a LIKE pattern matching s anywhere, with LIKE's own
// wildcards in s taken literally. '!' is the escape rather than a backslash,
// whose meaning in string literals differs between the dialects.
func likeContains(s string) string {
	r := strings.NewReplacer("!", "!!", "%", "!%", "_", "!_")
	return "%" + r.Replace(s) + "%"
}

// page applies a page request in SQL. A non-positive limit means no paging,
// which only internal callers use.
func page(q *bun.SelectQuery, o ports.ListOptions) *bun.SelectQuery {
	if o.Limit <= 0 {
		return q
	}
	return q.Limit(int64(o.Limit)).Offset(int64(o.Offset()))
}
