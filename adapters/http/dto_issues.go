package http

import (
	"net/url"
	"time"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/issues"
	"github.com/depothq/depot/domain/repository"
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
}

// repoMetaDTO is Gitea's RepositoryMeta.
type repoMetaDTO struct {
	ID       int64  `json:"id"`
	Name     string `json:"name"`
	Owner    string `json:"owner"`
	FullName string `json:"full_name"`
}

// issueRepoAPI is the API address of r, without a trailing slash.
func (s *Server) issueRepoAPI(r *repository.Repository) string {
	return s.baseURL + apiPrefix + "/repos/" + url.PathEscape(r.Owner.Name) + "/" + url.PathEscape(r.Name)
}

// issueDTOs renders issue views for caller c as Gitea's Issue JSON, in
// order. It is the one renderer of issues: the issue routes, the pinned
// issues listing and the webhook payloads all use it, with views from
// issues.Service.Views (which loads them in a fixed number of queries).
// Labels of the owning organisation link to the organisation's labels.
func (s *Server) issueDTOs(c auth.Caller, views []*issues.IssueView) []issueDTO {
	out := make([]issueDTO, 0, len(views))
	for _, v := range views {
		out = append(out, s.issueDTO(c, v))
	}
	return out
}

// issueDTO renders one issue view; see issueDTOs.
func (s *Server) issueDTO(c auth.Caller, v *issues.IssueView) issueDTO {
	i, r := v.Issue, v.Repo
	api := s.issueRepoAPI(r)
	poster := s.toUser(c, v.Poster)
	d := issueDTO{
		ID: i.ID, URL: api + "/issues/" + itoa(i.Index), HTMLURL: s.issueWebURL(r, i), Index: i.Index,
		Poster: &poster, Title: i.Title, Body: i.Body, Ref: i.Ref, Attachments: s.toAttachmentDTOs(v.Attachments),
		Labels: make([]labelDTO, 0, len(v.Labels)), State: string(i.State()), IsLocked: i.IsLocked,
		Comments: i.NumComments, Created: i.CreatedAt.UTC(), Updated: i.UpdatedAt.UTC(),
		Closed: utcPtr(i.ClosedAt), Deadline: utcPtr(i.Deadline), PinOrder: i.PinOrder,
		Repo: &repoMetaDTO{ID: r.ID, Name: r.Name, Owner: r.Owner.Name, FullName: r.FullName()},
	}
	orgAPI := s.baseURL + apiPrefix + "/orgs/" + url.PathEscape(r.Owner.Name)
	for _, l := range v.Labels {
		base := api
		if l.RepoID == 0 {
			base = orgAPI
		}
		d.Labels = append(d.Labels, toLabelDTO(l, base))
	}
	if v.Milestone != nil {
		d.Milestone = toMilestoneDTO(v.Milestone)
	}
	if len(v.Assignees) > 0 {
		// Gitea renders assignees without a viewer, so e-mail addresses
		// follow the anonymous rule; the first one is also the deprecated
		// single assignee.
		for _, u := range v.Assignees {
			d.Assignees = append(d.Assignees, s.toUser(auth.Caller{}, u))
		}
		first := d.Assignees[0]
		d.Assignee = &first
	}
	if i.IsPull {
		d.PullRequest = &pullMetaDTO{HTMLURL: s.issueWebURL(r, i)}
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
