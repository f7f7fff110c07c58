package pulls

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/depothq/depot/app/issues"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/pull"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// Messages of refused merges, Gitea's words.
const (
	msgHeadOutOfDate  = "head out of date"
	msgPushOutOfDate  = "merge push out of date"
	msgNotFastForward = "merge failed: the head is not a descendant of the base, so it cannot be fast-forwarded"
	msgWrongCommit    = "Wrong commit ID"
	pullAlreadyMerged = "The pull request has already been merged"
	msgHeadInBase     = "the head of this pull request is already in its base branch"
)

// MergeInput is Gitea's MergePullRequestForm.
type MergeInput struct {
	// Do is the style; "" means merge.
	Do string
	// Title and Message make the merge commit's message (default: Gitea's).
	Title, Message string
	// HeadCommitID, when set, must be the head the caller saw.
	HeadCommitID string
	// MergeCommitID is the commit already in the base (manually-merged).
	MergeCommitID string
	// DeleteBranchAfterMerge deletes the head branch when nothing else
	// needs it; nil means the repository's default.
	DeleteBranchAfterMerge *bool
	// MergeWhenChecksSucceed schedules the merge for when the head's
	// statuses succeed.
	MergeWhenChecksSucceed bool
	// ForceMerge lets a repository administrator merge past the base
	// branch's protection conditions (unless the rule blocks it).
	ForceMerge bool
}

// Merge merges a pull request in one of Gitea's styles, or marks it merged
// by a commit already in the base, or schedules it for when its checks
// succeed (scheduled is then true: Gitea's 201).
func (s *Service) Merge(ctx context.Context, a *repos.Access, index int64, in MergeInput) (scheduled bool, err error) {
	i, p, err := s.Open(ctx, a, index)
	if err != nil {
		return false, err
	}
	style := pull.Style(in.Do)
	if style == "" {
		style = pull.StyleMerge
	}
	if err := pull.CanMerge(pull.MergeRequest{Pull: p, Title: i.Title, IsClosed: i.IsClosed, Base: a.Perm,
		Settings: a.Repo.Merge, Style: style, Auto: in.MergeWhenChecksSucceed}); err != nil {
		return false, err
	}
	doer, err := s.stores.Users.GetByID(ctx, a.Caller.UserID())
	if err != nil {
		return false, err
	}
	if err := s.checkMergeProtection(ctx, a, p, doer, in.ForceMerge,
		in.MergeWhenChecksSucceed || style == pull.StyleManuallyMerged); err != nil {
		return false, err
	}
	if style == pull.StyleManuallyMerged {
		return false, s.markManuallyMerged(ctx, a.Repo, i, p, doer, in.MergeCommitID)
	}
	message, err := s.mergeMessage(ctx, a.Repo, i, p, style, in)
	if err != nil {
		return false, err
	}
	deleteBranch := a.Repo.Merge.DefaultDeleteBranchAfterMerge
	if in.DeleteBranchAfterMerge != nil {
		deleteBranch = *in.DeleteBranchAfterMerge
	}
	if in.MergeWhenChecksSucceed {
		scheduled, err := s.scheduleAutoMerge(ctx, a.Repo, i, p, doer, style, message, deleteBranch)
		if err != nil || scheduled {
			return scheduled, err
		}
	}
	if err := s.mergeNow(ctx, a.Repo, i, p, doer, style, message, in.HeadCommitID); err != nil {
		return false, err
	}
	if deleteBranch {
		s.deleteHeadBranch(ctx, a, p, doer)
	}
	return false, nil
}

