// Package repository holds the repository aggregate: repositories and their
// settings, collaborators, deploy keys, topics, stars, watches and pending
// transfers, with the rules for names and topics. It is pure: no I/O.
package repository

import (
	"time"

	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/user"
)

// TrackerStyle is how an external issue tracker numbers its issues.
type TrackerStyle string

// The external tracker styles, as Gitea spells them.
const (
	TrackerNumeric      TrackerStyle = "numeric"
	TrackerAlphanumeric TrackerStyle = "alphanumeric"
	TrackerRegexp       TrackerStyle = "regexp"
)

// DefaultBranch is the branch a new repository starts on unless told otherwise.
const DefaultBranch = "main"

// Owner is what a repository needs to know of its owning account.
type Owner struct {
	ID         int64
	Name       string
	Kind       user.Kind
	Visibility user.Visibility
}

// Repository is a hosted Git repository and its settings.
type Repository struct {
	ID        int64
	Owner     Owner
	Name      string // as typed
	LowerName string

	Description string
	Website     string
	Private     bool
	Template    bool
	Archived    bool
	ArchivedAt  time.Time
	// Empty is set while the Git repository has no commit.
	Empty bool
	// IsMirror is set for pull mirrors.
	IsMirror       bool
	MirrorInterval string
	OriginalURL    string
	// ForkID is the parent repository of a fork; 0 for a source repository.
	ForkID int64
	// PendingTransferTo is the recipient of a pending transfer; 0 when none.
	// Stores fill it on reads; it is not written back.
	PendingTransferTo int64

	DefaultBranch string
	ObjectFormat  string
	// Units are the enabled units, in permission.AllUnits order.
	Units []permission.Unit

	Tracker IssueTracker
	// ExternalWikiURL is the wiki of the ext_wiki unit.
	ExternalWikiURL string
	Merge           MergeSettings

	NumStars, NumWatches, NumForks                       int
	NumIssues, NumClosedIssues, NumPulls, NumClosedPulls int
	NumMilestones, NumClosedMilestones, NumReleases      int
	// Size is the Git repository's size on disk in bytes.
	Size int64
	// ReleasesVersion moves with every write to the repository's releases
	// and their assets (the database moves it, in the writing
	// transaction), so what was read of them under one version is current
	// while the repository still shows it.
	ReleasesVersion int64
	// Avatar is the stored avatar's content hash; empty when none.
	Avatar string
	Topics []string

	Created, Updated time.Time
}

// IssueTracker holds the issue-tracker settings.
type IssueTracker struct {
	// ExternalURL, Format, Style and RegexpPattern configure the ext_issues unit.
	ExternalURL   string
	Format        string
	Style         TrackerStyle
	RegexpPattern string
	// Internal tracker options.
	EnableTimeTracker                bool
	AllowOnlyContributorsToTrackTime bool
	EnableIssueDependencies          bool
}

// MergeSettings are the pull-request merge options.
type MergeSettings struct {
	IgnoreWhitespaceConflicts     bool
	AllowMerge                    bool
	AllowRebase                   bool
	AllowRebaseMerge              bool
	AllowSquash                   bool
	AllowFastForwardOnly          bool
	AllowRebaseUpdate             bool
	AllowManualMerge              bool
	AutodetectManualMerge         bool
	DefaultDeleteBranchAfterMerge bool
	DefaultMergeStyle             string
	DefaultAllowMaintainerEdit    bool
}

// DefaultMergeSettings are what a new repository starts with (Gitea's defaults).
func DefaultMergeSettings() MergeSettings {
	return MergeSettings{
		AllowMerge: true, AllowRebase: true, AllowRebaseMerge: true, AllowSquash: true,
		AllowFastForwardOnly: true, AllowRebaseUpdate: true, DefaultMergeStyle: "merge",
	}
}

// DefaultUnits are the units a new repository starts with.
func DefaultUnits() []permission.Unit {
	return []permission.Unit{
		permission.UnitCode, permission.UnitIssues, permission.UnitPulls, permission.UnitReleases,
		permission.UnitWiki, permission.UnitProjects, permission.UnitPackages, permission.UnitActions,
	}
}

// FullName is "owner/name".
func (r *Repository) FullName() string { return r.Owner.Name + "/" + r.Name }

// IsFork reports whether the repository is a fork.
func (r *Repository) IsFork() bool { return r.ForkID != 0 }

// HasUnit reports whether unit u is enabled.
func (r *Repository) HasUnit(u permission.Unit) bool {
	for _, e := range r.Units {
		if e == u {
			return true
		}
	}
	return false
}

// SetUnit switches unit u on or off, keeping permission.AllUnits order.
func (r *Repository) SetUnit(u permission.Unit, on bool) {
	set := map[permission.Unit]bool{}
	for _, e := range r.Units {
		set[e] = true
	}
	set[u] = on
	r.Units = r.Units[:0:0]
	for _, a := range permission.AllUnits() {
		if set[a] {
			r.Units = append(r.Units, a)
		}
	}
}

// NumOpenIssues is the number of open issues.
func (r *Repository) NumOpenIssues() int { return r.NumIssues - r.NumClosedIssues }

// NumOpenPulls is the number of open pull requests.
func (r *Repository) NumOpenPulls() int { return r.NumPulls - r.NumClosedPulls }

// Facts returns what the permission core needs to know of r.
func (r *Repository) Facts() permission.Repo {
	return permission.Repo{
		ID:              r.ID,
		OwnerID:         r.Owner.ID,
		OwnerIsOrg:      r.Owner.Kind == user.KindOrganization,
		OwnerVisibility: r.Owner.Visibility,
		Private:         r.Private,
		Archived:        r.Archived,
		IsMirror:        r.IsMirror,
		Empty:           r.Empty,
		EnabledUnits:    r.Units,
		FullName:        r.FullName(),
	}
}

// Collaborator is a user given a mode on a repository.
type Collaborator struct {
	RepoID int64
	UserID int64
	Mode   permission.AccessMode
}

// DeployKey is an SSH key that may read (or write) one repository.
type DeployKey struct {
	ID          int64
	RepoID      int64
	Title       string
	Content     string // "ssh-ed25519 AAAA…", without comment
	Fingerprint string // "SHA256:…"
	ReadOnly    bool
	Created     time.Time
}

// Transfer is a pending offer of a repository to a new owner.
type Transfer struct {
	RepoID      int64
	DoerID      int64
	RecipientID int64
	Created     time.Time
}

// Watch modes.
const (
	WatchNone = iota
	WatchNormal
	WatchDont
	WatchAuto
)
