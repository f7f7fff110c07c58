package http

import (
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/depothq/depot/app/notifications"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/notification"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/token"
)

const catNotification = token.CategoryNotification

// notificationThreads serves the caller's notification threads (catalogue
// 4.3): every row needs a signed-in caller, and a thread of another user
// or of a repository the caller may no longer see is not found.
type notificationThreads struct{ *kernel }

// notificationRoutes are the rows of notificationThreads.
func (s *kernel) notificationRoutes() []route {
	h := notificationThreads{s}
	return []route{
		{"GET", "/notifications", scopes(catNotification), "T", h.list},
		{"PUT", "/notifications", scopes(catNotification), "T", h.markAll},
		{"GET", "/notifications/new", scopes(catNotification), "T", h.countNew},
		{"GET", "/notifications/threads/{id}", scopes(catNotification), "T", h.get},
		{"PATCH", "/notifications/threads/{id}", scopes(catNotification), "T", h.mark},
		{"GET", R + "/notifications", scopes(catNotification), "T", h.listRepo},
		{"PUT", R + "/notifications", scopes(catNotification), "T", h.markRepo},
	}
}

// notificationThreadDTO is Gitea's NotificationThread.
type notificationThreadDTO struct {
	ID         int64                   `json:"id"`
	Repository *repoDTO                `json:"repository"`
	Subject    *notificationSubjectDTO `json:"subject"`
	Unread     bool                    `json:"unread"`
	Pinned     bool                    `json:"pinned"`
	UpdatedAt  time.Time               `json:"updated_at"`
	URL        string                  `json:"url"`
}

// notificationSubjectDTO is Gitea's NotificationSubject.
type notificationSubjectDTO struct {
	Title                string `json:"title"`
	URL                  string `json:"url"`
	LatestCommentURL     string `json:"latest_comment_url"`
	HTMLURL              string `json:"html_url"`
	LatestCommentHTMLURL string `json:"latest_comment_html_url"`
	Type                 string `json:"type"`
	State                string `json:"state"`
}

// notificationCountDTO is Gitea's NotificationCount.
type notificationCountDTO struct {
	New int64 `json:"new"`
}

