package pull_test

import (
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/pull"
)

func TestDecideReviewState(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   pull.ReviewRequestInput
		want pull.ReviewState
		err  error
		msg  string
	}{
		{"approve without body", pull.ReviewRequestInput{Event: "APPROVED"}, pull.ReviewApproved, nil, ""},
		{"approve own", pull.ReviewRequestInput{Event: "APPROVED", DoerIsPoster: true}, 0, errs.ErrInvalid,
			"Event: approve your own pull is not allowed"},
		{"reject own", pull.ReviewRequestInput{Event: "REQUEST_CHANGES", Body: "no", DoerIsPoster: true}, 0, errs.ErrInvalid,
			"Event: reject your own pull is not allowed"},
		{"reject needs body", pull.ReviewRequestInput{Event: "REQUEST_CHANGES", Body: "  "}, 0, errs.ErrInvalid,
			"Body: review event REQUEST_CHANGES requires a body"},
		{"reject with body", pull.ReviewRequestInput{Event: "REQUEST_CHANGES", Body: "fix it"}, pull.ReviewRequestChanges, nil, ""},
		{"comment with body", pull.ReviewRequestInput{Event: "COMMENT", Body: "hm"}, pull.ReviewComment, nil, ""},
		{"comment with line comments", pull.ReviewRequestInput{Event: "COMMENT", HasComments: true}, pull.ReviewComment, nil, ""},
		{"comment empty", pull.ReviewRequestInput{Event: "COMMENT"}, 0, errs.ErrInvalid,
			"Body: review event COMMENT requires a body or a comment"},
		{"own comment is fine", pull.ReviewRequestInput{Event: "COMMENT", Body: "x", DoerIsPoster: true}, pull.ReviewComment, nil, ""},
		{"pending with body", pull.ReviewRequestInput{Event: "PENDING", Body: "draft"}, pull.ReviewPending, nil, ""},
		{"unknown event is pending", pull.ReviewRequestInput{Event: "MAYBE", Body: "draft"}, pull.ReviewPending, nil, ""},
		{"pending needs body", pull.ReviewRequestInput{HasComments: true}, 0, errs.ErrInvalid, "Body: review event  requires a body"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := pull.DecideReviewState(tc.in)
			wantErr(t, err, tc.err, tc.msg)
			if tc.err == nil && got != tc.want {
				t.Fatalf("state = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestReviewLifecycleRules(t *testing.T) {
	open := &pull.PullRequest{}
	merged := &pull.PullRequest{HasMerged: true}
	pending := &pull.Review{ReviewerID: 7, State: pull.ReviewPending}
	approved := &pull.Review{ReviewerID: 7, State: pull.ReviewApproved}
	commented := &pull.Review{ReviewerID: 7, State: pull.ReviewComment}
	request := &pull.Review{ReviewerID: 7, State: pull.ReviewRequest}
	for _, tc := range []struct {
		name string
		err  error
		want error
		msg  string
	}{
		{"review open", pull.CanReview(open, false, pull.ReviewApproved), nil, ""},
		{"review closed", pull.CanReview(open, true, pull.ReviewComment), errs.ErrInvalid, "index: can't submit review for a closed or merged PR"},
		{"review merged", pull.CanReview(merged, false, pull.ReviewApproved), errs.ErrInvalid, ""},
		{"draft on closed", pull.CanReview(open, true, pull.ReviewPending), nil, ""},
		{"submit pending", pull.CanSubmit(pending, pull.ReviewApproved), nil, ""},
		{"submit submitted", pull.CanSubmit(approved, pull.ReviewComment), errs.ErrInvalid, "id: only a pending review can be submitted"},
		{"submit into pending", pull.CanSubmit(pending, pull.ReviewPending), errs.ErrInvalid, "Event: review stay pending"},
		{"delete own", pull.CanDeleteReview(approved, 7, false), nil, ""},
		{"delete other's", pull.CanDeleteReview(approved, 8, false), errs.ErrForbidden, ""},
		{"site admin deletes", pull.CanDeleteReview(commented, 8, true), nil, ""},
		{"anonymous deletes", pull.CanDeleteReview(approved, 0, false), errs.ErrForbidden, ""},
		{"delete request", pull.CanDeleteReview(request, 7, false), errs.ErrInvalid, ""},
		{"dismiss as admin", pull.CanDismiss(adminAll, approved, open, false), nil, ""},
		{"dismiss as writer", pull.CanDismiss(writeAll, approved, open, false), errs.ErrForbidden, "Must be repo admin"},
		{"dismiss a comment", pull.CanDismiss(adminAll, commented, open, false), errs.ErrForbidden,
			"not need to dismiss this review because it's type is not Approve or change request"},
		{"dismiss on merged", pull.CanDismiss(adminAll, approved, merged, false), errs.ErrForbidden, ""},
	} {
		t.Run(tc.name, func(t *testing.T) { wantErr(t, tc.err, tc.want, tc.msg) })
	}
}

func TestReviewVisibility(t *testing.T) {
	is := is.New(t)
	pending := &pull.Review{ReviewerID: 7, State: pull.ReviewPending}
	is.True(pending.VisibleTo(7, false))
	is.True(!pending.VisibleTo(8, false))
	is.True(!pending.VisibleTo(0, false))
	is.True(pending.VisibleTo(8, true))
	is.True((&pull.Review{State: pull.ReviewComment}).VisibleTo(0, false))
}

func TestReviewStaleness(t *testing.T) {
	is := is.New(t)
	is.True(!pull.IsStale("a", "a"))
	is.True(pull.IsStale("a", "b"))
	is.True(!pull.IsStale("", "b"))
}

func TestOfficialReviewer(t *testing.T) {
	allow := &pull.ApprovalRule{EnableAllowlist: true, UserIDs: []int64{3}, TeamIDs: []int64{9}}
	for _, tc := range []struct {
		name   string
		rule   *pull.ApprovalRule
		user   int64
		teams  []int64
		writes bool
		want   bool
	}{
		{"no rule, writer", nil, 1, nil, true, true},
		{"no rule, reader", nil, 1, nil, false, false},
		{"rule without allowlist, writer", &pull.ApprovalRule{}, 1, nil, true, true},
		{"allowlisted user who only reads", allow, 3, nil, false, true},
		{"allowlisted team member", allow, 4, []int64{9}, false, true},
		{"writer off the allowlist", allow, 5, []int64{8}, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := pull.IsOfficialReviewer(tc.rule, tc.user, tc.teams, tc.writes); got != tc.want {
				t.Fatalf("official = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestReviewsAllowMerge(t *testing.T) {
	approve := func(official, stale, dismissed bool) *pull.Review {
		return &pull.Review{State: pull.ReviewApproved, Official: official, Stale: stale, Dismissed: dismissed}
	}
	reject := &pull.Review{State: pull.ReviewRequestChanges, Official: true}
	two := &pull.ApprovalRule{RequiredApprovals: 2}
	twoFresh := &pull.ApprovalRule{RequiredApprovals: 2, IgnoreStaleApprovals: true}
	blocking := &pull.ApprovalRule{BlockOnRejectedReviews: true}
	for _, tc := range []struct {
		name    string
		rule    *pull.ApprovalRule
		reviews []*pull.Review
		count   int
		err     error
	}{
		{"no rule", nil, nil, 0, nil},
		{"two official approvals", two, []*pull.Review{approve(true, false, false), approve(true, true, false)}, 2, nil},
		{"unofficial ones do not count", two, []*pull.Review{approve(true, false, false), approve(false, false, false)}, 1, errs.ErrNotAllowed},
		{"dismissed ones do not count", two, []*pull.Review{approve(true, false, false), approve(true, false, true)}, 1, errs.ErrNotAllowed},
		{"stale ones count unless ignored", twoFresh, []*pull.Review{approve(true, false, false), approve(true, true, false)}, 1, errs.ErrNotAllowed},
		{"rejection blocks", blocking, []*pull.Review{reject}, 0, errs.ErrNotAllowed},
		{"dismissed rejection does not", blocking, []*pull.Review{{State: pull.ReviewRequestChanges, Official: true, Dismissed: true}}, 0, nil},
		{"rejection ignored without the option", two, []*pull.Review{reject, approve(true, false, false), approve(true, false, false)}, 2, nil},
		{"official request blocks", &pull.ApprovalRule{BlockOnOfficialReviewRequests: true},
			[]*pull.Review{{State: pull.ReviewRequest, Official: true}}, 0, errs.ErrNotAllowed},
		{"unofficial request does not", &pull.ApprovalRule{BlockOnOfficialReviewRequests: true},
			[]*pull.Review{{State: pull.ReviewRequest}}, 0, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := pull.GrantedApprovals(tc.rule, tc.reviews); got != tc.count {
				t.Fatalf("approvals = %d, want %d", got, tc.count)
			}
			wantErr(t, pull.ReviewsAllowMerge(tc.rule, tc.reviews), tc.err, "")
		})
	}
}

func TestReviewRequestRules(t *testing.T) {
	reviewed := &pull.Review{ReviewerID: 5, State: pull.ReviewComment}
	requested := &pull.Review{ReviewerID: 5, State: pull.ReviewRequest}
	ok := pull.ReviewRequestFacts{Add: true, ReviewerReadsPulls: true, DoerMayChange: true, DoerID: 1}
	with := func(edit func(f *pull.ReviewRequestFacts)) pull.ReviewRequestFacts {
		f := ok
		edit(&f)
		return f
	}
	for _, tc := range []struct {
		name string
		f    pull.ReviewRequestFacts
		err  error
		msg  string
	}{
		{"add", ok, nil, ""},
		{"organisation", with(func(f *pull.ReviewRequestFacts) { f.ReviewerIsOrg = true }), errs.ErrInvalid, "reviewers: Organization can't be added as reviewer"},
		{"reviewer can't read", with(func(f *pull.ReviewRequestFacts) { f.ReviewerReadsPulls = false }), errs.ErrInvalid, "reviewers: Reviewer can't read"},
		{"poster as reviewer", with(func(f *pull.ReviewRequestFacts) { f.ReviewerIsPoster = true }), errs.ErrInvalid, "reviewers: poster of pr can't be reviewer"},
		{"outsider adds", with(func(f *pull.ReviewRequestFacts) { f.DoerMayChange = false }), errs.ErrInvalid, "reviewers: Doer can't choose reviewer"},
		{"poster asks a reviewer again", with(func(f *pull.ReviewRequestFacts) {
			f.DoerMayChange, f.DoerIsPoster, f.LastReview = false, true, reviewed
		}), nil, ""},
		{"outsider removes", with(func(f *pull.ReviewRequestFacts) { f.Add, f.DoerMayChange = false, false }), errs.ErrInvalid, "reviewers: Doer can't remove reviewer"},
		{"reviewer withdraws own request", with(func(f *pull.ReviewRequestFacts) {
			f.Add, f.DoerMayChange, f.DoerID, f.LastReview = false, false, 5, requested
		}), nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) { wantErr(t, pull.CanRequestReview(tc.f), tc.err, tc.msg) })
	}
	wantErr(t, pull.CanRequestTeamReview(true, true, false, true), errs.ErrInvalid, "team_reviewers: Reviewing team can't read repo")
	wantErr(t, pull.CanRequestTeamReview(true, false, false, true), nil, "")
	wantErr(t, pull.CanRequestTeamReview(false, true, false, false), errs.ErrInvalid, "team_reviewers: Doer can't remove reviewer")
	wantErr(t, pull.CanRequestOn(&pull.PullRequest{HasMerged: true}, false, reviewed), errs.ErrForbidden, "")
	wantErr(t, pull.CanRequestOn(&pull.PullRequest{HasMerged: true}, false, nil), nil, "")
}
