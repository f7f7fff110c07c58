package sqlstore

import (
	"context"
	"encoding/json"
	"time"

	"github.com/depothq/depot/domain/protection"
	"github.com/depothq/depot/ports"
	"github.com/uptrace/bun"
)

var branchProtectionMapping = mapping{
	op: "branch protection", notFound: "branch protection does not exist",
	conflict: "Branch protection already exist", missingRef: "repository does not exist",
}

var _ ports.BranchProtectionStore = (*BranchProtectionStore)(nil)

// BranchProtectionStore is the SQL implementation of ports.BranchProtectionStore.
type BranchProtectionStore struct{ c conn }

// List returns every rule of the repository by id.
func (s *BranchProtectionStore) List(ctx context.Context, repoID int64) ([]*protection.BranchRule, error) {
	var rows []branchProtectionRow
	err := s.c.r(ctx).NewSelect().Model(&rows).Where("bp.repo_id = ?", repoID).OrderExpr("bp.id ASC").Scan(ctx)
	if err != nil {
		return nil, branchProtectionMapping.mapErr(err)
	}
	return domainAll(rows, (*branchProtectionRow).toDomain), nil
}

// GetByName returns the rule of that exact name.
func (s *BranchProtectionStore) GetByName(ctx context.Context, repoID int64, name string) (*protection.BranchRule, error) {
	row := new(branchProtectionRow)
	err := s.c.r(ctx).NewSelect().Model(row).Where("bp.repo_id = ?", repoID).Where("bp.rule_name = ?", name).Scan(ctx)
	if err != nil {
		return nil, branchProtectionMapping.mapErr(err)
	}
	return row.toDomain(), nil
}

// Create inserts r; a priority of 0 becomes one more than the highest.
func (s *BranchProtectionStore) Create(ctx context.Context, r *protection.BranchRule) error {
	if r.Priority == 0 {
		var max int64
		err := s.c.w(ctx).NewSelect().Model((*branchProtectionRow)(nil)).ColumnExpr("COALESCE(MAX(bp.priority), 0)").
			Where("bp.repo_id = ?", r.RepoID).Scan(ctx, &max)
		if err != nil {
			return branchProtectionMapping.mapErr(err)
		}
		r.Priority = max + 1
	}
	row := toBranchProtectionRow(r)
	row.ID = 0
	if _, err := s.c.w(ctx).NewInsert().Model(row).Returning("id").Exec(ctx); err != nil {
		return branchProtectionMapping.mapErr(err)
	}
	r.ID = row.ID
	return nil
}

// Update writes every option of r.
func (s *BranchProtectionStore) Update(ctx context.Context, r *protection.BranchRule) error {
	row := toBranchProtectionRow(r)
	res, err := s.c.w(ctx).NewUpdate().Model(row).ExcludeColumn("id", "repo_id", "created").
		Where("id = ?", r.ID).Where("repo_id = ?", r.RepoID).Exec(ctx)
	return branchProtectionMapping.affected(res, err)
}

// Delete removes one rule.
func (s *BranchProtectionStore) Delete(ctx context.Context, repoID, id int64) error {
	res, err := s.c.w(ctx).NewDelete().Model((*branchProtectionRow)(nil)).Where("repo_id = ?", repoID).Where("id = ?", id).Exec(ctx)
	return branchProtectionMapping.affected(res, err)
}

// SetPriorities numbers the rules ids from 1 in order.
func (s *BranchProtectionStore) SetPriorities(ctx context.Context, repoID int64, ids []int64) error {
	for i, id := range ids {
		_, err := s.c.w(ctx).NewUpdate().Model((*branchProtectionRow)(nil)).Set("priority = ?", int64(i+1)).
			Where("repo_id = ?", repoID).Where("id = ?", id).Exec(ctx)
		if err != nil {
			return branchProtectionMapping.mapErr(err)
		}
	}
	return nil
}

