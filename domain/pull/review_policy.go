package pull

import (
	"fmt"
	"slices"
	"strings"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/permission"
)

// Messages of refused review actions, Gitea's words.
const (
	msgApproveOwn        = "approve your own pull is not allowed"
	msgRejectOwn         = "reject your own pull is not allowed"
	msgReviewClosed      = "can't submit review for a closed or merged PR"
	msgOnlyPendingSubmit = "only a pending review can be submitted"
	msgStaysPending      = "review stay pending"
	msgDismissAdmin      = "Must be repo admin"
	msgDismissType       = "not need to dismiss this review because it's type is not Approve or change request"
	msgDismissClosed     = "can't dismiss a review of a closed or merged PR"
	msgDeleteRequest     = "review request can not be deleted using this method"
	msgDeleteNotYours    = "only the reviewer or a site administrator may delete a review"
	msgRequestClosed     = "cannot request a re-review on a closed or merged PR"
)

// MaxReviewComments bounds the line comments one review request carries.
const MaxReviewComments = 100

// ReviewRequestInput is what a create or submit call asks for.
type ReviewRequestInput struct {
	Event string
	Body  string
	// HasComments says the review carries line comments (given now, or
	// already held by the pending review being submitted).
	HasComments bool
	// DoerIsPoster says the doer opened the pull request.
	DoerIsPoster bool
}

// DecideReviewState turns a create or submit call into the review's state,
// in Gitea's order (routers/api/v1/repo/pull_review.go): nobody approves or
// rejects their own pull request, a comment review needs a body or line
// comments, a rejection (and a pending review) needs a body. Refusals are
// 422.
func DecideReviewState(in ReviewRequestInput) (ReviewState, error) {
	state := ParseReviewEvent(in.Event)
	hasBody := strings.TrimSpace(in.Body) != ""
	needsBody := true
	switch state {
	case ReviewApproved:
		if in.DoerIsPoster {
			return 0, errs.Invalid(msgApproveOwn, "Event")
		}
		needsBody = false
	case ReviewRequestChanges:
		if in.DoerIsPoster {
			return 0, errs.Invalid(msgRejectOwn, "Event")
		}
	case ReviewComment:
		needsBody = false
		if !hasBody && !in.HasComments {
			return 0, errs.Invalid(fmt.Sprintf("review event %s requires a body or a comment", in.Event), "Body")
		}
	}
	if needsBody && !hasBody {
		return 0, errs.Invalid(fmt.Sprintf("review event %s requires a body", in.Event), "Body")
	}
	return state, nil
}

// CanReview refuses a review (or its submission) on a closed or merged
// pull request (422, as Gitea's ErrSubmitReviewOnClosedPR), except a
// pending draft, which Gitea lets one keep writing.
func CanReview(p *PullRequest, isClosed bool, state ReviewState) error {
	if state != ReviewPending && (isClosed || p.HasMerged) {
		return errs.Invalid(msgReviewClosed, "index")
	}
	return nil
}

// CanSubmit decides whether review r may be submitted with state: only a
// pending review may, and not into pending again (422).
func CanSubmit(r *Review, state ReviewState) error {
	if r.State != ReviewPending {
		return errs.Invalid(msgOnlyPendingSubmit, "id")
	}
	if state == ReviewPending {
		return errs.Invalid(msgStaysPending, "Event")
	}
	return nil
}

// CanDeleteReview decides whether a doer may delete review r: its reviewer
// or a site administrator (403 otherwise), and never a review request,
// which the requested_reviewers route removes (422).
func CanDeleteReview(r *Review, doerID int64, siteAdmin bool) error {
	if doerID == 0 || (!siteAdmin && doerID != r.ReviewerID) {
		return errs.Forbidden(msgDeleteNotYours)
	}
	if r.State == ReviewRequest {
		return errs.Invalid(msgDeleteRequest, "id")
	}
	return nil
}