// mergeMessage is the merge commit's message: the given title (or
// Gitea's default for the style) and, after a blank line, the given body.
func (s *Service) mergeMessage(ctx context.Context, base *repository.Repository, i *issue.Issue, p *pull.PullRequest,
	style pull.Style, in MergeInput) (string, error) {
	msg := strings.TrimSpace(in.Title)
	if msg == "" {
		head := p.HeadBranch
		if !p.IsSameRepo() {
			head = "<deleted>:" + p.HeadBranch
			if h, err := s.stores.Repos.GetByID(ctx, p.HeadRepoID); err == nil {
				head = h.FullName() + ":" + p.HeadBranch
			} else if !errors.Is(err, errs.ErrNotFound) {
				return "", err
			}
		}
		msg = DefaultMergeMessage(style, i.Title, i.Index, head, p.BaseBranch)
	}
	if body := strings.TrimSpace(in.Message); body != "" {
		msg += "\n\n" + body
	}
	return msg, nil
}

// DefaultMergeMessage is Gitea's default message of a merge commit: the
// squashed commit is named after the pull request, the others say what
// was merged into what. head is "branch", or "owner/repo:branch" for a fork.
func DefaultMergeMessage(style pull.Style, title string, index int64, head, base string) string {
	if style == pull.StyleSquash {
		return fmt.Sprintf("%s (#%d)", title, index)
	}
	return fmt.Sprintf("Merge pull request '%s' (#%d) from %s into %s", title, index, head, base)
}

// mergeNow writes the merge in the chosen style and moves the base branch
// by compare-and-swap, then records the merge: of two racing merges one
// wins and the other answers 409, and a push to the head during the merge
// either is in it or is refused by head_commit_id.
func (s *Service) mergeNow(ctx context.Context, base *repository.Repository, i *issue.Issue, p *pull.PullRequest,
	doer *user.User, style pull.Style, message, expectHead string) error {
	headID, err := s.SyncHead(ctx, base, p)
	if err != nil {
		return err
	}
	if headID == "" {
		return errs.NotAllowed("the head branch of this pull request does not exist")
	}
	if expectHead != "" && expectHead != headID {
		return errs.Conflict(msgHeadOutOfDate)
	}
	bp := pathOf(base)
	tip, err := s.git.Branch(ctx, bp, p.BaseBranch)
	if err != nil {
		return err
	}
	baseID := tip.Commit.ID
	// A head already in the base has nothing left to merge; it is also
	// how the loser of two merges of one pull request finds out.
	if in, err := s.pulls.IsAncestor(ctx, bp, headID, baseID); err != nil {
		return err
	} else if in {
		return errs.NotAllowed(msgHeadInBase)
	}
	committer := s.repos.Signature(doer)
	newTip, err := s.writeMerge(ctx, bp, i, p, style, baseID, headID, message, committer)
	if err != nil {
		return err
	}
	if err := s.pulls.UpdateRef(ctx, bp, "refs/heads/"+p.BaseBranch, newTip, baseID); err != nil {
		if errors.Is(err, errs.ErrConflict) {
			return errs.Conflict(msgPushOutOfDate)
		}
		return err
	}
	return s.recordMerge(ctx, base, i, p, doer, mergedCommit{id: newTip, head: headID, baseBefore: baseID})
}

