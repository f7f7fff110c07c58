package http

import (
	"net/http"
	"time"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/protection"
)

// branchProtections serves a repository's branch protection rules
// (catalogue 4.5): repository administrators only.
type branchProtections struct{ *kernel }

// branchProtectionRoutes are the rows of branchProtections. The priority
// row comes before {name} so that "priority" is never read as a rule name
// on POST (no rule route takes POST with a name).
func (s *kernel) branchProtectionRoutes() []route {
	h := branchProtections{s}
	return []route{
		{"GET", R + "/branch_protections", scopes(catRepo), "T,RA", h.list},
		{"POST", R + "/branch_protections", scopes(catRepo), "T,RA,NA", h.create},
		{"POST", R + "/branch_protections/priority", scopes(catRepo), "T,RA,NA", h.setPriorities},
		{"GET", R + "/branch_protections/{name}", scopes(catRepo), "T,RA", h.get},
		{"PATCH", R + "/branch_protections/{name}", scopes(catRepo), "T,RA,NA", h.edit},
		{"DELETE", R + "/branch_protections/{name}", scopes(catRepo), "T,RA", h.delete},
	}
}

// list answers GET R/branch_protections: every rule, in the order they apply.
func (s branchProtections) list(q *request) error {
	bp := s.repos.BranchProtections()
	rules, err := bp.List(q.r.Context(), q.repo)
	if err != nil {
		return err
	}
	users, teams, err := bp.Names(q.r.Context(), q.repo, rules)
	if err != nil {
		return err
	}
	out := make([]branchProtectionDTO, 0, len(rules))
	for _, r := range rules {
		out = append(out, toBranchProtection(r, users, teams))
	}
	q.json(http.StatusOK, out)
	return nil
}

// get answers GET R/branch_protections/{name}.
func (s branchProtections) get(q *request) error {
	r, err := s.repos.BranchProtections().Get(q.r.Context(), q.repo, q.var_("name"))
	if err != nil {
		return err
	}
	return s.answer(q, http.StatusOK, r)
}

// create answers POST R/branch_protections with the new rule (201).
func (s branchProtections) create(q *request) error {
	var body createBranchProtectionBody
	if err := decodeJSON(q.r, &body); err != nil {
		return err
	}
	name := body.RuleName
	if name == "" {
		name = body.BranchName
	}
	if name == "" {
		return errs.BadRequest("both rule_name and branch_name are empty")
	}
	r, err := s.repos.BranchProtections().Create(q.r.Context(), q.repo, name, body.input())
	if err != nil {
		return err
	}
	return s.answer(q, http.StatusCreated, r)
}

// edit answers PATCH R/branch_protections/{name}: only the fields given change.
func (s branchProtections) edit(q *request) error {
	var body editBranchProtectionBody
	if err := decodeJSON(q.r, &body); err != nil {
		return err
	}
	r, err := s.repos.BranchProtections().Edit(q.r.Context(), q.repo, q.var_("name"), body.input())
	if err != nil {
		return err
	}
	return s.answer(q, http.StatusOK, r)
}

// delete answers DELETE R/branch_protections/{name} (204).
func (s branchProtections) delete(q *request) error {
	return noContent(q, s.repos.BranchProtections().Delete(q.r.Context(), q.repo, q.var_("name")))
}

// setPriorities answers POST R/branch_protections/priority (204).
func (s branchProtections) setPriorities(q *request) error {
	var body struct {
		IDs []int64 `json:"ids"`
	}
	if err := decodeJSON(q.r, &body); err != nil {
		return err
	}
	return noContent(q, s.repos.BranchProtections().SetPriorities(q.r.Context(), q.repo, body.IDs))
}

// answer renders one rule with its allowlists' names.
func (s branchProtections) answer(q *request, status int, r *protection.BranchRule) error {
	users, teams, err := s.repos.BranchProtections().Names(q.r.Context(), q.repo, []*protection.BranchRule{r})
	if err != nil {
		return err
	}
	q.json(status, toBranchProtection(r, users, teams))
	return nil
}

