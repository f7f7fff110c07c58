package sqlstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"
)

// Schema version 000021, frozen once released: branch protection rules.
// The allowlists and status contexts are JSON arrays in text columns (a
// rule is always read whole, and a repository has few rules).
type m000021BranchProtection struct {
	bun.BaseModel `bun:"table:branch_protections"`

	ID       int64  `bun:"id,pk,autoincrement"`
	RepoID   int64  `bun:"repo_id,notnull"`
	RuleName string `bun:"rule_name,type:varchar(255),notnull"`
	Priority int64  `bun:"priority,notnull,default:0"`

	EnablePush              bool   `bun:"enable_push,notnull,default:false"`
	EnablePushAllowlist     bool   `bun:"enable_push_allowlist,notnull,default:false"`
	PushAllowlistUserIDs    string `bun:"push_allowlist_user_ids,type:text,notnull,default:'[]'"`
	PushAllowlistTeamIDs    string `bun:"push_allowlist_team_ids,type:text,notnull,default:'[]'"`
	PushAllowlistDeployKeys bool   `bun:"push_allowlist_deploy_keys,notnull,default:false"`

	EnableForcePush              bool   `bun:"enable_force_push,notnull,default:false"`
	EnableForcePushAllowlist     bool   `bun:"enable_force_push_allowlist,notnull,default:false"`
	ForcePushAllowlistUserIDs    string `bun:"force_push_allowlist_user_ids,type:text,notnull,default:'[]'"`
	ForcePushAllowlistTeamIDs    string `bun:"force_push_allowlist_team_ids,type:text,notnull,default:'[]'"`
	ForcePushAllowlistDeployKeys bool   `bun:"force_push_allowlist_deploy_keys,notnull,default:false"`

	EnableMergeAllowlist  bool   `bun:"enable_merge_allowlist,notnull,default:false"`
	MergeAllowlistUserIDs string `bun:"merge_allowlist_user_ids,type:text,notnull,default:'[]'"`
	MergeAllowlistTeamIDs string `bun:"merge_allowlist_team_ids,type:text,notnull,default:'[]'"`

	EnableStatusCheck   bool   `bun:"enable_status_check,notnull,default:false"`
	StatusCheckContexts string `bun:"status_check_contexts,type:text,notnull,default:'[]'"`

	RequiredApprovals             int64  `bun:"required_approvals,notnull,default:0"`
	EnableApprovalsAllowlist      bool   `bun:"enable_approvals_allowlist,notnull,default:false"`
	ApprovalsAllowlistUserIDs     string `bun:"approvals_allowlist_user_ids,type:text,notnull,default:'[]'"`
	ApprovalsAllowlistTeamIDs     string `bun:"approvals_allowlist_team_ids,type:text,notnull,default:'[]'"`
	BlockOnRejectedReviews        bool   `bun:"block_on_rejected_reviews,notnull,default:false"`
	BlockOnOfficialReviewRequests bool   `bun:"block_on_official_review_requests,notnull,default:false"`
	DismissStaleApprovals         bool   `bun:"dismiss_stale_approvals,notnull,default:false"`
	IgnoreStaleApprovals          bool   `bun:"ignore_stale_approvals,notnull,default:false"`

	BlockOnOutdatedBranch   bool   `bun:"block_on_outdated_branch,notnull,default:false"`
	RequireSignedCommits    bool   `bun:"require_signed_commits,notnull,default:false"`
	ProtectedFilePatterns   string `bun:"protected_file_patterns,type:text,notnull,default:''"`
	UnprotectedFilePatterns string `bun:"unprotected_file_patterns,type:text,notnull,default:''"`
	BlockAdminMergeOverride bool   `bun:"block_admin_merge_override,notnull,default:false"`

	Created time.Time `bun:"created,notnull"`
	Updated time.Time `bun:"updated,notnull"`
}

func up000021(ctx context.Context, tx bun.Tx) error {
	if _, err := tx.NewCreateTable().Model((*m000021BranchProtection)(nil)).IfNotExists().
		ForeignKey(cascadeToRepos).Exec(ctx); err != nil {
		return err
	}
	_, err := tx.NewCreateIndex().Table("branch_protections").Index("branch_protections_repo_rule").
		Column("repo_id", "rule_name").Unique().IfNotExists().Exec(ctx)
	return err
}

func down000021(ctx context.Context, tx bun.Tx) error {
	_, err := tx.NewDropTable().Model((*m000021BranchProtection)(nil)).IfExists().Exec(ctx)
	return err
}
