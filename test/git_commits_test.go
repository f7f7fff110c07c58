package test

import (
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"

	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/test/testserver"
)

// commitsRepo is the history the commit tests share, pushed to alice/hist.
type commitsRepo struct {
	srv  *testserver.Server
	work string
	bare string
	ids  map[string]string
	// base is the date of minute 0 of the story.
	base time.Time
}

// git runs git in the work tree with both dates at minute of the story
// (author alice, whose address has an account; a committer who has none)
// and returns the standard output.
func (r *commitsRepo) git(t *testing.T, minute int, args ...string) string {
	t.Helper()
	return commitsGitIn(t, r.work, r.base.Add(time.Duration(minute)*time.Minute), args...)
}

// commitsGitIn runs git in dir at date when and returns its standard output.
func commitsGitIn(t *testing.T, dir string, when time.Time, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	date := when.Format(time.RFC3339)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "HOME="+dir,
		"GIT_AUTHOR_NAME=Alice", "GIT_AUTHOR_EMAIL=alice@example.com",
		"GIT_COMMITTER_NAME=Carl", "GIT_COMMITTER_EMAIL=carl@elsewhere.example",
		"GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out)
}

// bareGit runs git in the server's bare repository.
func (r *commitsRepo) bareGit(t *testing.T, args ...string) string {
	t.Helper()
	return commitsGitIn(t, r.bare, r.base, args...)
}

