package http

import (
	"net/url"
	"time"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/issues"
	"github.com/depothq/depot/domain/pull"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
)

// issueDTO is Gitea's Issue (structs.Issue), field for field.
type issueDTO struct {
	ID               int64           `json:"id"`
	URL              string          `json:"url"`
	HTMLURL          string          `json:"html_url"`
	Index            int64           `json:"number"`
	Poster           *userDTO        `json:"user"`
	OriginalAuthor   string          `json:"original_author"`
	OriginalAuthorID int64           `json:"original_author_id"`
	Title            string          `json:"title"`
	Body             string          `json:"body"`
	Ref              string          `json:"ref"`
	Attachments      []attachmentDTO `json:"assets"`
	Labels           []labelDTO      `json:"labels"`
	Milestone        *milestoneDTO   `json:"milestone"`
	Assignee         *userDTO        `json:"assignee"`
	Assignees        []userDTO       `json:"assignees"`
	State            string          `json:"state"`
	IsLocked         bool            `json:"is_locked"`
	Comments         int             `json:"comments"`
	Created          time.Time       `json:"created_at"`
	Updated          time.Time       `json:"updated_at"`
	Closed           *time.Time      `json:"closed_at"`
	Deadline         *time.Time      `json:"due_date"`
	TimeEstimate     int64           `json:"time_estimate"`
	PullRequest      *pullMetaDTO    `json:"pull_request"`
	Repo             *repoMetaDTO    `json:"repository"`
	PinOrder         int             `json:"pin_order"`
}

// pullMetaDTO is Gitea's PullRequestMeta, present only on pull requests.
type pullMetaDTO struct {
	HasMerged        bool       `json:"merged"`
	Merged           *time.Time `json:"merged_at"`
	IsWorkInProgress bool       `json:"draft"`
	HTMLURL          string     `json:"html_url"`
	DiffURL          string     `json:"diff_url"`
	PatchURL         string     `json:"patch_url"`
}

// repoMetaDTO is Gitea's RepositoryMeta.
type repoMetaDTO struct {
	ID       int64  `json:"id"`
	Name     string `json:"name"`
	Owner    string `json:"owner"`
	FullName string `json:"full_name"`
}

// issueDTOs renders issue views for caller c as Gitea's Issue JSON, in
// order. It is the one renderer of issues: the issue routes, the pinned
// issues listing and the webhook payloads all use it, with views from
// issues.Service.Views (which loads them in a fixed number of queries).
// Labels of the owning organisation link to the organisation's labels.
// What issues of one repository or one poster share (addresses, the
// repository object, the rendered user) is built once per call and shared
// by pointer, so the DTOs must be treated as read-only.
func (s *kernel) issueDTOs(c auth.Caller, views []*issues.IssueView) []issueDTO {
	rd := s.newIssueRenderer(c)
	out := make([]issueDTO, 0, len(views))
	for _, v := range views {
		out = append(out, rd.issue(v))
	}
	return out
}

// issueDTO renders one issue view; see issueDTOs.
func (s *kernel) issueDTO(c auth.Caller, v *issues.IssueView) issueDTO {
	return s.newIssueRenderer(c).issue(v)
}

// issueRenderer renders the issues of one answer for one caller, keeping
// what they share.
type issueRenderer struct {
	s       *kernel
	c       auth.Caller
	repos   map[int64]*issueRepoParts
	posters map[int64]*userDTO // rendered for c
	anon    map[int64]userDTO  // rendered without a viewer (assignees)
}

// issueRepoParts are the per-repository parts of its issues' JSON.
type issueRepoParts struct {
	api, web, orgAPI string
	meta             *repoMetaDTO
}

func (s *kernel) newIssueRenderer(c auth.Caller) *issueRenderer {
	return &issueRenderer{s: s, c: c}
}

func (rd *issueRenderer) repo(r *repository.Repository) *issueRepoParts {
	if p := rd.repos[r.ID]; p != nil {
		return p
	}
	if rd.repos == nil {
		rd.repos = map[int64]*issueRepoParts{}
	}
	p := &issueRepoParts{api: rd.s.repoAPIURL(r), web: rd.s.repoWebURL(r),
		orgAPI: rd.s.baseURL + apiPrefix + "/orgs/" + url.PathEscape(r.Owner.Name),
		meta:   &repoMetaDTO{ID: r.ID, Name: r.Name, Owner: r.Owner.Name, FullName: r.FullName()}}
	rd.repos[r.ID] = p
	return p
}

func (rd *issueRenderer) poster(u *user.User) *userDTO {
	if d := rd.posters[u.ID]; d != nil {
		return d
	}
	if rd.posters == nil {
		rd.posters = map[int64]*userDTO{}
	}
	d := rd.s.toUser(rd.c, u)
	rd.posters[u.ID] = &d
	return &d
}

func (rd *issueRenderer) assignee(u *user.User) userDTO {
	if d, ok := rd.anon[u.ID]; ok {
		return d
	}
	if rd.anon == nil {
		rd.anon = map[int64]userDTO{}
	}
	// Gitea renders assignees without a viewer, so e-mail addresses
	// follow the anonymous rule.
	d := rd.s.toUser(auth.Caller{}, u)
	rd.anon[u.ID] = d
	return d
}

func (rd *issueRenderer) issue(v *issues.IssueView) issueDTO {
	i := v.Issue
	p := rd.repo(v.Repo)
	kind := "/issues/"
	if i.IsPull {
		kind = "/pulls/"
	}
	index := itoa(i.Index)
	d := issueDTO{
		ID: i.ID, URL: p.api + "/issues/" + index, HTMLURL: p.web + kind + index, Index: i.Index,
		Poster: rd.poster(v.Poster), OriginalAuthor: i.OriginalAuthor, OriginalAuthorID: i.OriginalAuthorID,
		Title: i.Title, Body: i.Body, Ref: i.Ref,
		Attachments: rd.s.toAttachmentDTOs(v.Attachments),
		Labels:      make([]labelDTO, 0, len(v.Labels)), State: string(i.State()), IsLocked: i.IsLocked,
		Comments: i.NumComments, Created: i.CreatedAt.UTC(), Updated: i.UpdatedAt.UTC(),
		Closed: utcPtr(i.ClosedAt), Deadline: utcPtr(i.Deadline), PinOrder: i.PinOrder, Repo: p.meta,
	}
	for _, l := range v.Labels {
		base := p.api
		if l.RepoID == 0 {
			base = p.orgAPI
		}
		d.Labels = append(d.Labels, toLabelDTO(l, base))
	}
	if v.Milestone != nil {
		d.Milestone = toMilestoneDTO(v.Milestone)
	}
	if len(v.Assignees) > 0 {
		d.Assignees = make([]userDTO, 0, len(v.Assignees))
		for _, u := range v.Assignees {
			d.Assignees = append(d.Assignees, rd.assignee(u))
		}
		// The first one is also the deprecated single assignee.
		first := d.Assignees[0]
		d.Assignee = &first
	}
	if i.IsPull {
		m := &pullMetaDTO{HTMLURL: d.HTMLURL, DiffURL: d.HTMLURL + ".diff", PatchURL: d.HTMLURL + ".patch",
			IsWorkInProgress: pull.IsWorkInProgress(i.Title)}
		if v.Pull != nil && v.Pull.HasMerged {
			m.HasMerged, m.Merged = true, utcPtr(v.Pull.MergedAt)
		}
		d.PullRequest = m
	}
	return d
}

func utcPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	v := t.UTC()
	return &v
}
