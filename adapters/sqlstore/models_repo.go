package sqlstore

import (
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
)

// The repository aggregate's query models, mirroring the current schema
// (migration 000002 keeps its own frozen copies).

type repoRow struct {
	bun.BaseModel `bun:"table:repos,alias:repo"`

	ID                 int64  `bun:"id,pk,autoincrement"`
	OwnerID            int64  `bun:"owner_id"`
	LowerName          string `bun:"lower_name"`
	Name               string `bun:"name"`
	Description        string `bun:"description"`
	Website            string `bun:"website"`
	OriginalURL        string `bun:"original_url"`
	MirrorInterval     string `bun:"mirror_interval"`
	DefaultBranch      string `bun:"default_branch"`
	ObjectFormat       string `bun:"object_format"`
	Units              string `bun:"units"`
	ExternalTrackerURL string `bun:"external_tracker_url"`
	TrackerURLFormat   string `bun:"tracker_url_format"`
	TrackerIssueStyle  string `bun:"tracker_issue_style"`
	TrackerRegexp      string `bun:"tracker_regexp_pattern"`
	ExternalWikiURL    string `bun:"external_wiki_url"`
	EnableTimeTracker  bool   `bun:"enable_time_tracker"`
	OnlyContributors   bool   `bun:"allow_only_contributors_to_track_time"`
	EnableIssueDeps    bool   `bun:"enable_issue_dependencies"`

	IgnoreWhitespaceConflicts     bool   `bun:"ignore_whitespace_conflicts"`
	AllowMerge                    bool   `bun:"allow_merge"`
	AllowRebase                   bool   `bun:"allow_rebase"`
	AllowRebaseMerge              bool   `bun:"allow_rebase_merge"`
	AllowSquash                   bool   `bun:"allow_squash"`
	AllowFastForwardOnly          bool   `bun:"allow_fast_forward_only"`
	AllowRebaseUpdate             bool   `bun:"allow_rebase_update"`
	AllowManualMerge              bool   `bun:"allow_manual_merge"`
	AutodetectManualMerge         bool   `bun:"autodetect_manual_merge"`
	DefaultDeleteBranchAfterMerge bool   `bun:"default_delete_branch_after_merge"`
	DefaultMergeStyle             string `bun:"default_merge_style"`
	DefaultAllowMaintainerEdit    bool   `bun:"default_allow_maintainer_edit"`

	Avatar   string `bun:"avatar"`
	Topics   string `bun:"topics"`
	Private  bool   `bun:"private"`
	Template bool   `bun:"template"`
	Archived bool   `bun:"archived"`
	IsEmpty  bool   `bun:"is_empty"`
	IsMirror bool   `bun:"is_mirror"`
	ForkID   int64  `bun:"fork_id"`

	NumStars            int   `bun:"num_stars"`
	NumWatches          int   `bun:"num_watches"`
	NumForks            int   `bun:"num_forks"`
	NumIssues           int   `bun:"num_issues"`
	NumClosedIssues     int   `bun:"num_closed_issues"`
	NumPulls            int   `bun:"num_pulls"`
	NumClosedPulls      int   `bun:"num_closed_pulls"`
	NumMilestones       int   `bun:"num_milestones"`
	NumClosedMilestones int   `bun:"num_closed_milestones"`
	NumReleases         int   `bun:"num_releases"`
	Size                int64 `bun:"size"`
	// ReleasesVersion is moved by triggers on releases and release_assets
	// (migration 000041), never written here.
	ReleasesVersion int64 `bun:"releases_version"`

	Created    time.Time `bun:"created,nullzero"`
	Updated    time.Time `bun:"updated,nullzero"`
	ArchivedAt time.Time `bun:"archived_at,nullzero"`
}

// repoUpdateExcluded are the columns Update leaves alone: the key, the
// counters kept by their own writers, the size, the topics column that
// TopicStore.Replace keeps in sync and the releases' version, which
// triggers move.
var repoUpdateExcluded = []string{
	"id", "num_stars", "num_watches", "num_forks", "num_issues", "num_closed_issues",
	"num_pulls", "num_closed_pulls", "num_milestones", "num_closed_milestones", "num_releases",
	"size", "topics", "releases_version",
}

