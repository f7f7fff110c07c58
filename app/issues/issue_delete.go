package issues

import (
	"context"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/ports"
)

// Delete removes an issue with everything hanging on it (the route checked
// RA), recounts its labels and milestone, emits "deleted" and then removes
// its attachment files.
func (s Issues) Delete(ctx context.Context, a *repos.Access, index int64) error {
	i, err := s.Open(ctx, a, index)
	if err != nil {
		return err
	}
	var files []*issue.Attachment
	err = s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		cur, err := tx.Issues.GetByID(ctx, i.ID)
		if err != nil {
			return err
		}
		if files, err = s.issueFiles(ctx, tx, cur); err != nil {
			return err
		}
		labels, err := tx.Labels.OfIssues(ctx, []int64{cur.ID})
		if err != nil {
			return err
		}
		// The event goes first: its payload is built from rows the
		// deletion removes.
		if err := s.emit(ctx, tx, a, cur, ports.IssueEventIssues, "deleted", nil); err != nil {
			return err
		}
		if err := tx.Issues.Delete(ctx, cur.ID); err != nil {
			return err
		}
		if ids := issue.LabelIDs(labels[cur.ID]); len(ids) > 0 {
			if err := tx.Labels.Recount(ctx, ids); err != nil {
				return err
			}
		}
		if cur.MilestoneID != 0 {
			return tx.Milestones.Recount(ctx, []int64{cur.MilestoneID})
		}
		return nil
	})
	if err != nil {
		return err
	}
	s.removeFiles(ctx, files)
	return nil
}

// issueFiles lists the attachments of the issue and of its comments.
func (s Issues) issueFiles(ctx context.Context, tx ports.Stores, i *issue.Issue) ([]*issue.Attachment, error) {
	own, err := tx.Attachments.ListByIssue(ctx, i.ID, 0)
	if err != nil {
		return nil, err
	}
	comments, _, err := tx.Comments.List(ctx, ports.CommentQuery{IssueID: i.ID, Types: []issue.CommentType{issue.CommentPlain}})
	if err != nil {
		return nil, err
	}
	if len(comments) == 0 {
		return own, nil
	}
	ids := make([]int64, len(comments))
	for k, c := range comments {
		ids[k] = c.ID
	}
	byComment, err := tx.Attachments.OfComments(ctx, ids)
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		own = append(own, byComment[id]...)
	}
	return own, nil
}
