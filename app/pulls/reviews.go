package pulls

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/org"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/pull"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// Reviews are the use cases of pull request reviews: list, read, create
// (with line comments anchored to the diff), submit a pending draft,
// delete, dismiss and undismiss.
type Reviews struct{ *Service }

// Reviews returns the review use cases.
func (s *Service) Reviews() Reviews { return Reviews{s} }

// errReviewNotFound answers an absent review, one of another pull request
// and a draft the caller may not see alike.
var errReviewNotFound = errs.NotFound("review does not exist")

// maxReviewDiffBytes bounds the diff read to anchor line comments: a pull
// request whose diff is larger takes no line comments (413).
const maxReviewDiffBytes = 32 << 20

// ReviewView is a page of reviews with what their JSON shows, each kind of
// record loaded in one query: reviewers, teams, code comment counts and
// the timeline entries their html_url points at.
type ReviewView struct {
	Issue   *issue.Issue
	Reviews []*pull.Review
	Total   int64
	Users   map[int64]*user.User
	Teams   map[int64]*org.Team
	Counts  map[int64]int
	Entries map[int64]int64
}

// ReviewCommentView is the code comments of one review with their posters
// and resolvers.
type ReviewCommentView struct {
	Issue    *issue.Issue
	Review   *pull.Review
	Comments []*issue.Comment
	Users    map[int64]*user.User
}

// ReviewCommentInput is one line comment of a new review (Gitea's
// CreatePullReviewComment).
type ReviewCommentInput struct {
	Path       string
	Body       string
	OldLineNum int64
	NewLineNum int64
}

// ReviewInput is Gitea's CreatePullReviewOptions.
type ReviewInput struct {
	Event    string
	Body     string
	CommitID string
	Comments []ReviewCommentInput
}

// List returns one page of pull request index's reviews, oldest first;
// pending drafts show to their authors (and site administrators) only, as
// Gitea filters them after paging.
func (s Reviews) List(ctx context.Context, a *repos.Access, index int64, opts ports.ListOptions) (*ReviewView, error) {
	i, _, err := s.Open(ctx, a, index)
	if err != nil {
		return nil, err
	}
	list, total, err := s.stores.PullReviews.List(ctx, i.ID, opts)
	if err != nil {
		return nil, err
	}
	v := &ReviewView{Issue: i, Total: total}
	for _, r := range list {
		if r.VisibleTo(a.Caller.UserID(), a.Caller.IsAdmin()) {
			v.Reviews = append(v.Reviews, r)
		}
	}
	return v, s.loadReviewFacts(ctx, s.stores, v)
}

// Get returns one review of pull request index.
func (s Reviews) Get(ctx context.Context, a *repos.Access, index, id int64) (*ReviewView, error) {
	i, _, r, err := s.openReview(ctx, a, index, id)
	if err != nil {
		return nil, err
	}
	return s.single(ctx, s.stores, i, r)
}

// Comments returns the code comments of one review, oldest first.
func (s Reviews) Comments(ctx context.Context, a *repos.Access, index, id int64) (*ReviewCommentView, error) {
	i, _, r, err := s.openReview(ctx, a, index, id)
	if err != nil {
		return nil, err
	}
	byReview, err := s.stores.PullReviews.CodeComments(ctx, []int64{r.ID})
	if err != nil {
		return nil, err
	}
	v := &ReviewCommentView{Issue: i, Review: r, Comments: byReview[r.ID]}
	ids := []int64{r.ReviewerID}
	for _, c := range v.Comments {
		ids = append(ids, c.PosterID, c.ResolveDoerID)
	}
	v.Users, err = s.usersByID(ctx, s.stores, ids)
	return v, err
}

// openReview finds review id of pull request index as the caller may see
// it: a draft of someone else is absent.
func (s Reviews) openReview(ctx context.Context, a *repos.Access, index, id int64) (*issue.Issue, *pull.PullRequest, *pull.Review, error) {
	i, p, err := s.Open(ctx, a, index)
	if err != nil {
		return nil, nil, nil, err
	}
	if id <= 0 {
		return nil, nil, nil, errReviewNotFound
	}
	r, err := s.stores.PullReviews.GetByID(ctx, id)
	if errors.Is(err, errs.ErrNotFound) {
		return nil, nil, nil, errReviewNotFound
	}
	if err != nil {
		return nil, nil, nil, err
	}
	if r.IssueID != i.ID || !r.VisibleTo(a.Caller.UserID(), a.Caller.IsAdmin()) {
		return nil, nil, nil, errReviewNotFound
	}
	return i, p, r, nil
}