// writeMerge writes the commits of a merge style and returns the base
// branch's new tip; no ref moves.
func (s *Service) writeMerge(ctx context.Context, bp ports.RepoPath, i *issue.Issue, p *pull.PullRequest, style pull.Style,
	baseID, headID, message string, committer ports.GitSignature) (string, error) {
	mc := ports.GitMergeCommit{Message: message, Author: committer, Committer: committer}
	switch style {
	case pull.StyleMerge:
		return s.conflictAsConflict(s.pulls.MergeCommits(ctx, bp, baseID, headID, mc))
	case pull.StyleRebase:
		if ok, err := s.pulls.IsAncestor(ctx, bp, baseID, headID); err != nil || ok {
			return headID, err
		}
		return s.conflictAsConflict(s.pulls.RebaseCommits(ctx, bp, baseID, headID, committer))
	case pull.StyleRebaseMerge:
		// As git rebase, a head already on the base keeps its commits.
		rebased := headID
		if ok, err := s.pulls.IsAncestor(ctx, bp, baseID, headID); err != nil {
			return "", err
		} else if !ok {
			if rebased, err = s.conflictAsConflict(s.pulls.RebaseCommits(ctx, bp, baseID, headID, committer)); err != nil {
				return "", err
			}
		}
		return s.conflictAsConflict(s.pulls.MergeCommits(ctx, bp, baseID, rebased, mc))
	case pull.StyleSquash:
		poster, err := s.stores.Users.GetByID(ctx, i.PosterID)
		if err == nil {
			mc.Author = s.repos.Signature(poster)
		} else if !errors.Is(err, errs.ErrNotFound) {
			return "", err
		}
		trailers, err := s.coAuthors(ctx, bp, baseID, headID, mc.Author)
		if err != nil {
			return "", err
		}
		mc.Message = withTrailers(message, trailers)
		return s.conflictAsConflict(s.pulls.SquashCommits(ctx, bp, baseID, headID, mc))
	case pull.StyleFastForwardOnly:
		ok, err := s.pulls.IsAncestor(ctx, bp, baseID, headID)
		if err != nil {
			return "", err
		}
		if !ok {
			return "", errs.Conflict(msgNotFastForward)
		}
		return headID, nil
	}
	return "", errs.NotAllowed(fmt.Sprintf("%s is not allowed an allowed merge style for this repository", style))
}

// conflictAsConflict words a merge's conflict as Gitea's 409.
func (s *Service) conflictAsConflict(id string, err error) (string, error) {
	if errors.Is(err, errs.ErrConflict) {
		return "", errs.Conflict("merge failed because of conflict: " + errs.Message(err))
	}
	return id, err
}

// maxCoAuthorCommits bounds the commits whose authors a squash credits.
const maxCoAuthorCommits = 250

// coAuthors are the authors of the squashed commits other than the
// squash's own author, each once, in the order of their first commit.
func (s *Service) coAuthors(ctx context.Context, bp ports.RepoPath, baseID, headID string, author ports.GitSignature) ([]string, error) {
	list, _, err := s.git.ListCommits(ctx, bp, ports.CommitListQuery{Ref: headID, Not: baseID, SkipTotal: true},
		ports.ListOptions{Page: 1, Limit: maxCoAuthorCommits})
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{strings.ToLower(author.Email): true}
	var out []string
	for n := len(list) - 1; n >= 0; n-- {
		a := list[n].Author
		key := strings.ToLower(a.Email)
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, "Co-authored-by: "+a.Name+" <"+a.Email+">")
	}
	return out, nil
}

// withTrailers appends trailers after a blank line.
func withTrailers(message string, trailers []string) string {
	if len(trailers) == 0 {
		return message
	}
	return strings.TrimRight(message, "\n") + "\n\n" + strings.Join(trailers, "\n")
}

// mergedCommit is what a merge produced.
type mergedCommit struct {
	// id is the merge commit (or the new tip for rebase and fast-forward).
	id, head, baseBefore string
}

