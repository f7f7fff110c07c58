package http

import (
	"context"
	"errors"
	"net/url"
	"time"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
)

// repoDTO is Gitea's Repository.
type repoDTO struct {
	ID                            int64               `json:"id"`
	Owner                         *userDTO            `json:"owner"`
	Name                          string              `json:"name"`
	FullName                      string              `json:"full_name"`
	Description                   string              `json:"description"`
	Empty                         bool                `json:"empty"`
	Private                       bool                `json:"private"`
	Fork                          bool                `json:"fork"`
	Template                      bool                `json:"template"`
	Parent                        *repoDTO            `json:"parent"`
	Mirror                        bool                `json:"mirror"`
	Size                          int64               `json:"size"`
	Language                      string              `json:"language"`
	LanguagesURL                  string              `json:"languages_url"`
	HTMLURL                       string              `json:"html_url"`
	URL                           string              `json:"url"`
	Link                          string              `json:"link"`
	SSHURL                        string              `json:"ssh_url"`
	CloneURL                      string              `json:"clone_url"`
	OriginalURL                   string              `json:"original_url"`
	Website                       string              `json:"website"`
	Stars                         int                 `json:"stars_count"`
	Forks                         int                 `json:"forks_count"`
	Watchers                      int                 `json:"watchers_count"`
	OpenIssues                    int                 `json:"open_issues_count"`
	OpenPulls                     int                 `json:"open_pr_counter"`
	Releases                      int                 `json:"release_counter"`
	DefaultBranch                 string              `json:"default_branch"`
	Archived                      bool                `json:"archived"`
	Created                       time.Time           `json:"created_at"`
	Updated                       time.Time           `json:"updated_at"`
	ArchivedAt                    time.Time           `json:"archived_at"`
	Permissions                   *permissionDTO      `json:"permissions,omitempty"`
	HasCode                       bool                `json:"has_code"`
	HasIssues                     bool                `json:"has_issues"`
	InternalTracker               *internalTrackerDTO `json:"internal_tracker,omitempty"`
	ExternalTracker               *externalTrackerDTO `json:"external_tracker,omitempty"`
	HasWiki                       bool                `json:"has_wiki"`
	ExternalWiki                  *externalWikiDTO    `json:"external_wiki,omitempty"`
	HasPullRequests               bool                `json:"has_pull_requests"`
	HasProjects                   bool                `json:"has_projects"`
	ProjectsMode                  string              `json:"projects_mode"`
	HasReleases                   bool                `json:"has_releases"`
	HasPackages                   bool                `json:"has_packages"`
	HasActions                    bool                `json:"has_actions"`
	IgnoreWhitespaceConflicts     bool                `json:"ignore_whitespace_conflicts"`
	AllowMerge                    bool                `json:"allow_merge_commits"`
	AllowRebase                   bool                `json:"allow_rebase"`
	AllowRebaseMerge              bool                `json:"allow_rebase_explicit"`
	AllowSquash                   bool                `json:"allow_squash_merge"`
	AllowFastForwardOnly          bool                `json:"allow_fast_forward_only_merge"`
	AllowRebaseUpdate             bool                `json:"allow_rebase_update"`
	AllowManualMerge              bool                `json:"allow_manual_merge"`
	AutodetectManualMerge         bool                `json:"autodetect_manual_merge"`
	DefaultDeleteBranchAfterMerge bool                `json:"default_delete_branch_after_merge"`
	DefaultMergeStyle             string              `json:"default_merge_style"`
	DefaultAllowMaintainerEdit    bool                `json:"default_allow_maintainer_edit"`
	AvatarURL                     string              `json:"avatar_url"`
	Internal                      bool                `json:"internal"`
	MirrorInterval                string              `json:"mirror_interval"`
	ObjectFormatName              string              `json:"object_format_name"`
	MirrorUpdated                 time.Time           `json:"mirror_updated"`
	RepoTransfer                  *repoTransferDTO    `json:"repo_transfer"`
	Topics                        []string            `json:"topics"`
	Licenses                      []string            `json:"licenses"`
}

type permissionDTO struct {
	Admin bool `json:"admin"`
	Push  bool `json:"push"`
	Pull  bool `json:"pull"`
}

