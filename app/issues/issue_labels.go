package issues

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

// maxLabelRefs bounds the labels one request may name (an issue's labels,
// added or replaced, or given at creation): the lookup, the plan and the
// timeline cost something per label named. Gitea sets no bound.
const maxLabelRefs = 100

// checkLabelCount refuses a request naming more than maxLabelRefs labels.
func checkLabelCount(n int) error {
	if n > maxLabelRefs {
		return errs.Invalid(fmt.Sprintf("at most %d labels may be given, got %d", maxLabelRefs, n), "labels")
	}
	return nil
}

// errLabelsWrite is Gitea's answer to a caller who may not change an
// issue's labels.
var errLabelsWrite = errs.Forbidden("write permission is required")

// resolveLabels finds the labels ids name that may be put on an issue of
// repo (its own labels and its owner organisation's), in one query: an
// unknown or foreign id is a 422 naming "labels". Repeated ids count once.
func (s *Service) resolveLabels(ctx context.Context, tx ports.Stores, repo *repository.Repository, ids []int64) ([]*issue.Label, error) {
	if err := checkLabelCount(len(ids)); err != nil {
		return nil, err
	}
	ids = uniqueIDs(ids)
	if len(ids) == 0 {
		return nil, nil
	}
	found, err := tx.Labels.GetByIDs(ctx, ids)
	if err != nil {
		return nil, err
	}
	usable := usableLabels(found, repo)
	if len(usable) != len(ids) {
		return nil, errs.Invalid("label does not exist", "labels")
	}
	return usable, nil
}

// setIssueLabels adds labels to the issue i (already present ones are
// kept; an exclusive label takes the issue's other labels of its scope
// off), writes a timeline row per label added or removed, and recounts the
// labels touched. It neither touches the issue nor emits an event: issue
// creation calls it inside its own "opened" change, and the label routes
// do both themselves.
func (s *Service) setIssueLabels(ctx context.Context, tx ports.Stores, a *repos.Access, i *issue.Issue, labels []*issue.Label, doerID int64) error {
	current, err := issueLabels(ctx, tx, i.ID)
	if err != nil {
		return err
	}
	_, err = s.applyLabels(ctx, tx, i, issue.AddLabels(current, usableLabels(labels, a.Repo)), doerID, s.clock.Now())
	return err
}

// applyLabels writes ch on the issue: the rows, one timeline event per
// label (Content "1" when added, "" when removed, as Gitea stores them),
// and the counters of every label touched. It reports whether anything
// changed.
func (s *Service) applyLabels(ctx context.Context, tx ports.Stores, i *issue.Issue, ch issue.LabelChange, doerID int64, now time.Time) (bool, error) {
	if ch.Empty() {
		return false, nil
	}
	if len(ch.Remove) > 0 {
		if err := tx.Labels.RemoveFromIssue(ctx, i.ID, issue.LabelIDs(ch.Remove)); err != nil {
			return false, err
		}
	}
	if len(ch.Add) > 0 {
		if err := tx.Labels.AddToIssue(ctx, i.ID, issue.LabelIDs(ch.Add)); err != nil {
			return false, err
		}
	}
	event := func(l *issue.Label, content string) error {
		return tx.Comments.Create(ctx, &issue.Comment{Type: issue.CommentLabel, IssueID: i.ID, RepoID: i.RepoID,
			PosterID: doerID, LabelID: l.ID, Content: content, CreatedAt: now, UpdatedAt: now})
	}
	for _, l := range ch.Remove {
		if err := event(l, ""); err != nil {
			return false, err
		}
	}
	for _, l := range ch.Add {
		if err := event(l, "1"); err != nil {
			return false, err
		}
	}
	touched := append(issue.LabelIDs(ch.Add), issue.LabelIDs(ch.Remove)...)
	return true, tx.Labels.Recount(ctx, touched)
}

// usableLabels keeps the labels that may go on an issue of repo.
func usableLabels(labels []*issue.Label, repo *repository.Repository) []*issue.Label {
	out := make([]*issue.Label, 0, len(labels))
	for _, l := range labels {
		if l.UsableIn(repo.ID, repo.Owner.ID) {
			out = append(out, l)
		}
	}
	return out
}