// Create writes a review of pull request index with its line comments, in
// one transaction: the comments join the caller's pending draft (made if
// none), which is then submitted with the event's state (or stays pending).
// A line comment must point at a line of the pull request's diff (422);
// the diff lines around it are kept with it.
func (s Reviews) Create(ctx context.Context, a *repos.Access, index int64, in ReviewInput) (*ReviewView, error) {
	i, p, err := s.Open(ctx, a, index)
	if err != nil {
		return nil, err
	}
	doer := a.Caller.UserID()
	state, err := pull.DecideReviewState(pull.ReviewRequestInput{Event: in.Event, Body: in.Body,
		HasComments: len(in.Comments) > 0, DoerIsPoster: i.PosterID == doer})
	if err != nil {
		return nil, err
	}
	if err := pull.CanReview(p, i.IsClosed, state); err != nil {
		return nil, err
	}
	commitID := strings.TrimSpace(in.CommitID)
	if commitID == "" {
		commitID = p.HeadCommitID
	}
	comments, err := s.anchorComments(ctx, a, index, in.Comments)
	if err != nil {
		return nil, err
	}
	now := s.clock.Now()
	var r *pull.Review
	err = s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		r, err = tx.PullReviews.Pending(ctx, i.ID, doer)
		if errors.Is(err, errs.ErrNotFound) {
			r, err = nil, nil
		}
		if err != nil {
			return err
		}
		if r == nil && len(comments) > 0 {
			// The comments need a review to belong to: a draft, which the
			// submission below turns into the review.
			r = &pull.Review{IssueID: i.ID, ReviewerID: doer, State: pull.ReviewPending, CommitID: commitID,
				CreatedAt: now, UpdatedAt: now}
			if err := tx.PullReviews.Create(ctx, r); err != nil {
				return err
			}
		}
		for _, c := range comments {
			c.IssueID, c.RepoID, c.PosterID, c.ReviewID, c.CommitSHA = i.ID, a.Repo.ID, doer, r.ID, commitID
			c.CreatedAt, c.UpdatedAt = now, now
			if err := tx.Comments.Create(ctx, c); err != nil {
				return err
			}
		}
		r, err = s.submit(ctx, tx, a, i, p, r, state, in.Body, commitID)
		return err
	})
	if err != nil {
		return nil, err
	}
	return s.single(ctx, s.stores, i, r)
}

// anchorComments checks the line comments of a new review and cuts, from
// the pull request's diff, the lines each one keeps. The diff is read once.
func (s Reviews) anchorComments(ctx context.Context, a *repos.Access, index int64, in []ReviewCommentInput) ([]*issue.Comment, error) {
	if len(in) == 0 {
		return nil, nil
	}
	if len(in) > pull.MaxReviewComments {
		return nil, errs.Invalid(fmt.Sprintf("at most %d comments", pull.MaxReviewComments), "Comments")
	}
	lines := make([]pull.DiffLine, len(in))
	for n, c := range in {
		field := fmt.Sprintf("Comments[%d]", n)
		if strings.TrimSpace(c.Body) == "" {
			return nil, errs.Invalid("Required", field+".Body")
		}
		if len(c.Body) > issue.MaxCommentBodyBytes {
			return nil, errs.Invalid("MaxSize", field+".Body")
		}
		if strings.TrimSpace(c.Path) == "" {
			return nil, errs.Invalid("Required", field+".Path")
		}
		if c.OldLineNum < 0 || c.NewLineNum < 0 || (c.OldLineNum == 0 && c.NewLineNum == 0) {
			return nil, errs.Invalid("a comment needs a line: new_position or old_position", field+".NewLineNum")
		}
		lines[n] = pull.DiffLine{Path: c.Path, Old: c.OldLineNum, New: c.NewLineNum}
		if c.OldLineNum > 0 {
			lines[n].New = 0
		}
	}
	rg, err := s.rangeOf(ctx, a, index)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	lw := &limitWriter{w: &buf, left: maxReviewDiffBytes}
	if err := s.pulls.WriteRangeDiff(ctx, rg.baseRepoPath, rg.base, rg.head, ports.CommitDiffUnified, lw); err != nil {
		if lw.full {
			return nil, errs.TooLarge("the pull request's diff is too large for line comments")
		}
		return nil, err
	}
	diff := buf.String()
	out := make([]*issue.Comment, len(in))
	for n, c := range in {
		patch, ok := pull.CutDiffAroundLine(diff, lines[n])
		if !ok {
			return nil, errs.Invalid(fmt.Sprintf("line %d of %q is not part of the pull request's diff",
				max(lines[n].New, lines[n].Old), c.Path), fmt.Sprintf("Comments[%d]", n))
		}
		out[n] = &issue.Comment{Type: issue.CommentCode, Body: c.Body, TreePath: c.Path,
			Line: lines[n].Signed(), Patch: patch}
	}
	return out, nil
}