// repoOwnerRow is a repository joined with the owner fields it carries.
type repoOwnerRow struct {
	repoRow `bun:",extend"`

	OwnerName       string `bun:"owner_name,scanonly"`
	OwnerKind       int    `bun:"owner_kind,scanonly"`
	OwnerVisibility string `bun:"owner_visibility,scanonly"`
	// TransferTo is the recipient of a pending transfer, 0 when none.
	TransferTo int64 `bun:"transfer_to,scanonly"`
}

// repoOwnerColumns select a repository with its owner; every read uses them
// with the join below, so Owner is filled by the same query.
var repoOwnerColumns = []string{
	"repo.*", "u.name AS owner_name", "u.kind AS owner_kind", "u.visibility AS owner_visibility",
	"COALESCE(rt.recipient_id, 0) AS transfer_to",
}

// repoOwnerJoin brings the owner and any pending transfer (at most one per
// repository, by primary key), so a read needs no second query for either.
const repoOwnerJoin = "JOIN users AS u ON u.id = repo.owner_id LEFT JOIN repo_transfers AS rt ON rt.repo_id = repo.id"

type repoRedirectRow struct {
	bun.BaseModel `bun:"table:repo_redirects,alias:rr"`

	OwnerID   int64  `bun:"owner_id,pk"`
	LowerName string `bun:"lower_name,pk"`
	RepoID    int64  `bun:"repo_id"`
}

func toRepoRow(r *repository.Repository) *repoRow {
	lower := r.LowerName
	if lower == "" {
		lower = strings.ToLower(r.Name)
	}
	m := r.Merge
	return &repoRow{
		ID: r.ID, OwnerID: r.Owner.ID, LowerName: lower, Name: r.Name,
		Description: r.Description, Website: r.Website, OriginalURL: r.OriginalURL,
		MirrorInterval: r.MirrorInterval, DefaultBranch: r.DefaultBranch, ObjectFormat: r.ObjectFormat,
		Units:              joinUnits(r.Units),
		ExternalTrackerURL: r.Tracker.ExternalURL, TrackerURLFormat: r.Tracker.Format,
		TrackerIssueStyle: string(r.Tracker.Style), TrackerRegexp: r.Tracker.RegexpPattern,
		ExternalWikiURL:   r.ExternalWikiURL,
		EnableTimeTracker: r.Tracker.EnableTimeTracker, OnlyContributors: r.Tracker.AllowOnlyContributorsToTrackTime,
		EnableIssueDeps: r.Tracker.EnableIssueDependencies,

		IgnoreWhitespaceConflicts: m.IgnoreWhitespaceConflicts, AllowMerge: m.AllowMerge,
		AllowRebase: m.AllowRebase, AllowRebaseMerge: m.AllowRebaseMerge, AllowSquash: m.AllowSquash,
		AllowFastForwardOnly: m.AllowFastForwardOnly, AllowRebaseUpdate: m.AllowRebaseUpdate,
		AllowManualMerge: m.AllowManualMerge, AutodetectManualMerge: m.AutodetectManualMerge,
		DefaultDeleteBranchAfterMerge: m.DefaultDeleteBranchAfterMerge, DefaultMergeStyle: m.DefaultMergeStyle,
		DefaultAllowMaintainerEdit: m.DefaultAllowMaintainerEdit,

		Avatar: r.Avatar, Topics: strings.Join(r.Topics, ","),
		Private: r.Private, Template: r.Template, Archived: r.Archived, IsEmpty: r.Empty, IsMirror: r.IsMirror,
		ForkID:   r.ForkID,
		NumStars: r.NumStars, NumWatches: r.NumWatches, NumForks: r.NumForks,
		NumIssues: r.NumIssues, NumClosedIssues: r.NumClosedIssues,
		NumPulls: r.NumPulls, NumClosedPulls: r.NumClosedPulls,
		NumMilestones: r.NumMilestones, NumClosedMilestones: r.NumClosedMilestones,
		NumReleases: r.NumReleases, Size: r.Size,
		Created: dbTime(r.Created), Updated: dbTime(r.Updated), ArchivedAt: dbTime(r.ArchivedAt),
	}
}

