package http

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/app/users"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/user"
)

// repositories serves repositories themselves: reading, searching, editing, deleting,
// their issue-tracker settings and generating one from a template (catalogue 4.5).
type repositories struct{ *kernel }

// repositoryRoutes are the rows of repositories.
func (s *kernel) repositoryRoutes() []route {
	h := repositories{s}
	return []route{
		{"GET", "/repositories/{repoid}", scopes(catRepo), "T", h.getRepo},
		{"GET", "/repos/search", scopes(catRepo), "-", h.searchRepos},
		{"GET", R, scopes(catRepo), "AR", h.getRepo},
		{"DELETE", R, scopes(catRepo), "T,RO", h.deleteRepo},
		{"PATCH", R, scopes(catRepo), "T,RA", h.editRepo},
		{"PATCH", R + "/issue-tracker", scopes(catRepo), "T,RA,NA", h.editIssueTracker},
		{"POST", R + "/generate", scopes(catRepo), "T,RR(code)", h.generateRepo},
	}
}

// searchRepos answers GET /repos/search with the {data, ok} envelope.
func (s repositories) searchRepos(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	params := q.r.URL.Query()
	if l, err := strconv.Atoi(params.Get("limit")); err != nil || l <= 0 {
		// The spec's default for searches, also when the limit is 0, as the
		// SDK sends it when no page size is set (a malformed limit was
		// refused by listOptions already).
		opts.Limit = min(10, s.settings.MaxResponseItems)
	}
	in := repos.SearchQuery{
		Keyword: strings.ToLower(strings.TrimSpace(params.Get("q"))), Mode: params.Get("mode"),
		Sort: params.Get("sort"), Order: params.Get("order"), IncludePrivate: true, ListOptions: opts,
	}
	if in.UID, err = queryInt(q, "uid"); err != nil {
		return err
	}
	if in.StarredBy, err = queryInt(q, "starredBy"); err != nil {
		return err
	}
	flags := []struct {
		name string
		dst  **bool
	}{{"template", &in.Template}, {"archived", &in.Archived}, {"is_private", &in.IsPrivate}}
	for _, f := range flags {
		if *f.dst, err = queryBool(q, f.name); err != nil {
			return err
		}
	}
	for name, dst := range map[string]*bool{"topic": &in.TopicOnly, "includeDesc": &in.IncludeDescription, "exclusive": &in.Exclusive} {
		b, err := queryBool(q, name)
		if err != nil {
			return err
		}
		if b != nil {
			*dst = *b
		}
	}
	if b, err := queryBool(q, "private"); err != nil {
		return err
	} else if b != nil {
		in.IncludePrivate = *b
	}
	list, total, err := s.repos.Search(q.r.Context(), q.caller, in)
	if err != nil {
		return err
	}
	out, err := s.renderRepos(q.r.Context(), q.caller, list)
	if err != nil {
		return err
	}
	s.setPaging(q.w, q.r, opts, total)
	q.json(http.StatusOK, map[string]any{"ok": true, "data": out})
	return nil
}

// listMyRepos, listUserRepos and createMyRepo serve rows that sit with the
// user rows (/user/repos, /users/{username}/repos), hence on the kernel.

// listMyRepos answers GET /user/repos: owned and collaborated repositories.
func (s repositories) listMyRepos(q *request) error {
	return s.listOwnedRepos(q, q.caller.User, true)
}

// listUserRepos answers GET /users/{username}/repos. An account the caller
// may not see (a private user to others, a limited one to anonymous callers)
// answers 404, as GET /users/{username} does.
func (s repositories) listUserRepos(q *request) error {
	if !user.CanSee(users.Viewer(q.caller), q.subject) {
		return errs.NotFound("user does not exist")
	}
	return s.listOwnedRepos(q, q.subject, false)
}

// getRepo answers GET /repos/{owner}/{repo} and /repositories/{id}.
func (s repositories) getRepo(q *request) error {
	d, err := s.renderRepo(q.r.Context(), q.repo)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, d)
	return nil
}

// createMyRepo answers POST /user/repos.
func (s repositories) createMyRepo(q *request) error {
	in, err := decodeCreateRepo(q)
	if err != nil {
		return err
	}
	r, err := s.repos.Create(q.r.Context(), q.caller, q.caller.User, in)
	if err != nil {
		return err
	}
	return s.answerRepo(q, http.StatusCreated, r.ID)
}

