// Package activity records what happens in repositories for the activity
// feeds and answers the feeds and the heatmap.
package activity

import (
	"context"
	"encoding/json"
	"strconv"

	"github.com/depothq/depot/domain/activity"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

var _ ports.Events = (*Recorder)(nil)

// Recorder is the event port as the service sees it: it writes the
// activity record of each event in the event's transaction, then hands the
// event on to next (the webhook dispatcher), so feeds and webhooks hear
// of the same events from the same points.
type Recorder struct {
	next  ports.Events
	clock ports.Clock
}

// NewRecorder wraps next.
func NewRecorder(next ports.Events, clock ports.Clock) *Recorder {
	return &Recorder{next: next, clock: clock}
}

// Notify wakes next's workers once the transaction that queued work has
// committed.
func (r *Recorder) Notify() {
	if n, ok := r.next.(interface{ Notify() }); ok {
		n.Notify()
	}
}

func (r *Recorder) record(ctx context.Context, tx ports.Stores, repo *repository.Repository, actor int64, op activity.OpType,
	ref, content string, commentID int64) error {
	if repo == nil || repo.ID == 0 || !recordedActor(actor) {
		return nil
	}
	return tx.Activities.Add(ctx, []*activity.Activity{{UserID: actor, ActUserID: actor, OpType: op, RepoID: repo.ID,
		RepoOwnerID: repo.Owner.ID, CommentID: commentID, RefName: ref, Content: content, IsPrivate: repo.Private,
		Created: r.clock.Now()}})
}

// recordedActor reports whether records are kept of what actor does: an
// account, or the Actions pseudo-user (a workflow's token pushing, as Gitea
// records it).
func recordedActor(actor int64) bool { return actor > 0 || actor == user.ActionsUserID }

// pushContent is Gitea's content of a commit_repo record (PushCommits),
// with the head commit and the compare link; Depot does not list the
// pushed commits in it.
type pushContent struct {
	Commits    []any          `json:"Commits"`
	HeadCommit map[string]any `json:"HeadCommit"`
	CompareURL string         `json:"CompareURL"`
	Len        int            `json:"Len"`
}

// Pushed records commit_repo for each branch moved, push_tag for each tag
// written, delete_branch and delete_tag for removals.
func (r *Recorder) Pushed(ctx context.Context, tx ports.Stores, e ports.PushEvent) error {
	if len(e.Changes) > 0 && recordedActor(e.PusherID) {
		repo, err := tx.Repos.GetByID(ctx, e.RepoID)
		if err != nil {
			return err
		}
		if err := r.recordRefs(ctx, tx, repo, e.PusherID, e.Changes, pushOps); err != nil {
			return err
		}
	}
	return r.next.Pushed(ctx, tx, e)
}

// refOps names the operation of each kind of ref change; "" records none.
type refOps struct {
	branchCreate, branchUpdate, branchDelete, tagWrite, tagDelete activity.OpType
}

var (
	// pushOps are a push's: commit_repo for branches moved or created.
	pushOps = refOps{branchCreate: activity.OpCommitRepo, branchUpdate: activity.OpCommitRepo,
		branchDelete: activity.OpDeleteBranch, tagWrite: activity.OpPushTag, tagDelete: activity.OpDeleteTag}
	// mirrorOps are a mirror sync's, as Gitea's mirror notifier names them.
	mirrorOps = refOps{branchCreate: activity.OpMirrorSyncCreate, branchUpdate: activity.OpMirrorSyncPush,
		branchDelete: activity.OpMirrorSyncDelete, tagWrite: activity.OpMirrorSyncCreate, tagDelete: activity.OpMirrorSyncDelete}
)

// recordRefs records one activity per branch or tag change, by actor;
// moved branches carry Gitea's push content (head commit, compare link).
func (r *Recorder) recordRefs(ctx context.Context, tx ports.Stores, repo *repository.Repository, actor int64,
	changes []repository.RefChange, ops refOps) error {
	var list []*activity.Activity
	for _, c := range changes {
		a := &activity.Activity{UserID: actor, ActUserID: actor, RepoID: repo.ID, RepoOwnerID: repo.Owner.ID,
			RefName: c.Ref, IsPrivate: repo.Private, Created: r.clock.Now()}
		switch {
		case c.IsBranch() && c.IsDelete():
			a.OpType = ops.branchDelete
		case c.IsBranch():
			a.OpType = ops.branchUpdate
			if c.IsCreate() {
				a.OpType = ops.branchCreate
			}
			pc := pushContent{Commits: []any{}, HeadCommit: map[string]any{"Sha1": c.NewID}}
			if !c.IsCreate() {
				pc.CompareURL = repo.Owner.Name + "/" + repo.Name + "/compare/" + c.OldID + "..." + c.NewID
			}
			b, _ := json.Marshal(pc)
			a.Content = string(b)
		case c.IsTag() && c.IsDelete():
			a.OpType = ops.tagDelete
		case c.IsTag():
			a.OpType = ops.tagWrite
		}
		if a.OpType != "" {
			list = append(list, a)
		}
	}
	if len(list) == 0 {
		return nil
	}
	return tx.Activities.Add(ctx, list)
}

// MirrorSynced records the refs a mirror sync changed, by the mirror's
// owner, as Gitea's mirror_sync_* records.
func (r *Recorder) MirrorSynced(ctx context.Context, tx ports.Stores, e ports.MirrorSyncEvent) error {
	if e.Repo != nil && len(e.Changes) > 0 {
		if err := r.recordRefs(ctx, tx, e.Repo, e.Repo.Owner.ID, e.Changes, mirrorOps); err != nil {
			return err
		}
	}
	return r.next.MirrorSynced(ctx, tx, e)
}

// RepositoryMoved records rename_repo (content: the old name) or
// transfer_repo (content: the old owner/name), as Gitea does.
func (r *Recorder) RepositoryMoved(ctx context.Context, tx ports.Stores, e ports.RepoMoveEvent) error {
	op, content := activity.OpRenameRepo, e.OldName
	if e.Transferred() {
		op, content = activity.OpTransferRepo, e.OldOwner+"/"+e.OldName
	}
	if err := r.record(ctx, tx, e.Repo, e.SenderID, op, "", content, 0); err != nil {
		return err
	}
	return r.next.RepositoryMoved(ctx, tx, e)
}

// RepositoryCreated records create_repo (a fork's too, by its creator).
func (r *Recorder) RepositoryCreated(ctx context.Context, tx ports.Stores, e ports.RepoEvent) error {
	if err := r.record(ctx, tx, e.Repo, e.SenderID, activity.OpCreateRepo, "", "", 0); err != nil {
		return err
	}
	return r.next.RepositoryCreated(ctx, tx, e)
}

// RepositoryDeleted records nothing: the repository's records go with it.
func (r *Recorder) RepositoryDeleted(ctx context.Context, tx ports.Stores, e ports.RepoEvent) error {
	return r.next.RepositoryDeleted(ctx, tx, e)
}

// IssueChanged records issues and pull requests opened, closed, reopened
// and merged, and comments created.
func (r *Recorder) IssueChanged(ctx context.Context, tx ports.Stores, e ports.IssueEvent) error {
	if op, content, commentID, err := r.issueOp(ctx, tx, e); err != nil {
		return err
	} else if op != "" {
		if err := r.record(ctx, tx, e.Repo, e.SenderID, op, "", content, commentID); err != nil {
			return err
		}
	}
	return r.next.IssueChanged(ctx, tx, e)
}

// issueOp maps an issue event to its operation and content ("index|title"
// for issues, "index|body" for comments), as Gitea writes them.
func (r *Recorder) issueOp(ctx context.Context, tx ports.Stores, e ports.IssueEvent) (activity.OpType, string, int64, error) {
	if e.Issue == nil {
		return "", "", 0, nil
	}
	pull := e.Issue.IsPull
	idx := strconv.FormatInt(e.Issue.Index, 10)
	pick := func(forIssue, forPull activity.OpType) activity.OpType {
		if pull {
			return forPull
		}
		return forIssue
	}
	switch {
	case e.Kind == ports.IssueEventIssues && e.Action == "opened":
		return pick(activity.OpCreateIssue, activity.OpCreatePullRequest), idx + "|" + e.Issue.Title, 0, nil
	case e.Kind == ports.IssueEventIssues && e.Action == "reopened":
		return pick(activity.OpReopenIssue, activity.OpReopenPullRequest), idx + "|" + e.Issue.Title, 0, nil
	case e.Kind == ports.IssueEventIssues && e.Action == "closed":
		if pull {
			pr, err := tx.Pulls.GetByIssueID(ctx, e.Issue.ID)
			if err != nil {
				return "", "", 0, err
			}
			if pr.HasMerged {
				return activity.OpMergePullRequest, idx + "|" + e.Issue.Title, 0, nil
			}
		}
		return pick(activity.OpCloseIssue, activity.OpClosePullRequest), idx + "|" + e.Issue.Title, 0, nil
	case e.Kind == ports.IssueEventComment && e.Action == "created" && e.Comment != nil:
		return pick(activity.OpCommentIssue, activity.OpCommentPull), idx + "|" + e.Comment.Body, e.Comment.ID, nil
	}
	return "", "", 0, nil
}

// WikiChanged records edit_wiki (a page created or edited) or delete_wiki,
// with the page as the ref name and the commit message as the content:
// Depot's own operations, as Gitea records no wiki activity.
func (r *Recorder) WikiChanged(ctx context.Context, tx ports.Stores, e ports.WikiEvent) error {
	op := activity.OpEditWiki
	if e.Action == "deleted" {
		op = activity.OpDeleteWiki
	}
	if err := r.record(ctx, tx, e.Repo, e.SenderID, op, e.Page, e.Comment, 0); err != nil {
		return err
	}
	return r.next.WikiChanged(ctx, tx, e)
}

// ReleaseChanged records publish_release for a published release.
func (r *Recorder) ReleaseChanged(ctx context.Context, tx ports.Stores, e ports.ReleaseEvent) error {
	if e.Action == "published" && e.Release != nil {
		if err := r.record(ctx, tx, e.Repo, e.SenderID, activity.OpPublishRelease, e.Release.TagName, e.Release.Title, 0); err != nil {
			return err
		}
	}
	return r.next.ReleaseChanged(ctx, tx, e)
}