type internalTrackerDTO struct {
	EnableTimeTracker                bool `json:"enable_time_tracker"`
	AllowOnlyContributorsToTrackTime bool `json:"allow_only_contributors_to_track_time"`
	EnableIssueDependencies          bool `json:"enable_issue_dependencies"`
}

type externalTrackerDTO struct {
	ExternalTrackerURL           string `json:"external_tracker_url"`
	ExternalTrackerFormat        string `json:"external_tracker_format"`
	ExternalTrackerStyle         string `json:"external_tracker_style"`
	ExternalTrackerRegexpPattern string `json:"external_tracker_regexp_pattern"`
}

type externalWikiDTO struct {
	ExternalWikiURL string `json:"external_wiki_url"`
}

type repoTransferDTO struct {
	Doer      *userDTO `json:"doer"`
	Recipient *userDTO `json:"recipient"`
	Teams     []any    `json:"teams"`
}

// repoView is what one repository is rendered from.
type repoView struct {
	access *repos.Access
	owner  *user.User
	parent *repoDTO
	// transfer is the pending transfer, with its users, when shown.
	transfer *repoTransferDTO
}

// toRepo renders a repository as the caller sees it, with Gitea's
// permissions object.
func (s *kernel) toRepo(c auth.Caller, v repoView) *repoDTO {
	r, perm := v.access.Repo, v.access.Perm
	admin := c.IsAdmin()
	full := r.FullName()
	esc := url.PathEscape(r.Owner.Name) + "/" + url.PathEscape(r.Name)
	d := &repoDTO{
		ID: r.ID, Name: r.Name, FullName: full, Description: r.Description, Empty: r.Empty,
		Private: r.Private, Fork: r.IsFork(), Template: r.Template, Parent: v.parent, Mirror: r.IsMirror,
		Size: r.Size / 1024, HTMLURL: s.baseURL + "/" + esc, URL: s.baseURL + apiPrefix + "/repos/" + esc,
		LanguagesURL: s.baseURL + apiPrefix + "/repos/" + esc + "/languages",
		SSHURL:       s.sshURL(r), CloneURL: s.baseURL + "/" + esc + ".git", OriginalURL: r.OriginalURL,
		Website: r.Website, Stars: r.NumStars, Forks: r.NumForks, Watchers: r.NumWatches,
		OpenIssues: r.NumOpenIssues(), OpenPulls: r.NumOpenPulls(), Releases: r.NumReleases,
		DefaultBranch: r.DefaultBranch, Archived: r.Archived, Created: r.Created.UTC(), Updated: r.Updated.UTC(),
		ArchivedAt: archivedAt(r.ArchivedAt), MirrorInterval: r.MirrorInterval, ObjectFormatName: r.ObjectFormat,
		Permissions: &permissionDTO{
			Admin: perm.IsAdmin() || admin,
			Push:  perm.CanWrite(permission.UnitCode) || perm.IsAdmin() || admin,
			Pull:  perm.CanRead(permission.UnitCode) || perm.IsAdmin() || admin,
		},
		HasCode: r.HasUnit(permission.UnitCode), HasPullRequests: r.HasUnit(permission.UnitPulls),
		HasProjects: r.HasUnit(permission.UnitProjects), ProjectsMode: "all",
		HasReleases: r.HasUnit(permission.UnitReleases), HasPackages: r.HasUnit(permission.UnitPackages),
		HasActions:                r.HasUnit(permission.UnitActions),
		IgnoreWhitespaceConflicts: r.Merge.IgnoreWhitespaceConflicts, AllowMerge: r.Merge.AllowMerge,
		AllowRebase: r.Merge.AllowRebase, AllowRebaseMerge: r.Merge.AllowRebaseMerge, AllowSquash: r.Merge.AllowSquash,
		AllowFastForwardOnly: r.Merge.AllowFastForwardOnly, AllowRebaseUpdate: r.Merge.AllowRebaseUpdate,
		AllowManualMerge: r.Merge.AllowManualMerge, AutodetectManualMerge: r.Merge.AutodetectManualMerge,
		DefaultDeleteBranchAfterMerge: r.Merge.DefaultDeleteBranchAfterMerge, DefaultMergeStyle: r.Merge.DefaultMergeStyle,
		DefaultAllowMaintainerEdit: r.Merge.DefaultAllowMaintainerEdit,
		Internal:                   !r.Private && r.Owner.Visibility == user.VisibilityLimited,
		RepoTransfer:               v.transfer,
		Topics:                     r.Topics, Licenses: []string{},
	}
	if d.Topics == nil {
		d.Topics = []string{}
	}
	if v.owner != nil {
		o := s.toUser(c, v.owner)
		d.Owner = &o
	}
	if r.Avatar != "" {
		d.AvatarURL = s.baseURL + "/repo-avatars/" + r.Avatar
	}
	if r.HasUnit(permission.UnitIssues) {
		d.HasIssues = true
		d.InternalTracker = &internalTrackerDTO{
			EnableTimeTracker: r.Tracker.EnableTimeTracker, AllowOnlyContributorsToTrackTime: r.Tracker.AllowOnlyContributorsToTrackTime,
			EnableIssueDependencies: r.Tracker.EnableIssueDependencies,
		}
	} else if r.HasUnit(permission.UnitExtIssues) {
		d.HasIssues = true
		d.ExternalTracker = &externalTrackerDTO{
			ExternalTrackerURL: r.Tracker.ExternalURL, ExternalTrackerFormat: r.Tracker.Format,
			ExternalTrackerStyle: string(r.Tracker.Style), ExternalTrackerRegexpPattern: r.Tracker.RegexpPattern,
		}
	}
	if r.HasUnit(permission.UnitWiki) {
		d.HasWiki = true
	} else if r.HasUnit(permission.UnitExtWiki) {
		d.HasWiki = true
		d.ExternalWiki = &externalWikiDTO{ExternalWikiURL: r.ExternalWikiURL}
	}
	return d
}