// limitWriter passes at most left bytes to w, then fails.
type limitWriter struct {
	w    *bytes.Buffer
	left int
	full bool
}

func (l *limitWriter) Write(p []byte) (int, error) {
	if len(p) > l.left {
		l.full = true
		return 0, errs.TooLarge("diff too large")
	}
	l.left -= len(p)
	return l.w.Write(p)
}

// Submit submits the caller's pending review id with the event's state
// and body, judging the present head.
func (s Reviews) Submit(ctx context.Context, a *repos.Access, index, id int64, event, body string) (*ReviewView, error) {
	i, p, r, err := s.openReview(ctx, a, index, id)
	if err != nil {
		return nil, err
	}
	if r.State != pull.ReviewPending {
		return nil, pull.CanSubmit(r, pull.ReviewComment)
	}
	if r.ReviewerID != a.Caller.UserID() {
		// A site administrator sees others' drafts but submits only their own.
		return nil, errs.Forbidden("only the reviewer may submit a pending review")
	}
	counts, err := s.stores.PullReviews.CodeCommentCounts(ctx, []int64{r.ID})
	if err != nil {
		return nil, err
	}
	state, err := pull.DecideReviewState(pull.ReviewRequestInput{Event: event, Body: body,
		HasComments: counts[r.ID] > 0, DoerIsPoster: i.PosterID == r.ReviewerID})
	if err != nil {
		return nil, err
	}
	if err := pull.CanSubmit(r, state); err != nil {
		return nil, err
	}
	if err := pull.CanReview(p, i.IsClosed, state); err != nil {
		return nil, err
	}
	err = s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		r, err = s.submit(ctx, tx, a, i, p, r, state, body, p.HeadCommitID)
		return err
	})
	if err != nil {
		return nil, err
	}
	return s.single(ctx, s.stores, i, r)
}

