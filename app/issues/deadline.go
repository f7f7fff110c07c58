package issues

import (
	"context"
	"time"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/ports"
)

// Deadlines are the use cases of issues' deadlines.
type Deadlines struct{ *Service }

// Deadlines returns the deadline use cases.
func (s *Service) Deadlines() Deadlines { return Deadlines{s} }

// Set sets (due non-nil) or removes an issue's deadline: issue
// writers only. It returns the stored deadline (the end of the due day,
// nil when removed) and records Gitea's deadline event when it changed.
func (s Deadlines) Set(ctx context.Context, a *repos.Access, index int64, due *time.Time) (*time.Time, error) {
	i, err := s.Open(ctx, a, index)
	if err != nil {
		return nil, err
	}
	if !canWrite(a, i) {
		return nil, errs.Forbidden("not allowed to edit the deadline of this issue")
	}
	var deadline *time.Time
	if due != nil && !due.IsZero() {
		d := issue.DeadlineOf(*due)
		if err := issue.CheckShownDate("DueDate", d); err != nil {
			return nil, err
		}
		deadline = &d
	}
	err = s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		cur, err := tx.Issues.GetByID(ctx, i.ID)
		if err != nil {
			return err
		}
		typ, content, changed := issue.DeadlineEvent(cur.Deadline, deadline)
		if !changed {
			return nil
		}
		cur.Deadline = deadline
		if err := tx.Issues.Update(ctx, cur); err != nil {
			return err
		}
		return timelineEvent(ctx, tx, cur, typ, a.Caller.UserID(), s.clock.Now(), func(c *issue.Comment) { c.Content = content })
	})
	return deadline, err
}
