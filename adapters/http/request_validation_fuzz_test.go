package http

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/depothq/depot/domain/commitstatus"
	"github.com/depothq/depot/domain/hook"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/org"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/token"
)

// The targets below fuzz one route family each: the body decoded into its
// DTO as the handler decodes it, then checked by the domain rules the use
// case applies. Whatever is refused is refused with a categorised error;
// what passes holds the property the rule promises.

// bodyRequest is a handler's view of a request carrying body.
func bodyRequest(body []byte) *request {
	return &request{r: httptest.NewRequest(http.MethodPost, "/api/v1/x", bytes.NewReader(body)), vars: map[string]string{}}
}

// refused checks err, when there is one, and reports whether there was.
func refused(t *testing.T, err error) bool {
	t.Helper()
	if err != nil {
		categorised(t, err)
	}
	return err != nil
}

func FuzzRepoBody(f *testing.F) {
	for _, s := range []string{`{"name":"repo","description":"d","default_branch":"main"}`, `{"name":".."}`,
		`{"name":"x.git","trust_model":"nope"}`, `{"name":"a","default_branch":"-x"}`, `{"name":"ok","private":"yes"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		in, err := decodeCreateRepo(bodyRequest(body))
		if refused(t, err) {
			return
		}
		err = repository.ValidateName("Name", in.Name)
		if err == nil {
			err = repository.ValidateDescription("Description", in.Description)
		}
		if err == nil && in.DefaultBranch != "" {
			err = repository.ValidateBranchName("DefaultBranch", in.DefaultBranch)
		}
		if refused(t, err) {
			return
		}
		if strings.Trim(in.Name, ".") == "" || strings.ContainsAny(in.Name, "/\\") ||
			strings.Contains(in.DefaultBranch, "..") {
			t.Fatalf("accepted %+v", in)
		}
	})
}

func FuzzIssueBody(f *testing.F) {
	for _, s := range []string{`{"title":"bug","body":"text","assignees":["a","A"," "],"assignee":"b"}`, `{"title":"  "}`,
		`{"title":"x","due_date":"2024-01-01T00:00:00Z","labels":[1,2]}`, `{"title":"x","due_date":"tomorrow"}`, `{"title":"x","due_date":"0000-01-01T00:00:00+01:00"}`,
		`{"title":"x","milestone":"one"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var in createIssueOption
		if refused(t, decodeJSON(bodyRequest(body).r, &in)) {
			return
		}
		title, err := issue.NormaliseTitle(in.Title)
		if refused(t, err) {
			return
		}
		if title == "" || strings.TrimSpace(title) != title {
			t.Fatalf("title %q kept", title)
		}
		// The due date is shown in UTC: it must still encode then.
		if in.Deadline != nil && !in.Deadline.IsZero() {
			if refused(t, issue.CheckShownDate("Deadline", *in.Deadline)) {
				return
			}
			if _, err := json.Marshal(in.Deadline.UTC()); err != nil {
				t.Fatalf("due date %v from %s does not encode in UTC: %v", in.Deadline, body, err)
			}
		}
		names := issue.AssigneeNames(in.Assignee, in.Assignees)
		seen := map[string]bool{}
		for _, n := range names {
			if n == "" || seen[strings.ToLower(n)] {
				t.Fatalf("assignees %q from %q and %q", names, in.Assignee, in.Assignees)
			}
			seen[strings.ToLower(n)] = true
		}
	})
}