// CanDismiss decides whether a doer with permission base may dismiss (or
// undismiss) review r of p: repository administrators only, verdicts only,
// and not once the pull request is closed or merged (403 each, as Gitea).
func CanDismiss(base permission.Permission, r *Review, p *PullRequest, isClosed bool) error {
	if !base.IsAdmin() {
		return errs.Forbidden(msgDismissAdmin)
	}
	if !r.State.IsVerdict() {
		return errs.Forbidden(msgDismissType)
	}
	if isClosed || p.HasMerged {
		return errs.Forbidden(msgDismissClosed)
	}
	return nil
}

// ApprovalRule is what a branch protection rule says of reviews: who may
// approve officially, and how verdicts count towards a merge. The branch
// protections feed it; nil (no rule for the base branch) leaves the
// defaults.
type ApprovalRule struct {
	// EnableAllowlist restricts official reviews to UserIDs and the
	// members of TeamIDs; otherwise writers of the base's code approve.
	EnableAllowlist bool
	UserIDs         []int64
	TeamIDs         []int64
	// RequiredApprovals is how many official approvals a merge needs.
	RequiredApprovals int
	// IgnoreStaleApprovals leaves stale approvals out of the count.
	IgnoreStaleApprovals bool
	// BlockOnRejectedReviews blocks a merge while an official rejection stands.
	BlockOnRejectedReviews bool
	// BlockOnOfficialReviewRequests blocks a merge while an official
	// review request is unanswered.
	BlockOnOfficialReviewRequests bool
}

// IsOfficialReviewer decides whether a user's verdicts count towards
// approvals, as Gitea's IsOfficialReviewer: without a rule (or with one
// that has no allowlist), a writer of the base's code; with an allowlist,
// a user on it or a member of a team on it.
func IsOfficialReviewer(rule *ApprovalRule, userID int64, teamIDs []int64, writesCode bool) bool {
	if rule == nil || !rule.EnableAllowlist {
		return writesCode
	}
	if slices.Contains(rule.UserIDs, userID) {
		return true
	}
	for _, t := range teamIDs {
		if slices.Contains(rule.TeamIDs, t) {
			return true
		}
	}
	return false
}

// GrantedApprovals counts the approvals that count towards a merge, as
// Gitea's GetGrantedApprovalsCount: official, not dismissed, and not stale
// when the rule ignores stale approvals. Official is only ever set on a
// reviewer's latest verdict, so each reviewer counts once.
func GrantedApprovals(rule *ApprovalRule, reviews []*Review) int {
	n := 0
	for _, r := range reviews {
		if r.State != ReviewApproved || !r.Official || r.Dismissed {
			continue
		}
		if rule != nil && rule.IgnoreStaleApprovals && r.Stale {
			continue
		}
		n++
	}
	return n
}

// HasOfficialRejection reports whether an official, undismissed request for
// changes stands (Gitea's MergeBlockedByRejectedReview).
func HasOfficialRejection(reviews []*Review) bool {
	for _, r := range reviews {
		if r.State == ReviewRequestChanges && r.Official && !r.Dismissed {
			return true
		}
	}
	return false
}

// HasOfficialRequest reports whether an official review request is still
// unanswered (Gitea's MergeBlockedByOfficialReviewRequests).
func HasOfficialRequest(reviews []*Review) bool {
	for _, r := range reviews {
		if r.State == ReviewRequest && r.Official {
			return true
		}
	}
	return false
}

// ReviewsAllowMerge judges the reviews of a pull request against a rule,
// in Gitea's order: enough official approvals, no official rejection and
// no unanswered official request where the rule blocks on them. The
// messages are Gitea's (405 at the merge route). A nil rule asks nothing.
func ReviewsAllowMerge(rule *ApprovalRule, reviews []*Review) error {
	if rule == nil {
		return nil
	}
	if GrantedApprovals(rule, reviews) < rule.RequiredApprovals {
		return errs.NotAllowed("Does not have enough approvals")
	}
	if rule.BlockOnRejectedReviews && HasOfficialRejection(reviews) {
		return errs.NotAllowed("There are requested changes")
	}
	if rule.BlockOnOfficialReviewRequests && HasOfficialRequest(reviews) {
		return errs.NotAllowed("There are official review requests")
	}
	return nil
}

