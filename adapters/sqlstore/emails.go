package sqlstore

import (
	"context"
	"strings"

	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
	"github.com/uptrace/bun"
)

var _ ports.EmailStore = (*EmailStore)(nil)

// EmailStore is the SQL implementation of ports.EmailStore.
type EmailStore struct{ c conn }

var emailMapping = mapping{
	op: "email", notFound: "email does not exist", conflict: "email already in use", missingRef: "user does not exist",
}

// Add inserts e and sets e.ID. The address is unique site-wide through the
// lower_email index, whoever owns it.
func (s *EmailStore) Add(ctx context.Context, e *user.Email) error {
	row := toEmailRow(e)
	row.ID = 0
	if _, err := s.c.w(ctx).NewInsert().Model(row).Returning("id").Exec(ctx); err != nil {
		return emailMapping.mapErr(err)
	}
	e.ID, e.LowerEmail = row.ID, row.LowerEmail
	return nil
}

// ListByUser returns the user's addresses in the order they were added.
func (s *EmailStore) ListByUser(ctx context.Context, userID int64) ([]*user.Email, error) {
	var rows []emailRow
	err := s.c.r(ctx).NewSelect().Model(&rows).Where("e.user_id = ?", userID).Order("e.id ASC").Scan(ctx)
	if err != nil {
		return nil, emailMapping.mapErr(err)
	}
	out := domainAll(rows, (*emailRow).toDomain)
	return out, nil
}

// GetByEmail finds an address of any user, case-insensitively.
func (s *EmailStore) GetByEmail(ctx context.Context, addr string) (*user.Email, error) {
	row := new(emailRow)
	if err := s.c.r(ctx).NewSelect().Model(row).Where("e.lower_email = ?", strings.ToLower(addr)).Scan(ctx); err != nil {
		return nil, emailMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// Delete removes one of the user's addresses; another user's address of the
// same spelling is not found rather than deleted.
func (s *EmailStore) Delete(ctx context.Context, userID int64, addr string) error {
	res, err := s.c.w(ctx).NewDelete().Model((*emailRow)(nil)).
		Where("user_id = ?", userID).Where("lower_email = ?", strings.ToLower(addr)).
		Exec(ctx)
	return emailMapping.affected(res, err)
}

// SetPrimary marks addr as the user's only primary address in one statement,
// so no reader ever sees the user with two primaries or none. The EXISTS
// guard leaves the flags alone when the user has no such address.
func (s *EmailStore) SetPrimary(ctx context.Context, userID int64, addr string) error {
	lower := strings.ToLower(addr)
	res, err := s.c.w(ctx).NewUpdate().Model((*emailRow)(nil)).
		Set("is_primary = (lower_email = ?)", lower).
		Where("user_id = ?", userID).
		Where("EXISTS (SELECT 1 FROM emails AS x WHERE x.user_id = ? AND x.lower_email = ?)", userID, lower).
		Exec(ctx)
	return emailMapping.affected(res, err)
}

// Search lists addresses whose address, owner name or owner full name
// contains keyword, with the owner's name joined in, one page ordered by id.
func (s *EmailStore) Search(ctx context.Context, keyword string, opts ports.ListOptions) ([]*user.EmailOwner, int64, error) {
	var rows []emailOwnerRow
	sel := s.c.r(ctx).NewSelect().Model(&rows).
		ColumnExpr("e.*").ColumnExpr("u.name AS user_name").
		Join("JOIN users AS u ON u.id = e.user_id")
	if kw := strings.ToLower(strings.TrimSpace(keyword)); kw != "" {
		pat := likeContains(kw)
		sel = sel.Where("(e.lower_email LIKE ? ESCAPE '!' OR u.lower_name LIKE ? ESCAPE '!' OR lower(u.full_name) LIKE ? ESCAPE '!')",
			pat, pat, pat)
	}
	sel = page(sel.Order("e.id ASC"), opts)
	total, err := sel.ScanAndCount(ctx)
	if err != nil {
		return nil, 0, emailMapping.mapErr(err)
	}
	out := make([]*user.EmailOwner, len(rows))
	for i := range rows {
		out[i] = &user.EmailOwner{Email: *rows[i].toDomain(), UserName: rows[i].UserName}
	}
	return out, total, nil
}

// userByEmailRow is a user joined with the address that matched.
type userByEmailRow struct {
	userRow `bun:",extend"`

	MatchedEmail string `bun:"matched_email,scanonly"`
}

// UsersByEmails finds the owners of activated addresses in one query, keyed
// by the lower-case address.
func (s *EmailStore) UsersByEmails(ctx context.Context, addrs []string) (map[string]*user.User, error) {
	out := map[string]*user.User{}
	seen := map[string]bool{}
	lowers := make([]string, 0, len(addrs))
	for _, a := range addrs {
		l := strings.ToLower(a)
		if l == "" || seen[l] {
			continue
		}
		seen[l] = true
		lowers = append(lowers, l)
	}
	if len(lowers) == 0 {
		return out, nil
	}
	var rows []userByEmailRow
	err := s.c.r(ctx).NewSelect().Model(&rows).
		ColumnExpr("u.*").ColumnExpr("e.lower_email AS matched_email").
		Join("JOIN emails AS e ON e.user_id = u.id").
		Where("e.lower_email IN (?)", bun.In(lowers)).
		Where("e.activated = ?", true).
		Scan(ctx)
	if err != nil {
		return nil, emailMapping.mapErr(err)
	}
	byID := map[int64]*user.User{}
	for i := range rows {
		u := byID[rows[i].ID]
		if u == nil {
			u = rows[i].toDomain()
			byID[u.ID] = u
		}
		out[rows[i].MatchedEmail] = u
	}
	return out, nil
}