// uniqueIDs drops repeated ids, keeping the first of each.
func uniqueIDs(ids []int64) []int64 {
	seen := make(map[int64]bool, len(ids))
	out := make([]int64, 0, len(ids))
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// issueLabels returns the labels on one issue, by name.
func issueLabels(ctx context.Context, st ports.Stores, issueID int64) ([]*issue.Label, error) {
	m, err := st.Labels.OfIssues(ctx, []int64{issueID})
	if err != nil {
		return nil, err
	}
	return m[issueID], nil
}

// LabelRefs are the labels of an IssueLabelsOption: ids (JSON numbers) or
// names (JSON strings), never both, as Gitea accepts them.
type LabelRefs struct {
	IDs   []int64
	Names []string
}

// IssueLabels are the use cases of the labels an issue carries.
type IssueLabels struct{ *Service }

// IssueLabels returns the use cases of issues' labels.
func (s *Service) IssueLabels() IssueLabels { return IssueLabels{s} }

// List answers GET R/issues/{index}/labels: the issue's labels by name.
func (s IssueLabels) List(ctx context.Context, a *repos.Access, index int64) ([]*issue.Label, error) {
	i, err := s.Open(ctx, a, index)
	if err != nil {
		return nil, err
	}
	return issueLabels(ctx, s.stores, i.ID)
}

// Add puts labels on the issue (POST R/issues/{index}/labels)
// and returns its labels. As in Gitea, unknown labels and labels of other
// repositories are skipped; writers of the issue's unit only (else 403).
func (s IssueLabels) Add(ctx context.Context, a *repos.Access, index int64, refs LabelRefs) ([]*issue.Label, error) {
	return s.change(ctx, a, index, refs, issue.AddLabels)
}

// Replace replaces the issue's labels (PUT R/issues/{index}/labels).
func (s IssueLabels) Replace(ctx context.Context, a *repos.Access, index int64, refs LabelRefs) ([]*issue.Label, error) {
	return s.change(ctx, a, index, refs, issue.ReplaceLabels)
}

// Clear takes every label off the issue (DELETE R/issues/{index}/labels).
func (s IssueLabels) Clear(ctx context.Context, a *repos.Access, index int64) error {
	_, err := s.change(ctx, a, index, LabelRefs{}, func(current, _ []*issue.Label) issue.LabelChange {
		return issue.LabelChange{Remove: current}
	})
	return err
}

// Remove takes one label off the issue (DELETE
// R/issues/{index}/labels/{id}): 422 when no such label exists, as Gitea
// answers; a label the issue does not carry changes nothing.
func (s IssueLabels) Remove(ctx context.Context, a *repos.Access, index, labelID int64) error {
	i, err := s.Open(ctx, a, index)
	if err != nil {
		return err
	}
	if !canWrite(a, i) {
		return errLabelsWrite
	}
	l, err := s.stores.Labels.GetByID(ctx, labelID)
	if errors.Is(err, errs.ErrNotFound) {
		return errs.Invalid("label does not exist [label_id: "+strconv.FormatInt(labelID, 10)+"]", "id")
	}
	if err != nil {
		return err
	}
	_, err = s.write(ctx, a, i, func(current []*issue.Label) issue.LabelChange {
		for _, c := range current {
			if c.ID == l.ID {
				return issue.LabelChange{Remove: []*issue.Label{c}}
			}
		}
		return issue.LabelChange{}
	})
	return err
}

// change resolves refs and applies plan(current, labels).
func (s IssueLabels) change(ctx context.Context, a *repos.Access, index int64, refs LabelRefs,
	plan func(current, labels []*issue.Label) issue.LabelChange) ([]*issue.Label, error) {
	i, err := s.Open(ctx, a, index)
	if err != nil {
		return nil, err
	}
	if !canWrite(a, i) {
		return nil, errLabelsWrite
	}
	labels, err := s.lookup(ctx, a.Repo, refs)
	if err != nil {
		return nil, err
	}
	return s.write(ctx, a, i, func(current []*issue.Label) issue.LabelChange {
		return plan(current, labels)
	})
}

// write applies the change planned on the issue's current
// labels in one transaction: rows, timeline, counters, the issue's
// updated_at and the issue_label event. It returns the labels after.
func (s IssueLabels) write(ctx context.Context, a *repos.Access, i *issue.Issue,
	plan func(current []*issue.Label) issue.LabelChange) ([]*issue.Label, error) {
	var after []*issue.Label
	err := s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		current, err := issueLabels(ctx, tx, i.ID)
		if err != nil {
			return err
		}
		now := s.clock.Now()
		changed, err := s.applyLabels(ctx, tx, i, plan(current), a.Caller.UserID(), now)
		if err != nil || !changed {
			after = current
			return err
		}
		if err := tx.Issues.Touch(ctx, i.ID, now); err != nil {
			return err
		}
		i.UpdatedAt = now
		if after, err = issueLabels(ctx, tx, i.ID); err != nil {
			return err
		}
		action := "label_updated"
		if len(after) == 0 {
			action = "label_cleared"
		}
		return s.events.IssueChanged(ctx, tx, ports.IssueEvent{Kind: ports.IssueEventLabel, Action: action,
			Repo: a.Repo, Issue: i, SenderID: a.Caller.UserID()})
	})
	if err != nil {
		return nil, err
	}
	if after == nil {
		after = []*issue.Label{}
	}
	return after, nil
}

// lookup finds the labels refs name that may go on the
// repository's issues; unknown and foreign ones are skipped, as in Gitea.
func (s IssueLabels) lookup(ctx context.Context, repo *repository.Repository, refs LabelRefs) ([]*issue.Label, error) {
	if err := checkLabelCount(len(refs.Names) + len(refs.IDs)); err != nil {
		return nil, err
	}
	var (
		found []*issue.Label
		err   error
	)
	switch {
	case len(refs.Names) > 0:
		names := make([]string, 0, len(refs.Names))
		for _, n := range refs.Names {
			if n = strings.TrimSpace(n); n != "" {
				names = append(names, n)
			}
		}
		found, err = s.stores.Labels.ListByNames(ctx, repo.ID, ownerOrgID(repo), names)
	case len(refs.IDs) > 0:
		found, err = s.stores.Labels.GetByIDs(ctx, uniqueIDs(refs.IDs))
	}
	if err != nil {
		return nil, err
	}
	byID := make(map[int64]*issue.Label, len(found))
	for _, l := range usableLabels(found, repo) {
		byID[l.ID] = l
	}
	// Keep the order the client gave: with exclusive labels the last wins.
	out := make([]*issue.Label, 0, len(byID))
	if len(refs.Names) > 0 {
		for _, n := range refs.Names {
			for _, l := range found {
				if l.Name == strings.TrimSpace(n) && byID[l.ID] != nil {
					out = append(out, l)
				}
			}
		}
		return out, nil
	}
	for _, id := range refs.IDs {
		if l := byID[id]; l != nil {
			out = append(out, l)
		}
	}
	return out, nil
}
