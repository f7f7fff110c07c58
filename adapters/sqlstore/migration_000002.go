package sqlstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"
)

// Schema version 000002, frozen: repositories and what hangs off them
// (redirects, collaborators, deploy keys, topics, stars, watches, pending
// transfers). These types describe the tables as this migration creates them.

type m000002Repo struct {
	bun.BaseModel `bun:"table:repos"`

	ID                 int64  `bun:"id,pk,autoincrement"`
	OwnerID            int64  `bun:"owner_id,notnull,unique:repos_owner_lower_name"`
	LowerName          string `bun:"lower_name,notnull,unique:repos_owner_lower_name"`
	Name               string `bun:"name,notnull"`
	Description        string `bun:"description,notnull,default:''"`
	Website            string `bun:"website,notnull,default:''"`
	OriginalURL        string `bun:"original_url,notnull,default:''"`
	MirrorInterval     string `bun:"mirror_interval,notnull,default:''"`
	DefaultBranch      string `bun:"default_branch,notnull,default:''"`
	ObjectFormat       string `bun:"object_format,notnull,default:'sha1'"`
	Units              string `bun:"units,notnull,default:''"`
	ExternalTrackerURL string `bun:"external_tracker_url,notnull,default:''"`
	TrackerURLFormat   string `bun:"tracker_url_format,notnull,default:''"`
	TrackerIssueStyle  string `bun:"tracker_issue_style,notnull,default:''"`
	TrackerRegexp      string `bun:"tracker_regexp_pattern,notnull,default:''"`
	ExternalWikiURL    string `bun:"external_wiki_url,notnull,default:''"`
	EnableTimeTracker  bool   `bun:"enable_time_tracker,notnull,default:false"`
	OnlyContributors   bool   `bun:"allow_only_contributors_to_track_time,notnull,default:false"`
	EnableIssueDeps    bool   `bun:"enable_issue_dependencies,notnull,default:false"`

	IgnoreWhitespaceConflicts     bool   `bun:"ignore_whitespace_conflicts,notnull,default:false"`
	AllowMerge                    bool   `bun:"allow_merge,notnull,default:false"`
	AllowRebase                   bool   `bun:"allow_rebase,notnull,default:false"`
	AllowRebaseMerge              bool   `bun:"allow_rebase_merge,notnull,default:false"`
	AllowSquash                   bool   `bun:"allow_squash,notnull,default:false"`
	AllowFastForwardOnly          bool   `bun:"allow_fast_forward_only,notnull,default:false"`
	AllowRebaseUpdate             bool   `bun:"allow_rebase_update,notnull,default:false"`
	AllowManualMerge              bool   `bun:"allow_manual_merge,notnull,default:false"`
	AutodetectManualMerge         bool   `bun:"autodetect_manual_merge,notnull,default:false"`
	DefaultDeleteBranchAfterMerge bool   `bun:"default_delete_branch_after_merge,notnull,default:false"`
	DefaultMergeStyle             string `bun:"default_merge_style,notnull,default:''"`
	DefaultAllowMaintainerEdit    bool   `bun:"default_allow_maintainer_edit,notnull,default:false"`

	Avatar   string `bun:"avatar,notnull,default:''"`
	Topics   string `bun:"topics,notnull,default:''"`
	Private  bool   `bun:"private,notnull,default:false"`
	Template bool   `bun:"template,notnull,default:false"`
	Archived bool   `bun:"archived,notnull,default:false"`
	IsEmpty  bool   `bun:"is_empty,notnull,default:false"`
	IsMirror bool   `bun:"is_mirror,notnull,default:false"`
	ForkID   int64  `bun:"fork_id,notnull,default:0"`

	NumStars            int   `bun:"num_stars,notnull,default:0"`
	NumWatches          int   `bun:"num_watches,notnull,default:0"`
	NumForks            int   `bun:"num_forks,notnull,default:0"`
	NumIssues           int   `bun:"num_issues,notnull,default:0"`
	NumClosedIssues     int   `bun:"num_closed_issues,notnull,default:0"`
	NumPulls            int   `bun:"num_pulls,notnull,default:0"`
	NumClosedPulls      int   `bun:"num_closed_pulls,notnull,default:0"`
	NumMilestones       int   `bun:"num_milestones,notnull,default:0"`
	NumClosedMilestones int   `bun:"num_closed_milestones,notnull,default:0"`
	NumReleases         int   `bun:"num_releases,notnull,default:0"`
	Size                int64 `bun:"size,type:bigint,notnull,default:0"`

	Created    time.Time `bun:"created,nullzero"`
	Updated    time.Time `bun:"updated,nullzero"`
	ArchivedAt time.Time `bun:"archived_at,nullzero"`
}

type m000002RepoRedirect struct {
	bun.BaseModel `bun:"table:repo_redirects"`

	OwnerID   int64  `bun:"owner_id,pk"`
	LowerName string `bun:"lower_name,pk"`
	RepoID    int64  `bun:"repo_id,notnull"`
}

type m000002Collaboration struct {
	bun.BaseModel `bun:"table:collaborations"`

	RepoID  int64     `bun:"repo_id,pk"`
	UserID  int64     `bun:"user_id,pk"`
	Mode    int       `bun:"mode,notnull,default:0"`
	Created time.Time `bun:"created,nullzero"`
	Updated time.Time `bun:"updated,nullzero"`
}