func (r *commitsRepo) write(t *testing.T, path, content string) {
	t.Helper()
	full := filepath.Join(r.work, filepath.FromSlash(path))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func (r *commitsRepo) commit(t *testing.T, minute int, name, msg string) {
	t.Helper()
	r.git(t, minute, "add", "-A")
	r.git(t, minute, "commit", "-q", "-m", msg)
	r.ids[name] = strings.TrimSpace(r.git(t, minute, "rev-parse", "HEAD"))
}

// commitsSetup starts a server with alice and her public repository hist:
//
//	main:    init (the server's) → c1 → c2 (binary) → c3 (rename) → m (merge feature) → c4 (unicode)
//	feature: c1 → f1 → f2
//
// with tag v1 on c2. Dates grow a minute per commit, after the server's
// initial commit.
func commitsSetup(t *testing.T, opts ...testserver.Option) (*commitsRepo, *gitea.Client) {
	t.Helper()
	srv := testserver.Start(t, opts...)
	_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	createRepo(t, alice, gitea.CreateRepoOption{Name: "hist", AutoInit: true, Readme: "Default"})
	r := &commitsRepo{srv: srv, work: cloneRepo(t, srv, "alice", "hist"), bare: repoDir(srv, "alice", "hist"),
		ids: map[string]string{}, base: time.Now().UTC().Truncate(time.Second).Add(time.Hour)}
	r.ids["init"] = strings.TrimSpace(r.git(t, 0, "rev-parse", "HEAD"))
	r.write(t, "dir/a.txt", "one\ntwo\nthree\n")
	r.commit(t, 1, "c1", "add a\n\nWith a body line.")
	r.write(t, "bin.dat", "\x00\x01\x02binary\x00\xff")
	r.commit(t, 2, "c2", "add binary")
	r.git(t, 3, "checkout", "-q", "-b", "feature", r.ids["c1"])
	r.write(t, "feature.txt", "feature\n")
	r.commit(t, 3, "f1", "add feature")
	r.write(t, "dir/a.txt", "zero\none\ntwo\nthree\n")
	r.commit(t, 5, "f2", "feature changes a")
	r.git(t, 4, "checkout", "-q", "main")
	if err := os.Mkdir(filepath.Join(r.work, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	r.git(t, 4, "mv", "README.md", "docs/README.md")
	r.commit(t, 4, "c3", "move readme")
	r.git(t, 6, "merge", "-q", "--no-ff", "-m", "merge feature", "feature")
	r.ids["m"] = strings.TrimSpace(r.git(t, 6, "rev-parse", "HEAD"))
	r.write(t, "ünïcödé 文件.txt", "héllo\n")
	r.write(t, "bin.dat", "\x00\x01\x02binary changed\x00\xfe")
	// One commit in another time zone: dates keep their offset.
	india := r.base.Add(7 * time.Minute).In(time.FixedZone("IST", 5*3600+1800))
	commitsGitIn(t, r.work, india, "add", "-A")
	commitsGitIn(t, r.work, india, "commit", "-q", "-m", "unicode ✓ and binary")
	r.ids["c4"] = strings.TrimSpace(r.git(t, 7, "rev-parse", "HEAD"))
	r.git(t, 7, "tag", "v1", r.ids["c2"])
	r.git(t, 7, "push", "-q", "-f", r.bare, "main", "feature", "v1")
	return r, alice
}

// commitsLog lists ids as git log does in the server's repository.
func (r *commitsRepo) log(t *testing.T, args ...string) []string {
	t.Helper()
	return strings.Fields(r.bareGit(t, append([]string{"log", "--format=%H"}, args...)...))
}

// commitsCheck compares one API commit with what git says of it.
func commitsCheck(t *testing.T, srv *testserver.Server, r *commitsRepo, c *gitea.Commit, withExtras bool) {
	t.Helper()
	sha := c.SHA
	raw := r.bareGit(t, "cat-file", "commit", sha)
	_, message, _ := strings.Cut(raw, "\n\n")
	if c.RepoCommit.Message != message {
		t.Errorf("%s message %q, git %q", sha, c.RepoCommit.Message, message)
	}
	parents := strings.Fields(r.bareGit(t, "log", "-1", "--format=%P", sha))
	var got []string
	for _, p := range c.Parents {
		got = append(got, p.SHA)
		if p.URL != srv.URL+"/api/v1/repos/alice/hist/git/commits/"+p.SHA {
			t.Errorf("parent url %s", p.URL)
		}
	}
	if !slices.Equal(got, parents) {
		t.Errorf("%s parents %v, git %v", sha, got, parents)
	}
	tree := strings.TrimSpace(r.bareGit(t, "rev-parse", sha+"^{tree}"))
	if c.RepoCommit.Tree == nil || c.RepoCommit.Tree.SHA != tree {
		t.Errorf("%s tree %+v, git %s", sha, c.RepoCommit.Tree, tree)
	}
	if c.URL != srv.URL+"/api/v1/repos/alice/hist/git/commits/"+sha || c.HTMLURL != srv.URL+"/alice/hist/commit/"+sha {
		t.Errorf("urls %s %s", c.URL, c.HTMLURL)
	}
	// Dates are RFC 3339 in the signature's own offset ("Z" for UTC, as Go and Gitea write it).
	authorDate, _ := time.Parse(time.RFC3339, strings.TrimSpace(r.bareGit(t, "log", "-1", "--format=%aI", sha)))
	if c.RepoCommit.Author.Date != authorDate.Format(time.RFC3339) ||
		c.RepoCommit.Author.Email != strings.TrimSpace(r.bareGit(t, "log", "-1", "--format=%ae", sha)) {
		t.Errorf("%s author %+v, git date %s", sha, c.RepoCommit.Author, authorDate)
	}
	committerDate, _ := time.Parse(time.RFC3339, strings.TrimSpace(r.bareGit(t, "log", "-1", "--format=%cI", sha)))
	if !c.Created.Equal(committerDate) {
		t.Errorf("%s created %v, git %v", sha, c.Created, committerDate)
	}
	if !withExtras {
		if c.Files != nil || c.Stats != nil || c.RepoCommit.Verification != nil {
			t.Errorf("%s has extras nobody asked for", sha)
		}
		return
	}
	if v := c.RepoCommit.Verification; v == nil || v.Verified || v.Reason != "gpg.error.not_signed_commit" {
		t.Errorf("%s verification %+v", sha, c.RepoCommit.Verification)
	}
	// Files and stats are against the first parent (the empty tree for a root).
	from := "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
	if len(parents) > 0 {
		from = parents[0]
	}
	var files []string
	out := strings.TrimSuffix(r.bareGit(t, "diff", "--name-status", "--no-renames", "-z", from, sha), "\x00")
	fields := strings.Split(out, "\x00")
	for i := 0; i+1 < len(fields); i += 2 {
		files = append(files, fields[i+1]+" "+map[string]string{"A": "added", "D": "removed", "M": "modified"}[fields[i]])
	}
	slices.Sort(files)
	var gotFiles []string
	for _, f := range c.Files {
		gotFiles = append(gotFiles, f.Filename+" "+commitsFileStatus(t, srv, r, sha, f.Filename))
	}
	if !slices.Equal(gotFiles, files) {
		t.Errorf("%s files %v, git %v", sha, gotFiles, files)
	}
	var add, del int
	for _, line := range strings.Split(strings.TrimSpace(r.bareGit(t, "diff", "--numstat", "-M", from, sha)), "\n") {
		parts := strings.Fields(line)
		if len(parts) >= 3 && parts[0] != "-" {
			a, _ := strconv.Atoi(parts[0])
			d, _ := strconv.Atoi(parts[1])
			add, del = add+a, del+d
		}
	}
	if c.Stats == nil || c.Stats.Additions != add || c.Stats.Deletions != del || c.Stats.Total != add+del {
		t.Errorf("%s stats %+v, git +%d -%d", sha, c.Stats, add, del)
	}
}

// commitsFileStatus reads a file's status from the raw JSON, which the
// SDK's CommitAffectedFiles does not carry.
func commitsFileStatus(t *testing.T, srv *testserver.Server, r *commitsRepo, sha, filename string) string {
	t.Helper()
	var c struct {
		Files []struct {
			Filename string `json:"filename"`
			Status   string `json:"status"`
		} `json:"files"`
	}
	srv.Do("GET", "/repos/alice/hist/git/commits/"+sha, nil).Decode(t, &c)
	for _, f := range c.Files {
		if f.Filename == filename {
			return f.Status
		}
	}
	return ""
}

func commitSHAs(list []*gitea.Commit) []string {
	out := make([]string, len(list))
	for i, c := range list {
		out[i] = c.SHA
	}
	return out
}

func TestCommitsList(t *testing.T) {
	t.Parallel()
	r, alice := commitsSetup(t)
	srv := r.srv

	list, resp, err := alice.ListRepoCommits("alice", "hist", gitea.ListCommitOptions{
		ListOptions: gitea.ListOptions{Page: 1, PageSize: 50}, Stat: true, Verification: true, Files: true})
	if err != nil {
		t.Fatal(err)
	}
	want := r.log(t, "main")
	if got := commitSHAs(list); !slices.Equal(got, want) {
		t.Fatalf("commits %v\ngit log %v", got, want)
	}
	for _, c := range list {
		commitsCheck(t, srv, r, c, true)
		// alice's address has an account; the committer's has none.
		if c.Author == nil || c.Author.UserName != "alice" || c.Committer != nil {
			if c.SHA != r.ids["init"] {
				t.Errorf("%s author %+v committer %+v", c.SHA, c.Author, c.Committer)
			}
		}
	}
	h := resp.Header
	total := strconv.Itoa(len(want))
	if h.Get("X-Total-Count") != total || h.Get("X-Total") != total || h.Get("X-Page") != "1" || h.Get("X-PerPage") != "50" ||
		h.Get("X-PageCount") != "1" || h.Get("X-HasMore") != "false" {
		t.Fatalf("headers %v", h)
	}

	t.Run("pages", func(t *testing.T) {
		resp := srv.Do("GET", "/repos/alice/hist/commits?limit=3&page=2&stat=false&files=false&verification=false", nil)
		var page []*gitea.Commit
		resp.Decode(t, &page)
		if got := commitSHAs(page); !slices.Equal(got, want[3:6]) {
			t.Fatalf("page 2 %v, want %v", got, want[3:6])
		}
		for _, c := range page {
			commitsCheck(t, srv, r, c, false)
		}
		pages := strconv.Itoa((len(want) + 2) / 3)
		if resp.Header.Get("X-Total-Count") != total || resp.Header.Get("X-PageCount") != pages ||
			resp.Header.Get("X-HasMore") != "true" || resp.Header.Get("X-Page") != "2" || resp.Header.Get("X-PerPage") != "3" {
			t.Fatalf("headers %v", resp.Header)
		}
		link := resp.Header.Get("Link")
		for _, rel := range []string{`page=3`, `rel="next"`, `rel="prev"`, `rel="first"`, `rel="last"`, "page=" + pages} {
			if !strings.Contains(link, rel) {
				t.Fatalf("Link %q lacks %s", link, rel)
			}
		}
		// Past the end: an empty page with the same count.
		resp = srv.Do("GET", "/repos/alice/hist/commits?limit=3&page=99", nil)
		if resp.Status != http.StatusOK || strings.TrimSpace(string(resp.Body)) != "[]" || resp.Header.Get("X-Total-Count") != total {
			t.Fatalf("page 99: %d %s %v", resp.Status, resp.Body, resp.Header)
		}
	})

	filters := []struct {
		name, query string
		git         []string
	}{
		{"branch", "sha=feature", []string{"feature"}},
		{"tag", "sha=v1", []string{"v1"}},
		{"commit", "sha=" + r.ids["f1"][:10], []string{r.ids["f1"]}},
		{"not", "not=feature", []string{"main", "--not", "feature"}},
		{"branch and not", "sha=feature&not=main", []string{"feature", "--not", "main"}},
		{"file", "path=dir/a.txt", []string{"main", "--", "dir/a.txt"}},
		{"directory", "path=dir/", []string{"main", "--", "dir"}},
		{"renamed", "path=docs/README.md", []string{"main", "--", "docs/README.md"}},
		{"unicode", "path=" + url.QueryEscape("ünïcödé 文件.txt"), []string{"main", "--", "ünïcödé 文件.txt"}},
		{"file on branch", "sha=feature&path=feature.txt", []string{"feature", "--", "feature.txt"}},
		{"since", "since=" + url.QueryEscape(r.base.Add(4*time.Minute).Format(time.RFC3339)),
			[]string{"main", "--since=" + r.base.Add(4*time.Minute).Format(time.RFC3339)}},
		{"until", "until=" + url.QueryEscape(r.base.Add(3*time.Minute).Format(time.RFC3339)),
			[]string{"main", "--until=" + r.base.Add(3*time.Minute).Format(time.RFC3339)}},
	}
	for _, f := range filters {
		t.Run(f.name, func(t *testing.T) {
			resp := srv.Do("GET", "/repos/alice/hist/commits?stat=false&"+f.query, nil)
			if resp.Status != http.StatusOK {
				t.Fatalf("status %d %s", resp.Status, resp.Body)
			}
			var got []*gitea.Commit
			resp.Decode(t, &got)
			want := r.log(t, f.git...)
			if !slices.Equal(commitSHAs(got), want) {
				t.Fatalf("commits %v\ngit log %v", commitSHAs(got), want)
			}
			if resp.Header.Get("X-Total-Count") != strconv.Itoa(len(want)) {
				t.Fatalf("X-Total-Count %s, want %d", resp.Header.Get("X-Total-Count"), len(want))
			}
		})
	}
}

func TestCommitsListErrors(t *testing.T) {
	t.Parallel()
	r, alice := commitsSetup(t)
	srv := r.srv
	createRepo(t, alice, gitea.CreateRepoOption{Name: "empty"})
	assertAPIError(t, srv.Do("GET", "/repos/alice/empty/commits", nil), http.StatusConflict, "Git Repository is empty.")
	_, resp, err := alice.ListRepoCommits("alice", "empty", gitea.ListCommitOptions{})
	if err == nil || resp == nil || resp.StatusCode != http.StatusConflict {
		t.Fatalf("SDK on an empty repository: %v", err)
	}

	cases := []struct {
		query  string
		status int
	}{
		{"sha=nope", http.StatusNotFound},
		{"not=nope", http.StatusNotFound},
		{"sha=" + strings.Repeat("0", 40), http.StatusNotFound},
		{"path=nope.txt", http.StatusNotFound},
		{"sha=a..b", http.StatusUnprocessableEntity},
		{"path=../etc", http.StatusUnprocessableEntity},
		{"path=dir/./a.txt", http.StatusUnprocessableEntity},
		{"since=yesterday", http.StatusBadRequest},
		{"until=2024-13-01T00:00:00Z", http.StatusBadRequest},
		{"since=2024-02-01T00:00:00Z&until=2024-01-01T00:00:00Z", http.StatusUnprocessableEntity},
		{"page=x", http.StatusBadRequest},
		{"limit=x", http.StatusBadRequest},
		{"stat=maybe", http.StatusBadRequest},
		{"path=a%00b", http.StatusBadRequest},
	}
	for _, tc := range cases {
		resp := srv.Do("GET", "/repos/alice/hist/commits?"+tc.query, nil)
		assertAPIError(t, resp, tc.status, "")
	}
	assertAPIError(t, srv.Do("GET", "/repos/alice/nope/commits", nil), http.StatusNotFound, "")
}

func TestCommitsGet(t *testing.T) {
	t.Parallel()
	r, alice := commitsSetup(t)
	srv := r.srv

	for ref, want := range map[string]string{"main": r.ids["c4"], "feature": r.ids["f2"], "v1": r.ids["c2"],
		r.ids["m"]: r.ids["m"], r.ids["c3"][:7]: r.ids["c3"]} {
		c, _, err := alice.GetSingleCommit("alice", "hist", ref)
		if err != nil {
			t.Fatalf("GetSingleCommit(%s): %v", ref, err)
		}
		if c.SHA != want {
			t.Fatalf("GetSingleCommit(%s) = %s, want %s", ref, c.SHA, want)
		}
		commitsCheck(t, srv, r, c, true)
	}

	t.Run("under commits", func(t *testing.T) {
		var c gitea.Commit
		resp := srv.Do("GET", "/repos/alice/hist/commits/feature", nil)
		resp.Decode(t, &c)
		if resp.Status != http.StatusOK || c.SHA != r.ids["f2"] {
			t.Fatalf("%d %s", resp.Status, resp.Body)
		}
		commitsCheck(t, srv, r, &c, true)
		resp = srv.Do("GET", "/repos/alice/hist/commits/feature?stat=false&files=false&verification=false", nil)
		c = gitea.Commit{}
		resp.Decode(t, &c)
		commitsCheck(t, srv, r, &c, false)
	})

	t.Run("sha media type", func(t *testing.T) {
		for _, accept := range []string{"application/vnd.service.sha", "application/vnd.gitea.sha"} {
			resp := srv.Do("GET", "/repos/alice/hist/commits/v1", nil, "Accept", accept)
			if resp.Status != http.StatusOK || string(resp.Body) != r.ids["c2"] ||
				!strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") {
				t.Fatalf("%s: %d %q %s", accept, resp.Status, resp.Body, resp.Header.Get("Content-Type"))
			}
		}
		assertAPIError(t, srv.Do("GET", "/repos/alice/hist/commits/nope", nil, "Accept", "application/vnd.service.sha"),
			http.StatusNotFound, "")
	})

	t.Run("merge and author accounts", func(t *testing.T) {
		c, _, err := alice.GetSingleCommit("alice", "hist", r.ids["m"])
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Parents) != 2 || c.Author == nil || c.Author.UserName != "alice" || c.Committer != nil {
			t.Fatalf("merge %+v author %+v committer %+v", c.Parents, c.Author, c.Committer)
		}
	})

	t.Run("errors", func(t *testing.T) {
		for path, status := range map[string]int{
			"/git/commits/nope":                       http.StatusNotFound,
			"/git/commits/" + strings.Repeat("f", 40): http.StatusNotFound,
			"/commits/nope":                           http.StatusNotFound,
			"/git/commits/a..b":                       http.StatusUnprocessableEntity,
			"/git/commits/a~1":                        http.StatusUnprocessableEntity,
			"/git/commits/main?stat=nah":              http.StatusBadRequest,
		} {
			assertAPIError(t, srv.Do("GET", "/repos/alice/hist"+path, nil), status, "")
		}
	})
}

// commitsCloneAt clones the server's repository and checks out commit.
func commitsCloneAt(t *testing.T, r *commitsRepo, commit string) string {
	t.Helper()
	dir := cloneRepo(t, r.srv, "alice", "hist")
	commitsGitIn(t, dir, r.base, "checkout", "-q", "--detach", commit)
	return dir
}

func TestCommitsDiffAndPatch(t *testing.T) {
	t.Parallel()
	r, alice := commitsSetup(t)
	for _, name := range []string{"c1", "c2", "f2", "c3", "m", "c4"} {
		t.Run(name, func(t *testing.T) {
			sha := r.ids[name]
			parent := strings.TrimSpace(r.bareGit(t, "rev-parse", sha+"^"))
			tree := strings.TrimSpace(r.bareGit(t, "rev-parse", sha+"^{tree}"))

			diff, resp, err := alice.GetCommitDiff("alice", "hist", sha)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") || !strings.HasPrefix(string(diff), "diff --git ") {
				t.Fatalf("diff %s %q", resp.Header.Get("Content-Type"), diff[:min(len(diff), 60)])
			}
			dir := commitsCloneAt(t, r, parent)
			file := filepath.Join(t.TempDir(), "c.diff")
			if err := os.WriteFile(file, diff, 0o644); err != nil {
				t.Fatal(err)
			}
			commitsGitIn(t, dir, r.base, "apply", "--check", file)
			commitsGitIn(t, dir, r.base, "apply", "--index", file)
			if got := strings.TrimSpace(commitsGitIn(t, dir, r.base, "write-tree")); got != tree {
				t.Fatalf("git apply gives tree %s, commit has %s", got, tree)
			}

			patch, _, err := alice.GetCommitPatch("alice", "hist", sha)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(string(patch), "From "+sha+" Mon Sep 17 00:00:00 2001\n") {
				t.Fatalf("patch starts %q", patch[:min(len(patch), 60)])
			}
			dir = commitsCloneAt(t, r, parent)
			file = filepath.Join(t.TempDir(), "c.patch")
			if err := os.WriteFile(file, patch, 0o644); err != nil {
				t.Fatal(err)
			}
			commitsGitIn(t, dir, r.base.Add(time.Hour), "am", "-q", file)
			for _, format := range []string{"%T", "%an", "%ae", "%aI", "%B"} {
				got := commitsGitIn(t, dir, r.base, "log", "-1", "--format="+format)
				if want := r.bareGit(t, "log", "-1", "--format="+format, sha); got != want {
					t.Fatalf("%s after git am %q, commit %q", format, got, want)
				}
			}
		})
	}
	t.Run("refs and errors", func(t *testing.T) {
		srv := r.srv
		resp := srv.Do("GET", "/repos/alice/hist/git/commits/feature.diff", nil)
		if resp.Status != http.StatusOK || !strings.HasPrefix(string(resp.Body), "diff --git a/dir/a.txt b/dir/a.txt\n") {
			t.Fatalf("%d %s", resp.Status, resp.Body)
		}
		assertAPIError(t, srv.Do("GET", "/repos/alice/hist/git/commits/nope.diff", nil), http.StatusNotFound, "")
		assertAPIError(t, srv.Do("GET", "/repos/alice/hist/git/commits/"+strings.Repeat("0", 40)+".patch", nil), http.StatusNotFound, "")
		assertAPIError(t, srv.Do("GET", "/repos/alice/hist/git/commits/.diff", nil), http.StatusNotFound, "")
	})
}

