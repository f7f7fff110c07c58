package sqlstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"
)

// Schema version 000012, frozen once released: the issue tracker.
//
// Issues and pull requests share one per-repository index, allocated from
// issue_indexes (one row per repository, bumped with UPDATE … RETURNING so
// that concurrent creators never collide). Timeline events are comments
// rows with a type other than 0, as in Gitea. Counters (issue comments,
// label and milestone issue counts) are recounted in the writing
// transaction. poster and user ids carry no foreign key: a deleted
// account's issues stay, shown as Gitea's ghost user.

type m000012IssueIndex struct {
	bun.BaseModel `bun:"table:issue_indexes"`

	RepoID   int64 `bun:"repo_id,pk"`
	MaxIndex int64 `bun:"max_index,notnull,default:0"`
}

type m000012Issue struct {
	bun.BaseModel `bun:"table:issues"`

	ID          int64      `bun:"id,pk,autoincrement"`
	RepoID      int64      `bun:"repo_id,notnull"`
	Index       int64      `bun:"issue_index,notnull"`
	PosterID    int64      `bun:"poster_id,notnull"`
	Title       string     `bun:"title,notnull"`
	Body        string     `bun:"body,notnull,default:''"`
	Ref         string     `bun:"ref,notnull,default:''"`
	IsPull      bool       `bun:"is_pull,notnull,default:false"`
	IsClosed    bool       `bun:"is_closed,notnull,default:false"`
	IsLocked    bool       `bun:"is_locked,notnull,default:false"`
	PinOrder    int        `bun:"pin_order,notnull,default:0"`
	MilestoneID int64      `bun:"milestone_id,notnull,default:0"`
	Deadline    *time.Time `bun:"deadline"`
	NumComments int        `bun:"num_comments,notnull,default:0"`
	CreatedAt   time.Time  `bun:"created_at,notnull"`
	UpdatedAt   time.Time  `bun:"updated_at,notnull"`
	ClosedAt    *time.Time `bun:"closed_at"`
}

type m000012IssueAssignee struct {
	bun.BaseModel `bun:"table:issue_assignees"`

	IssueID int64 `bun:"issue_id,pk"`
	UserID  int64 `bun:"user_id,pk"`
}

type m000012Label struct {
	bun.BaseModel `bun:"table:labels"`

	ID              int64      `bun:"id,pk,autoincrement"`
	RepoID          *int64     `bun:"repo_id"`
	OrgID           *int64     `bun:"org_id"`
	Name            string     `bun:"name,notnull"`
	Color           string     `bun:"color,notnull"`
	Description     string     `bun:"description,notnull,default:''"`
	Exclusive       bool       `bun:"exclusive,notnull,default:false"`
	ArchivedAt      *time.Time `bun:"archived_at"`
	NumIssues       int        `bun:"num_issues,notnull,default:0"`
	NumClosedIssues int        `bun:"num_closed_issues,notnull,default:0"`
	CreatedAt       time.Time  `bun:"created_at,notnull"`
	UpdatedAt       time.Time  `bun:"updated_at,notnull"`
}

type m000012IssueLabel struct {
	bun.BaseModel `bun:"table:issue_labels"`

	IssueID int64 `bun:"issue_id,pk"`
	LabelID int64 `bun:"label_id,pk"`
}

type m000012Milestone struct {
	bun.BaseModel `bun:"table:milestones"`

	ID              int64      `bun:"id,pk,autoincrement"`
	RepoID          int64      `bun:"repo_id,notnull"`
	Title           string     `bun:"title,notnull"`
	Description     string     `bun:"description,notnull,default:''"`
	IsClosed        bool       `bun:"is_closed,notnull,default:false"`
	NumIssues       int        `bun:"num_issues,notnull,default:0"`
	NumClosedIssues int        `bun:"num_closed_issues,notnull,default:0"`
	DueAt           *time.Time `bun:"due_at"`
	ClosedAt        *time.Time `bun:"closed_at"`
	CreatedAt       time.Time  `bun:"created_at,notnull"`
	UpdatedAt       time.Time  `bun:"updated_at,notnull"`
}

