package sqlstore

import (
	"context"
	"strings"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/domain/user"
)

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