// CanChangeReviewRequests decides whether a doer may add or remove review
// requests, as Gitea's CanDoerChangeReviewRequests: not in an archived
// repository; the poster, or anyone the repository names (its owner, a
// collaborator, a member of a team that reads its pull requests).
func CanChangeReviewRequests(archived, isPoster, isNamed bool) bool {
	return !archived && (isPoster || isNamed)
}

// ReviewRequestFacts are what a user review request is judged on.
type ReviewRequestFacts struct {
	Add bool
	// ReviewerIsOrg says the named account is an organisation.
	ReviewerIsOrg bool
	// ReviewerReadsPulls says the reviewer may read the pull requests.
	ReviewerReadsPulls bool
	// ReviewerIsPoster says the reviewer opened the pull request (a
	// migrated pull request's poster stands for someone else: false).
	ReviewerIsPoster bool
	// DoerMayChange is CanChangeReviewRequests for the doer.
	DoerMayChange bool
	// DoerIsPoster says the doer opened the pull request.
	DoerIsPoster bool
	// LastReview is the reviewer's latest verdict or request (nil: none).
	LastReview *Review
	// DoerID is who asks.
	DoerID int64
}

// CanRequestReview decides whether a user review request may be added or
// removed, with Gitea's reasons (422): an organisation reviews nothing, a
// reviewer must read the pull requests, the poster is no reviewer; the
// poster may ask again someone who reviewed already; anyone may withdraw a
// request made of themselves.
func CanRequestReview(f ReviewRequestFacts) error {
	if f.ReviewerIsOrg {
		return errs.Invalid("Organization can't be added as reviewer", "reviewers")
	}
	if f.Add {
		if !f.ReviewerReadsPulls {
			return errs.Invalid("Reviewer can't read", "reviewers")
		}
		if f.ReviewerIsPoster {
			return errs.Invalid("poster of pr can't be reviewer", "reviewers")
		}
		if f.DoerMayChange {
			return nil
		}
		if f.DoerIsPoster && f.LastReview != nil && f.LastReview.State != ReviewRequest {
			return nil
		}
		return errs.Invalid("Doer can't choose reviewer", "reviewers")
	}
	if f.DoerMayChange {
		return nil
	}
	if f.LastReview != nil && f.LastReview.State == ReviewRequest && f.LastReview.ReviewerID == f.DoerID {
		return nil
	}
	return errs.Invalid("Doer can't remove reviewer", "reviewers")
}

// CanRequestTeamReview decides whether a team review request may be added
// or removed: a private repository's team must reach it, and the doer must
// be allowed to change requests (422 otherwise).
func CanRequestTeamReview(add, repoPrivate, teamReachesRepo, doerMayChange bool) error {
	if add && repoPrivate && !teamReachesRepo {
		return errs.Invalid("Reviewing team can't read repo", "team_reviewers")
	}
	if doerMayChange {
		return nil
	}
	if add {
		return errs.Invalid("Doer can't choose reviewer", "team_reviewers")
	}
	return errs.Invalid("Doer can't remove reviewer", "team_reviewers")
}

// CanRequestOn refuses asking a reviewer again on a closed or merged pull
// request (403, Gitea's ErrReviewRequestOnClosedPR): only a reviewer who
// reviewed already is asked again, so a first request passes.
func CanRequestOn(p *PullRequest, isClosed bool, last *Review) error {
	if last != nil && last.State != ReviewRequest && (isClosed || p.HasMerged) {
		return errs.Forbidden(msgRequestClosed)
	}
	return nil
}
