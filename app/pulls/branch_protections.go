package pulls

import (
	"context"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/commitstatus"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/protection"
	"github.com/depothq/depot/domain/pull"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// statusPage is how many latest statuses are read per statement.
const statusPage = 50

// maxProtectedFilePages bounds the pages of changed files read to look for
// a protected file (50 files a page).
const maxProtectedFilePages = 200

// checkMergeProtection applies the base branch's protection rule to a
// merge by doer, as Gitea's CheckPullMergeable: the merge allowlist (405
// "User not allowed to merge PR"), then, unless only the allowlist is
// asked for (a merge being scheduled), the required status checks, an
// up-to-date head and no changed protected file (405 with Gitea's
// message). A repository administrator who forces the merge passes the
// conditions unless the rule blocks that override. The review conditions
// (approvals, rejected reviews, official review requests) come from the
// pull request's reviews.
func (s *Service) checkMergeProtection(ctx context.Context, a *repos.Access, p *pull.PullRequest, doer *user.User,
	force, allowlistOnly bool) error {
	bp := s.repos.BranchProtections()
	prot, err := bp.Match(ctx, a.Repo, p.BaseBranch)
	if err != nil || prot == nil {
		return err
	}
	d, err := bp.Doer(ctx, a.Repo, doer, a.Perm, false, prot)
	if err != nil {
		return err
	}
	if !prot.CanMerge(d) {
		return errs.NotAllowed(protection.MsgNotAllowedMerge)
	}
	if err := prot.CheckSignedMerge(s.content.SignsCommits()); err != nil {
		return err
	}
	if allowlistOnly {
		return nil
	}
	facts, err := s.mergeFacts(ctx, a.Repo, p, prot)
	if err != nil {
		return err
	}
	if err := s.mergeConditions(ctx, prot, p, facts); err != nil {
		if force && (a.Perm.IsAdmin() || a.Caller.IsAdmin()) && prot.AdminMayOverride() {
			return nil
		}
		return err
	}
	return nil
}

// mergeConditions checks the rule's conditions in Gitea's order
// (CheckPullBranchProtections): required status checks, the reviews
// (approvals, rejections, official requests), an up-to-date head, no
// changed protected file.
func (s *Service) mergeConditions(ctx context.Context, prot *protection.Protection, p *pull.PullRequest,
	facts protection.MergeFacts) error {
	if !prot.StatusChecksPass(facts.Statuses) {
		return errs.NotAllowed(protection.MsgStatusChecks)
	}
	reviews, err := s.stores.PullReviews.All(ctx, []int64{p.IssueID})
	if err != nil {
		return err
	}
	if err := pull.ReviewsAllowMerge(approvalRuleOf(prot), reviews[p.IssueID]); err != nil {
		return err
	}
	return prot.CheckMerge(facts)
}

// approvalRuleOf is the review part of a branch protection rule.
func approvalRuleOf(prot *protection.Protection) *pull.ApprovalRule {
	r := prot.Rule()
	return &pull.ApprovalRule{EnableAllowlist: r.EnableApprovalsAllowlist, UserIDs: r.ApprovalsAllowlistUserIDs,
		TeamIDs: r.ApprovalsAllowlistTeamIDs, RequiredApprovals: int(r.RequiredApprovals),
		IgnoreStaleApprovals: r.IgnoreStaleApprovals, BlockOnRejectedReviews: r.BlockOnRejectedReviews,
		BlockOnOfficialReviewRequests: r.BlockOnOfficialReviewRequests}
}

// mergeFacts gathers what the rule's merge conditions are checked on.
func (s *Service) mergeFacts(ctx context.Context, base *repository.Repository, p *pull.PullRequest,
	prot *protection.Protection) (protection.MergeFacts, error) {
	var f protection.MergeFacts
	bp := pathOf(base)
	statuses, err := s.latestStatuses(ctx, base.ID, p.HeadCommitID)
	if err != nil {
		return f, err
	}
	f.Statuses = statuses
	tip, err := s.git.Branch(ctx, bp, p.BaseBranch)
	if err != nil {
		return f, err
	}
	if p.HeadCommitID != "" {
		in, err := s.pulls.IsAncestor(ctx, bp, tip.Commit.ID, p.HeadCommitID)
		if err != nil {
			return f, err
		}
		f.HeadBehind = !in
	}
	if prot.HasFilePatterns() && p.HeadCommitID != "" {
		for page := 1; page <= maxProtectedFilePages; page++ {
			files, total, err := s.pulls.RangeFiles(ctx, bp, tip.Commit.ID, p.HeadCommitID,
				ports.RangeFileQuery{Page: ports.ListOptions{Page: page, Limit: 50}})
			if err != nil {
				return f, err
			}
			for _, file := range files {
				f.ChangedFiles = append(f.ChangedFiles, file.Path)
				if file.PreviousPath != "" {
					f.ChangedFiles = append(f.ChangedFiles, file.PreviousPath)
				}
			}
			if len(files) == 0 || page*50 >= total {
				break
			}
		}
	}
	return f, nil
}

// latestStatuses returns the latest state of each status context on sha.
func (s *Service) latestStatuses(ctx context.Context, repoID int64, sha string) (map[string]commitstatus.State, error) {
	out := map[string]commitstatus.State{}
	if sha == "" {
		return out, nil
	}
	for page := 1; ; page++ {
		list, total, err := s.stores.CommitStatuses.Latest(ctx, repoID, sha, ports.ListOptions{Page: page, Limit: statusPage})
		if err != nil {
			return nil, err
		}
		for _, st := range list {
			out[st.Context] = st.State
		}
		if len(list) == 0 || int64(page*statusPage) >= total {
			return out, nil
		}
	}
}

// protectionChecksPass reports whether the base branch's rule lets a
// scheduled merge go as far as statuses are concerned (true without a rule).
func (s *Service) protectionChecksPass(ctx context.Context, base *repository.Repository, p *pull.PullRequest) (bool, error) {
	prot, err := s.repos.BranchProtections().Match(ctx, base, p.BaseBranch)
	if err != nil || prot == nil || len(prot.RequiredContexts()) == 0 {
		return true, err
	}
	statuses, err := s.latestStatuses(ctx, base.ID, p.HeadCommitID)
	if err != nil {
		return false, err
	}
	return prot.StatusChecksPass(statuses), nil
}

// recheckPullsIntoRule queues, inside the transaction that creates, edits
// or deletes repo's branch rule named ruleName, a check of each open pull
// request into a branch the name matches (Gitea's CheckPRsForBaseBranch for
// every branch the rule names), at most maxRechecks of them. What a check
// triggers (a scheduled merge looking again) then sees the new rules.
func (s *Service) recheckPullsIntoRule(ctx context.Context, tx ports.Stores, repo *repository.Repository, ruleName string) error {
	names := protection.NewRuleSet([]*protection.BranchRule{{Name: ruleName}})
	yes := true
	q := ports.IssueQuery{RepoIDs: []int64{repo.ID}, State: "open", IsPull: &yes, Sort: "oldest"}
	if !protection.IsGlob(ruleName) {
		q.BaseBranch = ruleName
	}
	const page = 50
	for n := 1; n <= maxRechecks/page; n++ {
		q.ListOptions = ports.ListOptions{Page: n, Limit: page}
		list, _, err := tx.Issues.List(ctx, q)
		if err != nil {
			return err
		}
		ids := make([]int64, len(list))
		for k, i := range list {
			ids[k] = i.ID
		}
		prs, err := tx.Pulls.ByIssueIDs(ctx, ids)
		if err != nil {
			return err
		}
		for _, id := range ids {
			p := prs[id]
			if p == nil || p.HasMerged || p.BaseRepoID != repo.ID || names.Match(p.BaseBranch) == nil {
				continue
			}
			if err := enqueueCheck(ctx, tx, p.ID); err != nil {
				return err
			}
		}
		if len(list) < page {
			return nil
		}
	}
	return nil
}