// recordMerge records a merge that moved the base branch: the pull
// request merged and its issue closed, the timeline's merge event, the
// push event of the base and the checks of the other pull requests on it,
// in one transaction.
func (s *Service) recordMerge(ctx context.Context, base *repository.Repository, i *issue.Issue, p *pull.PullRequest,
	doer *user.User, m mergedCommit) error {
	now := s.clock.Now()
	err := s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		cur, err := tx.Pulls.GetByID(ctx, p.ID)
		if err != nil {
			return err
		}
		if cur.HasMerged {
			return errs.NotAllowed(pullAlreadyMerged)
		}
		cur.HasMerged, cur.MergedAt, cur.MergedByID, cur.MergeCommitID = true, &now, doer.ID, m.id
		cur.HeadCommitID = m.head
		if err := tx.Pulls.Update(ctx, cur); err != nil {
			return err
		}
		ci, err := tx.Issues.GetByID(ctx, i.ID)
		if err != nil {
			return err
		}
		if !ci.IsClosed {
			ci.SetState(issue.StateClosed, now)
			ci.UpdatedAt = now
			if err := tx.Issues.Update(ctx, ci); err != nil {
				return err
			}
		}
		if err := issues.RecordEvent(ctx, tx, ci, issue.CommentMergePull, doer.ID, now, nil); err != nil {
			return err
		}
		if err := tx.Pulls.DeleteAutoMerge(ctx, p.ID); err != nil && !errors.Is(err, errs.ErrNotFound) {
			return err
		}
		if m.baseBefore != "" {
			change := repository.RefChange{Ref: "refs/heads/" + cur.BaseBranch, OldID: m.baseBefore, NewID: m.id}
			if err := s.events.Pushed(ctx, tx, ports.PushEvent{RepoID: base.ID, Owner: base.Owner.Name, Repo: base.Name,
				PusherID: doer.ID, PusherName: doer.Name, Changes: []repository.RefChange{change}, When: now}); err != nil {
				return err
			}
			if err := s.recordPush(ctx, tx, base, doer.ID, []repository.RefChange{change}); err != nil {
				return err
			}
		}
		return s.events.IssueChanged(ctx, tx, ports.IssueEvent{Kind: ports.IssueEventIssues, Action: "closed",
			Repo: base, Issue: ci, SenderID: doer.ID})
	})
	if err != nil {
		return err
	}
	s.jobs.Notify()
	s.applyKeywordReferences(ctx, base, i, doer, m)
	if size, err := s.storage.Size(ctx, pathOf(base)); err == nil {
		if err := s.stores.Repos.SetSize(ctx, base.ID, size); err != nil {
			s.log.Warn("recording the repository size after a merge", "repo", base.ID, "err", err)
		}
	}
	return nil
}

// markManuallyMerged records that a commit already in the base merged the
// pull request (Gitea's manually-merged): the commit must be on the base
// branch and contain the head.
func (s *Service) markManuallyMerged(ctx context.Context, base *repository.Repository, i *issue.Issue, p *pull.PullRequest,
	doer *user.User, commitID string) error {
	bp := pathOf(base)
	rev, err := s.git.Resolve(ctx, bp, strings.TrimSpace(commitID))
	if err != nil || rev.Kind != ports.RevisionCommit {
		return errs.Conflict(msgWrongCommit)
	}
	tip, err := s.git.Branch(ctx, bp, p.BaseBranch)
	if err != nil {
		return err
	}
	onBase, err := s.pulls.IsAncestor(ctx, bp, rev.CommitID, tip.Commit.ID)
	if err != nil {
		return err
	}
	hasHead, err := s.pulls.IsAncestor(ctx, bp, p.HeadCommitID, rev.CommitID)
	if err != nil {
		return err
	}
	if !onBase || !hasHead {
		return errs.Conflict(msgWrongCommit)
	}
	return s.recordMerge(ctx, base, i, p, doer, mergedCommit{id: rev.CommitID, head: p.HeadCommitID})
}

// deleteHeadBranch deletes a merged pull request's head branch when the
// doer may write the head repository, it is not that repository's default
// branch and no other open pull request uses it. Failing is not the
// merge's failure: it is logged.
func (s *Service) deleteHeadBranch(ctx context.Context, a *repos.Access, p *pull.PullRequest, doer *user.User) {
	h, err := s.headAccess(ctx, a.Caller, a, p)
	if err != nil || h == nil || h.Repo == nil || !h.Perm.CanWrite(permission.UnitCode) {
		return
	}
	if h.Repo.DefaultBranch == p.HeadBranch {
		return
	}
	if busy, err := s.stores.Pulls.HasOpenFromHead(ctx, h.Repo.ID, p.HeadBranch, p.ID); err != nil || busy {
		return
	}
	if err := s.content.Branches().Delete(ctx, h, p.HeadBranch); err != nil {
		s.log.Warn("deleting a merged pull request's head branch", "repo", h.Repo.ID, "branch", p.HeadBranch, "err", err)
	}
}