// createBranchProtectionBody is Gitea's CreateBranchProtectionOption.
type createBranchProtectionBody struct {
	BranchName                    string   `json:"branch_name"`
	RuleName                      string   `json:"rule_name"`
	Priority                      int64    `json:"priority"`
	EnablePush                    bool     `json:"enable_push"`
	EnablePushWhitelist           bool     `json:"enable_push_whitelist"`
	PushWhitelistUsernames        []string `json:"push_whitelist_usernames"`
	PushWhitelistTeams            []string `json:"push_whitelist_teams"`
	PushWhitelistDeployKeys       bool     `json:"push_whitelist_deploy_keys"`
	EnableForcePush               bool     `json:"enable_force_push"`
	EnableForcePushAllowlist      bool     `json:"enable_force_push_allowlist"`
	ForcePushAllowlistUsernames   []string `json:"force_push_allowlist_usernames"`
	ForcePushAllowlistTeams       []string `json:"force_push_allowlist_teams"`
	ForcePushAllowlistDeployKeys  bool     `json:"force_push_allowlist_deploy_keys"`
	EnableMergeWhitelist          bool     `json:"enable_merge_whitelist"`
	MergeWhitelistUsernames       []string `json:"merge_whitelist_usernames"`
	MergeWhitelistTeams           []string `json:"merge_whitelist_teams"`
	EnableStatusCheck             bool     `json:"enable_status_check"`
	StatusCheckContexts           []string `json:"status_check_contexts"`
	RequiredApprovals             int64    `json:"required_approvals"`
	EnableApprovalsWhitelist      bool     `json:"enable_approvals_whitelist"`
	ApprovalsWhitelistUsernames   []string `json:"approvals_whitelist_username"`
	ApprovalsWhitelistTeams       []string `json:"approvals_whitelist_teams"`
	BlockOnRejectedReviews        bool     `json:"block_on_rejected_reviews"`
	BlockOnOfficialReviewRequests bool     `json:"block_on_official_review_requests"`
	BlockOnOutdatedBranch         bool     `json:"block_on_outdated_branch"`
	DismissStaleApprovals         bool     `json:"dismiss_stale_approvals"`
	IgnoreStaleApprovals          bool     `json:"ignore_stale_approvals"`
	RequireSignedCommits          bool     `json:"require_signed_commits"`
	ProtectedFilePatterns         string   `json:"protected_file_patterns"`
	UnprotectedFilePatterns       string   `json:"unprotected_file_patterns"`
	BlockAdminMergeOverride       bool     `json:"block_admin_merge_override"`
}

func names(v []string) *[]string {
	if v == nil {
		v = []string{}
	}
	return &v
}

func (b createBranchProtectionBody) input() repos.BranchRuleInput {
	contexts := b.StatusCheckContexts
	return repos.BranchRuleInput{
		EnablePush: &b.EnablePush, EnablePushAllowlist: &b.EnablePushWhitelist, PushAllowlistDeployKeys: &b.PushWhitelistDeployKeys,
		PushAllowlistUsers: names(b.PushWhitelistUsernames), PushAllowlistTeams: names(b.PushWhitelistTeams),
		EnableForcePush: &b.EnableForcePush, EnableForcePushAllowlist: &b.EnableForcePushAllowlist,
		ForcePushAllowlistDeployKeys: &b.ForcePushAllowlistDeployKeys,
		ForcePushAllowlistUsers:      names(b.ForcePushAllowlistUsernames), ForcePushAllowlistTeams: names(b.ForcePushAllowlistTeams),
		EnableMergeAllowlist: &b.EnableMergeWhitelist,
		MergeAllowlistUsers:  names(b.MergeWhitelistUsernames), MergeAllowlistTeams: names(b.MergeWhitelistTeams),
		EnableStatusCheck: &b.EnableStatusCheck, StatusCheckContexts: &contexts,
		RequiredApprovals: &b.RequiredApprovals, EnableApprovalsAllowlist: &b.EnableApprovalsWhitelist,
		ApprovalsAllowlistUsers: names(b.ApprovalsWhitelistUsernames), ApprovalsAllowlistTeams: names(b.ApprovalsWhitelistTeams),
		BlockOnRejectedReviews: &b.BlockOnRejectedReviews, BlockOnOfficialReviewRequests: &b.BlockOnOfficialReviewRequests,
		BlockOnOutdated: &b.BlockOnOutdatedBranch, DismissStaleApprovals: &b.DismissStaleApprovals,
		IgnoreStaleApprovals: &b.IgnoreStaleApprovals, RequireSignedCommits: &b.RequireSignedCommits,
		ProtectedFilePatterns: &b.ProtectedFilePatterns, UnprotectedFilePatterns: &b.UnprotectedFilePatterns,
		BlockAdminMergeOverride: &b.BlockAdminMergeOverride, Priority: &b.Priority,
	}
}

