package sqlstore

import (
	"context"
	"fmt"
	"time"

	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

var _ ports.SiteStatistics = (*DB)(nil)

// SiteUsage counts the site's individuals, the active ones, issues and
// comments (ports.SiteStatistics): four counts on the read pool, which the
// caller keeps for minutes.
func (d *DB) SiteUsage(ctx context.Context, halfyear, month time.Time) (ports.SiteUsage, error) {
	var u ports.SiteUsage
	individuals := func(since time.Time) (int64, error) {
		q := d.read.NewSelect().Model((*userRow)(nil)).Where("u.kind = ?", int(user.KindIndividual))
		if !since.IsZero() {
			q = q.Where("u.last_login >= ?", dbTime(since))
		}
		n, err := q.Count(ctx)
		if err != nil {
			return 0, fmt.Errorf("sqlstore: counting users: %w", err)
		}
		return int64(n), nil
	}
	var err error
	if u.Users, err = individuals(time.Time{}); err != nil {
		return u, err
	}
	if u.ActiveHalfyear, err = individuals(halfyear); err != nil {
		return u, err
	}
	if u.ActiveMonth, err = individuals(month); err != nil {
		return u, err
	}
	n, err := d.read.NewSelect().Table("issues").Count(ctx)
	if err != nil {
		return u, fmt.Errorf("sqlstore: counting issues: %w", err)
	}
	u.Issues = int64(n)
	if n, err = d.read.NewSelect().Table("comments").Count(ctx); err != nil {
		return u, fmt.Errorf("sqlstore: counting comments: %w", err)
	}
	u.Comments = int64(n)
	return u, nil
}
