package http

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/issues"
	"github.com/depothq/depot/app/pulls"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/pull"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
)

// pullCore serves the pull requests themselves (catalogue 4.5): list,
// pinned, create, get, edit, find by base and head or by merge commit,
// and whether one is merged. The group's Pulls code hides it (404) where
// pull requests are off or unreadable.
type pullCore struct{ *kernel }

// pullRoutes are the rows of pullCore; pullTailRoutes holds the one that
// must come after every other R/pulls/{index}/… row (its {*} matches them).
func (s *kernel) pullRoutes() []route {
	h := pullCore{s}
	return []route{
		{"GET", R + "/commits/{sha}/pull", scopes(catRepo), "RR(code)", h.pullByCommit},
		{"GET", R + "/pulls", scopes(catRepo), "Pulls,RR(code)", h.listPulls},
		{"POST", R + "/pulls", scopes(catRepo), "Pulls,RR(code),T,NA,NotBlocked", h.createPull},
		{"GET", R + "/pulls/pinned", scopes(catRepo), "Pulls,RR(code)", h.pinnedPulls},
		{"GET", R + "/pulls/{index:[0-9]+}", scopes(catRepo), "Pulls,RR(code)", h.getPull},
		{"PATCH", R + "/pulls/{index:[0-9]+}", scopes(catRepo), "Pulls,RR(code),T", h.editPull},
		{"GET", R + "/pulls/{index}/merge", scopes(catRepo), "Pulls,RR(code)", h.isMerged},
	}
}

// pullTailRoutes is GET R/pulls/{base}/{*}, after every literal row.
func (s *kernel) pullTailRoutes() []route {
	h := pullCore{s}
	return []route{
		{"GET", R + "/pulls/{base}/{head:.*}", scopes(catRepo), "Pulls,RR(code)", h.pullByBaseHead},
	}
}

// pullIndex reads {index}: anything but a positive integer names no pull
// request (404).
func pullIndex(q *request) (int64, error) {
	n, err := strconv.ParseInt(q.var_("index"), 10, 64)
	if err != nil || n <= 0 {
		return 0, errs.NotFound("pull request does not exist")
	}
	return n, nil
}

// prBranchDTO is Gitea's PRBranchInfo.
type prBranchDTO struct {
	Name       string   `json:"label"`
	Ref        string   `json:"ref"`
	Sha        string   `json:"sha"`
	RepoID     int64    `json:"repo_id"`
	Repository *repoDTO `json:"repo"`
}

// pullDTO is Gitea's PullRequest, field for field.
type pullDTO struct {
	ID                  int64         `json:"id"`
	URL                 string        `json:"url"`
	Index               int64         `json:"number"`
	Poster              *userDTO      `json:"user"`
	Title               string        `json:"title"`
	Body                string        `json:"body"`
	Labels              []labelDTO    `json:"labels"`
	Milestone           *milestoneDTO `json:"milestone"`
	Assignee            *userDTO      `json:"assignee"`
	Assignees           []userDTO     `json:"assignees"`
	RequestedReviewers  []userDTO     `json:"requested_reviewers"`
	RequestedTeams      []any         `json:"requested_reviewers_teams"`
	State               string        `json:"state"`
	Draft               bool          `json:"draft"`
	IsLocked            bool          `json:"is_locked"`
	Comments            int           `json:"comments"`
	ReviewComments      int           `json:"review_comments"`
	Additions           int           `json:"additions"`
	Deletions           int           `json:"deletions"`
	ChangedFiles        int           `json:"changed_files"`
	HTMLURL             string        `json:"html_url"`
	DiffURL             string        `json:"diff_url"`
	PatchURL            string        `json:"patch_url"`
	Mergeable           bool          `json:"mergeable"`
	HasMerged           bool          `json:"merged"`
	Merged              *time.Time    `json:"merged_at"`
	MergedCommitID      *string       `json:"merge_commit_sha"`
	MergedBy            *userDTO      `json:"merged_by"`
	AllowMaintainerEdit bool          `json:"allow_maintainer_edit"`
	Base                *prBranchDTO  `json:"base"`
	Head                *prBranchDTO  `json:"head"`
	MergeBase           string        `json:"merge_base"`
	Deadline            *time.Time    `json:"due_date"`
	Created             time.Time     `json:"created_at"`
	Updated             time.Time     `json:"updated_at"`
	Closed              *time.Time    `json:"closed_at"`
	PinOrder            int           `json:"pin_order"`
	// MergeStatus and ConflictedFiles are Depot's: the background check's
	// last result (Gitea keeps them server-side).
	MergeStatus     string   `json:"mergeable_state"`
	ConflictedFiles []string `json:"conflicted_files"`
}

