// Package activity holds the records of Gitea's activity feeds: who did
// what in which repository, and when.
package activity

import "time"

// OpType is Gitea's name of an activity's operation.
type OpType string

// The operations Depot records, named as Gitea's API names them.
const (
	OpCreateRepo        OpType = "create_repo"
	OpCommitRepo        OpType = "commit_repo"
	OpCreateIssue       OpType = "create_issue"
	OpCreatePullRequest OpType = "create_pull_request"
	OpCommentIssue      OpType = "comment_issue"
	OpCommentPull       OpType = "comment_pull"
	OpCloseIssue        OpType = "close_issue"
	OpReopenIssue       OpType = "reopen_issue"
	OpClosePullRequest  OpType = "close_pull_request"
	OpReopenPullRequest OpType = "reopen_pull_request"
	OpMergePullRequest  OpType = "merge_pull_request"
	OpPushTag           OpType = "push_tag"
	OpDeleteTag         OpType = "delete_tag"
	OpDeleteBranch      OpType = "delete_branch"
	OpPublishRelease    OpType = "publish_release"
	OpRenameRepo        OpType = "rename_repo"
	OpTransferRepo      OpType = "transfer_repo"
	OpMirrorSyncPush    OpType = "mirror_sync_push"
	OpMirrorSyncCreate  OpType = "mirror_sync_create"
	OpMirrorSyncDelete  OpType = "mirror_sync_delete"
	// OpEditWiki and OpDeleteWiki are Depot's own: Gitea keeps no record
	// of wiki edits. The ref name is the page.
	OpEditWiki   OpType = "edit_wiki"
	OpDeleteWiki OpType = "delete_wiki"
)

// Activity is one recorded event.
type Activity struct {
	ID int64
	// UserID is the feed the record belongs to (Gitea's user_id); Depot
	// writes one record per event, for its actor.
	UserID    int64
	ActUserID int64
	OpType    OpType
	RepoID    int64
	// RepoOwnerID is the repository's owner, for organisation feeds.
	RepoOwnerID int64
	CommentID   int64
	RefName     string
	// Content is Gitea's: "index|title" for issues, the push's commits for a push.
	Content   string
	IsPrivate bool
	Created   time.Time
}

// HeatmapBucket is the number of contributions in one 15-minute window
// starting at Timestamp (unix seconds), as Gitea's heatmap counts them.
type HeatmapBucket struct {
	Timestamp     int64
	Contributions int64
}

// HeatmapWindow is the width of a heatmap bucket in seconds (Gitea's
// groupBy of 15 minutes).
const HeatmapWindow = 900

// Viewer is what a feed's policy needs to know of its reader.
type Viewer struct {
	ID      int64
	IsAdmin bool
	// PublicOnly is a token limited to public resources.
	PublicOnly bool
}

// UserFeedVisibility decides what of an account's feed v sees: hidden is
// true when the account keeps its activity private from v (Gitea's
// KeepActivityPrivate: only the account and administrators see it);
// publicOnly is true when v sees only public repositories' records (all
// but the account itself and administrators, and any public-only token).
func UserFeedVisibility(v Viewer, accountID int64, keepPrivate bool) (hidden, publicOnly bool) {
	self := v.ID != 0 && (v.ID == accountID || v.IsAdmin)
	return keepPrivate && !self, !self || v.PublicOnly
}

// GroupFeedVisibility decides whether v sees only public repositories'
// records of an organisation's or team's feed: everyone does but
// administrators and those who read all of its repositories (the
// organisation's owners, the team's members), unless v's token is public-only.
func GroupFeedVisibility(v Viewer, readsAll bool) (publicOnly bool) {
	return v.PublicOnly || !(v.IsAdmin || (v.ID != 0 && readsAll))
}