// submit turns the caller's draft r (nil: none) into a review of state,
// inside tx, as Gitea's SubmitReview: a verdict takes the official flag
// from the reviewer's earlier reviews and sets aside their earlier
// verdicts; any submitted review answers the reviewer's requests (and, for
// a verdict, their teams'); the timeline gets the review's entry and the
// hooks its event. A state that stays pending only records the body.
func (s Reviews) submit(ctx context.Context, tx ports.Stores, a *repos.Access, i *issue.Issue, p *pull.PullRequest,
	r *pull.Review, state pull.ReviewState, body, commitID string) (*pull.Review, error) {
	doer := a.Caller.UserID()
	now := s.clock.Now()
	if r == nil {
		r = &pull.Review{IssueID: i.ID, ReviewerID: doer, CreatedAt: now}
	}
	r.State, r.Body, r.CommitID, r.UpdatedAt = state, body, commitID, now
	if state == pull.ReviewPending {
		if r.ID == 0 {
			return r, tx.PullReviews.Create(ctx, r)
		}
		return r, tx.PullReviews.Update(ctx, r)
	}
	r.Official, r.Stale = false, false
	if state.IsVerdict() {
		official, err := s.officialReviewer(ctx, a, p, doer, a.Perm)
		if err != nil {
			return nil, err
		}
		if err := tx.PullReviews.ClearOfficial(ctx, i.ID, doer); err != nil {
			return nil, err
		}
		if err := tx.PullReviews.DismissVerdicts(ctx, i.ID, doer); err != nil {
			return nil, err
		}
		r.Official, r.Stale = official, pull.IsStale(commitID, p.HeadCommitID)
	}
	if err := tx.PullReviews.DeleteRequests(ctx, i.ID, doer); err != nil {
		return nil, err
	}
	var err error
	if r.ID == 0 {
		err = tx.PullReviews.Create(ctx, r)
	} else {
		err = tx.PullReviews.Update(ctx, r)
	}
	if err != nil {
		return nil, err
	}
	if state.IsVerdict() && a.Repo.Owner.Kind == user.KindOrganization {
		if err := s.answerTeamRequests(ctx, tx, i.ID, a.Repo.Owner.ID, doer); err != nil {
			return nil, err
		}
	}
	entry := &issue.Comment{Type: issue.CommentReview, IssueID: i.ID, RepoID: i.RepoID, PosterID: doer, Body: body,
		ReviewID: r.ID, CreatedAt: now, UpdatedAt: now}
	if err := tx.Comments.Create(ctx, entry); err != nil {
		return nil, err
	}
	return r, s.events.IssueChanged(ctx, tx, ports.IssueEvent{Kind: ports.IssueEventPullReview, Action: "reviewed",
		Repo: a.Repo, Issue: i, SenderID: doer, Review: r, ReviewerID: doer})
}

// answerTeamRequests removes the review requests of the teams of the
// organisation the reviewer belongs to.
func (s Reviews) answerTeamRequests(ctx context.Context, tx ports.Stores, issueID, orgID, reviewerID int64) error {
	all, err := tx.PullReviews.All(ctx, []int64{issueID})
	if err != nil {
		return err
	}
	for _, req := range all[issueID] {
		if req.State != pull.ReviewRequest || req.ReviewerTeamID == 0 {
			continue
		}
		member, err := tx.Orgs.IsTeamMember(ctx, req.ReviewerTeamID, reviewerID)
		if err != nil {
			return err
		}
		if member {
			if err := tx.PullReviews.Delete(ctx, req.ID); err != nil {
				return err
			}
		}
	}
	return nil
}

// officialReviewer decides whether userID's verdicts on p count towards
// approvals. Without branch protections every writer of the base's code
// counts; approvalRule is the seam the protections fill.
func (s *Service) officialReviewer(ctx context.Context, a *repos.Access, p *pull.PullRequest, userID int64,
	perm permission.Permission) (bool, error) {
	rule, err := s.approvalRule(ctx, a, p)
	if err != nil {
		return false, err
	}
	var teams []int64
	if rule != nil && rule.EnableAllowlist && a.Repo.Owner.Kind == user.KindOrganization {
		list, err := s.stores.Orgs.TeamsOf(ctx, a.Repo.Owner.ID, userID)
		if err != nil {
			return false, err
		}
		for _, t := range list {
			teams = append(teams, t.ID)
		}
	}
	return pull.IsOfficialReviewer(rule, userID, teams, perm.CanWrite(permission.UnitCode)), nil
}

// approvalRule is the review part of the branch protection rule of p's
// base branch; nil while no rule applies.
func (s *Service) approvalRule(ctx context.Context, a *repos.Access, p *pull.PullRequest) (*pull.ApprovalRule, error) {
	prot, err := s.repos.BranchProtections().Match(ctx, a.Repo, p.BaseBranch)
	if err != nil || prot == nil {
		return nil, err
	}
	return approvalRuleOf(prot), nil
}

// Delete removes review id with its comments: its reviewer or a site
// administrator may, and not a review request. Deleting an official
// verdict hands the official flag back to the reviewer's latest one.
func (s Reviews) Delete(ctx context.Context, a *repos.Access, index, id int64) error {
	i, _, r, err := s.openReview(ctx, a, index, id)
	if err != nil {
		return err
	}
	if err := pull.CanDeleteReview(r, a.Caller.UserID(), a.Caller.IsAdmin()); err != nil {
		return err
	}
	return s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		if err := tx.PullReviews.Delete(ctx, r.ID); err != nil {
			return err
		}
		if r.Official {
			return restoreOfficial(ctx, tx, i.ID, r.ReviewerID)
		}
		return nil
	})
}