func FuzzCommentBody(f *testing.F) {
	for _, s := range []string{`{"body":"hi"}`, `{"body":""}`, `{"body":null}`, `{"body":["x"]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var b commentBody
		if refused(t, decodeJSON(bodyRequest(body).r, &b)) || refused(t, issue.ValidateCommentBody(b.Body)) {
			return
		}
		if strings.TrimSpace(b.Body) == "" {
			t.Fatalf("blank comment accepted")
		}
	})
}

func FuzzLabelBody(f *testing.F) {
	for _, s := range []string{`{"name":"bug","color":"#f00","description":"d"}`, `{"name":"x"}`, `{"color":"fff"}`,
		`{"name":" ","color":"zzz"}`, `{"name":"a","color":"#ABCDEF","exclusive":true,"is_archived":true}`} {
		f.Add([]byte(s))
	}
	now := time.Unix(1700000000, 0)
	f.Fuzz(func(t *testing.T, body []byte) {
		var b createLabelBody
		if refused(t, decodeJSON(bodyRequest(body).r, &b)) {
			return
		}
		l, err := issue.NewLabel(issue.LabelInput{Name: b.Name, Color: b.Color, Description: b.Description,
			Exclusive: &b.Exclusive, IsArchived: &b.IsArchived}, now)
		if refused(t, err) {
			return
		}
		if c, err := issue.NormalizeColor("Color", l.Color); err != nil || c != l.Color {
			t.Fatalf("colour %q is not normal", l.Color)
		}
	})
}

func FuzzIssueLabelsBody(f *testing.F) {
	for _, s := range []string{`{"labels":[1,2,3]}`, `{"labels":["bug","ui"]}`, `{"labels":[1,"bug"]}`, `{"labels":[1.9,-2e3]}`,
		`{"labels":[true]}`, `{"labels":[1e400]}`, `{"labels":["\u0000"]}`, `{"labels":null}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		refs, err := decodeLabelRefs(bodyRequest(body))
		if refused(t, err) {
			return
		}
		if len(refs.IDs) > 0 && len(refs.Names) > 0 {
			t.Fatalf("ids and names mixed: %+v", refs)
		}
		for _, n := range refs.Names {
			if strings.IndexByte(n, 0) >= 0 {
				t.Fatalf("name %q holds a NUL", n)
			}
		}
	})
}

func FuzzMilestoneBody(f *testing.F) {
	for _, s := range []string{`{"title":"v1","due_on":"2024-05-01T00:00:00Z","state":"closed"}`, `{"title":"v1","due_on":"soon"}`,
		`{"title":"","state":"open"}`, `{"title":"x","state":"merged"}`, `{"title":"x","due_on":"0001-01-01T00:00:00Z"}`,
		`{"title":"x","due_on":"9999-12-31T23:30:00-01:00"}`} {
		f.Add([]byte(s))
	}
	now := time.Unix(1700000000, 0)
	f.Fuzz(func(t *testing.T, body []byte) {
		var b createMilestoneBody
		if refused(t, decodeJSON(bodyRequest(body).r, &b)) {
			return
		}
		due, err := parseMilestoneDue(b.DueOn)
		if refused(t, err) {
			return
		}
		in := issue.MilestoneInput{Title: b.Title, Description: b.Description, DueAt: due}
		if b.State != "" {
			in.State = &b.State
		}
		m, err := issue.NewMilestone(in, now)
		if refused(t, err) {
			return
		}
		if m.Title == "" || (due == nil) != (m.DueAt == nil) || m.IsClosed != (b.State == string(issue.StateClosed)) {
			t.Fatalf("milestone %+v from %s", m, body)
		}
		// What the API answers for it encodes.
		if _, err := json.Marshal(toMilestoneDTO(m)); err != nil {
			t.Fatalf("milestone from %s does not encode: %v", body, err)
		}
	})
}

func FuzzHookBody(f *testing.F) {
	for _, s := range []string{`{"type":"gitea","config":{"url":"https://h/x","content_type":"json"},"events":["push"],"active":true}`,
		`{"type":"slack","config":{"url":"http://h","content_type":"form","channel":"#a b"}}`, `{"type":"x"}`,
		`{"type":"gitea","config":{"url":"http://h","content_type":"json","is_system_webhook":"maybe"}}`,
		`{"type":"gitea","config":{"url":"http://h","content_type":"json"},"branch_filter":"{a,"}`,
		`{"type":"gitea","config":{"url":"http://h","content_type":"json"},"authorization_header":"a\r\nb: c"}`} {
		f.Add([]byte(s))
	}
	now := time.Unix(1700000000, 0)
	f.Fuzz(func(t *testing.T, body []byte) {
		var b createHookBody
		if refused(t, decodeJSON(bodyRequest(body).r, &b)) {
			return
		}
		if _, err := hook.SystemFlag(b.IsSystemWebhook, b.Config); refused(t, err) {
			return
		}
		h, err := hook.New(hook.RepoScope(1), b.options(), now)
		if refused(t, err) {
			return
		}
		if hook.ValidateURL(h.URL) != nil || strings.ContainsAny(h.AuthorizationHeader, "\r\n") ||
			hook.ValidateBranchFilter(h.BranchFilter) != nil {
			t.Fatalf("hook %+v", h)
		}
	})
}