// editRepoBody is Gitea's EditRepoOption.
type editRepoBody struct {
	Name            *string `json:"name"`
	Description     *string `json:"description"`
	Website         *string `json:"website"`
	Private         *bool   `json:"private"`
	Template        *bool   `json:"template"`
	HasIssues       *bool   `json:"has_issues"`
	HasCode         *bool   `json:"has_code"`
	InternalTracker *struct {
		EnableTimeTracker                bool `json:"enable_time_tracker"`
		AllowOnlyContributorsToTrackTime bool `json:"allow_only_contributors_to_track_time"`
		EnableIssueDependencies          bool `json:"enable_issue_dependencies"`
	} `json:"internal_tracker"`
	ExternalTracker *struct {
		URL           string `json:"external_tracker_url"`
		Format        string `json:"external_tracker_format"`
		Style         string `json:"external_tracker_style"`
		RegexpPattern string `json:"external_tracker_regexp_pattern"`
	} `json:"external_tracker"`
	HasWiki      *bool `json:"has_wiki"`
	ExternalWiki *struct {
		URL string `json:"external_wiki_url"`
	} `json:"external_wiki"`
	DefaultBranch                 *string `json:"default_branch"`
	HasPullRequests               *bool   `json:"has_pull_requests"`
	HasProjects                   *bool   `json:"has_projects"`
	ProjectsMode                  *string `json:"projects_mode"`
	HasReleases                   *bool   `json:"has_releases"`
	HasPackages                   *bool   `json:"has_packages"`
	HasActions                    *bool   `json:"has_actions"`
	IgnoreWhitespaceConflicts     *bool   `json:"ignore_whitespace_conflicts"`
	AllowMerge                    *bool   `json:"allow_merge_commits"`
	AllowRebase                   *bool   `json:"allow_rebase"`
	AllowRebaseMerge              *bool   `json:"allow_rebase_explicit"`
	AllowSquash                   *bool   `json:"allow_squash_merge"`
	AllowFastForwardOnly          *bool   `json:"allow_fast_forward_only_merge"`
	AllowManualMerge              *bool   `json:"allow_manual_merge"`
	AutodetectManualMerge         *bool   `json:"autodetect_manual_merge"`
	AllowRebaseUpdate             *bool   `json:"allow_rebase_update"`
	DefaultDeleteBranchAfterMerge *bool   `json:"default_delete_branch_after_merge"`
	DefaultMergeStyle             *string `json:"default_merge_style"`
	DefaultAllowMaintainerEdit    *bool   `json:"default_allow_maintainer_edit"`
	Archived                      *bool   `json:"archived"`
	MirrorInterval                *string `json:"mirror_interval"`
	EnablePrune                   *bool   `json:"enable_prune"`
}

// editRepo answers PATCH /repos/{owner}/{repo}.
func (s repositories) editRepo(q *request) error {
	var b editRepoBody
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	in := repos.EditInput{
		Name: b.Name, Description: b.Description, Website: b.Website, DefaultBranch: b.DefaultBranch,
		Private: b.Private, Template: b.Template, Archived: b.Archived,
		HasIssues: b.HasIssues, HasWiki: b.HasWiki, HasPullRequests: b.HasPullRequests, HasProjects: b.HasProjects,
		HasReleases: b.HasReleases, HasPackages: b.HasPackages, HasActions: b.HasActions, HasCode: b.HasCode,
		IgnoreWhitespaceConflicts: b.IgnoreWhitespaceConflicts, AllowMerge: b.AllowMerge, AllowRebase: b.AllowRebase,
		AllowRebaseMerge: b.AllowRebaseMerge, AllowSquash: b.AllowSquash, AllowFastForwardOnly: b.AllowFastForwardOnly,
		AllowManualMerge: b.AllowManualMerge, AutodetectManualMerge: b.AutodetectManualMerge,
		AllowRebaseUpdate: b.AllowRebaseUpdate, DefaultDeleteBranchAfterMerge: b.DefaultDeleteBranchAfterMerge,
		DefaultAllowMaintainerEdit: b.DefaultAllowMaintainerEdit, DefaultMergeStyle: b.DefaultMergeStyle,
		MirrorInterval: b.MirrorInterval,
	}
	if t := b.InternalTracker; t != nil {
		in.InternalTracker = &repos.InternalTracker{EnableTimeTracker: t.EnableTimeTracker,
			AllowOnlyContributorsToTrackTime: t.AllowOnlyContributorsToTrackTime, EnableIssueDependencies: t.EnableIssueDependencies}
	}
	if t := b.ExternalTracker; t != nil {
		in.ExternalTracker = &repos.ExternalTracker{URL: t.URL, Format: t.Format, Style: t.Style, RegexpPattern: t.RegexpPattern}
	}
	if b.ExternalWiki != nil {
		in.ExternalWikiURL = &b.ExternalWiki.URL
	}
	if b.ProjectsMode != nil {
		switch *b.ProjectsMode {
		case "repo", "owner", "all":
		default:
			return errs.Invalid("must be one of repo, owner, all", "ProjectsMode")
		}
	}
	r, err := s.repos.Edit(q.r.Context(), q.repo, in)
	if err != nil {
		return err
	}
	return s.answerRepo(q, http.StatusOK, r.ID)
}