func (r *repoOwnerRow) toDomain() *repository.Repository {
	return &repository.Repository{
		ID: r.ID,
		Owner: repository.Owner{
			ID: r.OwnerID, Name: r.OwnerName, Kind: user.Kind(r.OwnerKind), Visibility: user.Visibility(r.OwnerVisibility),
		},
		Name: r.Name, LowerName: r.LowerName, PendingTransferTo: r.TransferTo,
		Description: r.Description, Website: r.Website,
		Private: r.Private, Template: r.Template, Archived: r.Archived, ArchivedAt: domainTime(r.ArchivedAt),
		Empty: r.IsEmpty, IsMirror: r.IsMirror, MirrorInterval: r.MirrorInterval, OriginalURL: r.OriginalURL,
		ForkID: r.ForkID, DefaultBranch: r.DefaultBranch, ObjectFormat: r.ObjectFormat,
		Units: splitUnits(r.Units),
		Tracker: repository.IssueTracker{
			ExternalURL: r.ExternalTrackerURL, Format: r.TrackerURLFormat,
			Style: repository.TrackerStyle(r.TrackerIssueStyle), RegexpPattern: r.TrackerRegexp,
			EnableTimeTracker: r.EnableTimeTracker, AllowOnlyContributorsToTrackTime: r.OnlyContributors,
			EnableIssueDependencies: r.EnableIssueDeps,
		},
		ExternalWikiURL: r.ExternalWikiURL,
		Merge: repository.MergeSettings{
			IgnoreWhitespaceConflicts: r.IgnoreWhitespaceConflicts, AllowMerge: r.AllowMerge,
			AllowRebase: r.AllowRebase, AllowRebaseMerge: r.AllowRebaseMerge, AllowSquash: r.AllowSquash,
			AllowFastForwardOnly: r.AllowFastForwardOnly, AllowRebaseUpdate: r.AllowRebaseUpdate,
			AllowManualMerge: r.AllowManualMerge, AutodetectManualMerge: r.AutodetectManualMerge,
			DefaultDeleteBranchAfterMerge: r.DefaultDeleteBranchAfterMerge, DefaultMergeStyle: r.DefaultMergeStyle,
			DefaultAllowMaintainerEdit: r.DefaultAllowMaintainerEdit,
		},
		NumStars: r.NumStars, NumWatches: r.NumWatches, NumForks: r.NumForks,
		NumIssues: r.NumIssues, NumClosedIssues: r.NumClosedIssues,
		NumPulls: r.NumPulls, NumClosedPulls: r.NumClosedPulls,
		NumMilestones: r.NumMilestones, NumClosedMilestones: r.NumClosedMilestones,
		NumReleases: r.NumReleases, Size: r.Size, ReleasesVersion: r.ReleasesVersion,
		Avatar: r.Avatar, Topics: splitList(r.Topics),
		Created: domainTime(r.Created), Updated: domainTime(r.Updated),
	}
}

func reposToDomain(rows []repoOwnerRow) []*repository.Repository {
	out := make([]*repository.Repository, len(rows))
	for i := range rows {
		out[i] = rows[i].toDomain()
	}
	return out
}

// Units are stored by short name, comma-separated: they are always read
// whole with their repository and never queried one by one.
func joinUnits(units []permission.Unit) string {
	parts := make([]string, len(units))
	for i, u := range units {
		parts[i] = u.Short()
	}
	return strings.Join(parts, ",")
}

// splitUnits skips names it does not know, so a unit retired by a later
// version does not make its repositories unreadable.
func splitUnits(s string) []permission.Unit {
	if s == "" {
		return nil
	}
	parts := strings.Split(s, ",")
	out := make([]permission.Unit, 0, len(parts))
	for _, p := range parts {
		if u, err := permission.ParseUnit(p); err == nil {
			out = append(out, u)
		}
	}
	return out
}

func splitList(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

func usersToDomain(rows []userRow) []*user.User {
	out := make([]*user.User, len(rows))
	for i := range rows {
		out[i] = rows[i].toDomain()
	}
	return out
}