type branchProtectionRow struct {
	bun.BaseModel `bun:"table:branch_protections,alias:bp"`

	ID       int64  `bun:"id,pk,autoincrement"`
	RepoID   int64  `bun:"repo_id"`
	RuleName string `bun:"rule_name"`
	Priority int64  `bun:"priority"`

	EnablePush              bool   `bun:"enable_push"`
	EnablePushAllowlist     bool   `bun:"enable_push_allowlist"`
	PushAllowlistUserIDs    string `bun:"push_allowlist_user_ids"`
	PushAllowlistTeamIDs    string `bun:"push_allowlist_team_ids"`
	PushAllowlistDeployKeys bool   `bun:"push_allowlist_deploy_keys"`

	EnableForcePush              bool   `bun:"enable_force_push"`
	EnableForcePushAllowlist     bool   `bun:"enable_force_push_allowlist"`
	ForcePushAllowlistUserIDs    string `bun:"force_push_allowlist_user_ids"`
	ForcePushAllowlistTeamIDs    string `bun:"force_push_allowlist_team_ids"`
	ForcePushAllowlistDeployKeys bool   `bun:"force_push_allowlist_deploy_keys"`

	EnableMergeAllowlist  bool   `bun:"enable_merge_allowlist"`
	MergeAllowlistUserIDs string `bun:"merge_allowlist_user_ids"`
	MergeAllowlistTeamIDs string `bun:"merge_allowlist_team_ids"`

	EnableStatusCheck   bool   `bun:"enable_status_check"`
	StatusCheckContexts string `bun:"status_check_contexts"`

	RequiredApprovals             int64  `bun:"required_approvals"`
	EnableApprovalsAllowlist      bool   `bun:"enable_approvals_allowlist"`
	ApprovalsAllowlistUserIDs     string `bun:"approvals_allowlist_user_ids"`
	ApprovalsAllowlistTeamIDs     string `bun:"approvals_allowlist_team_ids"`
	BlockOnRejectedReviews        bool   `bun:"block_on_rejected_reviews"`
	BlockOnOfficialReviewRequests bool   `bun:"block_on_official_review_requests"`
	DismissStaleApprovals         bool   `bun:"dismiss_stale_approvals"`
	IgnoreStaleApprovals          bool   `bun:"ignore_stale_approvals"`

	BlockOnOutdatedBranch   bool   `bun:"block_on_outdated_branch"`
	RequireSignedCommits    bool   `bun:"require_signed_commits"`
	ProtectedFilePatterns   string `bun:"protected_file_patterns"`
	UnprotectedFilePatterns string `bun:"unprotected_file_patterns"`
	BlockAdminMergeOverride bool   `bun:"block_admin_merge_override"`

	Created time.Time `bun:"created"`
	Updated time.Time `bun:"updated"`
}

// jsonList writes a list as a JSON array ("[]" for none).
func jsonList[T any](v []T) string {
	if len(v) == 0 {
		return "[]"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return "[]"
	}
	return string(b)
}

// parseList reads a JSON array; a malformed one reads as empty.
func parseList[T any](s string) []T {
	out := []T{}
	_ = json.Unmarshal([]byte(s), &out)
	if out == nil {
		out = []T{}
	}
	return out
}