// queryList reads a repeatable query parameter; a value may also hold
// several, comma-separated.
func queryList(q *request, name string) []string {
	var out []string
	for _, v := range q.r.URL.Query()[name] {
		for _, p := range strings.Split(v, ",") {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}

// queryFlag reads an optional boolean query parameter, false when absent.
func queryFlag(q *request, name string) (bool, error) {
	b, err := queryBool(q, name)
	return b != nil && *b, err
}

// statuses reads status-types: 400 for an unknown status.
func statuses(q *request) ([]notification.Status, error) {
	var out []notification.Status
	for _, v := range queryList(q, "status-types") {
		st, err := notification.ParseStatus(v)
		if err != nil {
			return nil, err
		}
		out = append(out, st)
	}
	return out, nil
}

// filter reads the list routes' query: all, status-types, subject-type,
// since, before, page and limit.
func (s notificationThreads) filter(q *request) (notifications.Filter, error) {
	var f notifications.Filter
	var err error
	if f.ListOptions, err = s.listOptions(q.r); err != nil {
		return f, err
	}
	if f.All, err = queryFlag(q, "all"); err != nil {
		return f, err
	}
	if f.Statuses, err = statuses(q); err != nil {
		return f, err
	}
	for _, v := range queryList(q, "subject-type") {
		st, err := notification.ParseSubjectType(v)
		if err != nil {
			return f, err
		}
		f.Subjects = append(f.Subjects, st)
	}
	if f.Since, err = queryTime(q, "since"); err != nil {
		return f, err
	}
	f.Before, err = queryTime(q, "before")
	return f, err
}

// mark reads the mark routes' query: last_read_at, all, status-types and
// to-status.
func (s notificationThreads) markQuery(q *request) (notifications.Mark, error) {
	var m notifications.Mark
	var err error
	if m.LastReadAt, err = queryTime(q, "last_read_at"); err != nil {
		return m, err
	}
	if m.All, err = queryFlag(q, "all"); err != nil {
		return m, err
	}
	if m.Statuses, err = statuses(q); err != nil {
		return m, err
	}
	m.To, err = toStatus(q)
	return m, err
}

// toStatus reads to-status: read when absent, 400 when unknown.
func toStatus(q *request) (notification.Status, error) {
	v := q.r.URL.Query().Get("to-status")
	if v == "" {
		return notification.StatusRead, nil
	}
	return notification.ParseStatus(v)
}

// list answers GET /notifications.
func (s notificationThreads) list(q *request) error { return s.listIn(q, nil) }

// listRepo answers GET R/notifications.
func (s notificationThreads) listRepo(q *request) error { return s.listIn(q, q.repo) }

func (s notificationThreads) listIn(q *request, repo *repos.Access) error {
	f, err := s.filter(q)
	if err != nil {
		return err
	}
	p, err := s.notifications.List(q.r.Context(), q.caller, repo, f)
	if err != nil {
		return err
	}
	out, err := s.renderThreads(q, p)
	if err != nil {
		return err
	}
	s.setPaging(q.w, q.r, f.ListOptions, p.Total)
	q.json(http.StatusOK, out)
	return nil
}

// markAll answers PUT /notifications: 205 with the threads changed.
func (s notificationThreads) markAll(q *request) error { return s.markIn(q, nil) }

// markRepo answers PUT R/notifications: 205 with the threads changed.
func (s notificationThreads) markRepo(q *request) error { return s.markIn(q, q.repo) }

func (s notificationThreads) markIn(q *request, repo *repos.Access) error {
	m, err := s.markQuery(q)
	if err != nil {
		return err
	}
	p, err := s.notifications.MarkAll(q.r.Context(), q.caller, repo, m)
	if err != nil {
		return err
	}
	out, err := s.renderThreads(q, p)
	if err != nil {
		return err
	}
	q.json(http.StatusResetContent, out)
	return nil
}

// countNew answers GET /notifications/new.
func (s notificationThreads) countNew(q *request) error {
	n, err := s.notifications.CountUnread(q.r.Context(), q.caller)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, notificationCountDTO{New: n})
	return nil
}

// get answers GET /notifications/threads/{id}.
func (s notificationThreads) get(q *request) error {
	id, err := pathID(q, "id")
	if err != nil {
		return err
	}
	p, err := s.notifications.Get(q.r.Context(), q.caller, id)
	return s.writeOne(q, http.StatusOK, p, err)
}

// mark answers PATCH /notifications/threads/{id}: 205 with the thread.
func (s notificationThreads) mark(q *request) error {
	id, err := pathID(q, "id")
	if err != nil {
		return err
	}
	to, err := toStatus(q)
	if err != nil {
		return err
	}
	p, err := s.notifications.Set(q.r.Context(), q.caller, id, to)
	return s.writeOne(q, http.StatusResetContent, p, err)
}

func (s notificationThreads) writeOne(q *request, status int, p *notifications.Page, err error) error {
	if err != nil {
		return err
	}
	out, err := s.renderThreads(q, p)
	if err != nil {
		return err
	}
	if len(out) != 1 {
		return errs.NotFound("notification thread does not exist")
	}
	q.json(status, out[0])
	return nil
}

// renderThreads renders a page: its repositories together, without the
// caller's permissions (as Gitea leaves them out).
func (s notificationThreads) renderThreads(q *request, p *notifications.Page) ([]notificationThreadDTO, error) {
	list := make([]*repository.Repository, 0, len(p.Repos))
	for _, r := range p.Repos {
		list = append(list, r)
	}
	rendered, err := s.renderRepos(q.r.Context(), q.caller, list)
	if err != nil {
		return nil, err
	}
	byID := make(map[int64]*repoDTO, len(rendered))
	for _, r := range rendered {
		r.Permissions = nil
		byID[r.ID] = r
	}
	out := make([]notificationThreadDTO, 0, len(p.Threads))
	for _, t := range p.Threads {
		r := p.Repos[t.RepoID]
		if r == nil {
			continue
		}
		out = append(out, notificationThreadDTO{ID: t.ID, Repository: byID[t.RepoID],
			Subject: s.subject(r, t, p.Issues[t.IssueID], p.Merged[t.IssueID]),
			Unread:  t.Status == notification.StatusUnread, Pinned: t.Status == notification.StatusPinned,
			UpdatedAt: t.Updated, URL: s.baseURL + apiPrefix + "/notifications/threads/" + itoa(t.ID)})
	}
	return out, nil
}

// subject renders what thread t is about, as Gitea's ToNotificationThread.
func (s notificationThreads) subject(r *repository.Repository, t *notification.Thread, i *issue.Issue, merged bool) *notificationSubjectDTO {
	d := &notificationSubjectDTO{Type: string(t.Subject)}
	switch t.Subject {
	case notification.SubjectIssue, notification.SubjectPull:
		if i == nil {
			return d
		}
		d.Title = i.Title
		d.URL = s.repoAPIURL(r) + "/issues/" + itoa(i.Index)
		d.HTMLURL = s.issueWebURL(r, i)
		d.State = string(issue.StateOpen)
		if i.IsClosed {
			d.State = string(issue.StateClosed)
		}
		if merged {
			d.State = "merged"
		}
		if t.CommentID != 0 {
			d.LatestCommentURL = s.repoAPIURL(r) + "/issues/comments/" + itoa(t.CommentID)
			d.LatestCommentHTMLURL = d.HTMLURL + "#issuecomment-" + itoa(t.CommentID)
		}
	case notification.SubjectCommit:
		u := s.repoWebURL(r) + "/commit/" + url.PathEscape(t.CommitID)
		d.Title, d.URL, d.HTMLURL = t.CommitID, u, u
	case notification.SubjectRepository:
		d.Title = r.FullName()
		d.URL = "/" + url.PathEscape(r.Owner.Name) + "/" + url.PathEscape(r.Name)
		d.HTMLURL = s.repoWebURL(r)
	}
	return d
}