// editBranchProtectionBody is Gitea's EditBranchProtectionOption: absent
// fields stay as they are.
type editBranchProtectionBody struct {
	Priority                      *int64   `json:"priority"`
	EnablePush                    *bool    `json:"enable_push"`
	EnablePushWhitelist           *bool    `json:"enable_push_whitelist"`
	PushWhitelistUsernames        []string `json:"push_whitelist_usernames"`
	PushWhitelistTeams            []string `json:"push_whitelist_teams"`
	PushWhitelistDeployKeys       *bool    `json:"push_whitelist_deploy_keys"`
	EnableForcePush               *bool    `json:"enable_force_push"`
	EnableForcePushAllowlist      *bool    `json:"enable_force_push_allowlist"`
	ForcePushAllowlistUsernames   []string `json:"force_push_allowlist_usernames"`
	ForcePushAllowlistTeams       []string `json:"force_push_allowlist_teams"`
	ForcePushAllowlistDeployKeys  *bool    `json:"force_push_allowlist_deploy_keys"`
	EnableMergeWhitelist          *bool    `json:"enable_merge_whitelist"`
	MergeWhitelistUsernames       []string `json:"merge_whitelist_usernames"`
	MergeWhitelistTeams           []string `json:"merge_whitelist_teams"`
	EnableStatusCheck             *bool    `json:"enable_status_check"`
	StatusCheckContexts           []string `json:"status_check_contexts"`
	RequiredApprovals             *int64   `json:"required_approvals"`
	EnableApprovalsWhitelist      *bool    `json:"enable_approvals_whitelist"`
	ApprovalsWhitelistUsernames   []string `json:"approvals_whitelist_username"`
	ApprovalsWhitelistTeams       []string `json:"approvals_whitelist_teams"`
	BlockOnRejectedReviews        *bool    `json:"block_on_rejected_reviews"`
	BlockOnOfficialReviewRequests *bool    `json:"block_on_official_review_requests"`
	BlockOnOutdatedBranch         *bool    `json:"block_on_outdated_branch"`
	DismissStaleApprovals         *bool    `json:"dismiss_stale_approvals"`
	IgnoreStaleApprovals          *bool    `json:"ignore_stale_approvals"`
	RequireSignedCommits          *bool    `json:"require_signed_commits"`
	ProtectedFilePatterns         *string  `json:"protected_file_patterns"`
	UnprotectedFilePatterns       *string  `json:"unprotected_file_patterns"`
	BlockAdminMergeOverride       *bool    `json:"block_admin_merge_override"`
}

// given is nil for a list the body left out (JSON null or absent).
func given(v []string) *[]string {
	if v == nil {
		return nil
	}
	return &v
}

func (b editBranchProtectionBody) input() repos.BranchRuleInput {
	return repos.BranchRuleInput{
		EnablePush: b.EnablePush, EnablePushAllowlist: b.EnablePushWhitelist, PushAllowlistDeployKeys: b.PushWhitelistDeployKeys,
		PushAllowlistUsers: given(b.PushWhitelistUsernames), PushAllowlistTeams: given(b.PushWhitelistTeams),
		EnableForcePush: b.EnableForcePush, EnableForcePushAllowlist: b.EnableForcePushAllowlist,
		ForcePushAllowlistDeployKeys: b.ForcePushAllowlistDeployKeys,
		ForcePushAllowlistUsers:      given(b.ForcePushAllowlistUsernames), ForcePushAllowlistTeams: given(b.ForcePushAllowlistTeams),
		EnableMergeAllowlist: b.EnableMergeWhitelist,
		MergeAllowlistUsers:  given(b.MergeWhitelistUsernames), MergeAllowlistTeams: given(b.MergeWhitelistTeams),
		EnableStatusCheck: b.EnableStatusCheck, StatusCheckContexts: given(b.StatusCheckContexts),
		RequiredApprovals: b.RequiredApprovals, EnableApprovalsAllowlist: b.EnableApprovalsWhitelist,
		ApprovalsAllowlistUsers: given(b.ApprovalsWhitelistUsernames), ApprovalsAllowlistTeams: given(b.ApprovalsWhitelistTeams),
		BlockOnRejectedReviews: b.BlockOnRejectedReviews, BlockOnOfficialReviewRequests: b.BlockOnOfficialReviewRequests,
		BlockOnOutdated: b.BlockOnOutdatedBranch, DismissStaleApprovals: b.DismissStaleApprovals,
		IgnoreStaleApprovals: b.IgnoreStaleApprovals, RequireSignedCommits: b.RequireSignedCommits,
		ProtectedFilePatterns: b.ProtectedFilePatterns, UnprotectedFilePatterns: b.UnprotectedFilePatterns,
		BlockAdminMergeOverride: b.BlockAdminMergeOverride, Priority: b.Priority,
	}
}

