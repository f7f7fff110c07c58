package test

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/test/testserver"
)

// writeFile writes content to name in the work tree w.
func writeFile(t *testing.T, w, name, content string) {
	t.Helper()
	p := filepath.Join(w, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// numbered is n lines "<prefix> <i>".
func numbered(prefix string, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(prefix + " " + itoaTest(int64(i)) + "\n")
	}
	return b.String()
}

// comparedRepo pushes alice/app: main with a.txt, b.txt and old.txt, a
// feature branch of two commits (changes a.txt, adds new.txt, deletes
// b.txt, renames old.txt to moved.txt), and a later commit on main, so
// that the merge base is not main's tip. It opens pull request 1 from
// feature into main and returns the work tree.
func comparedRepo(t *testing.T, srv *testserver.Server, c *gitea.Client) string {
	t.Helper()
	w := pushedRepo(t, srv, c, gitea.CreateRepoOption{Name: "app"}, func(w string) {
		writeFile(t, w, "a.txt", numbered("a", 20))
		writeFile(t, w, "b.txt", numbered("b", 5))
		writeFile(t, w, "old.txt", numbered("kept line", 30))
		gitRun(t, w, "add", "-A")
		gitRun(t, w, "commit", "-q", "-m", "base files")
		gitRun(t, w, "checkout", "-q", "-b", "feature")
		writeFile(t, w, "a.txt", strings.Replace(numbered("a", 20), "a 3\n", "a three\n", 1)+"a tail\n")
		writeFile(t, w, "new.txt", "brand new\n")
		gitRun(t, w, "add", "-A")
		gitRun(t, w, "commit", "-q", "-m", "change a, add new")
		gitRun(t, w, "rm", "-q", "b.txt")
		gitRun(t, w, "mv", "old.txt", "moved.txt")
		gitRun(t, w, "commit", "-q", "-m", "drop b, move old")
		gitRun(t, w, "checkout", "-q", "main")
		writeFile(t, w, "c.txt", "on main only\n")
		gitRun(t, w, "add", "-A")
		gitRun(t, w, "commit", "-q", "-m", "main moves on")
	}, "main", "feature")
	_, _, err := c.CreatePullRequest("alice", "app", gitea.CreatePullRequestOption{Head: "feature", Base: "main", Title: "Feature"})
	if err != nil {
		t.Fatalf("create pull request: %v", err)
	}
	waitPullChecked(t, srv, c, "alice", "app", 1)
	return w
}

// TestPullCompare reads a pull request's diff, patch, files and commits
// and checks them against git, before and after it merges, on SQLite and
// Postgres.
func TestPullCompare(t *testing.T) {
	t.Parallel()
	backends(t, pullCompare)
}

func pullCompare(t *testing.T, opts ...testserver.Option) {
	is := is.New(t)
	srv := testserver.Start(t, opts...)
	_, c := srv.CreateUser("alice", "password-123")
	w := comparedRepo(t, srv, c)
	base := strings.TrimSpace(gitRun(t, w, "merge-base", "main", "feature"))
	want := gitRun(t, w, "diff", base, "feature")

	diff, _, err := c.GetPullRequestDiff("alice", "app", 1, gitea.PullRequestDiffOptions{})
	is.NoErr(err)
	is.Equal(string(diff), want) // .diff is git diff from the merge base
	resp := srv.Do("GET", "/repos/alice/app/pulls/1.diff?binary=true", nil)
	is.Equal(resp.Status, http.StatusOK)
	is.True(strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain"))
	is.Equal(srv.Do("GET", "/repos/alice/app/pulls/1.diff?binary=maybe", nil).Status, http.StatusBadRequest)

	patch, _, err := c.GetPullRequestPatch("alice", "app", 1)
	is.NoErr(err)
	mails := regexp.MustCompile(`(?m)^From [0-9a-f]{40} `).FindAllString(string(patch), -1)
	is.Equal(len(mails), 2) // one mail per commit
	gitRun(t, w, "checkout", "-q", "-b", "replay", base)
	patchFile := filepath.Join(t.TempDir(), "pull.patch")
	is.NoErr(os.WriteFile(patchFile, patch, 0o644))
	gitRun(t, w, "am", "-q", patchFile)
	is.Equal(gitRun(t, w, "rev-parse", "HEAD^{tree}"), gitRun(t, w, "rev-parse", "feature^{tree}")) // the patch replays the branch
	is.Equal(gitRun(t, w, "log", "--format=%s", base+"..HEAD"), gitRun(t, w, "log", "--format=%s", base+"..feature"))

	files, fresp, err := c.ListPullRequestFiles("alice", "app", 1, gitea.ListPullRequestFilesOptions{})
	is.NoErr(err)
	is.Equal(fresp.Header.Get("X-Total-Count"), "4")
	got := map[string]*gitea.ChangedFile{}
	var names []string
	for _, f := range files {
		got[f.Filename] = f
		names = append(names, f.Filename)
	}
	is.Equal(names, []string{"a.txt", "b.txt", "moved.txt", "new.txt"}) // sorted by path
	is.Equal(got["a.txt"].Status, "changed")
	is.Equal(got["a.txt"].Additions, 2)
	is.Equal(got["a.txt"].Deletions, 1)
	is.Equal(got["a.txt"].Changes, 3)
	is.Equal(got["b.txt"].Status, "deleted")
	is.Equal(got["b.txt"].Deletions, 5)
	is.Equal(got["new.txt"].Status, "added")
	is.Equal(got["new.txt"].Additions, 1)
	is.Equal(got["moved.txt"].Status, "renamed")
	is.Equal(got["moved.txt"].PreviousFilename, "old.txt")
	head := strings.TrimSpace(gitRun(t, w, "rev-parse", "feature"))
	is.Equal(got["new.txt"].ContentsURL, srv.API+"/repos/alice/app/contents/new.txt?ref="+head)
	is.Equal(got["new.txt"].HTMLURL, srv.URL+"/alice/app/src/commit/"+head+"/new.txt")
	is.Equal(got["new.txt"].RawURL, srv.URL+"/alice/app/raw/commit/"+head+"/new.txt")

	page2, presp, err := c.ListPullRequestFiles("alice", "app", 1, gitea.ListPullRequestFilesOptions{ListOptions: gitea.ListOptions{Page: 2, PageSize: 3}})
	is.NoErr(err)
	is.Equal(len(page2), 1)
	is.Equal(page2[0].Filename, "new.txt")
	is.Equal(presp.Header.Get("X-Total-Count"), "4")
	is.Equal(presp.Header.Get("X-PageCount"), "2")
	is.True(strings.Contains(presp.Header.Get("Link"), `rel="first"`))

	var skipped []gitea.ChangedFile
	resp = srv.Do("GET", "/repos/alice/app/pulls/1/files?skip-to=moved.txt", nil)
	resp.Decode(t, &skipped)
	is.Equal(len(skipped), 2) // moved.txt and new.txt
	is.Equal(skipped[0].Filename, "moved.txt")
	is.Equal(resp.Header.Get("X-Total-Count"), "2")
	for _, ws := range []string{"ignore-all", "ignore-change", "ignore-eol", "show-all"} {
		is.Equal(srv.Do("GET", "/repos/alice/app/pulls/1/files?whitespace="+ws, nil).Status, http.StatusOK)
	}
	is.Equal(srv.Do("GET", "/repos/alice/app/pulls/1/files?whitespace=ignore-some", nil).Status, http.StatusBadRequest)

	commits, cresp, err := c.ListPullRequestCommits("alice", "app", 1, gitea.ListPullRequestCommitsOptions{})
	is.NoErr(err)
	wantIDs := strings.Fields(gitRun(t, w, "rev-list", "feature", "^main"))
	is.Equal(len(commits), 2)
	is.Equal(commits[0].SHA, wantIDs[0]) // newest first, as git log
	is.Equal(commits[1].SHA, wantIDs[1])
	is.Equal(cresp.Header.Get("X-Total-Count"), "2")
	is.Equal(cresp.Header.Get("X-HasMore"), "false")
	is.True(commits[0].Stats != nil)
	single, _, err := c.GetSingleCommit("alice", "app", wantIDs[0])
	is.NoErr(err)
	is.Equal(len(commits[0].Files), len(single.Files)) // rendered as R/git/commits/{sha} renders it
	is.Equal(commits[0].RepoCommit.Message, single.RepoCommit.Message)
	one, cresp, err := c.ListPullRequestCommits("alice", "app", 1, gitea.ListPullRequestCommitsOptions{ListOptions: gitea.ListOptions{Page: 1, PageSize: 1}})
	is.NoErr(err)
	is.Equal(len(one), 1)
	is.Equal(cresp.Header.Get("X-HasMore"), "true")
	is.Equal(cresp.Header.Get("X-PageCount"), "2")
	var bare []map[string]any
	srv.Do("GET", "/repos/alice/app/pulls/1/commits?files=false&verification=false", nil).Decode(t, &bare)
	is.Equal(len(bare), 2)
	is.Equal(bare[0]["files"], nil)

	for _, p := range []string{"/pulls/9.diff", "/pulls/9.patch", "/pulls/9/files", "/pulls/9/commits"} {
		is.Equal(srv.Do("GET", "/repos/alice/app"+p, nil).Status, http.StatusNotFound) // unknown index
	}

	_, _, err = c.MergePullRequest("alice", "app", 1, gitea.MergePullRequestOption{Style: gitea.MergeStyleMerge})
	is.NoErr(err)
	diff, _, err = c.GetPullRequestDiff("alice", "app", 1, gitea.PullRequestDiffOptions{})
	is.NoErr(err)
	is.Equal(string(diff), want) // a merged pull request compares from its merge base
	commits, _, err = c.ListPullRequestCommits("alice", "app", 1, gitea.ListPullRequestCommitsOptions{})
	is.NoErr(err)
	is.Equal(len(commits), 2)
	files, _, err = c.ListPullRequestFiles("alice", "app", 1, gitea.ListPullRequestFilesOptions{})
	is.NoErr(err)
	is.Equal(len(files), 4)
}

// TestPullCompareBounds streams a diff of several megabytes without a
// Content-Length, and checks the site bounds on files and diff lines.
func TestPullCompareBounds(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := testserver.Start(t, testserver.WithSettings(func(s *site.Settings) { s.PullMaxFiles = 3 }))
	_, c := srv.CreateUser("alice", "password-123")
	long := strings.Repeat("x", 200)
	w := pushedRepo(t, srv, c, gitea.CreateRepoOption{Name: "big"}, func(w string) {
		gitRun(t, w, "checkout", "-q", "-b", "feature")
		writeFile(t, w, "big.txt", numbered(long, 20000)) // about 4 MB
		for _, n := range []string{"f1", "f2", "f3", "f4"} {
			writeFile(t, w, n+".txt", n+"\n")
		}
		gitRun(t, w, "add", "-A")
		gitRun(t, w, "commit", "-q", "-m", "big change")
	}, "feature")
	_, _, err := c.CreatePullRequest("alice", "big", gitea.CreatePullRequestOption{Head: "feature", Base: "main", Title: "Big"})
	is.NoErr(err)
	waitPullChecked(t, srv, c, "alice", "big", 1)

	resp := srv.Do("GET", "/repos/alice/big/pulls/1.diff", nil)
	is.Equal(resp.Status, http.StatusOK)
	is.Equal(resp.Header.Get("Content-Length"), "") // streamed, not buffered
	is.True(len(resp.Body) > 3<<20)
	is.Equal(string(resp.Body), gitRun(t, w, "diff", "main", "feature"))
	is.Equal(resp.Header.Get("X-Service-Diff-Truncated"), "")

	files, fresp, err := c.ListPullRequestFiles("alice", "big", 1, gitea.ListPullRequestFilesOptions{})
	is.NoErr(err)
	is.Equal(len(files), 3) // the bound on files
	is.Equal(fresp.Header.Get("X-Total-Count"), "5")
	is.Equal(fresp.Header.Get("X-Service-Diff-Truncated"), "true")
	files, _, err = c.ListPullRequestFiles("alice", "big", 1, gitea.ListPullRequestFilesOptions{ListOptions: gitea.ListOptions{Page: 2, PageSize: 2}})
	is.NoErr(err)
	is.Equal(len(files), 1) // the page the bound falls in is cut

	cut := testserver.Start(t, testserver.WithSettings(func(s *site.Settings) { s.PullDiffMaxLines = 10 }))
	_, cc := cut.CreateUser("alice", "password-123")
	pushedRepo(t, cut, cc, gitea.CreateRepoOption{Name: "big"}, func(w string) {
		gitRun(t, w, "checkout", "-q", "-b", "feature")
		writeFile(t, w, "big.txt", numbered(long, 100))
		gitRun(t, w, "add", "-A")
		gitRun(t, w, "commit", "-q", "-m", "big change")
	}, "feature")
	_, _, err = cc.CreatePullRequest("alice", "big", gitea.CreatePullRequestOption{Head: "feature", Base: "main", Title: "Big"})
	is.NoErr(err)
	waitPullChecked(t, cut, cc, "alice", "big", 1)
	raw, err := http.Get(cut.API + "/repos/alice/big/pulls/1.diff")
	is.NoErr(err)
	body, err := io.ReadAll(raw.Body)
	is.NoErr(err)
	_ = raw.Body.Close()
	is.Equal(strings.Count(string(body), "\n"), 10) // cut at the bound, at a line's end
	is.True(strings.HasSuffix(string(body), "\n"))
	is.Equal(raw.Trailer.Get("X-Service-Diff-Truncated"), "true")
}

// TestPullDiffWhitespace checks Gitea's whitespace option where Gitea has
// it: the file listing leaves out changes of whitespace only when asked,
// while .diff and .patch, which Gitea renders with git whatever the
// query says, always show them (and do not refuse the option).
func TestPullDiffWhitespace(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := testserver.Start(t)
	_, c := srv.CreateUser("alice", "password-123")
	w := pushedRepo(t, srv, c, gitea.CreateRepoOption{Name: "spaces"}, func(w string) {
		writeFile(t, w, "code.txt", "if x {\n\treturn 1\n}\n")
		writeFile(t, w, "real.txt", "one\n")
		gitRun(t, w, "add", "-A")
		gitRun(t, w, "commit", "-q", "-m", "base")
		gitRun(t, w, "checkout", "-q", "-b", "feature")
		writeFile(t, w, "code.txt", "if x {\n    return 1   \n}\n") // indentation and a trailing space
		writeFile(t, w, "real.txt", "two\n")
		gitRun(t, w, "commit", "-q", "-am", "reindent and change")
	}, "main", "feature")
	_, _, err := c.CreatePullRequest("alice", "spaces", gitea.CreatePullRequestOption{Head: "feature", Base: "main", Title: "Spaces"})
	is.NoErr(err)
	waitPullChecked(t, srv, c, "alice", "spaces", 1)

	counts := func(ws string) map[string]int {
		var files []gitea.ChangedFile
		srv.Do("GET", "/repos/alice/spaces/pulls/1/files?whitespace="+ws, nil).Decode(t, &files)
		out := map[string]int{}
		for _, f := range files {
			out[f.Filename] = f.Changes
		}
		return out
	}
	is.Equal(counts("show-all"), map[string]int{"code.txt": 2, "real.txt": 2})
	is.Equal(counts("ignore-all"), map[string]int{"code.txt": 0, "real.txt": 2})
	is.Equal(counts("ignore-change")["code.txt"], 0) // more or other spaces, and at the line's end
	is.Equal(counts("ignore-eol")["code.txt"], 2)    // the tab became spaces: not only the line's end

	want := gitRun(t, w, "diff", "main", "feature")
	for _, ws := range []string{"", "ignore-all", "ignore-change", "ignore-eol", "show-all", "ignore-some"} {
		resp := srv.Do("GET", "/repos/alice/spaces/pulls/1.diff?whitespace="+ws, nil)
		is.Equal(resp.Status, http.StatusOK)
		is.Equal(string(resp.Body), want) // whitespace changes shown whatever the option
	}
	patch := srv.Do("GET", "/repos/alice/spaces/pulls/1.patch?whitespace=ignore-all", nil)
	is.Equal(patch.Status, http.StatusOK)
	is.True(strings.Contains(string(patch.Body), "+    return 1   \n"))
}
