package http

import (
	"errors"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/depothq/depot/app/issues"
)

// writeIssues answers a list of issues. The issue lists are the tracker's
// hottest answers and their DTOs are large and nested, so they are encoded
// by hand into a pooled buffer instead of through encoding/json's
// reflection: the bytes are the same as writeJSON's (issue_list_encoder_test.go
// compares them), and the objects the issues of a page share (the
// repository, a poster) are encoded once and copied.
func (s *kernel) writeIssues(q *request, status int, views []*issues.IssueView) {
	list := s.issueDTOs(q.caller, views)
	writeEncodedJSON(q, status, list, func(b []byte) ([]byte, error) { return appendIssuesJSON(b, list) })
}

// writeEncodedJSON answers v, encoded by appendJSON into a pooled buffer
// with the bytes writeJSON would write. When appendJSON fails (a time
// outside years 0–9999, or a value encoding/json refuses in the few fields
// left to it), encoding/json answers v and so the error.
func writeEncodedJSON(q *request, status int, v any, appendJSON func([]byte) ([]byte, error)) {
	bp := issueBufPool.Get().(*[]byte)
	defer func() {
		if cap(*bp) <= 1<<20 { // a rare huge page is not kept
			issueBufPool.Put(bp)
		}
	}()
	b, err := appendJSON((*bp)[:0])
	if err != nil {
		writeJSON(q.w, status, v)
		return
	}
	b = append(b, '\n')
	*bp = b
	q.w.Header().Set("Content-Type", "application/json;charset=utf-8")
	q.w.WriteHeader(status)
	_, _ = q.w.Write(b)
}

// issueBufPool holds the buffers issue lists are encoded into.
var issueBufPool = sync.Pool{New: func() any { b := make([]byte, 0, 32<<10); return &b }}

// errJSONTime is a time JSON cannot carry (Time.MarshalJSON's rule).
var errJSONTime = errors.New("time outside years 0-9999")

// issueJSON encodes issue and pull request DTOs (pull_list_encoder.go);
// users, repos and fullRepos remember where an object shared by pointer was
// already written, so later copies are a memmove.
type issueJSON struct {
	b         []byte
	users     map[*userDTO][2]int
	repos     map[*repoMetaDTO][2]int
	fullRepos map[*repoDTO][2]int
	err       error
}

// appendIssuesJSON appends list as encoding/json would encode it.
func appendIssuesJSON(b []byte, list []issueDTO) ([]byte, error) {
	e := &issueJSON{b: b}
	if list == nil {
		return append(e.b, "null"...), nil
	}
	e.b = append(e.b, '[')
	for k := range list {
		if k > 0 {
			e.b = append(e.b, ',')
		}
		e.issue(&list[k])
	}
	e.b = append(e.b, ']')
	return e.b, e.err
}

func (e *issueJSON) key(k string) {
	// Keys are constant ASCII without characters to escape.
	e.b = append(e.b, '"')
	e.b = append(e.b, k...)
	e.b = append(e.b, '"', ':')
}

func (e *issueJSON) str(k, v string) {
	e.key(k)
	e.b = appendJSONString(e.b, v)
}

func (e *issueJSON) int(k string, v int64) {
	e.key(k)
	e.b = strconv.AppendInt(e.b, v, 10)
}

func (e *issueJSON) bool(k string, v bool) {
	e.key(k)
	e.b = strconv.AppendBool(e.b, v)
}

func (e *issueJSON) time(k string, t time.Time) {
	e.key(k)
	if y := t.Year(); y < 0 || y > 9999 {
		e.err = errJSONTime
	}
	e.b = append(e.b, '"')
	e.b = t.AppendFormat(e.b, time.RFC3339Nano)
	e.b = append(e.b, '"')
}

func (e *issueJSON) timePtr(k string, t *time.Time) {
	if t == nil {
		e.key(k)
		e.b = append(e.b, "null"...)
		return
	}
	e.time(k, *t)
}

func (e *issueJSON) null(k string) {
	e.key(k)
	e.b = append(e.b, "null"...)
}

// jsonList writes list as a JSON array of each's encodings, or null for a
// nil slice, as encoding/json does.
func jsonList[T any](e *issueJSON, list []T, each func(*T)) {
	if list == nil {
		e.b = append(e.b, "null"...)
		return
	}
	e.b = append(e.b, '[')
	for k := range list {
		if k > 0 {
			e.b = append(e.b, ',')
		}
		each(&list[k])
	}
	e.b = append(e.b, ']')
}