func FuzzStatusBody(f *testing.F) {
	for _, s := range []string{`{"state":"success","target_url":"https://ci/1","description":"ok","context":"ci"}`,
		`{"state":"bogus"}`, `{"state":"error","target_url":"javascript:x"}`, `{"state":"pending","context":"\u001b"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var b createStatusDTO
		if refused(t, decodeJSON(bodyRequest(body).r, &b)) {
			return
		}
		r, err := commitstatus.Report{State: b.State, TargetURL: b.TargetURL, Description: b.Description, Context: b.Context}.Validate()
		if refused(t, err) {
			return
		}
		if !commitstatus.State(r.State).Valid() || r.Context == "" {
			t.Fatalf("report %+v", r)
		}
	})
}

func FuzzTokenBody(f *testing.F) {
	for _, s := range []string{`{"name":"ci","scopes":["write:repository","read:user"]}`, `{"name":"x","scopes":[]}`,
		`{"name":"","scopes":["all"]}`, `{"name":"x","scopes":["read:user,write:org"]}`, `{"name":"x","scopes":"all"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var b tokenBody
		if refused(t, decodeJSON(bodyRequest(body).r, &b)) || refused(t, token.ValidateName(b.Name)) {
			return
		}
		s, err := token.ParseScopes(b.Scopes)
		if refused(t, err) {
			return
		}
		if len(s) == 0 {
			t.Fatalf("token without scopes from %q", b.Scopes)
		}
	})
}

func FuzzOrgBody(f *testing.F) {
	for _, s := range []string{`{"username":"org","full_name":"Org","website":"https://o.org","visibility":"private"}`,
		`{"username":"-bad"}`, `{"username":"ok","email":"nope"}`, `{"username":"ok","visibility":"secret"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var b createOrgBody
		if refused(t, decodeJSON(bodyRequest(body).r, &b)) || refused(t, org.ValidateName("UserName", b.UserName)) {
			return
		}
		if refused(t, orgProfile(b).Validate()) {
			return
		}
		if strings.Contains(b.UserName, "..") || strings.ContainsAny(b.UserName, "/\\ ") {
			t.Fatalf("org name %q accepted", b.UserName)
		}
	})
}

func FuzzFileChangesBody(f *testing.F) {
	sha := strings.Repeat("a", 40)
	for _, s := range []string{
		`{"message":"m","files":[{"operation":"create","path":"a.txt","content":"aGk="}]}`,
		`{"files":[{"operation":"update","path":"a","from_path":"b","sha":"` + sha + `","content":"!!"}]}`,
		`{"files":[{"operation":"delete","path":"../x","sha":"` + sha + `"}],"dates":{"author":"yesterday"}}`,
		`{"author":{"name":"A","email":"a@x"},"committer":{"email":"c@x"},"files":[{"operation":"rename","path":"x","from_path":"x"}]}`,
		`{"files":[]}`, `{"files":[{"operation":"create","path":".git/config"}]}`,
	} {
		f.Add([]byte(s))
	}
	doer := repository.Identity{Name: "doer", Email: "doer@example.com"}
	f.Fuzz(func(t *testing.T, body []byte) {
		var b changeFilesBody
		opts, err := decodeChange(bodyRequest(body), &b)
		if refused(t, err) {
			return
		}
		changes := make([]repository.FileChange, len(b.Files))
		for i, fc := range b.Files {
			changes[i] = repository.FileChange{Operation: repository.FileOperation(fc.Operation), Path: fc.Path,
				FromPath: fc.FromPath, SHA: fc.SHA}
			if fc.Content != "" {
				if changes[i].Content, err = decodeChangeContent(fc.Content); refused(t, err) {
					return
				}
			}
		}
		if _, _, err := repository.CommitIdentities(opts.Author, opts.Committer, doer); refused(t, err) {
			return
		}
		checked, err := repository.CheckFileChanges(changes)
		if refused(t, err) {
			return
		}
		for _, c := range checked {
			for _, p := range []string{c.Path, c.FromPath} {
				if p != "" && (strings.HasPrefix(p, "/") || strings.Contains("/"+p+"/", "/../") || strings.Contains("/"+strings.ToLower(p)+"/", "/.git/")) {
					t.Fatalf("path %q accepted", p)
				}
			}
		}
	})
}