type m000002DeployKey struct {
	bun.BaseModel `bun:"table:deploy_keys"`

	ID          int64     `bun:"id,pk,autoincrement"`
	RepoID      int64     `bun:"repo_id,notnull,unique:deploy_keys_repo_fingerprint,unique:deploy_keys_repo_title"`
	Title       string    `bun:"title,notnull,unique:deploy_keys_repo_title"`
	Content     string    `bun:"content,notnull"`
	Fingerprint string    `bun:"fingerprint,notnull,unique:deploy_keys_repo_fingerprint"`
	ReadOnly    bool      `bun:"read_only,notnull,default:true"`
	Created     time.Time `bun:"created,nullzero"`
}

type m000002Topic struct {
	bun.BaseModel `bun:"table:topics"`

	ID        int64     `bun:"id,pk,autoincrement"`
	Name      string    `bun:"name,notnull,unique"`
	RepoCount int       `bun:"repo_count,notnull,default:0"`
	Created   time.Time `bun:"created,nullzero"`
	Updated   time.Time `bun:"updated,nullzero"`
}

type m000002RepoTopic struct {
	bun.BaseModel `bun:"table:repo_topics"`

	RepoID  int64 `bun:"repo_id,pk"`
	TopicID int64 `bun:"topic_id,pk"`
}

type m000002Star struct {
	bun.BaseModel `bun:"table:stars"`

	UserID  int64     `bun:"user_id,pk"`
	RepoID  int64     `bun:"repo_id,pk"`
	Created time.Time `bun:"created,nullzero"`
}

type m000002Watch struct {
	bun.BaseModel `bun:"table:watches"`

	UserID  int64     `bun:"user_id,pk"`
	RepoID  int64     `bun:"repo_id,pk"`
	Mode    int       `bun:"mode,notnull,default:1"`
	Created time.Time `bun:"created,nullzero"`
}

type m000002Transfer struct {
	bun.BaseModel `bun:"table:repo_transfers"`

	RepoID      int64     `bun:"repo_id,pk"`
	DoerID      int64     `bun:"doer_id,notnull"`
	RecipientID int64     `bun:"recipient_id,notnull"`
	Created     time.Time `bun:"created,nullzero"`
}

// The foreign keys of this version. A repository's owner has no cascade on
// purpose: an account that still owns repositories cannot be deleted, so a
// user deletion never silently takes Git data with it.
const (
	repoOwnerRef      = `("owner_id") REFERENCES "users" ("id")`
	cascadeToRepos    = `("repo_id") REFERENCES "repos" ("id") ON DELETE CASCADE`
	cascadeToOwner    = `("owner_id") REFERENCES "users" ("id") ON DELETE CASCADE`
	cascadeToTopics   = `("topic_id") REFERENCES "topics" ("id") ON DELETE CASCADE`
	cascadeToDoer     = `("doer_id") REFERENCES "users" ("id") ON DELETE CASCADE`
	cascadeToReceiver = `("recipient_id") REFERENCES "users" ("id") ON DELETE CASCADE`
)

func up000002(ctx context.Context, tx bun.Tx) error {
	// IF NOT EXISTS everywhere, as in 000001: a repeated run must succeed.
	// Tables come in reference order, since Postgres checks references at creation.
	tables := []struct {
		model any
		fks   []string
	}{
		{(*m000002Repo)(nil), []string{repoOwnerRef}},
		// A redirect dies with the repository it points at and with the
		// account whose old name it keeps.
		{(*m000002RepoRedirect)(nil), []string{cascadeToRepos, cascadeToOwner}},
		{(*m000002Collaboration)(nil), []string{cascadeToRepos, cascadeToUsers}},
		{(*m000002DeployKey)(nil), []string{cascadeToRepos}},
		{(*m000002Topic)(nil), nil},
		{(*m000002RepoTopic)(nil), []string{cascadeToRepos, cascadeToTopics}},
		{(*m000002Star)(nil), []string{cascadeToUsers, cascadeToRepos}},
		{(*m000002Watch)(nil), []string{cascadeToUsers, cascadeToRepos}},
		{(*m000002Transfer)(nil), []string{cascadeToRepos, cascadeToDoer, cascadeToReceiver}},
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
	// Indexes for the listings' sorts and for cascades from the side a
	// primary key does not lead with.
	indexes := []struct{ table, name, column string }{
		{"repos", "idx_repos_fork_id", "fork_id"},
		{"repos", "idx_repos_lower_name", "lower_name"},
		{"repos", "idx_repos_updated", "updated"},
		{"repos", "idx_repos_created", "created"},
		{"repos", "idx_repos_num_stars", "num_stars"},
		{"repo_redirects", "idx_repo_redirects_repo_id", "repo_id"},
		{"collaborations", "idx_collaborations_user_id", "user_id"},
		{"repo_topics", "idx_repo_topics_topic_id", "topic_id"},
		{"stars", "idx_stars_repo_id", "repo_id"},
		{"watches", "idx_watches_repo_id", "repo_id"},
		{"repo_transfers", "idx_repo_transfers_doer_id", "doer_id"},
		{"repo_transfers", "idx_repo_transfers_recipient_id", "recipient_id"},
	}
	for _, ix := range indexes {
		if _, err := tx.NewCreateIndex().Table(ix.table).Index(ix.name).Column(ix.column).IfNotExists().Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

func down000002(ctx context.Context, tx bun.Tx) error {
	for _, model := range []any{
		(*m000002Transfer)(nil), (*m000002Watch)(nil), (*m000002Star)(nil), (*m000002RepoTopic)(nil),
		(*m000002Topic)(nil), (*m000002DeployKey)(nil), (*m000002Collaboration)(nil),
		(*m000002RepoRedirect)(nil), (*m000002Repo)(nil),
	} {
		if _, err := tx.NewDropTable().Model(model).IfExists().Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}