func TestCommitsCompare(t *testing.T) {
	t.Parallel()
	r, alice := commitsSetup(t)
	srv := r.srv
	// topic forks from c2 and changes a.txt and adds a file.
	r.git(t, 8, "checkout", "-q", "-b", "topic", r.ids["c2"])
	r.write(t, "topic.txt", "topic\n")
	r.commit(t, 8, "t1", "topic one")
	r.write(t, "dir/a.txt", "topic\n")
	r.commit(t, 9, "t2", "topic two")
	r.git(t, 9, "push", "-q", r.bare, "topic")

	cmp, _, err := alice.CompareCommits("alice", "hist", "main", "topic")
	if err != nil {
		t.Fatal(err)
	}
	want := r.log(t, "main..topic")
	if got := commitSHAs(cmp.Commits); !slices.Equal(got, want) || cmp.TotalCommits != len(want) {
		t.Fatalf("compare %v (%d), git %v", got, cmp.TotalCommits, want)
	}
	for _, c := range cmp.Commits {
		commitsCheck(t, srv, r, c, true)
	}

	files := func(t *testing.T, basehead string) []string {
		t.Helper()
		var body struct {
			TotalCommits int `json:"total_commits"`
			Files        []struct {
				Filename, Status string
			} `json:"files"`
		}
		resp := srv.Do("GET", "/repos/alice/hist/compare/"+basehead, nil)
		if resp.Status != http.StatusOK {
			t.Fatalf("%s: %d %s", basehead, resp.Status, resp.Body)
		}
		resp.Decode(t, &body)
		out := []string{}
		for _, f := range body.Files {
			out = append(out, f.Filename+" "+f.Status)
		}
		return out
	}
	gitFiles := func(t *testing.T, spec string) []string {
		t.Helper()
		out := []string{}
		fields := strings.Split(strings.TrimSuffix(r.bareGit(t, "diff", "--name-status", "--no-renames", "-z", spec), "\x00"), "\x00")
		for i := 0; i+1 < len(fields); i += 2 {
			out = append(out, fields[i+1]+" "+map[string]string{"A": "added", "D": "removed", "M": "modified"}[fields[i]])
		}
		slices.Sort(out)
		return out
	}
	// Three dots: from the merge base; two dots: from base itself.
	if got, want := files(t, "main...topic"), gitFiles(t, "main...topic"); !slices.Equal(got, want) {
		t.Fatalf("main...topic files %v, git %v", got, want)
	}
	if got, want := files(t, "main..topic"), gitFiles(t, "main..topic"); !slices.Equal(got, want) {
		t.Fatalf("main..topic files %v, git %v", got, want)
	}
	// A lone ref is compared with the default branch.
	if got, want := files(t, "topic"), gitFiles(t, "main...topic"); !slices.Equal(got, want) {
		t.Fatalf("topic files %v, git %v", got, want)
	}
	// Commit ids and tags work; an ancestor compares to nothing.
	cmp, _, err = alice.CompareCommits("alice", "hist", r.ids["c1"], "v1")
	if err != nil || cmp.TotalCommits != 1 || cmp.Commits[0].SHA != r.ids["c2"] {
		t.Fatalf("c1...v1: %+v %v", cmp, err)
	}
	cmp, _, err = alice.CompareCommits("alice", "hist", "main", "v1")
	if err != nil || cmp.TotalCommits != 0 || len(cmp.Commits) != 0 {
		t.Fatalf("main...v1: %+v %v", cmp, err)
	}

	for _, basehead := range []string{"main...nope", "nope...main", "main...", "...main", "nope", "main...a~1"} {
		assertAPIError(t, srv.Do("GET", "/repos/alice/hist/compare/"+basehead, nil), http.StatusNotFound, "")
	}
}