func (e *issueJSON) issue(d *issueDTO) {
	e.b = append(e.b, '{')
	e.int("id", d.ID)
	e.b = append(e.b, ',')
	e.str("url", d.URL)
	e.b = append(e.b, ',')
	e.str("html_url", d.HTMLURL)
	e.b = append(e.b, ',')
	e.int("number", d.Index)
	e.b = append(e.b, ',')
	e.key("user")
	e.userPtr(d.Poster)
	e.b = append(e.b, ',')
	e.str("original_author", d.OriginalAuthor)
	e.b = append(e.b, ',')
	e.int("original_author_id", d.OriginalAuthorID)
	e.b = append(e.b, ',')
	e.str("title", d.Title)
	e.b = append(e.b, ',')
	e.str("body", d.Body)
	e.b = append(e.b, ',')
	e.str("ref", d.Ref)
	e.b = append(e.b, ',')
	e.key("assets")
	jsonList(e, d.Attachments, e.attachment)
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
	e.str("state", d.State)
	e.b = append(e.b, ',')
	e.bool("is_locked", d.IsLocked)
	e.b = append(e.b, ',')
	e.int("comments", int64(d.Comments))
	e.b = append(e.b, ',')
	e.time("created_at", d.Created)
	e.b = append(e.b, ',')
	e.time("updated_at", d.Updated)
	e.b = append(e.b, ',')
	e.timePtr("closed_at", d.Closed)
	e.b = append(e.b, ',')
	e.timePtr("due_date", d.Deadline)
	e.b = append(e.b, ',')
	e.int("time_estimate", d.TimeEstimate)
	e.b = append(e.b, ',')
	if d.PullRequest == nil {
		e.null("pull_request")
	} else {
		p := d.PullRequest
		e.key("pull_request")
		e.b = append(e.b, '{')
		e.bool("merged", p.HasMerged)
		e.b = append(e.b, ',')
		e.timePtr("merged_at", p.Merged)
		e.b = append(e.b, ',')
		e.bool("draft", p.IsWorkInProgress)
		e.b = append(e.b, ',')
		e.str("html_url", p.HTMLURL)
		e.b = append(e.b, ',')
		e.str("diff_url", p.DiffURL)
		e.b = append(e.b, ',')
		e.str("patch_url", p.PatchURL)
		e.b = append(e.b, '}')
	}
	e.b = append(e.b, ',')
	e.key("repository")
	e.repo(d.Repo)
	e.b = append(e.b, ',')
	e.int("pin_order", int64(d.PinOrder))
	e.b = append(e.b, '}')
}

// userPtr writes u, copying an earlier encoding of the same pointer.
func (e *issueJSON) userPtr(u *userDTO) {
	if u == nil {
		e.b = append(e.b, "null"...)
		return
	}
	if at, ok := e.users[u]; ok {
		e.b = append(e.b, e.b[at[0]:at[1]]...)
		return
	}
	start := len(e.b)
	e.user(u)
	if e.users == nil {
		e.users = map[*userDTO][2]int{}
	}
	e.users[u] = [2]int{start, len(e.b)}
}

func (e *issueJSON) user(u *userDTO) {
	e.b = append(e.b, '{')
	e.int("id", u.ID)
	e.b = append(e.b, ',')
	e.str("login", u.Login)
	e.b = append(e.b, ',')
	e.str("login_name", u.LoginName)
	e.b = append(e.b, ',')
	e.int("source_id", u.SourceID)
	e.b = append(e.b, ',')
	e.str("full_name", u.FullName)
	e.b = append(e.b, ',')
	e.str("email", u.Email)
	e.b = append(e.b, ',')
	e.str("avatar_url", u.AvatarURL)
	e.b = append(e.b, ',')
	e.str("html_url", u.HTMLURL)
	e.b = append(e.b, ',')
	e.str("language", u.Language)
	e.b = append(e.b, ',')
	e.bool("is_admin", u.IsAdmin)
	e.b = append(e.b, ',')
	e.time("last_login", u.LastLogin)
	e.b = append(e.b, ',')
	e.time("created", u.Created)
	e.b = append(e.b, ',')
	e.bool("restricted", u.Restricted)
	e.b = append(e.b, ',')
	e.bool("active", u.Active)
	e.b = append(e.b, ',')
	e.bool("prohibit_login", u.ProhibitLogin)
	e.b = append(e.b, ',')
	e.str("location", u.Location)
	e.b = append(e.b, ',')
	e.str("website", u.Website)
	e.b = append(e.b, ',')
	e.str("description", u.Description)
	e.b = append(e.b, ',')
	e.str("visibility", u.Visibility)
	e.b = append(e.b, ',')
	e.int("followers_count", int64(u.FollowersCount))
	e.b = append(e.b, ',')
	e.int("following_count", int64(u.FollowingCount))
	e.b = append(e.b, ',')
	e.int("starred_repos_count", int64(u.StarredReposCnt))
	e.b = append(e.b, ',')
	e.str("username", u.Username)
	e.b = append(e.b, '}')
}

