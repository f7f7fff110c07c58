package sqlstore

import (
	"context"
	"fmt"
	"strconv"
	"strings"
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

var _ ports.SiteObjectCounter = (*DB)(nil)

// SiteObjects counts the site's objects in one statement on the read pool
// (each count walks a primary key or an index).
func (d *DB) SiteObjects(ctx context.Context) (ports.SiteObjects, error) {
	var o ports.SiteObjects
	count := func(table, where string) string {
		q := "(SELECT count(*) FROM " + table
		if where != "" {
			q += " WHERE " + where
		}
		return q + ")"
	}
	cols := []string{
		count("users", "kind = "+strconv.Itoa(int(user.KindIndividual))),
		count("users", "kind = "+strconv.Itoa(int(user.KindOrganization))), count("teams", ""),
		count("repos", ""), count("repos", "is_mirror"),
		count("issues", "NOT is_pull"), count("issues", "NOT is_pull AND NOT is_closed"),
		count("issues", "NOT is_pull AND is_closed"), count("issues", "is_pull"),
		count("comments", ""), count("labels", ""), count("milestones", ""), count("releases", ""),
		count("stars", ""), count("watches", ""), count("follows", ""),
		count("webhooks", ""), count("hook_deliveries", ""), count("public_keys", ""), count("oauth2_applications", ""),
		count("attachments", ""), count("activities", ""),
	}
	err := d.read.QueryRowContext(ctx, "SELECT "+strings.Join(cols, ", ")).Scan(
		&o.Users, &o.Organizations, &o.Teams, &o.Repositories, &o.Mirrors,
		&o.Issues, &o.IssuesOpen, &o.IssuesClosed, &o.PullRequests,
		&o.Comments, &o.Labels, &o.Milestones, &o.Releases, &o.Stars, &o.Watches, &o.Follows,
		&o.Webhooks, &o.HookTasks, &o.PublicKeys, &o.OAuthApps, &o.Attachments, &o.Actions)
	if err != nil {
		return o, fmt.Errorf("sqlstore: counting the site's objects: %w", err)
	}
	return o, nil
}