func TestCommitsAccess(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	newAccount(t, srv, "bob", gitea.VisibleTypePublic)
	newAccount(t, srv, "reader", gitea.VisibleTypePublic)
	createRepo(t, alice, gitea.CreateRepoOption{Name: "secret", AutoInit: true, Private: true})
	createRepo(t, alice, gitea.CreateRepoOption{Name: "nocode", AutoInit: true})
	read := gitea.AccessModeRead
	if _, err := alice.AddCollaborator("alice", "secret", "reader", gitea.AddCollaboratorOption{Permission: &read}); err != nil {
		t.Fatal(err)
	}
	if r := srv.Do("PATCH", "/repos/alice/nocode", map[string]any{"has_code": false}, basicAs("alice")...); r.Status != http.StatusOK {
		t.Fatalf("disable code: %d %s", r.Status, r.Body)
	}
	paths := []string{"/commits", "/commits/main", "/git/commits/main", "/git/commits/main.diff",
		"/git/commits/main.patch", "/compare/main...main"}
	for _, p := range paths {
		t.Run(p, func(t *testing.T) {
			assertAPIError(t, srv.Do("GET", "/repos/alice/secret"+p, nil), http.StatusNotFound, "repository does not exist")
			assertAPIError(t, srv.Do("GET", "/repos/alice/secret"+p, nil, basicAs("bob")...), http.StatusNotFound,
				"repository does not exist")
			for _, who := range []string{"reader", "alice"} {
				if r := srv.Do("GET", "/repos/alice/secret"+p, nil, basicAs(who)...); r.Status != http.StatusOK {
					t.Errorf("%s: status %d (%s)", who, r.Status, r.Body)
				}
			}
			if r := srv.Do("GET", "/repos/alice/nocode"+p, nil, basicAs("bob")...); r.Status != http.StatusForbidden {
				t.Errorf("no code unit: status %d, want 403 (%s)", r.Status, r.Body)
			}
			if r := srv.Do("GET", "/repos/alice/nocode"+p, nil, basicAs("alice")...); r.Status != http.StatusOK {
				t.Errorf("owner without code unit: status %d (%s)", r.Status, r.Body)
			}
		})
	}
}

