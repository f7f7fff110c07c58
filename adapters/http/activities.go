package http

import (
	"net/http"
	"time"

	"github.com/depothq/depot/app/activity"
	"github.com/depothq/depot/domain/repository"
)

// activities serves the activity feeds of users, repositories,
// organisations and teams (Gitea's Activity) and the users' heatmaps.
// The middleware resolves the feed's account, repository or team (404
// when the caller may not see it); the use cases keep private
// repositories' records from those who may not read them.
type activities struct{ *kernel }

// activityRoutes are the rows of activities.
func (s *kernel) activityRoutes() []route {
	h := activities{s}
	return []route{
		{"GET", "/users/{username}/activities/feeds", scopes(catUser), "-", h.userFeed},
		{"GET", "/users/{username}/heatmap", scopes(catUser), "-", h.heatmap},
		{"GET", R + "/activities/feeds", scopes(catRepo), "-", h.repoFeed},
		{"GET", "/orgs/{org}/activities/feeds", scopes(catOrg), "-", h.orgFeed},
		{"GET", "/teams/{teamid}/activities/feeds", scopes(catOrg), "TM", h.teamFeed},
	}
}

// activityDTO is Gitea's Activity.
type activityDTO struct {
	ID        int64     `json:"id"`
	ActUserID int64     `json:"act_user_id"`
	ActUser   *userDTO  `json:"act_user"`
	OpType    string    `json:"op_type"`
	Content   string    `json:"content"`
	RepoID    int64     `json:"repo_id"`
	Repo      *repoDTO  `json:"repo"`
	CommentID int64     `json:"comment_id"`
	Comment   *struct{} `json:"comment"`
	RefName   string    `json:"ref_name"`
	IsPrivate bool      `json:"is_private"`
	UserID    int64     `json:"user_id"`
	Created   time.Time `json:"created"`
}

// heatmapDTO is Gitea's UserHeatmapData.
type heatmapDTO struct {
	Timestamp     int64 `json:"timestamp"`
	Contributions int64 `json:"contributions"`
}

// filter reads the feed's query: date, only-performed-by, page and limit.
func (s activities) filter(q *request) (activity.Filter, error) {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return activity.Filter{}, err
	}
	v := q.r.URL.Query()
	return activity.ParseFilter(v.Get("date"), v.Get("only-performed-by"), opts)
}

// userFeed answers GET /users/{username}/activities/feeds.
func (s activities) userFeed(q *request) error {
	f, err := s.filter(q)
	if err != nil {
		return err
	}
	p, err := s.feeds.User(q.r.Context(), q.caller, q.subject, f)
	return s.writeFeed(q, f, p, err)
}

// repoFeed answers GET /repos/{owner}/{repo}/activities/feeds.
func (s activities) repoFeed(q *request) error {
	f, err := s.filter(q)
	if err != nil {
		return err
	}
	p, err := s.feeds.Repo(q.r.Context(), q.repo, f)
	return s.writeFeed(q, f, p, err)
}

// orgFeed answers GET /orgs/{org}/activities/feeds.
func (s activities) orgFeed(q *request) error {
	f, err := s.filter(q)
	if err != nil {
		return err
	}
	p, err := s.feeds.Org(q.r.Context(), q.org, f)
	return s.writeFeed(q, f, p, err)
}

// teamFeed answers GET /teams/{teamid}/activities/feeds.
func (s activities) teamFeed(q *request) error {
	f, err := s.filter(q)
	if err != nil {
		return err
	}
	p, err := s.feeds.Team(q.r.Context(), q.team, f)
	return s.writeFeed(q, f, p, err)
}

// writeFeed renders a page: the actors and repositories are loaded with
// the page, the repositories rendered together.
func (s activities) writeFeed(q *request, f activity.Filter, p *activity.Page, err error) error {
	if err != nil {
		return err
	}
	var list []*repository.Repository
	for _, r := range p.Repos {
		list = append(list, r)
	}
	rendered, err := s.renderRepos(q.r.Context(), q.caller, list)
	if err != nil {
		return err
	}
	byID := make(map[int64]*repoDTO, len(rendered))
	for _, r := range rendered {
		byID[r.ID] = r
	}
	out := make([]activityDTO, 0, len(p.List))
	for _, a := range p.List {
		d := activityDTO{ID: a.ID, ActUserID: a.ActUserID, OpType: string(a.OpType), Content: a.Content, RepoID: a.RepoID,
			Repo: byID[a.RepoID], CommentID: a.CommentID, RefName: a.RefName, IsPrivate: a.IsPrivate, UserID: a.UserID,
			Created: a.Created}
		if u := p.Users[a.ActUserID]; u != nil {
			dto := s.toUser(q.caller, u)
			d.ActUser = &dto
		}
		out = append(out, d)
	}
	s.setPaging(q.w, q.r, f.ListOptions, p.Total)
	q.json(http.StatusOK, out)
	return nil
}

// heatmap answers GET /users/{username}/heatmap.
func (s activities) heatmap(q *request) error {
	list, err := s.feeds.Heatmap(q.r.Context(), q.caller, q.subject)
	if err != nil {
		return err
	}
	out := make([]heatmapDTO, len(list))
	for i, b := range list {
		out[i] = heatmapDTO{Timestamp: b.Timestamp, Contributions: b.Contributions}
	}
	q.json(http.StatusOK, out)
	return nil
}