// deleteRepo answers DELETE /repos/{owner}/{repo}.
func (s repositories) deleteRepo(q *request) error {
	if err := s.repos.Delete(q.r.Context(), q.repo); err != nil {
		return err
	}
	q.w.WriteHeader(http.StatusNoContent)
	return nil
}

// issueTrackerBody is the spec's issue-tracker settings (section 2).
type issueTrackerBody struct {
	EnableIssues          *bool   `json:"enable_issues"`
	EnableExternalTracker *bool   `json:"enable_external_tracker"`
	ExternalTrackerURL    *string `json:"external_tracker_url"`
	TrackerURLFormat      *string `json:"tracker_url_format"`
	TrackerIssueStyle     *string `json:"tracker_issue_style"`
}

// editIssueTracker answers PATCH /repos/{owner}/{repo}/issue-tracker.
func (s repositories) editIssueTracker(q *request) error {
	var b issueTrackerBody
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	if err := s.repos.UpdateIssueTracker(q.r.Context(), q.repo, repos.TrackerInput{
		EnableIssues: b.EnableIssues, EnableExternalTracker: b.EnableExternalTracker,
		ExternalTrackerURL: b.ExternalTrackerURL, TrackerURLFormat: b.TrackerURLFormat, TrackerIssueStyle: b.TrackerIssueStyle,
	}); err != nil {
		return err
	}
	q.w.WriteHeader(http.StatusNoContent)
	return nil
}

// generateRepo answers POST R/generate with 201.
func (s repositories) generateRepo(q *request) error {
	var b struct {
		Owner           string `json:"owner"`
		Name            string `json:"name"`
		DefaultBranch   string `json:"default_branch"`
		Description     string `json:"description"`
		Private         bool   `json:"private"`
		GitContent      bool   `json:"git_content"`
		Topics          bool   `json:"topics"`
		GitHooks        bool   `json:"git_hooks"`
		Webhooks        bool   `json:"webhooks"`
		Avatar          bool   `json:"avatar"`
		Labels          bool   `json:"labels"`
		ProtectedBranch bool   `json:"protected_branch"`
	}
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	r, err := s.repos.Generate(q.r.Context(), q.repo, repos.GenerateInput{
		Owner: b.Owner, Name: b.Name, Description: b.Description, DefaultBranch: b.DefaultBranch, Private: b.Private,
		GitContent: b.GitContent, Topics: b.Topics, Avatar: b.Avatar, GitHooks: b.GitHooks, Webhooks: b.Webhooks,
		Labels: b.Labels, ProtectedBranch: b.ProtectedBranch,
	})
	if err != nil {
		return err
	}
	return s.answerRepo(q, http.StatusCreated, r.ID)
}

// userOwnedRepoRoutes are the 4.4 rows of the repositories an account owns.
func (s *kernel) userOwnedRepoRoutes() []route {
	h := repositories{s}
	return []route{
		{"GET", "/users/{username}/repos", scopes(catRepo), "Explore", h.listUserRepos},
		{"GET", "/user/repos", scopes(catRepo), "T", h.listMyRepos},
		{"POST", "/user/repos", scopes(catRepo), "T", h.createMyRepo},
	}
}