// commitsSigned writes a commit with a gpgsig header by hand (git needs only
// the header to call a commit signed) on top of parent, and returns its id.
func commitsSigned(t *testing.T, r *commitsRepo, parent, committerEmail string) string {
	t.Helper()
	tree := strings.TrimSpace(r.bareGit(t, "rev-parse", parent+"^{tree}"))
	sig := "-----BEGIN PGP SIGNATURE-----\n\niQEzBAABCAAdFiEE\n-----END PGP SIGNATURE-----"
	raw := "tree " + tree + "\nparent " + parent + "\nauthor Alice <alice@example.com> 1709283600 +0000\n" +
		"committer Someone <" + committerEmail + "> 1709283600 +0000\ngpgsig " + strings.ReplaceAll(sig, "\n", "\n ") +
		"\n\nsigned by " + committerEmail + "\n"
	cmd := exec.Command("git", "hash-object", "-t", "commit", "-w", "--stdin")
	cmd.Dir = r.bare
	cmd.Stdin = strings.NewReader(raw)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("hash-object: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// TestCommitsVerification runs on both databases: the accounts of commit
// addresses come from the e-mail store's batch lookup.
func TestCommitsVerification(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) { commitsVerification(t, opts...) })
}

func commitsVerification(t *testing.T, opts ...testserver.Option) {
	r, alice := commitsSetup(t, opts...)
	byAlice := commitsSigned(t, r, r.ids["c4"], "ALICE@example.com")
	byStranger := commitsSigned(t, r, byAlice, "stranger@example.com")
	commitsGitIn(t, r.bare, r.base, "update-ref", "refs/heads/signed", byStranger)

	for sha, reason := range map[string]string{
		byAlice:     "gpg.error.no_gpg_keys_found",
		byStranger:  "gpg.error.no_committer_account",
		r.ids["c4"]: "gpg.error.not_signed_commit",
	} {
		c, _, err := alice.GetSingleCommit("alice", "hist", sha)
		if err != nil {
			t.Fatal(err)
		}
		v := c.RepoCommit.Verification
		if v == nil || v.Verified || v.Reason != reason {
			t.Fatalf("%s verification %+v, want %s", sha, v, reason)
		}
		if signed := reason != "gpg.error.not_signed_commit"; signed != strings.HasPrefix(v.Signature, "-----BEGIN PGP SIGNATURE-----") ||
			signed != strings.Contains(v.Payload, "committer Someone") {
			t.Fatalf("%s signature %q payload %q", sha, v.Signature, v.Payload)
		}
	}
	// The committer's account is found case-insensitively.
	c, _, err := alice.GetSingleCommit("alice", "hist", byAlice)
	if err != nil || c.Committer == nil || c.Committer.UserName != "alice" {
		t.Fatalf("committer %+v, %v", c.Committer, err)
	}
	// The listing computes the same, in one page.
	list, _, err := alice.ListRepoCommits("alice", "hist", gitea.ListCommitOptions{SHA: "signed",
		ListOptions: gitea.ListOptions{PageSize: 2}, Verification: true})
	if err != nil || len(list) != 2 || list[0].RepoCommit.Verification.Reason != "gpg.error.no_committer_account" ||
		list[1].RepoCommit.Verification.Reason != "gpg.error.no_gpg_keys_found" {
		t.Fatalf("list %v, %v", list, err)
	}
}