// sshURL is the SSH clone address of r, as Gitea writes it.
func (s *kernel) sshURL(r *repository.Repository) string {
	return s.settings.SSHCloneURL(r.Owner.Name, r.Name)
}

// archivedAt is when r was archived; a repository never archived (or
// unarchived) shows the Unix epoch, as Gitea renders its zero timestamp.
func archivedAt(t time.Time) time.Time {
	if t.IsZero() {
		return time.Unix(0, 0).UTC()
	}
	return t.UTC()
}

// renderRepo renders one repository with its owner, its parent (forks) and
// its pending transfer.
func (s *kernel) renderRepo(ctx context.Context, a *repos.Access) (*repoDTO, error) {
	owners, err := s.repos.Owners(ctx, a.Caller, []*repository.Repository{a.Repo})
	if err != nil {
		return nil, err
	}
	return s.renderRepoOwnedBy(ctx, a, owners[a.Repo.Owner.ID])
}

// renderRepoOwnedBy is renderRepo with the owner's account already read
// (nil when it is gone).
func (s *kernel) renderRepoOwnedBy(ctx context.Context, a *repos.Access, owner *user.User) (*repoDTO, error) {
	c := a.Caller
	v := repoView{access: a, owner: owner}
	var err error
	if a.Repo.IsFork() {
		pa, err := s.repos.Parent(ctx, c, a.Repo)
		if err != nil {
			return nil, err
		}
		if pa != nil {
			po, err := s.repos.Owners(ctx, c, []*repository.Repository{pa.Repo})
			if err != nil {
				return nil, err
			}
			v.parent = s.toRepo(c, repoView{access: pa, owner: po[pa.Repo.Owner.ID]})
		}
	}
	if v.transfer, err = s.transferOf(ctx, c, a.Repo); err != nil {
		return nil, err
	}
	d := s.toRepo(c, v)
	if a.Repo.IsMirror {
		// Only a mirror costs the query; one without sync state (marked a
		// mirror by other means) shows the zero time, as in Gitea.
		m, err := s.mirrors.PullMirrors().State(ctx, a.Repo)
		if err != nil && !errors.Is(err, errs.ErrNotFound) {
			return nil, err
		}
		if m != nil {
			d.MirrorUpdated = m.Updated.UTC()
		}
	}
	return d, nil
}