func (e *issueJSON) repo(r *repoMetaDTO) {
	if r == nil {
		e.b = append(e.b, "null"...)
		return
	}
	if at, ok := e.repos[r]; ok {
		e.b = append(e.b, e.b[at[0]:at[1]]...)
		return
	}
	start := len(e.b)
	e.b = append(e.b, '{')
	e.int("id", r.ID)
	e.b = append(e.b, ',')
	e.str("name", r.Name)
	e.b = append(e.b, ',')
	e.str("owner", r.Owner)
	e.b = append(e.b, ',')
	e.str("full_name", r.FullName)
	e.b = append(e.b, '}')
	if e.repos == nil {
		e.repos = map[*repoMetaDTO][2]int{}
	}
	e.repos[r] = [2]int{start, len(e.b)}
}

func (e *issueJSON) label(l *labelDTO) {
	e.b = append(e.b, '{')
	e.int("id", l.ID)
	e.b = append(e.b, ',')
	e.str("name", l.Name)
	e.b = append(e.b, ',')
	e.bool("exclusive", l.Exclusive)
	e.b = append(e.b, ',')
	e.bool("is_archived", l.IsArchived)
	e.b = append(e.b, ',')
	e.str("color", l.Color)
	e.b = append(e.b, ',')
	e.str("description", l.Description)
	e.b = append(e.b, ',')
	e.str("url", l.URL)
	e.b = append(e.b, '}')
}

func (e *issueJSON) milestone(m *milestoneDTO) {
	e.b = append(e.b, '{')
	e.int("id", m.ID)
	e.b = append(e.b, ',')
	e.str("title", m.Title)
	e.b = append(e.b, ',')
	e.str("description", m.Description)
	e.b = append(e.b, ',')
	e.str("state", m.State)
	e.b = append(e.b, ',')
	e.int("open_issues", int64(m.OpenIssues))
	e.b = append(e.b, ',')
	e.int("closed_issues", int64(m.ClosedIssues))
	e.b = append(e.b, ',')
	e.time("created_at", m.Created)
	e.b = append(e.b, ',')
	e.timePtr("updated_at", m.Updated)
	e.b = append(e.b, ',')
	e.timePtr("closed_at", m.Closed)
	e.b = append(e.b, ',')
	e.timePtr("due_on", m.Deadline)
	e.b = append(e.b, '}')
}

func (e *issueJSON) attachment(a *attachmentDTO) {
	e.b = append(e.b, '{')
	e.int("id", a.ID)
	e.b = append(e.b, ',')
	e.str("name", a.Name)
	e.b = append(e.b, ',')
	e.int("size", a.Size)
	e.b = append(e.b, ',')
	e.int("download_count", a.DownloadCount)
	e.b = append(e.b, ',')
	e.time("created_at", a.Created)
	e.b = append(e.b, ',')
	e.str("uuid", a.UUID)
	e.b = append(e.b, ',')
	e.str("browser_download_url", a.DownloadURL)
	e.b = append(e.b, '}')
}

const jsonHex = "0123456789abcdef"

// appendJSONString appends s as a JSON string the way encoding/json's
// default (HTML-escaping) encoder writes it: quotes, backslashes and
// control characters escaped (\b \f \n \r \t by their short forms), '<',
// '>' and '&' as \u003c-style escapes, invalid UTF-8 bytes as \ufffd, and
// U+2028 and U+2029 escaped.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	from := 0
	for k := 0; k < len(s); {
		c := s[k]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				k++
				continue
			}
			b = append(b, s[from:k]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', jsonHex[c>>4], jsonHex[c&0xf])
			}
			k++
			from = k
			continue
		}
		r, size := utf8.DecodeRuneInString(s[k:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[from:k]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[from:k]...)
			b = append(b, '\\', 'u', '2', '0', '2', jsonHex[r&0xf])
		default:
			k += size
			continue
		}
		k += size
		from = k
	}
	b = append(b, s[from:]...)
	return append(b, '"')
}