// A path's listing that cannot count its history within the site's budget
// answers its page without a total (no X-Total-Count, X-Total, X-PageCount
// or last link) but with an exact X-HasMore and next link, and counts in
// the background: a later listing has the total, which is git's.
func TestCommitsListPathCountedInBackground(t *testing.T) {
	r, alice := commitsSetup(t, testserver.WithSettings(func(s *site.Settings) { s.CommitCountBudget = time.Nanosecond }))
	var script strings.Builder
	for i := 1; i <= 200; i++ {
		content := "version " + strconv.Itoa(i) + "\n"
		msg := "many " + strconv.Itoa(i) + "\n"
		script.WriteString("commit refs/heads/main\n")
		script.WriteString("committer T <t@example.com> " + strconv.FormatInt(r.base.Add(time.Duration(10+i)*time.Minute).Unix(), 10) + " +0000\n")
		script.WriteString("data " + strconv.Itoa(len(msg)) + "\n" + msg)
		if i == 1 {
			script.WriteString("from refs/heads/main^0\n")
		}
		script.WriteString("M 100644 inline many.txt\ndata " + strconv.Itoa(len(content)) + "\n" + content + "\n")
	}
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir = r.work
	cmd.Stdin = strings.NewReader(script.String())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("fast-import: %v\n%s", err, out)
	}
	r.git(t, 300, "push", "-q", "-f", r.bare, "main")
	want := r.log(t, "main", "--", "many.txt")
	if len(want) != 200 {
		t.Fatalf("git log lists %d commits", len(want))
	}

	list, resp, err := alice.ListRepoCommits("alice", "hist", gitea.ListCommitOptions{
		Path: "many.txt", ListOptions: gitea.ListOptions{Page: 2, PageSize: 10}})
	if err != nil {
		t.Fatal(err)
	}
	h := resp.Header
	if got := commitSHAs(list); !slices.Equal(got, want[10:20]) {
		t.Fatalf("page 2 = %v, want %v", got, want[10:20])
	}
	if h.Get("X-Total-Count") != "" || h.Get("X-Total") != "" || h.Get("X-PageCount") != "" || h.Get("X-HasMore") != "true" ||
		h.Get("X-Page") != "2" || !strings.Contains(h.Get("Link"), `rel="next"`) || strings.Contains(h.Get("Link"), `rel="last"`) {
		t.Fatalf("uncounted page headers: %v", h)
	}

	// The count lands in the background; the listing then has it all.
	deadline := time.Now().Add(20 * time.Second)
	for {
		list, resp, err = alice.ListRepoCommits("alice", "hist", gitea.ListCommitOptions{
			Path: "many.txt", ListOptions: gitea.ListOptions{Page: 20, PageSize: 10}})
		if err != nil {
			t.Fatal(err)
		}
		if resp.Header.Get("X-Total-Count") != "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no total after 20 s")
		}
		time.Sleep(20 * time.Millisecond)
	}
	h = resp.Header
	if got := commitSHAs(list); !slices.Equal(got, want[190:]) || h.Get("X-Total-Count") != "200" ||
		h.Get("X-PageCount") != "20" || h.Get("X-HasMore") != "false" || strings.Contains(h.Get("Link"), `rel="next"`) {
		t.Fatalf("counted last page %v, headers %v", got, h)
	}

	// A path no commit changed is still 404, its walk ending within the page.
	if _, resp, err := alice.ListRepoCommits("alice", "hist", gitea.ListCommitOptions{Path: "nothing-here"}); err == nil || resp.StatusCode != http.StatusNotFound {
		t.Fatalf("untouched path: %v, %v", resp, err)
	}
}