func toBranchProtectionRow(r *protection.BranchRule) *branchProtectionRow {
	return &branchProtectionRow{
		ID: r.ID, RepoID: r.RepoID, RuleName: r.Name, Priority: r.Priority,
		EnablePush: r.EnablePush, EnablePushAllowlist: r.EnablePushAllowlist,
		PushAllowlistUserIDs: jsonList(r.PushAllowlistUserIDs), PushAllowlistTeamIDs: jsonList(r.PushAllowlistTeamIDs),
		PushAllowlistDeployKeys: r.PushAllowlistDeployKeys,
		EnableForcePush:         r.EnableForcePush, EnableForcePushAllowlist: r.EnableForcePushAllowlist,
		ForcePushAllowlistUserIDs: jsonList(r.ForcePushAllowlistUserIDs), ForcePushAllowlistTeamIDs: jsonList(r.ForcePushAllowlistTeamIDs),
		ForcePushAllowlistDeployKeys: r.ForcePushAllowlistDeployKeys,
		EnableMergeAllowlist:         r.EnableMergeAllowlist,
		MergeAllowlistUserIDs:        jsonList(r.MergeAllowlistUserIDs), MergeAllowlistTeamIDs: jsonList(r.MergeAllowlistTeamIDs),
		EnableStatusCheck: r.EnableStatusCheck, StatusCheckContexts: jsonList(r.StatusCheckContexts),
		RequiredApprovals: r.RequiredApprovals, EnableApprovalsAllowlist: r.EnableApprovalsAllowlist,
		ApprovalsAllowlistUserIDs: jsonList(r.ApprovalsAllowlistUserIDs), ApprovalsAllowlistTeamIDs: jsonList(r.ApprovalsAllowlistTeamIDs),
		BlockOnRejectedReviews: r.BlockOnRejectedReviews, BlockOnOfficialReviewRequests: r.BlockOnOfficialReviewRequests,
		DismissStaleApprovals: r.DismissStaleApprovals, IgnoreStaleApprovals: r.IgnoreStaleApprovals,
		BlockOnOutdatedBranch: r.BlockOnOutdatedBranch, RequireSignedCommits: r.RequireSignedCommits,
		ProtectedFilePatterns: r.ProtectedFilePatterns, UnprotectedFilePatterns: r.UnprotectedFilePatterns,
		BlockAdminMergeOverride: r.BlockAdminMergeOverride,
		Created:                 dbTime(r.Created), Updated: dbTime(r.Updated),
	}
}

func (b *branchProtectionRow) toDomain() *protection.BranchRule {
	return &protection.BranchRule{
		ID: b.ID, RepoID: b.RepoID, Name: b.RuleName, Priority: b.Priority,
		EnablePush: b.EnablePush, EnablePushAllowlist: b.EnablePushAllowlist,
		PushAllowlistUserIDs: parseList[int64](b.PushAllowlistUserIDs), PushAllowlistTeamIDs: parseList[int64](b.PushAllowlistTeamIDs),
		PushAllowlistDeployKeys: b.PushAllowlistDeployKeys,
		EnableForcePush:         b.EnableForcePush, EnableForcePushAllowlist: b.EnableForcePushAllowlist,
		ForcePushAllowlistUserIDs: parseList[int64](b.ForcePushAllowlistUserIDs), ForcePushAllowlistTeamIDs: parseList[int64](b.ForcePushAllowlistTeamIDs),
		ForcePushAllowlistDeployKeys: b.ForcePushAllowlistDeployKeys,
		EnableMergeAllowlist:         b.EnableMergeAllowlist,
		MergeAllowlistUserIDs:        parseList[int64](b.MergeAllowlistUserIDs), MergeAllowlistTeamIDs: parseList[int64](b.MergeAllowlistTeamIDs),
		EnableStatusCheck: b.EnableStatusCheck, StatusCheckContexts: parseList[string](b.StatusCheckContexts),
		RequiredApprovals: b.RequiredApprovals, EnableApprovalsAllowlist: b.EnableApprovalsAllowlist,
		ApprovalsAllowlistUserIDs: parseList[int64](b.ApprovalsAllowlistUserIDs), ApprovalsAllowlistTeamIDs: parseList[int64](b.ApprovalsAllowlistTeamIDs),
		BlockOnRejectedReviews: b.BlockOnRejectedReviews, BlockOnOfficialReviewRequests: b.BlockOnOfficialReviewRequests,
		DismissStaleApprovals: b.DismissStaleApprovals, IgnoreStaleApprovals: b.IgnoreStaleApprovals,
		BlockOnOutdatedBranch: b.BlockOnOutdatedBranch, RequireSignedCommits: b.RequireSignedCommits,
		ProtectedFilePatterns: b.ProtectedFilePatterns, UnprotectedFilePatterns: b.UnprotectedFilePatterns,
		BlockAdminMergeOverride: b.BlockAdminMergeOverride,
		Created:                 domainTime(b.Created), Updated: domainTime(b.Updated),
	}
}
