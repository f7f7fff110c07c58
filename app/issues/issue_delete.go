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
	var files []string
	err = s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		cur, err := tx.Issues.GetByID(ctx, i.ID)
		if err != nil {
			return err
		}
		// The files of the issue and of every comment, read before the
		// rows cascade away (the memory store keeps no files).
		if tx.UploadRefs != nil {
			if files, err = tx.UploadRefs.OfIssue(ctx, cur.ID); err != nil {
				return err
			}
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
	s.removeBlobs(ctx, files)
	return nil
}