// transferOf renders r's pending transfer, nil when none.
func (s *kernel) transferOf(ctx context.Context, c auth.Caller, r *repository.Repository) (*repoTransferDTO, error) {
	t, err := s.repos.Transfers().Pending(ctx, r)
	if err != nil || t == nil {
		return nil, err
	}
	us, err := s.repos.UsersByID(ctx, t.DoerID, t.RecipientID)
	if err != nil {
		return nil, err
	}
	d := &repoTransferDTO{Teams: []any{}}
	if u := us[t.DoerID]; u != nil {
		x := s.toUser(c, u)
		d.Doer = &x
	}
	if u := us[t.RecipientID]; u != nil {
		x := s.toUser(c, u)
		d.Recipient = &x
	}
	return d, nil
}

// renderRepos renders a listing: owners in one query, the mirrors' last
// syncs in one more (only when the page holds a mirror), permissions per
// repository; parents and transfers are not expanded in listings.
func (s *kernel) renderRepos(ctx context.Context, c auth.Caller, list []*repository.Repository) ([]*repoDTO, error) {
	access, err := s.repos.PermissionsFor(ctx, c, list)
	if err != nil {
		return nil, err
	}
	owners, err := s.repos.Owners(ctx, c, list)
	if err != nil {
		return nil, err
	}
	return s.renderReposWith(ctx, c, access, owners)
}

// renderReposWith renders a listing whose permissions and owners (by id)
// are known already: only the mirrors' last syncs are read, in one query.
func (s *kernel) renderReposWith(ctx context.Context, c auth.Caller, access []*repos.Access,
	owners map[int64]*user.User) ([]*repoDTO, error) {
	list := make([]*repository.Repository, len(access))
	for k, a := range access {
		list[k] = a.Repo
	}
	synced, err := s.mirrors.PullMirrors().Updated(ctx, list)
	if err != nil {
		return nil, err
	}
	out := make([]*repoDTO, 0, len(list))
	for _, a := range access {
		d := s.toRepo(c, repoView{access: a, owner: owners[a.Repo.Owner.ID]})
		if t, ok := synced[a.Repo.ID]; ok {
			d.MirrorUpdated = t.UTC()
		}
		out = append(out, d)
	}
	return out, nil
}

func (s *kernel) listOwnedRepos(q *request, owner *user.User, withCollaborations bool) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	list, total, err := s.repos.ListOwned(q.r.Context(), q.caller, owner, withCollaborations, opts)
	return s.writeRepoList(q, opts, list, total, err)
}

// createRepoBody is Gitea's CreateRepoOption.
type createRepoBody struct {
	Name          string `json:"name"`
	Description   string `json:"description"`
	Private       bool   `json:"private"`
	IssueLabels   string `json:"issue_labels"`
	AutoInit      bool   `json:"auto_init"`
	Template      bool   `json:"template"`
	Gitignores    string `json:"gitignores"`
	License       string `json:"license"`
	Readme        string `json:"readme"`
	DefaultBranch string `json:"default_branch"`
	TrustModel    string `json:"trust_model"`
	ObjectFormat  string `json:"object_format_name"`
}

// decodeCreateRepo reads a CreateRepoOption body into the use case's input.
func decodeCreateRepo(q *request) (repos.CreateInput, error) {
	var b createRepoBody
	if err := decodeJSON(q.r, &b); err != nil {
		return repos.CreateInput{}, err
	}
	switch b.TrustModel {
	case "", "default", "collaborator", "committer", "collaboratorcommitter":
	default:
		return repos.CreateInput{}, errs.Invalid("must be one of default, collaborator, committer, collaboratorcommitter", "TrustModel")
	}
	return repos.CreateInput{
		Name: b.Name, Description: b.Description, Private: b.Private, Template: b.Template, AutoInit: b.AutoInit,
		Gitignores: b.Gitignores, License: b.License, Readme: b.Readme, IssueLabels: b.IssueLabels,
		DefaultBranch: b.DefaultBranch, ObjectFormat: b.ObjectFormat,
	}, nil
}
