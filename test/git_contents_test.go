package test

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/test/testserver"
)

// contentsFix is alice's repository "files" with a history pushed by the git
// CLI: every kind of entry, a branch with a slash, a tag.
type contentsFix struct {
	srv    *testserver.Server
	alice  *gitea.Client
	work   string
	bin    []byte
	prefix string // /repos/alice/files
}

// contentsWrite writes content at rel under dir, creating parents.
func contentsWrite(t *testing.T, dir, rel string, content []byte) {
	t.Helper()
	full := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, content, 0o644); err != nil {
		t.Fatal(err)
	}
}

// contentsSetup starts a server with alice's repository "files" (private
// when asked) holding text, binary, HTML, SVG, PNG and executable files, a
// symbolic link, a submodule, unicode names and a 1,000-file directory.
func contentsSetup(t *testing.T, private bool) contentsFix {
	t.Helper()
	srv := testserver.Start(t)
	_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	createRepo(t, alice, gitea.CreateRepoOption{Name: "files", AutoInit: true, Private: private})
	f := contentsFix{srv: srv, alice: alice, work: cloneRepo(t, srv, "alice", "files"), prefix: "/repos/alice/files"}
	w := f.work
	f.bin = make([]byte, 5000)
	if _, err := rand.Read(f.bin); err != nil {
		t.Fatal(err)
	}
	f.bin[0] = 0
	contentsWrite(t, w, "README.md", []byte("# Files\n\nHéllo wörld.\n"))
	contentsWrite(t, w, "bin/data.bin", f.bin)
	contentsWrite(t, w, "image.png", append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), f.bin[:64]...))
	contentsWrite(t, w, "page.html", []byte("<!DOCTYPE html><html><body><script>alert(1)</script></body></html>\n"))
	contentsWrite(t, w, "logo.svg", []byte("<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"><script>alert(1)</script></svg>\n"))
	contentsWrite(t, w, "doc.pdf", []byte("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n"))
	contentsWrite(t, w, "run.sh", []byte("#!/bin/sh\necho hi\n"))
	if err := os.Chmod(filepath.Join(w, "run.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("README.md", filepath.Join(w, "link")); err != nil {
		t.Fatal(err)
	}
	contentsWrite(t, w, "dir/a.txt", []byte("a\n"))
	contentsWrite(t, w, "dir/sub/deep.txt", []byte("deep\n"))
	contentsWrite(t, w, "ünïcødé/文件 one.txt", []byte("unicode\n"))
	contentsWrite(t, w, "lfs.bin", []byte("version https://git-lfs.github.com/spec/v1\noid sha256:"+strings.Repeat("ab", 32)+"\nsize 12345\n"))
	contentsWrite(t, w, ".gitmodules", []byte("[submodule \"lib\"]\n\tpath = lib\n\turl = https://example.com/lib.git\n"))
	for i := range 1000 {
		contentsWrite(t, w, fmt.Sprintf("many/f%04d.txt", i), []byte(strconv.Itoa(i)+"\n"))
	}
	gitRun(t, w, "add", "-A")
	gitRun(t, w, "update-index", "--add", "--cacheinfo", "160000,"+strings.Repeat("2", 40)+",lib")
	gitRun(t, w, "commit", "-q", "-m", "fixture")
	gitRun(t, w, "tag", "v1")
	gitRun(t, w, "checkout", "-q", "-b", "feature/x")
	contentsWrite(t, w, "dir/a.txt", []byte("a on the side\n"))
	gitRun(t, w, "commit", "-q", "-am", "side")
	gitRun(t, w, "checkout", "-q", "main")
	contentsWrite(t, w, "README.md", []byte("# Files\n\nHéllo wörld, again.\n"))
	gitRun(t, w, "commit", "-q", "-am", "readme again")
	gitRun(t, w, "push", "-q", repoDir(srv, "alice", "files"), "HEAD:main", "feature/x", "v1")
	return f
}

// git runs git in the fixture's work tree and returns its trimmed output.
func (f contentsFix) git(t *testing.T, args ...string) string {
	t.Helper()
	return strings.TrimSpace(gitRun(t, f.work, append([]string{"-c", "core.quotePath=false"}, args...)...))
}

// contentsLsTree is one line of git ls-tree -l.
type contentsLsTree struct {
	mode, kind, sha, path string
	size                  int64
}

func contentsListTree(t *testing.T, f contentsFix, args ...string) []contentsLsTree {
	t.Helper()
	var out []contentsLsTree
	for _, line := range strings.Split(f.git(t, append([]string{"ls-tree", "-l"}, args...)...), "\n") {
		meta, name, _ := strings.Cut(line, "\t")
		fields := strings.Fields(meta)
		e := contentsLsTree{mode: fields[0], kind: fields[1], sha: fields[2], path: name}
		if fields[3] != "-" {
			e.size, _ = strconv.ParseInt(fields[3], 10, 64)
		}
		out = append(out, e)
	}
	return out
}

// contentsPathURL escapes each segment of p.
func contentsPathURL(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}

func TestContentsFiles(t *testing.T) {
	t.Parallel()
	f := contentsSetup(t, false)
	main := f.git(t, "rev-parse", "main")
	for _, c := range []struct{ ref, path string }{
		{"", "README.md"}, {"main", "bin/data.bin"}, {"", "run.sh"}, {"", "ünïcødé/文件 one.txt"},
		{"v1", "README.md"}, {"feature/x", "dir/a.txt"}, {main, "many/f0500.txt"}, {main[:8], "dir/sub/deep.txt"},
	} {
		got, _, err := f.alice.GetContents("alice", "files", c.ref, c.path)
		if err != nil {
			t.Fatalf("%s at %q: %v", c.path, c.ref, err)
		}
		ref := c.ref
		if ref == "" {
			ref = "main"
		}
		want, err := base64.StdEncoding.DecodeString(*got.Content)
		if err != nil {
			t.Fatal(err)
		}
		blob := f.git(t, "rev-parse", ref+":"+c.path)
		raw := gitRun(t, f.work, "cat-file", "blob", blob)
		if got.Type != "file" || got.SHA != blob || !bytes.Equal(want, []byte(raw)) || got.Size != int64(len(raw)) ||
			got.Encoding == nil || *got.Encoding != "base64" || got.Name != filepath.Base(c.path) || got.Path != c.path {
			t.Errorf("%s at %q: %+v", c.path, c.ref, got)
		}
		if last := f.git(t, "log", "-1", "--format=%H", ref, "--", c.path); got.LastCommitSha == nil || *got.LastCommitSha != last {
			t.Errorf("%s at %q: last commit %v, git says %s", c.path, c.ref, got.LastCommitSha, last)
		}
		base := f.srv.URL + "/api/v1/repos/alice/files"
		if *got.URL != base+"/contents/"+contentsPathURL(c.path)+"?ref="+url.QueryEscape(ref) ||
			*got.GitURL != base+"/git/blobs/"+blob || got.DownloadURL == nil ||
			!strings.HasSuffix(*got.DownloadURL, "/"+contentsPathURL(c.path)) {
			t.Errorf("%s at %q: links %s %s %v", c.path, c.ref, *got.URL, *got.GitURL, got.DownloadURL)
		}
	}
	// The binary file's bytes, byte for byte.
	got, _, err := f.alice.GetContents("alice", "files", "", "bin/data.bin")
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := base64.StdEncoding.DecodeString(*got.Content); !bytes.Equal(b, f.bin) {
		t.Errorf("binary content differs")
	}

	link, _, err := f.alice.GetContents("alice", "files", "", "link")
	if err != nil {
		t.Fatal(err)
	}
	if link.Type != "symlink" || link.Target == nil || *link.Target != "README.md" || link.Content != nil ||
		link.SHA != f.git(t, "rev-parse", "main:link") {
		t.Errorf("link: %+v", link)
	}
	sub, _, err := f.alice.GetContents("alice", "files", "", "lib")
	if err != nil {
		t.Fatal(err)
	}
	if sub.Type != "submodule" || sub.SubmoduleGitURL == nil || *sub.SubmoduleGitURL != "https://example.com/lib.git" ||
		sub.SHA != strings.Repeat("2", 40) || sub.Content != nil {
		t.Errorf("submodule: %+v", sub)
	}
	// An empty path, "." and a trailing slash name the root and a directory
	// (a literal "." is cleaned away by the router's redirect).
	for _, p := range []string{"contents/%2e", "contents/", "contents/dir/"} {
		r := f.srv.Do("GET", f.prefix+"/"+p, nil)
		var list []gitea.ContentsResponse
		r.Decode(t, &list)
		if r.Status != http.StatusOK || len(list) == 0 {
			t.Errorf("%s: %d %s", p, r.Status, r.Body)
		}
	}
}

func TestContentsDirectories(t *testing.T) {
	t.Parallel()
	f := contentsSetup(t, false)
	for _, c := range []struct{ ref, dir string }{{"", ""}, {"", "many"}, {"feature/x", "dir"}, {"v1", "ünïcødé"}} {
		list, _, err := f.alice.ListContents("alice", "files", c.ref, c.dir)
		if err != nil {
			t.Fatalf("%q at %q: %v", c.dir, c.ref, err)
		}
		ref := c.ref
		if ref == "" {
			ref = "main"
		}
		spec := ref + ":" + c.dir
		want := contentsListTree(t, f, spec)
		if len(list) != len(want) {
			t.Fatalf("%q: %d entries, git has %d", c.dir, len(list), len(want))
		}
		types := map[string]string{"blob": "file", "tree": "dir", "commit": "submodule"}
		for i, e := range list {
			w := want[i]
			full := strings.TrimPrefix(c.dir+"/"+w.path, "/")
			kind := types[w.kind]
			if w.mode == "120000" {
				kind = "symlink"
			}
			if e.Name != w.path || e.Path != full || e.SHA != w.sha || e.Type != kind || e.Size != w.size || e.Content != nil {
				t.Errorf("%q entry %d: %+v, git %+v", c.dir, i, e, w)
			}
			if c.dir != "many" || i%100 == 0 {
				if last := f.git(t, "log", "-1", "--format=%H", ref, "--", full); e.LastCommitSha == nil || *e.LastCommitSha != last {
					t.Errorf("%s: last commit %v, git says %s", full, e.LastCommitSha, last)
				}
			}
		}
	}
	// A listing leaves content and encoding null, gives links' targets and
	// submodules' URLs.
	r := f.srv.Do("GET", f.prefix+"/contents", nil)
	var raw []map[string]any
	r.Decode(t, &raw)
	seen := 0
	for _, e := range raw {
		if e["content"] != nil || e["encoding"] != nil {
			t.Errorf("%v listed with content", e["name"])
		}
		switch e["name"] {
		case "link":
			seen++
			if e["target"] != "README.md" {
				t.Errorf("listed link: %v", e)
			}
		case "lib":
			seen++
			if e["submodule_git_url"] != "https://example.com/lib.git" {
				t.Errorf("listed submodule: %v", e)
			}
		}
	}
	if seen != 2 {
		t.Errorf("link and submodule not listed: %s", r.Body)
	}
}

func TestContentsRaw(t *testing.T) {
	t.Parallel()
	f := contentsSetup(t, false)
	for _, c := range []struct {
		path, ref, ctype string
	}{
		{"README.md", "main", "text/plain; charset=utf-8"},
		{"bin/data.bin", "main", "application/octet-stream"},
		{"image.png", "main", "image/png"},
		{"page.html", "main", "text/plain; charset=utf-8"},
		{"logo.svg", "main", "image/svg+xml"},
		{"doc.pdf", "main", "application/pdf"},
		{"link", "main", "text/plain; charset=utf-8"},
		{"ünïcødé/文件 one.txt", "v1", "text/plain; charset=utf-8"},
		{"dir/a.txt", "feature/x", "text/plain; charset=utf-8"},
		{"lfs.bin", "main", "text/plain; charset=utf-8"},
	} {
		blob := f.git(t, "rev-parse", c.ref+":"+c.path)
		want := gitRun(t, f.work, "cat-file", "blob", blob)
		p := contentsPathURL(c.path)
		for _, u := range []string{
			"/raw/" + contentsPathURL(c.ref) + "/" + p,
			"/raw/" + p + "?ref=" + url.QueryEscape(c.ref),
			"/media/" + contentsPathURL(c.ref) + "/" + p,
			"/media/" + p + "?ref=" + url.QueryEscape(c.ref),
		} {
			r := f.srv.Do("GET", f.prefix+u, nil)
			h := r.Header
			if r.Status != http.StatusOK || string(r.Body) != want {
				t.Fatalf("%s: %d, %d bytes, want %d", u, r.Status, len(r.Body), len(want))
			}
			if h.Get("Content-Type") != c.ctype || h.Get("ETag") != `"`+blob+`"` ||
				h.Get("Content-Length") != strconv.Itoa(len(want)) || h.Get("X-Content-Type-Options") != "nosniff" ||
				!strings.Contains(h.Get("Content-Security-Policy"), "default-src 'none'") {
				t.Errorf("%s: headers %v", u, h)
			}
			if c.ctype != "application/pdf" && !strings.Contains(h.Get("Content-Security-Policy"), "sandbox") {
				t.Errorf("%s: not sandboxed: %v", u, h)
			}
		}
		// Revalidation: a matching ETag is a 304 without a body.
		r := f.srv.Do("GET", f.prefix+"/raw/"+contentsPathURL(c.ref)+"/"+p, nil, "If-None-Match", `"`+blob+`"`)
		if r.Status != http.StatusNotModified || len(r.Body) != 0 {
			t.Errorf("%s: If-None-Match answered %d with %d bytes", c.path, r.Status, len(r.Body))
		}
		r = f.srv.Do("GET", f.prefix+"/raw/"+contentsPathURL(c.ref)+"/"+p, nil, "If-None-Match", `"0000", W/"`+blob+`"`)
		if r.Status != http.StatusNotModified {
			t.Errorf("%s: weak If-None-Match answered %d", c.path, r.Status)
		}
		r = f.srv.Do("GET", f.prefix+"/raw/"+contentsPathURL(c.ref)+"/"+p, nil, "If-None-Match", `"other"`)
		if r.Status != http.StatusOK || string(r.Body) != want {
			t.Errorf("%s: stale If-None-Match answered %d", c.path, r.Status)
		}
	}
	// Without a ref in the path or the query: the default branch.
	r := f.srv.Do("GET", f.prefix+"/raw/bin/data.bin", nil)
	if r.Status != http.StatusOK || !bytes.Equal(r.Body, f.bin) {
		t.Errorf("raw without ref: %d", r.Status)
	}
	// By commit id, and through the SDK (raw/{ref}/{path} and raw/{path}?ref=).
	commit := f.git(t, "rev-parse", "v1")
	r = f.srv.Do("GET", f.prefix+"/raw/"+commit+"/README.md", nil)
	if r.Status != http.StatusOK || string(r.Body) != gitRun(t, f.work, "show", "v1:README.md") {
		t.Errorf("raw by commit: %d %s", r.Status, r.Body)
	}
	data, _, err := f.alice.GetFile("alice", "files", "feature/x", "dir/a.txt")
	if err != nil || string(data) != "a on the side\n" {
		t.Errorf("GetFile: %v %q", err, data)
	}
	data, _, err = f.alice.GetRawFile("alice", "files", "ünïcødé/文件 one.txt", "v1")
	if err != nil || string(data) != "unicode\n" {
		t.Errorf("GetRawFile: %v %q", err, data)
	}
	data, _, err = f.alice.GetRawFileOrLFS("alice", "files", "bin/data.bin")
	if err != nil || !bytes.Equal(data, f.bin) {
		t.Errorf("GetRawFileOrLFS: %v", err)
	}
	// Directories, submodules, absent paths and refs are not found.
	for _, u := range []string{"/raw/main/dir", "/raw/main/lib", "/raw/main", "/raw/main/absent", "/raw/absent/README.md",
		"/raw/README.md?ref=absent", "/media/main/dir", "/raw/", "/raw/main/README.md/x"} {
		r := f.srv.Do("GET", f.prefix+u, nil)
		if r.Status != http.StatusNotFound {
			t.Errorf("%s: %d %s", u, r.Status, r.Body)
		}
	}
}

func TestContentsGitTrees(t *testing.T) {
	t.Parallel()
	f := contentsSetup(t, false)
	api := f.srv.URL + "/api/v1/repos/alice/files"
	check := func(name string, got []gitea.GitEntry, want []contentsLsTree) {
		t.Helper()
		if len(got) != len(want) {
			t.Fatalf("%s: %d entries, git has %d", name, len(got), len(want))
		}
		for i, e := range got {
			w := want[i]
			url := ""
			switch w.kind {
			case "blob":
				url = api + "/git/blobs/" + w.sha
			case "tree":
				url = api + "/git/trees/" + w.sha
			}
			if e.Path != w.path || e.Mode != w.mode || e.Type != w.kind || e.SHA != w.sha || e.Size != w.size || e.URL != url {
				t.Errorf("%s entry %d: %+v, git %+v", name, i, e, w)
			}
		}
	}
	tree := f.git(t, "rev-parse", "main^{tree}")
	for _, ref := range []string{"main", f.git(t, "rev-parse", "main"), tree, "v1", "feature/x"} {
		got, _, err := f.alice.GetTrees("alice", "files", gitea.ListTreeOptions{Ref: ref})
		if err != nil {
			t.Fatalf("%s: %v", ref, err)
		}
		want := contentsListTree(t, f, ref)
		if got.SHA != f.git(t, "rev-parse", ref+"^{tree}") || got.URL != api+"/git/trees/"+got.SHA ||
			got.TotalCount != len(want) || got.Truncated || got.Page != 1 {
			t.Errorf("%s: %+v", ref, got)
		}
		check(ref, got.Entries, want)
	}
	// Recursive, in pages of 400: the pages together are git ls-tree -r -t.
	want := contentsListTree(t, f, "-r", "-t", "main")
	var all []gitea.GitEntry
	for page := 1; ; page++ {
		r := f.srv.Do("GET", fmt.Sprintf("%s/git/trees/main?recursive=1&per_page=400&page=%d", f.prefix, page), nil)
		var got gitea.GitTreeResponse
		r.Decode(t, &got)
		if r.Status != http.StatusOK || got.TotalCount != len(want) || got.Page != page ||
			r.Header.Get("X-Total-Count") != strconv.Itoa(len(want)) {
			t.Fatalf("page %d: %d %+v", page, r.Status, got)
		}
		all = append(all, got.Entries...)
		if got.Truncated != (len(all) < len(want)) {
			t.Errorf("page %d: truncated %v with %d of %d", page, got.Truncated, len(all), len(want))
		}
		if !got.Truncated {
			if next := page + 1; true {
				r := f.srv.Do("GET", fmt.Sprintf("%s/git/trees/main?recursive=1&per_page=400&page=%d", f.prefix, next), nil)
				var past map[string]any
				r.Decode(t, &past)
				if past["tree"] != nil || past["truncated"] != false || past["total_count"] != float64(len(want)) {
					t.Errorf("past the end: %s", r.Body)
				}
			}
			break
		}
	}
	check("recursive", all, want)
	// Without per_page: Gitea's default page of 1,000.
	var def gitea.GitTreeResponse
	f.srv.Do("GET", f.prefix+"/git/trees/main?recursive=true", nil).Decode(t, &def)
	if len(def.Entries) != 1000 || !def.Truncated || def.TotalCount != len(want) {
		t.Errorf("default page: %d entries, truncated %v", len(def.Entries), def.Truncated)
	}
	// An unknown sha is a 400, as in Gitea.
	blob := f.git(t, "rev-parse", "main:README.md")
	for _, sha := range []string{"absent", strings.Repeat("0", 40), blob} {
		r := f.srv.Do("GET", f.prefix+"/git/trees/"+sha, nil)
		assertAPIError(t, r, http.StatusBadRequest, "sha not found ["+sha+"]")
	}
}

func TestContentsGitBlobs(t *testing.T) {
	t.Parallel()
	f := contentsSetup(t, false)
	for _, path := range []string{"bin/data.bin", "README.md", "link"} {
		sha := f.git(t, "rev-parse", "main:"+path)
		b, _, err := f.alice.GetBlob("alice", "files", sha)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		content, err := base64.StdEncoding.DecodeString(b.Content)
		if err != nil {
			t.Fatal(err)
		}
		want := gitRun(t, f.work, "cat-file", "blob", sha)
		if b.SHA != sha || b.Encoding != "base64" || string(content) != want || b.Size != int64(len(want)) ||
			b.URL != f.srv.URL+"/api/v1/repos/alice/files/git/blobs/"+sha {
			t.Errorf("%s: %+v", path, b)
		}
	}
	for _, sha := range []string{strings.Repeat("0", 40), f.git(t, "rev-parse", "main^{tree}"), f.git(t, "rev-parse", "main"), "main", "abc"} {
		r := f.srv.Do("GET", f.prefix+"/git/blobs/"+sha, nil)
		if r.Status != http.StatusBadRequest {
			t.Errorf("%s: %d %s", sha, r.Status, r.Body)
		}
	}
}

func TestContentsBadInput(t *testing.T) {
	t.Parallel()
	f := contentsSetup(t, false)
	before := f.git(t, "ls-remote", repoDir(f.srv, "alice", "files"))
	for _, c := range []struct {
		path   string
		status int
	}{
		{"/contents/absent.txt", 404},
		{"/contents/README.md?ref=absent", 404},
		{"/contents/README.md?ref=" + strings.Repeat("f", 40), 404},
		{"/contents/README.md/inside", 404},
		{"/contents/.git/config", 404},
		{"/contents/%2e%2e/%2e%2e/etc/passwd", 422},
		{"/contents/dir/%2E%2E/README.md", 422},
		{"/contents/.%2fREADME.md", 422},
		{"/contents/%2fetc%2fpasswd", 422},
		{"/contents/dir%2f%2fa.txt", 422},
		{"/contents/%ff%fe", 422},
		{"/contents/a%00b", 400},
		{"/contents/README.md?ref=main%00", 400},
		{"/raw/main/%2e%2e/README.md", 422},
		{"/raw/%ff", 422},
		{"/raw/main/a%00b", 400},
		{"/media/..%2f..%2fREADME.md", 422},
	} {
		r := f.srv.Do("GET", f.prefix+c.path, nil)
		if r.Status != c.status {
			t.Errorf("%s: %d, want %d (%s)", c.path, r.Status, c.status, r.Body)
			continue
		}
		assertErrorShape(t, r)
		if c.status == 422 && !strings.HasPrefix(r.Message(), "filepath: ") {
			t.Errorf("%s: message %q", c.path, r.Message())
		}
	}
	// A literal "../" never reaches a file outside the repository.
	r := f.srv.Do("GET", f.prefix+"/contents/dir/../../../../etc/passwd", nil)
	if r.Status == http.StatusOK {
		t.Errorf("literal ..: %d %s", r.Status, r.Body)
	}
	if after := f.git(t, "ls-remote", repoDir(f.srv, "alice", "files")); after != before {
		t.Errorf("refs changed:\n%s\n%s", before, after)
	}
	f.git(t, "--git-dir="+repoDir(f.srv, "alice", "files"), "fsck", "--no-progress")
}

func TestContentsEmptyRepository(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	createRepo(t, alice, gitea.CreateRepoOption{Name: "empty"})
	r := srv.Do("GET", "/repos/alice/empty/contents", nil)
	if r.Status != http.StatusOK || strings.TrimSpace(string(r.Body)) != "[]" {
		t.Errorf("root of an empty repository: %d %s", r.Status, r.Body)
	}
	list, _, err := alice.ListContents("alice", "empty", "", "")
	if err != nil || len(list) != 0 {
		t.Errorf("ListContents: %v %v", err, list)
	}
	for _, c := range []struct {
		path   string
		status int
	}{
		{"/contents/README.md", 404}, {"/raw/main/README.md", 404}, {"/raw/README.md", 404},
		{"/media/README.md", 404}, {"/git/trees/main", 400}, {"/git/blobs/" + strings.Repeat("1", 40), 400},
	} {
		if r := srv.Do("GET", "/repos/alice/empty"+c.path, nil); r.Status != c.status {
			t.Errorf("%s: %d, want %d (%s)", c.path, r.Status, c.status, r.Body)
		}
	}
}

func TestContentsAccess(t *testing.T) {
	t.Parallel()
	f := contentsSetup(t, true)
	newAccount(t, f.srv, "mallory", gitea.VisibleTypePublic)
	newAccount(t, f.srv, "reader", gitea.VisibleTypePublic)
	read := gitea.AccessModeRead
	if _, err := f.alice.AddCollaborator("alice", "files", "reader", gitea.AddCollaboratorOption{Permission: &read}); err != nil {
		t.Fatal(err)
	}
	blob := f.git(t, "rev-parse", "main:README.md")
	routes := []string{"/contents", "/contents/README.md", "/raw/main/README.md", "/raw/README.md?ref=main",
		"/media/main/README.md", "/git/trees/main", "/git/blobs/" + blob}
	for _, route := range routes {
		for _, who := range []struct {
			name   string
			header []string
			status int
		}{
			{"anonymous", nil, 404},
			{"mallory", basicAs("mallory"), 404},
			{"reader", basicAs("reader"), 200},
			{"alice", basicAs("alice"), 200},
		} {
			r := f.srv.Do("GET", f.prefix+route, nil, who.header...)
			if r.Status != who.status {
				t.Errorf("%s as %s: %d, want %d", route, who.name, r.Status, who.status)
			}
		}
	}
	// Made public, anyone reads it.
	public := false
	if _, _, err := f.alice.EditRepo("alice", "files", gitea.EditRepoOption{Private: &public}); err != nil {
		t.Fatal(err)
	}
	for _, route := range routes {
		if r := f.srv.Do("GET", f.prefix+route, nil); r.Status != http.StatusOK {
			t.Errorf("%s public, anonymous: %d", route, r.Status)
		}
	}
}

// TestContentsJSONShape checks the field names a file answer carries, null
// or not, against Gitea's ContentsResponse.
func TestContentsJSONShape(t *testing.T) {
	t.Parallel()
	f := contentsSetup(t, false)
	r := f.srv.Do("GET", f.prefix+"/contents/README.md", nil)
	var m map[string]json.RawMessage
	r.Decode(t, &m)
	for _, k := range []string{"name", "path", "sha", "last_commit_sha", "type", "size", "encoding", "content", "target",
		"url", "html_url", "git_url", "download_url", "submodule_git_url", "_links"} {
		if _, ok := m[k]; !ok {
			t.Errorf("field %s missing: %s", k, r.Body)
		}
	}
	if string(m["target"]) != "null" || string(m["submodule_git_url"]) != "null" {
		t.Errorf("a file's target and submodule URL are not null: %s", r.Body)
	}
}