// pullDTOs renders pull request views as caller c sees them; the head
// repositories (forks) c may see are rendered with c's permission there,
// in one batch, and the others are left out (head.repo null). Their owners
// come with the views.
func (s *kernel) pullDTOs(ctx context.Context, c auth.Caller, base *repoDTO, views []*pulls.View) ([]pullDTO, error) {
	heads := map[int64]*repoDTO{}
	var forks []*repository.Repository
	owners := map[int64]*user.User{}
	for _, v := range views {
		if v.Head != nil && v.Head.ID != v.Repo.ID {
			if _, ok := heads[v.Head.ID]; !ok {
				heads[v.Head.ID] = nil
				forks = append(forks, v.Head)
				owners[v.Head.Owner.ID] = v.HeadOwner
			}
		}
	}
	if len(forks) > 0 {
		// Only the forks c may see are rendered; the others stay hidden.
		access, err := s.repos.PermissionsFor(ctx, c, forks)
		if err != nil {
			return nil, err
		}
		visible := access[:0]
		for _, a := range access {
			if a.Perm.HasAnyAccess() {
				visible = append(visible, a)
			}
		}
		rendered, err := s.renderReposWith(ctx, c, visible, owners)
		if err != nil {
			return nil, err
		}
		for _, d := range rendered {
			heads[d.ID] = d
		}
	}
	return s.pullDTOsWith(c, base, heads, views), nil
}

// pullDTOsWith renders pull request views as caller c sees them, with the
// base repository and the fork heads already rendered (heads by id; a fork
// absent from heads is one c may not see). It does no I/O, so webhook
// payloads render with it too.
func (s *kernel) pullDTOsWith(c auth.Caller, base *repoDTO, heads map[int64]*repoDTO, views []*pulls.View) []pullDTO {
	ivs := make([]*issues.IssueView, len(views))
	for i, v := range views {
		ivs[i] = v.IssueView
	}
	issuesDTO := s.issueDTOs(c, ivs)
	out := make([]pullDTO, len(views))
	for n, v := range views {
		i, p, id := v.Issue, v.Pull, issuesDTO[n]
		web := id.HTMLURL
		d := pullDTO{ID: p.ID, URL: web, Index: i.Index, Poster: id.Poster, Title: i.Title, Body: i.Body,
			Labels: id.Labels, Milestone: id.Milestone, Assignee: id.Assignee, Assignees: id.Assignees,
			RequestedReviewers: []userDTO{}, RequestedTeams: []any{}, State: id.State,
			Draft: pull.IsWorkInProgress(i.Title), IsLocked: i.IsLocked, Comments: i.NumComments,
			Additions: p.Additions, Deletions: p.Deletions, ChangedFiles: p.ChangedFiles,
			HTMLURL: web, DiffURL: web + ".diff", PatchURL: web + ".patch", Mergeable: v.Mergeable,
			HasMerged: p.HasMerged, Merged: utcPtr(p.MergedAt), AllowMaintainerEdit: p.AllowMaintainerEdit,
			MergeBase: p.MergeBase, Deadline: id.Deadline, Created: id.Created, Updated: id.Updated,
			Closed: id.Closed, PinOrder: i.PinOrder, MergeStatus: string(p.Status),
			ConflictedFiles: p.ConflictedFiles}
		for _, u := range v.RequestedReviewers {
			d.RequestedReviewers = append(d.RequestedReviewers, s.toUser(c, u))
		}
		for _, t := range v.RequestedTeams {
			d.RequestedTeams = append(d.RequestedTeams, s.toTeam(t, nil))
		}
		if d.Labels == nil {
			d.Labels = []labelDTO{}
		}
		if d.ConflictedFiles == nil {
			d.ConflictedFiles = []string{}
		}
		if p.HasMerged {
			sha := p.MergeCommitID
			d.MergedCommitID = &sha
		}
		if v.MergedBy != nil {
			u := s.toUser(c, v.MergedBy)
			d.MergedBy = &u
		}
		d.Base = &prBranchDTO{Name: p.BaseBranch, Ref: p.BaseBranch, Sha: v.BaseCommitID, RepoID: v.Repo.ID, Repository: base}
		d.Head = &prBranchDTO{Name: p.HeadBranch, Ref: p.HeadRef(), Sha: p.HeadCommitID, RepoID: -1}
		if v.Head != nil {
			d.Head.Ref, d.Head.RepoID = p.HeadBranch, v.Head.ID
			if v.Head.ID == v.Repo.ID {
				d.Head.Repository = base
			} else {
				d.Head.Repository = heads[v.Head.ID]
				if d.Head.Repository == nil {
					// A fork the caller may not see is named, not shown.
					d.Head.RepoID = -1
				}
			}
		}
		out[n] = d
	}
	return out
}