// restoreOfficial makes the reviewer's latest verdict or request official
// again (Gitea's restoreLatestOfficialReview).
func restoreOfficial(ctx context.Context, tx ports.Stores, issueID, reviewerID int64) error {
	last, err := tx.PullReviews.Latest(ctx, issueID, reviewerID)
	if errors.Is(err, errs.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	return tx.PullReviews.SetOfficial(ctx, last.ID, true)
}

// Dismiss sets review id aside (dismiss true) with a message, or takes it
// back (false): repository administrators only, verdicts only, on open
// pull requests. priors also dismisses the reviewer's earlier verdicts. A
// dismissal shows in the timeline with its message.
func (s Reviews) Dismiss(ctx context.Context, a *repos.Access, index, id int64, message string, priors, dismiss bool) (*ReviewView, error) {
	if !a.Perm.IsAdmin() {
		return nil, errs.Forbidden("Must be repo admin")
	}
	i, p, r, err := s.openReview(ctx, a, index, id)
	if err != nil {
		return nil, err
	}
	if err := pull.CanDismiss(a.Perm, r, p, i.IsClosed); err != nil {
		return nil, err
	}
	now := s.clock.Now()
	err = s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		if priors {
			if err := tx.PullReviews.DismissVerdicts(ctx, i.ID, r.ReviewerID); err != nil {
				return err
			}
		}
		if r.Dismissed != dismiss || priors {
			r.Dismissed = dismiss
			if err := tx.PullReviews.Update(ctx, r); err != nil {
				return err
			}
		}
		if !dismiss {
			return nil
		}
		return tx.Comments.Create(ctx, &issue.Comment{Type: issue.CommentDismissReview, IssueID: i.ID, RepoID: i.RepoID,
			PosterID: a.Caller.UserID(), Content: message, ReviewID: r.ID, CreatedAt: now, UpdatedAt: now})
	})
	if err != nil {
		return nil, err
	}
	return s.single(ctx, s.stores, i, r)
}

// single renders one review.
func (s Reviews) single(ctx context.Context, st ports.Stores, i *issue.Issue, r *pull.Review) (*ReviewView, error) {
	v := &ReviewView{Issue: i, Reviews: []*pull.Review{r}, Total: 1}
	return v, s.loadReviewFacts(ctx, st, v)
}

// loadReviewFacts fills what v's reviews show, one query per kind.
func (s *Service) loadReviewFacts(ctx context.Context, st ports.Stores, v *ReviewView) error {
	var ids, users, teams []int64
	for _, r := range v.Reviews {
		ids = append(ids, r.ID)
		users = append(users, r.ReviewerID)
		teams = append(teams, r.ReviewerTeamID)
	}
	var err error
	if v.Users, err = s.usersByID(ctx, st, users); err != nil {
		return err
	}
	if v.Teams, err = st.PullReviews.Teams(ctx, positiveUnique(teams)); err != nil {
		return err
	}
	if v.Counts, err = st.PullReviews.CodeCommentCounts(ctx, ids); err != nil {
		return err
	}
	v.Entries, err = st.PullReviews.Entries(ctx, ids)
	return err
}

// usersByID loads these accounts in one query, by id.
func (s *Service) usersByID(ctx context.Context, st ports.Stores, ids []int64) (map[int64]*user.User, error) {
	out := map[int64]*user.User{}
	ids = positiveUnique(ids)
	if len(ids) == 0 {
		return out, nil
	}
	list, err := st.Users.GetByIDs(ctx, ids)
	if err != nil {
		return nil, err
	}
	for _, u := range list {
		out[u.ID] = u
	}
	return out, nil
}

// positiveUnique keeps the positive ids of list, each once.
func positiveUnique(list []int64) []int64 {
	seen := map[int64]bool{}
	var out []int64
	for _, id := range list {
		if id > 0 && !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}