type m000012Comment struct {
	bun.BaseModel `bun:"table:comments"`

	ID               int64     `bun:"id,pk,autoincrement"`
	Type             int       `bun:"type,notnull,default:0"`
	IssueID          int64     `bun:"issue_id,notnull"`
	RepoID           int64     `bun:"repo_id,notnull"`
	PosterID         int64     `bun:"poster_id,notnull"`
	Body             string    `bun:"body,notnull,default:''"`
	LabelID          int64     `bun:"label_id,notnull,default:0"`
	OldMilestoneID   int64     `bun:"old_milestone_id,notnull,default:0"`
	MilestoneID      int64     `bun:"milestone_id,notnull,default:0"`
	AssigneeID       int64     `bun:"assignee_id,notnull,default:0"`
	RemovedAssignee  bool      `bun:"removed_assignee,notnull,default:false"`
	OldTitle         string    `bun:"old_title,notnull,default:''"`
	NewTitle         string    `bun:"new_title,notnull,default:''"`
	RefRepoID        int64     `bun:"ref_repo_id,notnull,default:0"`
	RefIssueID       int64     `bun:"ref_issue_id,notnull,default:0"`
	RefCommentID     int64     `bun:"ref_comment_id,notnull,default:0"`
	DependentIssueID int64     `bun:"dependent_issue_id,notnull,default:0"`
	TimeID           int64     `bun:"time_id,notnull,default:0"`
	Content          string    `bun:"content,notnull,default:''"`
	CreatedAt        time.Time `bun:"created_at,notnull"`
	UpdatedAt        time.Time `bun:"updated_at,notnull"`
}

type m000012Reaction struct {
	bun.BaseModel `bun:"table:reactions"`

	ID        int64     `bun:"id,pk,autoincrement"`
	Type      string    `bun:"type,notnull"`
	IssueID   int64     `bun:"issue_id,notnull"`
	CommentID int64     `bun:"comment_id,notnull,default:0"`
	UserID    int64     `bun:"user_id,notnull"`
	CreatedAt time.Time `bun:"created_at,notnull"`
}

type m000012Attachment struct {
	bun.BaseModel `bun:"table:attachments"`

	ID            int64     `bun:"id,pk,autoincrement"`
	UUID          string    `bun:"uuid,notnull"`
	RepoID        int64     `bun:"repo_id,notnull"`
	IssueID       int64     `bun:"issue_id,notnull"`
	CommentID     int64     `bun:"comment_id,notnull,default:0"`
	UploaderID    int64     `bun:"uploader_id,notnull"`
	Name          string    `bun:"name,notnull"`
	Size          int64     `bun:"size,notnull,default:0"`
	DownloadCount int64     `bun:"download_count,notnull,default:0"`
	CreatedAt     time.Time `bun:"created_at,notnull"`
}

type m000012TrackedTime struct {
	bun.BaseModel `bun:"table:tracked_times"`

	ID        int64     `bun:"id,pk,autoincrement"`
	IssueID   int64     `bun:"issue_id,notnull"`
	RepoID    int64     `bun:"repo_id,notnull"`
	UserID    int64     `bun:"user_id,notnull"`
	Seconds   int64     `bun:"seconds,notnull"`
	CreatedAt time.Time `bun:"created_at,notnull"`
}

type m000012Stopwatch struct {
	bun.BaseModel `bun:"table:stopwatches"`

	ID        int64     `bun:"id,pk,autoincrement"`
	IssueID   int64     `bun:"issue_id,notnull"`
	UserID    int64     `bun:"user_id,notnull"`
	CreatedAt time.Time `bun:"created_at,notnull"`
}

type m000012IssueDependency struct {
	bun.BaseModel `bun:"table:issue_dependencies"`

	IssueID      int64     `bun:"issue_id,pk"`
	DependencyID int64     `bun:"dependency_id,pk"`
	CreatedAt    time.Time `bun:"created_at,notnull"`
}

type m000012IssueWatch struct {
	bun.BaseModel `bun:"table:issue_watches"`

	IssueID    int64     `bun:"issue_id,pk"`
	UserID     int64     `bun:"user_id,pk"`
	IsWatching bool      `bun:"is_watching,notnull"`
	CreatedAt  time.Time `bun:"created_at,notnull"`
}

const (
	cascadeToIssue   = `("issue_id") REFERENCES "issues" ("id") ON DELETE CASCADE`
	cascadeToLabel   = `("label_id") REFERENCES "labels" ("id") ON DELETE CASCADE`
	cascadeToLabelOr = `("org_id") REFERENCES "users" ("id") ON DELETE CASCADE`
	cascadeToDepOn   = `("dependency_id") REFERENCES "issues" ("id") ON DELETE CASCADE`
)