// answerPulls writes a list of pull requests.
func (s pullCore) answerPulls(q *request, status int, views []*pulls.View) error {
	list, err := s.pullList(q, views)
	if err != nil {
		return err
	}
	s.writePulls(q, status, list)
	return nil
}

// pullList renders views of q's repository as q's caller sees them.
func (s pullCore) pullList(q *request, views []*pulls.View) ([]pullDTO, error) {
	var base *repoDTO
	var err error
	if len(views) > 0 {
		// The views read the owner with the page's other accounts.
		base, err = s.renderRepoOwnedBy(q.r.Context(), q.repo, views[0].BaseOwner)
	} else {
		base, err = s.renderRepo(q.r.Context(), q.repo)
	}
	if err != nil {
		return nil, err
	}
	return s.pullDTOs(q.r.Context(), q.caller, base, views)
}

// answerPull writes one pull request.
func (s pullCore) answerPull(q *request, status int, v *pulls.View) error {
	base, err := s.renderRepo(q.r.Context(), q.repo)
	if err != nil {
		return err
	}
	list, err := s.pullDTOs(q.r.Context(), q.caller, base, []*pulls.View{v})
	if err != nil {
		return err
	}
	q.json(status, list[0])
	return nil
}

// listPulls answers GET R/pulls with one page and the paging headers.
func (s pullCore) listPulls(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	v := q.r.URL.Query()
	in := pulls.ListInput{State: v.Get("state"), Sort: v.Get("sort"), Poster: v.Get("poster"),
		BaseBranch: strings.TrimSpace(v.Get("base_branch")), ListOptions: opts}
	if in.Milestone, err = queryInt(q, "milestone"); err != nil {
		return err
	}
	for _, l := range v["labels"] {
		for _, part := range splitList(l) {
			id, err := strconv.ParseInt(strings.TrimSpace(part), 10, 64)
			if err != nil {
				return errs.BadRequest("labels: must be label ids")
			}
			in.Labels = append(in.Labels, id)
		}
	}
	// The stamp is read before the page, which is then good while it holds
	// (pull_list_cache.go).
	key := pullListKey(q)
	stamp, err := s.pulls.ChangeStamp(q.r.Context())
	if err != nil {
		return err
	}
	if ok, err := s.cachedPullList(q, opts, key, stamp); err != nil || ok {
		return err
	}
	// The access check read the repository and the caller's rights before
	// the stamp: the page is built on a second look, taken after it.
	if q.repo, err = s.repos.OpenByID(q.r.Context(), q.caller, q.repo.Repo.ID); err != nil {
		return err
	}
	views, total, err := s.pulls.List(q.r.Context(), q.repo, in)
	if err != nil {
		return err
	}
	list, err := s.pullList(q, views)
	if err != nil {
		return err
	}
	s.setPaging(q.w, q.r, opts, total)
	s.keepPullList(q, key, stamp, views, total, list)
	return nil
}

// pinnedPulls answers GET R/pulls/pinned.
func (s pullCore) pinnedPulls(q *request) error {
	views, err := s.pulls.Pinned(q.r.Context(), q.repo)
	if err != nil {
		return err
	}
	return s.answerPulls(q, http.StatusOK, views)
}

// createPullOption is Gitea's CreatePullRequestOption.
type createPullOption struct {
	Head      string     `json:"head"`
	Base      string     `json:"base"`
	Title     string     `json:"title"`
	Body      string     `json:"body"`
	Assignee  string     `json:"assignee"`
	Assignees []string   `json:"assignees"`
	Milestone int64      `json:"milestone"`
	Labels    []int64    `json:"labels"`
	Deadline  *time.Time `json:"due_date"`
	Reviewers []string   `json:"reviewers"`
	Teams     []string   `json:"team_reviewers"`
}

