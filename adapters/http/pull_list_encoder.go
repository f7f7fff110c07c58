package http

import (
	"encoding/json"
)

// writePulls answers a list of pull requests. A page of fifty carries the
// base repository fifty times and a fork's repository once per pull request
// from it, each a Gitea Repository of some seventy fields, so encoding/json's
// reflection was a third of the listing's cost. The list is encoded by hand
// into a pooled buffer (issue_list_encoder.go has the primitives), writing
// each repository and user object the page shares once and copying it after;
// the bytes are writeJSON's (pull_list_encoder_test.go compares them).
func (s *kernel) writePulls(q *request, status int, list []pullDTO) {
	writeEncodedJSON(q, status, list, func(b []byte) ([]byte, error) { return appendPullsJSON(b, list) })
}

// appendPullsJSON appends list as encoding/json would encode it.
func appendPullsJSON(b []byte, list []pullDTO) ([]byte, error) {
	e := &issueJSON{b: b}
	if list == nil {
		return append(e.b, "null"...), nil
	}
	e.b = append(e.b, '[')
	for k := range list {
		if k > 0 {
			e.b = append(e.b, ',')
		}
		e.pull(&list[k])
	}
	e.b = append(e.b, ']')
	return e.b, e.err
}

func (e *issueJSON) pull(d *pullDTO) {
	e.b = append(e.b, '{')
	e.int("id", d.ID)
	e.b = append(e.b, ',')
	e.str("url", d.URL)
	e.b = append(e.b, ',')
	e.int("number", d.Index)
	e.b = append(e.b, ',')
	e.key("user")
	e.userPtr(d.Poster)
	e.b = append(e.b, ',')
	e.str("title", d.Title)
	e.b = append(e.b, ',')
	e.str("body", d.Body)
	e.b = append(e.b, ',')
	e.key("labels")
	jsonList(e, d.Labels, e.label)
	e.b = append(e.b, ',')
	e.key("milestone")
	if d.Milestone == nil {
		e.b = append(e.b, "null"...)
	} else {
		e.milestone(d.Milestone)
	}
	e.b = append(e.b, ',')
	e.key("assignee")
	e.userPtr(d.Assignee)
	e.b = append(e.b, ',')
	e.key("assignees")
	jsonList(e, d.Assignees, e.user)
	e.b = append(e.b, ',')
	e.key("requested_reviewers")
	jsonList(e, d.RequestedReviewers, e.user)
	e.b = append(e.b, ',')
	e.key("requested_reviewers_teams")
	e.anyList(d.RequestedTeams)
	e.b = append(e.b, ',')
	e.str("state", d.State)
	e.b = append(e.b, ',')
	e.bool("draft", d.Draft)
	e.b = append(e.b, ',')
	e.bool("is_locked", d.IsLocked)
	e.b = append(e.b, ',')
	e.int("comments", int64(d.Comments))
	e.b = append(e.b, ',')
	e.int("review_comments", int64(d.ReviewComments))
	e.b = append(e.b, ',')
	e.int("additions", int64(d.Additions))
	e.b = append(e.b, ',')
	e.int("deletions", int64(d.Deletions))
	e.b = append(e.b, ',')
	e.int("changed_files", int64(d.ChangedFiles))
	e.b = append(e.b, ',')
	e.str("html_url", d.HTMLURL)
	e.b = append(e.b, ',')
	e.str("diff_url", d.DiffURL)
	e.b = append(e.b, ',')
	e.str("patch_url", d.PatchURL)
	e.b = append(e.b, ',')
	e.bool("mergeable", d.Mergeable)
	e.b = append(e.b, ',')
	e.bool("merged", d.HasMerged)
	e.b = append(e.b, ',')
	e.timePtr("merged_at", d.Merged)
	e.b = append(e.b, ',')
	if d.MergedCommitID == nil {
		e.null("merge_commit_sha")
	} else {
		e.str("merge_commit_sha", *d.MergedCommitID)
	}
	e.b = append(e.b, ',')
	e.key("merged_by")
	e.userPtr(d.MergedBy)
	e.b = append(e.b, ',')
	e.bool("allow_maintainer_edit", d.AllowMaintainerEdit)
	e.b = append(e.b, ',')
	e.key("base")
	e.prBranch(d.Base)
	e.b = append(e.b, ',')
	e.key("head")
	e.prBranch(d.Head)
	e.b = append(e.b, ',')
	e.str("merge_base", d.MergeBase)
	e.b = append(e.b, ',')
	e.timePtr("due_date", d.Deadline)
	e.b = append(e.b, ',')
	e.time("created_at", d.Created)
	e.b = append(e.b, ',')
	e.time("updated_at", d.Updated)
	e.b = append(e.b, ',')
	e.timePtr("closed_at", d.Closed)
	e.b = append(e.b, ',')
	e.int("pin_order", int64(d.PinOrder))
	e.b = append(e.b, ',')
	e.str("mergeable_state", d.MergeStatus)
	e.b = append(e.b, ',')
	e.key("conflicted_files")
	e.strList(d.ConflictedFiles)
	e.b = append(e.b, '}')
}