// branchProtectionDTO is Gitea's BranchProtection: the fields of the
// create option, and the rule's times.
type branchProtectionDTO struct {
	createBranchProtectionBody
	Created time.Time `json:"created_at"`
	Updated time.Time `json:"updated_at"`
}

// idNames turns ids into names, leaving out ids no longer known.
func idNames(ids []int64, known map[int64]string) []string {
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		if n, ok := known[id]; ok {
			out = append(out, n)
		}
	}
	return out
}

// toBranchProtection renders a rule as Gitea's ToBranchProtection does
// (branch_name repeats the rule name).
func toBranchProtection(r *protection.BranchRule, users, teams map[int64]string) branchProtectionDTO {
	contexts := r.StatusCheckContexts
	if contexts == nil {
		contexts = []string{}
	}
	return branchProtectionDTO{createBranchProtectionBody: createBranchProtectionBody{
		BranchName: r.Name, RuleName: r.Name, Priority: r.Priority,
		EnablePush: r.EnablePush, EnablePushWhitelist: r.EnablePushAllowlist,
		PushWhitelistUsernames: idNames(r.PushAllowlistUserIDs, users), PushWhitelistTeams: idNames(r.PushAllowlistTeamIDs, teams),
		PushWhitelistDeployKeys: r.PushAllowlistDeployKeys,
		EnableForcePush:         r.EnableForcePush, EnableForcePushAllowlist: r.EnableForcePushAllowlist,
		ForcePushAllowlistUsernames:  idNames(r.ForcePushAllowlistUserIDs, users),
		ForcePushAllowlistTeams:      idNames(r.ForcePushAllowlistTeamIDs, teams),
		ForcePushAllowlistDeployKeys: r.ForcePushAllowlistDeployKeys,
		EnableMergeWhitelist:         r.EnableMergeAllowlist,
		MergeWhitelistUsernames:      idNames(r.MergeAllowlistUserIDs, users), MergeWhitelistTeams: idNames(r.MergeAllowlistTeamIDs, teams),
		EnableStatusCheck: r.EnableStatusCheck, StatusCheckContexts: contexts,
		RequiredApprovals: r.RequiredApprovals, EnableApprovalsWhitelist: r.EnableApprovalsAllowlist,
		ApprovalsWhitelistUsernames: idNames(r.ApprovalsAllowlistUserIDs, users),
		ApprovalsWhitelistTeams:     idNames(r.ApprovalsAllowlistTeamIDs, teams),
		BlockOnRejectedReviews:      r.BlockOnRejectedReviews, BlockOnOfficialReviewRequests: r.BlockOnOfficialReviewRequests,
		BlockOnOutdatedBranch: r.BlockOnOutdatedBranch, DismissStaleApprovals: r.DismissStaleApprovals,
		IgnoreStaleApprovals: r.IgnoreStaleApprovals, RequireSignedCommits: r.RequireSignedCommits,
		ProtectedFilePatterns: r.ProtectedFilePatterns, UnprotectedFilePatterns: r.UnprotectedFilePatterns,
		BlockAdminMergeOverride: r.BlockAdminMergeOverride,
	}, Created: r.Created.UTC(), Updated: r.Updated.UTC()}
}