// createPull answers POST R/pulls with 201 and the pull request.
func (s pullCore) createPull(q *request) error {
	var in createPullOption
	if err := decodeJSON(q.r, &in); err != nil {
		return err
	}
	v, err := s.pulls.Create(q.r.Context(), q.repo, pulls.CreateInput{Head: in.Head, Base: in.Base,
		Title: in.Title, Body: in.Body, Assignee: in.Assignee, Assignees: in.Assignees,
		Milestone: in.Milestone, Labels: in.Labels, Deadline: in.Deadline})
	if err != nil {
		return err
	}
	return s.answerPull(q, http.StatusCreated, v)
}

// getPull answers GET R/pulls/{index}.
func (s pullCore) getPull(q *request) error {
	index, err := pullIndex(q)
	if err != nil {
		return err
	}
	v, err := s.pulls.Get(q.r.Context(), q.repo, index)
	if err != nil {
		return err
	}
	return s.answerPull(q, http.StatusOK, v)
}

// editPullOption is Gitea's EditPullRequestOption.
type editPullOption struct {
	Title               string     `json:"title"`
	Body                *string    `json:"body"`
	Base                string     `json:"base"`
	Assignee            string     `json:"assignee"`
	Assignees           *[]string  `json:"assignees"`
	Milestone           int64      `json:"milestone"`
	Labels              *[]int64   `json:"labels"`
	State               *string    `json:"state"`
	Deadline            *time.Time `json:"due_date"`
	RemoveDeadline      *bool      `json:"unset_due_date"`
	AllowMaintainerEdit *bool      `json:"allow_maintainer_edit"`
}

// editPull answers PATCH R/pulls/{index} with 201 and the pull request,
// as Gitea does.
func (s pullCore) editPull(q *request) error {
	index, err := pullIndex(q)
	if err != nil {
		return err
	}
	var in editPullOption
	if err := decodeJSON(q.r, &in); err != nil {
		return err
	}
	// Unlike an issue's edit, Gitea's leaves the milestone alone when it is
	// 0 and the assignees when neither field is given (the SDK always sends
	// both, as 0, "" and null).
	var assignee *string
	if in.Assignee != "" {
		assignee = &in.Assignee
	}
	var milestone *int64
	if in.Milestone != 0 {
		milestone = &in.Milestone
	}
	v, err := s.pulls.Edit(q.r.Context(), q.repo, index, pulls.EditInput{
		EditInput: issues.EditInput{Title: in.Title, Body: in.Body, Assignee: assignee, Assignees: in.Assignees,
			Milestone: milestone, State: in.State, Deadline: in.Deadline, RemoveDeadline: in.RemoveDeadline},
		Labels: in.Labels, Base: strings.TrimSpace(in.Base), AllowMaintainerEdit: in.AllowMaintainerEdit})
	if err != nil {
		return err
	}
	return s.answerPull(q, http.StatusCreated, v)
}

// isMerged answers GET R/pulls/{index}/merge: 204 when merged, else 404.
func (s pullCore) isMerged(q *request) error {
	index, err := pullIndex(q)
	if err != nil {
		return err
	}
	_, p, err := s.pulls.Open(q.r.Context(), q.repo, index)
	if err != nil {
		return err
	}
	if !p.HasMerged {
		return errs.NotFound("pull request has not been merged")
	}
	return noContent(q, nil)
}

// pullByBaseHead answers GET R/pulls/{base}/{head}.
func (s pullCore) pullByBaseHead(q *request) error {
	v, err := s.pulls.ByBaseHead(q.r.Context(), q.repo, q.var_("base"), q.var_("head"))
	if err != nil {
		return err
	}
	return s.answerPull(q, http.StatusOK, v)
}

// pullByCommit answers GET R/commits/{sha}/pull: the pull request whose
// merge produced the commit.
func (s pullCore) pullByCommit(q *request) error {
	v, err := s.pulls.ByMergeCommit(q.r.Context(), q.repo, q.var_("sha"))
	if err != nil {
		return err
	}
	return s.answerPull(q, http.StatusOK, v)
}
