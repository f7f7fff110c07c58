package sqlstore

import (
	"context"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"

	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// PageRecords loads the labels, assignees, own attachments, milestones,
// posters and assignees of a page of issues, and the accounts of
// opt.MoreUsers: one query per kind, whatever the page's length. On SQLite the statements are prepared once (see
// sqliteReadStmt); on Postgres they are the stores' own batch reads.
func (st *IssueStore) PageRecords(ctx context.Context, list []*issue.Issue, opt ports.IssuePageOptions) (*ports.IssuePageRecords, error) {
	out := &ports.IssuePageRecords{
		Labels: map[int64][]*issue.Label{}, Assignees: map[int64][]int64{},
		Attachments: map[int64][]*issue.Attachment{}, Milestones: map[int64]*issue.Milestone{},
		Users: map[int64]*user.User{},
	}
	if len(list) == 0 {
		return out, nil
	}
	ids := make([]int64, len(list))
	var milestoneIDs []int64
	userIDs := append(make([]int64, 0, len(list)+len(opt.MoreUsers)), opt.MoreUsers...)
	for k, i := range list {
		ids[k] = i.ID
		userIDs = append(userIDs, i.PosterID)
		if i.MilestoneID != 0 {
			milestoneIDs = append(milestoneIDs, i.MilestoneID)
		}
	}
	if st.c.r(ctx).Dialect().Name() == dialect.PG {
		return out, st.pageRecordsPG(ctx, out, ids, distinctIDs(milestoneIDs), userIDs, !opt.NoAttachments)
	}
	t := st.c.pageTexts(ctx)
	var labels []labelOfIssueRow
	if err := st.pageQuery(ctx, t.labels, &labels, ids); err != nil {
		return nil, issueLabelMapping.mapErr(err)
	}
	for k := range labels {
		out.Labels[labels[k].IssueID] = append(out.Labels[labels[k].IssueID], labels[k].labelRow.toDomain())
	}
	var assignees []issueAssigneeRow
	if err := st.pageQuery(ctx, t.assignees, &assignees, ids); err != nil {
		return nil, issueMapping.mapErr(err)
	}
	for _, a := range assignees {
		out.Assignees[a.IssueID] = append(out.Assignees[a.IssueID], a.UserID)
		userIDs = append(userIDs, a.UserID)
	}
	if !opt.NoAttachments {
		var files []attachmentRow
		if err := st.pageQuery(ctx, t.attachments, &files, ids); err != nil {
			return nil, attachmentMapping.mapErr(err)
		}
		for k := range files {
			out.Attachments[files[k].IssueID] = append(out.Attachments[files[k].IssueID], files[k].toDomain())
		}
	}
	if len(milestoneIDs) > 0 {
		var ms []milestoneRow
		if err := st.pageQuery(ctx, t.milestones, &ms, distinctIDs(milestoneIDs)); err != nil {
			return nil, milestoneMapping.mapErr(err)
		}
		for k := range ms {
			out.Milestones[ms[k].ID] = ms[k].toDomain()
		}
	}
	users, err := st.pageUsers(ctx, t.users, distinctIDs(userIDs))
	if err != nil {
		return nil, userMapping.mapErr(err)
	}
	for k := range users {
		u := users[k].toDomain()
		out.Users[u.ID] = u
	}
	return out, nil
}

// pageQuery runs one of the page records' SQLite statements over ids:
// prepared outside a transaction, inlined by bun inside one.
func (st *IssueStore) pageQuery(ctx context.Context, text string, dest any, ids []int64) error {
	arg := idsJSON(ids)
	if ps := st.c.sqliteReadStmt(ctx, text); ps != nil {
		return st.c.scanAll(ctx, ps, dest, arg)
	}
	return st.c.r(ctx).NewRaw(text, arg).Scan(ctx, dest)
}

// pageUsers runs the page records' account statement (userColumns) over
// ids, prepared or inlined as pageQuery does, scanned by scanUserRows.
func (st *IssueStore) pageUsers(ctx context.Context, text string, ids []int64) ([]userRow, error) {
	arg := idsJSON(ids)
	if ps := st.c.sqliteReadStmt(ctx, text); ps != nil {
		return queryRows(ctx, ps, scanUserRows, arg)
	}
	res, err := st.c.r(ctx).QueryContext(ctx, text, arg) // bun fills the placeholder
	if err != nil {
		return nil, err
	}
	return scanUserRows(res)
}

// pageRecordsPG fills out through the stores' batch reads.
func (st *IssueStore) pageRecordsPG(ctx context.Context, out *ports.IssuePageRecords, ids, milestoneIDs, userIDs []int64,
	attachments bool) error {
	var err error
	if out.Labels, err = (&LabelStore{c: st.c}).OfIssues(ctx, ids); err != nil {
		return err
	}
	if out.Assignees, err = st.Assignees(ctx, ids); err != nil {
		return err
	}
	for _, list := range out.Assignees {
		userIDs = append(userIDs, list...)
	}
	if attachments {
		var files []attachmentRow
		if err := st.c.r(ctx).NewSelect().Model(&files).Where("at.issue_id IN (?)", bun.In(ids)).
			Where("at.comment_id = 0").Order("at.id ASC").Scan(ctx); err != nil {
			return attachmentMapping.mapErr(err)
		}
		for k := range files {
			out.Attachments[files[k].IssueID] = append(out.Attachments[files[k].IssueID], files[k].toDomain())
		}
	}
	ms, err := (&MilestoneStore{c: st.c}).GetByIDs(ctx, milestoneIDs)
	if err != nil {
		return err
	}
	for _, m := range ms {
		out.Milestones[m.ID] = m
	}
	us, err := (&UserStore{c: st.c}).GetByIDs(ctx, distinctIDs(userIDs))
	if err != nil {
		return err
	}
	for _, u := range us {
		out.Users[u.ID] = u
	}
	return nil
}

// distinctIDs drops zeros and repeats, keeping the first occurrence's order.
func distinctIDs(ids []int64) []int64 {
	seen := make(map[int64]bool, len(ids))
	out := make([]int64, 0, len(ids))
	for _, id := range ids {
		if id != 0 && !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}