func (e *issueJSON) prBranch(p *prBranchDTO) {
	if p == nil {
		e.b = append(e.b, "null"...)
		return
	}
	e.b = append(e.b, '{')
	e.str("label", p.Name)
	e.b = append(e.b, ',')
	e.str("ref", p.Ref)
	e.b = append(e.b, ',')
	e.str("sha", p.Sha)
	e.b = append(e.b, ',')
	e.int("repo_id", p.RepoID)
	e.b = append(e.b, ',')
	e.key("repo")
	e.fullRepo(p.Repository)
	e.b = append(e.b, '}')
}

// strList writes a string slice (null when nil).
func (e *issueJSON) strList(list []string) {
	jsonList(e, list, func(s *string) { e.b = appendJSONString(e.b, *s) })
}

// anyList writes a slice of values only encoding/json knows (requested
// teams, always empty today) through encoding/json, which escapes HTML as
// writeJSON's encoder does.
func (e *issueJSON) anyList(list []any) {
	if list == nil {
		e.b = append(e.b, "null"...)
		return
	}
	if len(list) == 0 {
		e.b = append(e.b, '[', ']')
		return
	}
	data, err := json.Marshal(list)
	if err != nil {
		e.err = err
		return
	}
	e.b = append(e.b, data...)
}

// fullRepo writes a Gitea Repository, copying an earlier encoding of the
// same pointer.
func (e *issueJSON) fullRepo(r *repoDTO) {
	if r == nil {
		e.b = append(e.b, "null"...)
		return
	}
	if at, ok := e.fullRepos[r]; ok {
		e.b = append(e.b, e.b[at[0]:at[1]]...)
		return
	}
	start := len(e.b)
	e.b = append(e.b, '{')
	e.int("id", r.ID)
	e.b = append(e.b, ',')
	e.key("owner")
	e.userPtr(r.Owner)
	e.b = append(e.b, ',')
	e.str("name", r.Name)
	e.b = append(e.b, ',')
	e.str("full_name", r.FullName)
	e.b = append(e.b, ',')
	e.str("description", r.Description)
	e.b = append(e.b, ',')
	e.bool("empty", r.Empty)
	e.b = append(e.b, ',')
	e.bool("private", r.Private)
	e.b = append(e.b, ',')
	e.bool("fork", r.Fork)
	e.b = append(e.b, ',')
	e.bool("template", r.Template)
	e.b = append(e.b, ',')
	e.key("parent")
	e.fullRepo(r.Parent)
	e.b = append(e.b, ',')
	e.bool("mirror", r.Mirror)
	e.b = append(e.b, ',')
	e.int("size", r.Size)
	e.b = append(e.b, ',')
	e.str("language", r.Language)
	e.b = append(e.b, ',')
	e.str("languages_url", r.LanguagesURL)
	e.b = append(e.b, ',')
	e.str("html_url", r.HTMLURL)
	e.b = append(e.b, ',')
	e.str("url", r.URL)
	e.b = append(e.b, ',')
	e.str("link", r.Link)
	e.b = append(e.b, ',')
	e.str("ssh_url", r.SSHURL)
	e.b = append(e.b, ',')
	e.str("clone_url", r.CloneURL)
	e.b = append(e.b, ',')
	e.str("original_url", r.OriginalURL)
	e.b = append(e.b, ',')
	e.str("website", r.Website)
	e.b = append(e.b, ',')
	e.int("stars_count", int64(r.Stars))
	e.b = append(e.b, ',')
	e.int("forks_count", int64(r.Forks))
	e.b = append(e.b, ',')
	e.int("watchers_count", int64(r.Watchers))
	e.b = append(e.b, ',')
	e.int("open_issues_count", int64(r.OpenIssues))
	e.b = append(e.b, ',')
	e.int("open_pr_counter", int64(r.OpenPulls))
	e.b = append(e.b, ',')
	e.int("release_counter", int64(r.Releases))
	e.b = append(e.b, ',')
	e.str("default_branch", r.DefaultBranch)
	e.b = append(e.b, ',')
	e.bool("archived", r.Archived)
	e.b = append(e.b, ',')
	e.time("created_at", r.Created)
	e.b = append(e.b, ',')
	e.time("updated_at", r.Updated)
	e.b = append(e.b, ',')
	e.time("archived_at", r.ArchivedAt)
	e.b = append(e.b, ',')
	if p := r.Permissions; p != nil {
		e.key("permissions")
		e.b = append(e.b, '{')
		e.bool("admin", p.Admin)
		e.b = append(e.b, ',')
		e.bool("push", p.Push)
		e.b = append(e.b, ',')
		e.bool("pull", p.Pull)
		e.b = append(e.b, '}', ',')
	}
	e.bool("has_code", r.HasCode)
	e.b = append(e.b, ',')
	e.bool("has_issues", r.HasIssues)
	e.b = append(e.b, ',')
	if t := r.InternalTracker; t != nil {
		e.key("internal_tracker")
		e.b = append(e.b, '{')
		e.bool("enable_time_tracker", t.EnableTimeTracker)
		e.b = append(e.b, ',')
		e.bool("allow_only_contributors_to_track_time", t.AllowOnlyContributorsToTrackTime)
		e.b = append(e.b, ',')
		e.bool("enable_issue_dependencies", t.EnableIssueDependencies)
		e.b = append(e.b, '}', ',')
	}
	if t := r.ExternalTracker; t != nil {
		e.key("external_tracker")
		e.b = append(e.b, '{')
		e.str("external_tracker_url", t.ExternalTrackerURL)
		e.b = append(e.b, ',')
		e.str("external_tracker_format", t.ExternalTrackerFormat)
		e.b = append(e.b, ',')
		e.str("external_tracker_style", t.ExternalTrackerStyle)
		e.b = append(e.b, ',')
		e.str("external_tracker_regexp_pattern", t.ExternalTrackerRegexpPattern)
		e.b = append(e.b, '}', ',')
	}
	e.bool("has_wiki", r.HasWiki)
	e.b = append(e.b, ',')
	if w := r.ExternalWiki; w != nil {
		e.key("external_wiki")
		e.b = append(e.b, '{')
		e.str("external_wiki_url", w.ExternalWikiURL)
		e.b = append(e.b, '}', ',')
	}
	e.bool("has_pull_requests", r.HasPullRequests)
	e.b = append(e.b, ',')
	e.bool("has_projects", r.HasProjects)
	e.b = append(e.b, ',')
	e.str("projects_mode", r.ProjectsMode)
	e.b = append(e.b, ',')
	e.bool("has_releases", r.HasReleases)
	e.b = append(e.b, ',')
	e.bool("has_packages", r.HasPackages)
	e.b = append(e.b, ',')
	e.bool("has_actions", r.HasActions)
	e.b = append(e.b, ',')
	e.bool("ignore_whitespace_conflicts", r.IgnoreWhitespaceConflicts)
	e.b = append(e.b, ',')
	e.bool("allow_merge_commits", r.AllowMerge)
	e.b = append(e.b, ',')
	e.bool("allow_rebase", r.AllowRebase)
	e.b = append(e.b, ',')
	e.bool("allow_rebase_explicit", r.AllowRebaseMerge)
	e.b = append(e.b, ',')
	e.bool("allow_squash_merge", r.AllowSquash)
	e.b = append(e.b, ',')
	e.bool("allow_fast_forward_only_merge", r.AllowFastForwardOnly)
	e.b = append(e.b, ',')
	e.bool("allow_rebase_update", r.AllowRebaseUpdate)
	e.b = append(e.b, ',')
	e.bool("allow_manual_merge", r.AllowManualMerge)
	e.b = append(e.b, ',')
	e.bool("autodetect_manual_merge", r.AutodetectManualMerge)
	e.b = append(e.b, ',')
	e.bool("default_delete_branch_after_merge", r.DefaultDeleteBranchAfterMerge)
	e.b = append(e.b, ',')
	e.str("default_merge_style", r.DefaultMergeStyle)
	e.b = append(e.b, ',')
	e.bool("default_allow_maintainer_edit", r.DefaultAllowMaintainerEdit)
	e.b = append(e.b, ',')
	e.str("avatar_url", r.AvatarURL)
	e.b = append(e.b, ',')
	e.bool("internal", r.Internal)
	e.b = append(e.b, ',')
	e.str("mirror_interval", r.MirrorInterval)
	e.b = append(e.b, ',')
	e.str("object_format_name", r.ObjectFormatName)
	e.b = append(e.b, ',')
	e.time("mirror_updated", r.MirrorUpdated)
	e.b = append(e.b, ',')
	e.key("repo_transfer")
	if t := r.RepoTransfer; t == nil {
		e.b = append(e.b, "null"...)
	} else {
		e.b = append(e.b, '{')
		e.key("doer")
		e.userPtr(t.Doer)
		e.b = append(e.b, ',')
		e.key("recipient")
		e.userPtr(t.Recipient)
		e.b = append(e.b, ',')
		e.key("teams")
		e.anyList(t.Teams)
		e.b = append(e.b, '}')
	}
	e.b = append(e.b, ',')
	e.key("topics")
	e.strList(r.Topics)
	e.b = append(e.b, ',')
	e.key("licenses")
	e.strList(r.Licenses)
	e.b = append(e.b, '}')
	if e.fullRepos == nil {
		e.fullRepos = map[*repoDTO][2]int{}
	}
	e.fullRepos[r] = [2]int{start, len(e.b)}
}