func up000012(ctx context.Context, tx bun.Tx) error {
	tables := []struct {
		model any
		fks   []string
	}{
		{(*m000012IssueIndex)(nil), []string{cascadeToRepos}},
		{(*m000012Issue)(nil), []string{cascadeToRepos}},
		{(*m000012IssueAssignee)(nil), []string{cascadeToIssue}},
		{(*m000012Label)(nil), []string{cascadeToRepos, cascadeToLabelOr}},
		{(*m000012IssueLabel)(nil), []string{cascadeToIssue, cascadeToLabel}},
		{(*m000012Milestone)(nil), []string{cascadeToRepos}},
		{(*m000012Comment)(nil), []string{cascadeToIssue}},
		{(*m000012Reaction)(nil), []string{cascadeToIssue}},
		{(*m000012Attachment)(nil), []string{cascadeToIssue}},
		{(*m000012TrackedTime)(nil), []string{cascadeToIssue}},
		{(*m000012Stopwatch)(nil), []string{cascadeToIssue}},
		{(*m000012IssueDependency)(nil), []string{cascadeToIssue, cascadeToDepOn}},
		{(*m000012IssueWatch)(nil), []string{cascadeToIssue}},
	}
	for _, t := range tables {
		q := tx.NewCreateTable().Model(t.model).IfNotExists()
		for _, fk := range t.fks {
			q = q.ForeignKey(fk)
		}
		if _, err := q.Exec(ctx); err != nil {
			return err
		}
	}
	indexes := []struct {
		table, name string
		unique      bool
		columns     []string
	}{
		// The index is unique per repository.
		{"issues", "idx_issues_repo_index", true, []string{"repo_id", "issue_index"}},
		// Listing a repository's open or closed issues and pulls together
		// (the default of GET R/issues), newest first, reads this index in
		// order: a page costs the same however many issues there are.
		{"issues", "idx_issues_repo_list", false, []string{"repo_id", "is_closed", "created_at", "id"}},
		// The same for issues only or pulls only.
		{"issues", "idx_issues_repo_pull_list", false, []string{"repo_id", "is_pull", "is_closed", "created_at", "id"}},
		// The same for every state.
		{"issues", "idx_issues_repo_created", false, []string{"repo_id", "created_at", "id"}},
		{"issues", "idx_issues_repo_updated", false, []string{"repo_id", "updated_at"}},
		{"issues", "idx_issues_poster", false, []string{"poster_id"}},
		{"issues", "idx_issues_milestone", false, []string{"milestone_id"}},
		{"issue_assignees", "idx_issue_assignees_user", false, []string{"user_id", "issue_id"}},
		{"labels", "idx_labels_repo", false, []string{"repo_id", "name"}},
		{"labels", "idx_labels_org", false, []string{"org_id", "name"}},
		{"issue_labels", "idx_issue_labels_label", false, []string{"label_id", "issue_id"}},
		{"milestones", "idx_milestones_repo", false, []string{"repo_id", "is_closed", "id"}},
		{"comments", "idx_comments_issue", false, []string{"issue_id", "created_at", "id"}},
		{"comments", "idx_comments_repo_updated", false, []string{"repo_id", "updated_at"}},
		// The cross-references a text already wrote, so an edit adds none twice.
		{"comments", "idx_comments_ref", false, []string{"ref_issue_id", "ref_comment_id"}},
		{"reactions", "idx_reactions_target", true, []string{"issue_id", "comment_id", "user_id", "type"}},
		{"attachments", "idx_attachments_uuid", true, []string{"uuid"}},
		{"attachments", "idx_attachments_issue", false, []string{"issue_id", "comment_id"}},
		{"tracked_times", "idx_tracked_times_issue", false, []string{"issue_id", "user_id"}},
		{"tracked_times", "idx_tracked_times_user", false, []string{"user_id", "created_at"}},
		{"tracked_times", "idx_tracked_times_repo", false, []string{"repo_id", "created_at"}},
		// One running stopwatch per user.
		{"stopwatches", "idx_stopwatches_user", true, []string{"user_id"}},
		{"issue_dependencies", "idx_issue_dependencies_dep", false, []string{"dependency_id", "issue_id"}},
		{"issue_watches", "idx_issue_watches_user", false, []string{"user_id"}},
	}
	for _, ix := range indexes {
		q := tx.NewCreateIndex().Table(ix.table).Index(ix.name).Column(ix.columns...).IfNotExists()
		if ix.unique {
			q = q.Unique()
		}
		if _, err := q.Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

func down000012(ctx context.Context, tx bun.Tx) error {
	for _, t := range []string{"issue_watches", "issue_dependencies", "stopwatches", "tracked_times",
		"attachments", "reactions", "comments", "milestones", "issue_labels", "labels",
		"issue_assignees", "issues", "issue_indexes"} {
		if _, err := tx.NewDropTable().Table(t).IfExists().Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}
