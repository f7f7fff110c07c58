package pulls

import (
	"context"
	"encoding/json"
	"errors"
	"slices"

	"github.com/depothq/depot/app/issues"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/pull"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

// maxPushedCommitIDs bounds the commits one push entry of a pull request's
// timeline names (the newest of them).
const maxPushedCommitIDs = 250

// pushContent is what a pull_push timeline entry stores in its content,
// as Gitea stores it (PushActionContent): the commits the push added, the
// oldest first, or for a force push the old and the new head.
type pushContent struct {
	IsForcePush bool     `json:"is_force_push"`
	CommitIDs   []string `json:"commit_ids"`
}

// recordPullPushes records, inside the transaction that records a push to
// repository r, what the push did to the open pull requests whose head is a
// branch it moved: the timeline's pull_push entry, the new head (so the
// payloads show it; the queued check copies it to refs/pull/<index>/head),
// the earlier reviews marked stale, and the pull_request_sync event
// "synchronized". A branch created or deleted moves no pull request's
// head. At most maxRechecks pull requests per push.
func (s *Service) recordPullPushes(ctx context.Context, tx ports.Stores, r *repository.Repository, pusherID int64,
	changes []repository.RefChange) error {
	done := map[int64]bool{}
	// Pull requests of one head into the same base read Git once.
	read := map[pushKey]pushContent{}
	for _, c := range changes {
		if !c.IsBranch() || c.IsCreate() || c.IsDelete() || c.OldID == c.NewID {
			continue
		}
		branch := c.ShortName()
		list, err := tx.Pulls.OpenOnBranch(ctx, r.ID, branch, maxRechecks)
		if err != nil {
			return err
		}
		for _, p := range list {
			if p.HeadRepoID != r.ID || p.HeadBranch != branch || done[p.ID] {
				continue
			}
			if len(done) >= maxRechecks {
				return nil
			}
			done[p.ID] = true
			if err := s.recordPullPush(ctx, tx, r, p, pusherID, c, read); err != nil {
				return err
			}
		}
	}
	return nil
}

// pushKey names what a push added to a head, as seen from one base.
type pushKey struct {
	ref, baseBranch string
	baseRepoID      int64
}

// recordPullPush records one push to the head of pull request p; read
// keeps what Git said of the push per base.
func (s *Service) recordPullPush(ctx context.Context, tx ports.Stores, head *repository.Repository, p *pull.PullRequest,
	pusherID int64, c repository.RefChange, read map[pushKey]pushContent) error {
	i, err := tx.Issues.GetByID(ctx, p.IssueID)
	if err != nil {
		return err
	}
	base := head
	if p.BaseRepoID != head.ID {
		if base, err = tx.Repos.GetByID(ctx, p.BaseRepoID); err != nil {
			return err
		}
	}
	key := pushKey{ref: c.Ref, baseBranch: p.BaseBranch, baseRepoID: p.BaseRepoID}
	content, ok := read[key]
	if !ok {
		if content, err = s.pushedCommits(ctx, head, base, p, c); err != nil {
			return err
		}
		read[key] = content
	}
	b, err := json.Marshal(content)
	if err != nil {
		return err
	}
	if err := issues.RecordEvent(ctx, tx, i, issue.CommentPullPush, pusherID, s.clock.Now(),
		func(cm *issue.Comment) { cm.Content = string(b) }); err != nil {
		return err
	}
	if err := tx.Pulls.SetHead(ctx, p.ID, c.NewID); err != nil {
		return err
	}
	// Reviews of an earlier head are stale now, and approvals dismissed
	// where the base's rule says so, when the push changed what the pull
	// request proposes (Gitea's checkIfPRContentChanged: taking in the
	// base's changes does not).
	changed, err := s.proposalChanged(ctx, head, base, p, c)
	if err != nil {
		return err
	}
	if changed {
		if err := tx.PullReviews.MarkStale(ctx, p.IssueID, c.NewID); err != nil {
			return err
		}
		if err := s.dismissStaleApprovals(ctx, tx, base, i, p, pusherID); err != nil {
			return err
		}
	}
	// Code comments whose line the push changed become outdated, in the
	// background (reviews_outdated.go).
	if err := enqueueOutdate(ctx, tx, p.ID); err != nil {
		return err
	}
	return s.events.IssueChanged(ctx, tx, ports.IssueEvent{Kind: ports.IssueEventPullSync, Action: "synchronized",
		Repo: base, Issue: i, SenderID: pusherID})
}

// pushedCommits reads from the head repository what a push to the head
// added (Gitea's getCommitIDsFromRepo): a push whose old head is not in
// the new history is a force push, named by both heads; otherwise the
// commits between them that the base branch does not hold, oldest first.
func (s *Service) pushedCommits(ctx context.Context, head, base *repository.Repository, p *pull.PullRequest,
	c repository.RefChange) (pushContent, error) {
	hp := pathOf(head)
	kept, err := s.pulls.IsAncestor(ctx, hp, c.OldID, c.NewID)
	if err != nil {
		return pushContent{}, err
	}
	if !kept {
		return pushContent{IsForcePush: true, CommitIDs: []string{c.OldID, c.NewID}}, nil
	}
	list, _, err := s.git.ListCommits(ctx, hp, ports.CommitListQuery{Ref: c.NewID, Not: c.OldID, SkipTotal: true},
		ports.ListOptions{Page: 1, Limit: maxPushedCommitIDs})
	if err != nil {
		return pushContent{}, err
	}
	// Commits of the base merged into the head are not the push's. The base
	// tip may be missing from a fork: its commits are then all kept.
	baseTip := ""
	if tip, err := s.git.Branch(ctx, pathOf(base), p.BaseBranch); err == nil {
		baseTip = tip.Commit.ID
	}
	ids := make([]string, 0, len(list))
	for _, d := range list {
		if baseTip != "" {
			if onBase, err := s.pulls.IsAncestor(ctx, hp, d.ID, baseTip); err == nil && onBase {
				continue
			}
		}
		ids = append(ids, d.ID)
	}
	slices.Reverse(ids)
	return pushContent{CommitIDs: ids}, nil
}

// msgApprovalDismissed is the message of an approval a push dismissed, Gitea's.
const msgApprovalDismissed = "New commits pushed, approval review dismissed automatically according to repository settings"

// dismissStaleApprovals dismisses, when the rule of p's base branch says
// so (dismiss_stale_approvals), every approval of p that stands, in the
// pusher's name and with a timeline entry each, as Gitea's
// DismissApprovalReviews after a push to the head.
func (s *Service) dismissStaleApprovals(ctx context.Context, tx ports.Stores, base *repository.Repository, i *issue.Issue,
	p *pull.PullRequest, pusherID int64) error {
	prot, err := s.repos.BranchProtections().Match(ctx, base, p.BaseBranch)
	if err != nil || prot == nil || !prot.Rule().DismissStaleApprovals {
		return err
	}
	all, err := tx.PullReviews.All(ctx, []int64{p.IssueID})
	if err != nil {
		return err
	}
	now := s.clock.Now()
	for _, r := range all[p.IssueID] {
		if r.State != pull.ReviewApproved || r.Dismissed {
			continue
		}
		r.Dismissed = true
		if err := tx.PullReviews.Update(ctx, r); err != nil {
			return err
		}
		if err := tx.Comments.Create(ctx, &issue.Comment{Type: issue.CommentDismissReview, IssueID: i.ID, RepoID: i.RepoID,
			PosterID: pusherID, Content: msgApprovalDismissed, ReviewID: r.ID, CreatedAt: now, UpdatedAt: now}); err != nil {
			return err
		}
	}
	return nil
}

// proposalChanged reports whether push c to p's head changed what p
// proposes, read in the head repository. When Git cannot tell (the base's
// tip or the old head is not in a fork, the base branch is gone) it says
// changed, so reviews go stale rather than stay fresh wrongly.
func (s *Service) proposalChanged(ctx context.Context, head, base *repository.Repository, p *pull.PullRequest,
	c repository.RefChange) (bool, error) {
	tip, err := s.git.Branch(ctx, pathOf(base), p.BaseBranch)
	if errors.Is(err, errs.ErrNotFound) {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	changed, err := s.pulls.RangeChanged(ctx, pathOf(head), tip.Commit.ID, c.OldID, c.NewID)
	if errors.Is(err, errs.ErrNotFound) {
		return true, nil
	}
	return changed, err
}
