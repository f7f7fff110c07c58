package test

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/test/testserver"
	"github.com/google/licenseclassifier/v2/assets"
	"github.com/matryer/is"
)

// archiveFile is one path of an unpacked archive, as both formats can say
// it: kind ('d' directory, 'f' file, 'x' executable, 'l' symbolic link), and
// the bytes or the link target.
type archiveFile struct {
	Kind byte
	Data string
}

// archivePush writes files (path → content; a "->" prefix makes a symbolic
// link, an "x:" prefix an executable) into a clone of owner/name, adds a
// submodule at sub when asked, commits and pushes to branch.
func archivePush(t *testing.T, srv *testserver.Server, owner, name, branch string, files map[string]string, submodule bool) string {
	t.Helper()
	work := cloneRepo(t, srv, owner, name)
	for path, content := range files {
		full := filepath.Join(work, filepath.FromSlash(path))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		switch {
		case strings.HasPrefix(content, "->"):
			if err := os.Symlink(strings.TrimPrefix(content, "->"), full); err != nil {
				t.Fatal(err)
			}
		case strings.HasPrefix(content, "x:"):
			if err := os.WriteFile(full, []byte(strings.TrimPrefix(content, "x:")), 0o755); err != nil {
				t.Fatal(err)
			}
		default:
			if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	gitRun(t, work, "add", "-A")
	if submodule {
		gitRun(t, work, "update-index", "--add", "--cacheinfo", "160000,2222222222222222222222222222222222222222,sub")
	}
	gitRun(t, work, "commit", "-q", "-m", "content")
	gitRun(t, work, "push", "-q", repoDir(srv, owner, name), "HEAD:refs/heads/"+branch)
	return strings.TrimSpace(gitRun(t, work, "rev-parse", "HEAD"))
}

// archiveGitBytes runs git in dir and returns its raw standard output.
func archiveGitBytes(t *testing.T, dir string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return out
}

// archiveUntar unpacks a tar stream into paths, also returning each path's
// exact tar mode.
func archiveUntar(t *testing.T, r io.Reader) (map[string]archiveFile, map[string]int64) {
	t.Helper()
	files, modes := map[string]archiveFile{}, map[string]int64{}
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return files, modes
		}
		if err != nil {
			t.Fatalf("read tar: %v", err)
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		var f archiveFile
		switch h.Typeflag {
		case tar.TypeXGlobalHeader:
			continue
		case tar.TypeDir:
			f = archiveFile{Kind: 'd'}
		case tar.TypeSymlink:
			f = archiveFile{Kind: 'l', Data: h.Linkname}
		case tar.TypeReg:
			f = archiveFile{Kind: 'f', Data: string(data)}
			if h.Mode&0o100 != 0 {
				f.Kind = 'x'
			}
		default:
			t.Fatalf("unexpected tar entry %s of type %c", h.Name, h.Typeflag)
		}
		files[h.Name], modes[h.Name] = f, h.Mode
	}
}

// archiveUnzip unpacks a zip file into paths.
func archiveUnzip(t *testing.T, data []byte) map[string]archiveFile {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatalf("read zip: %v", err)
	}
	files := map[string]archiveFile{}
	for _, zf := range zr.File {
		rc, err := zf.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		mode := zf.Mode()
		var f archiveFile
		switch {
		case mode.IsDir():
			f = archiveFile{Kind: 'd'}
		case mode&fs.ModeSymlink != 0:
			f = archiveFile{Kind: 'l', Data: string(b)}
		case mode&0o100 != 0 && zf.CreatorVersion>>8 == 3:
			f = archiveFile{Kind: 'x', Data: string(b)}
		default:
			f = archiveFile{Kind: 'f', Data: string(b)}
		}
		files[zf.Name] = f
	}
	return files
}

// archiveWant is what `git archive --format=tar --prefix=<name>/ <ref>` holds.
func archiveWant(t *testing.T, srv *testserver.Server, owner, name, ref string) (map[string]archiveFile, map[string]int64) {
	t.Helper()
	return archiveUntar(t, bytes.NewReader(archiveGitBytes(t, repoDir(srv, owner, name), "archive", "--format=tar",
		"--prefix="+name+"/", ref)))
}

// archiveCompare fails on any difference between two unpacked archives.
func archiveCompare(t *testing.T, got, want map[string]archiveFile) {
	t.Helper()
	for p, w := range want {
		g, ok := got[p]
		switch {
		case !ok:
			t.Errorf("%s missing", p)
		case g != w:
			t.Errorf("%s: got %c %q, want %c %q", p, g.Kind, g.Data, w.Kind, w.Data)
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			t.Errorf("%s: not in git archive", p)
		}
	}
}

// archiveContentFiles is the fixture of the download tests: every kind of
// entry (plus a submodule).
var archiveContentFiles = map[string]string{
	"README.md":                              "# Tools\n",
	"run.sh":                                 "x:#!/bin/sh\necho hi\n",
	"link":                                   "->README.md",
	"dirlink":                                "->src/deep",
	"src/deep/main.go":                       "package main\n",
	"src/empty":                              "",
	"ünï/文件.txt":                             "unicode\n",
	"bin.dat":                                "\x00\x01\x02\xff\xfe",
	".gitmodules":                            "[submodule \"sub\"]\n\tpath = sub\n\turl = https://example.com/sub.git\n",
	strings.Repeat("long/", 25) + "file.txt": "long\n",
}

func TestArchiveDownloads(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	_, aliceC := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	createRepo(t, aliceC, gitea.CreateRepoOption{Name: "Tools", AutoInit: true})
	mainID := archivePush(t, srv, "alice", "Tools", "main", archiveContentFiles, true)
	featureID := archivePush(t, srv, "alice", "Tools", "feature/x", map[string]string{"feature.txt": "x:feature\n"}, false)
	gitRun(t, repoDir(srv, "alice", "Tools"), "tag", "-a", "-m", "release", "v1.0", mainID)

	for _, tc := range []struct {
		path, ref, commit, file string
	}{
		{"/archive/main.zip", "main", mainID, "Tools-main.zip"},
		{"/archive/main.tar.gz", "main", mainID, "Tools-main.tar.gz"},
		{"/archive/feature/x.zip", "feature/x", featureID, "Tools-feature-x.zip"},
		{"/archive/feature/x.tar.gz", "feature/x", featureID, "Tools-feature-x.tar.gz"},
		{"/archive/v1.0.tar.gz", "v1.0", mainID, "Tools-v1.0.tar.gz"},
		{"/archive/" + mainID[:10] + ".zip", mainID[:10], mainID, "Tools-" + mainID[:10] + ".zip"},
		{"/zipball/feature/x", "feature/x", featureID, "Tools-feature-x.zip"},
		{"/tarball/v1.0", "v1.0", mainID, "Tools-v1.0.tar.gz"},
		{"/tarball/" + mainID, mainID, mainID, "Tools-" + mainID + ".tar.gz"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			is := is.New(t)
			// A public repository: anonymous callers download too.
			r := srv.Do("GET", "/repos/alice/Tools"+tc.path, nil)
			is.Equal(r.Status, http.StatusOK)
			is.Equal(r.Header.Get("Content-Type"), "application/octet-stream")
			is.Equal(r.Header.Get("Content-Disposition"), `attachment; filename="`+tc.file+`"; filename*=UTF-8''`+tc.file)
			ext := ".zip"
			if strings.HasSuffix(tc.file, ".tar.gz") {
				ext = ".tar.gz"
			}
			is.Equal(r.Header.Get("Link"), "<"+srv.API+"/repos/alice/Tools/archive/"+tc.commit+ext+"?rev="+tc.commit+
				`>; rel="immutable"`)

			want, wantModes := archiveWant(t, srv, "alice", "Tools", tc.ref)
			is.Equal(want["Tools/sub/"].Kind, byte('d')) // the oracle has the submodule as a directory
			if ext == ".zip" {
				archiveCompare(t, archiveUnzip(t, r.Body), want)
				return
			}
			gz, err := gzip.NewReader(bytes.NewReader(r.Body))
			is.NoErr(err)
			got, gotModes := archiveUntar(t, gz)
			archiveCompare(t, got, want)
			is.Equal(gotModes, wantModes) // git's exact modes: 0664, 0775, 0777
		})
	}
}

func TestArchiveBundles(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	_, aliceC := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	createRepo(t, aliceC, gitea.CreateRepoOption{Name: "Tools", AutoInit: true, Private: true})
	mainID := archivePush(t, srv, "alice", "Tools", "main", archiveContentFiles, true)
	featureID := archivePush(t, srv, "alice", "Tools", "feature/x", map[string]string{"feature.txt": "feature\n"}, false)

	for _, tc := range []struct{ path, commit, file string }{
		{"/archive/main.bundle", mainID, "Tools-main.bundle"},
		{"/bundle/feature/x", featureID, "Tools-feature-x.bundle"},
		{"/bundle/" + mainID[:8], mainID, "Tools-" + mainID[:8] + ".bundle"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			is := is.New(t)
			r := srv.Do("GET", "/repos/alice/Tools"+tc.path, nil, basicAs("alice")...)
			is.Equal(r.Status, http.StatusOK)
			is.Equal(r.Header.Get("Content-Type"), "application/octet-stream")
			is.Equal(r.Header.Get("Content-Disposition"), `attachment; filename="`+tc.file+`"; filename*=UTF-8''`+tc.file)
			file := filepath.Join(t.TempDir(), "x.bundle")
			is.NoErr(os.WriteFile(file, r.Body, 0o644))
			gitRun(t, repoDir(srv, "alice", "Tools"), "bundle", "verify", "-q", file)
			dst := filepath.Join(t.TempDir(), "clone")
			gitRun(t, t.TempDir(), "clone", "-q", file, dst)
			is.Equal(strings.TrimSpace(gitRun(t, dst, "rev-parse", "HEAD")), tc.commit)
			is.Equal(gitRun(t, dst, "log", "--format=%H %s"), gitRun(t, repoDir(srv, "alice", "Tools"), "log", "--format=%H %s", tc.commit))
			is.Equal(gitRun(t, dst, "ls-tree", "-r", "HEAD"), gitRun(t, repoDir(srv, "alice", "Tools"), "ls-tree", "-r", tc.commit))
		})
	}
}

func TestArchiveErrors(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	_, aliceC := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	createRepo(t, aliceC, gitea.CreateRepoOption{Name: "Tools", AutoInit: true})
	createRepo(t, aliceC, gitea.CreateRepoOption{Name: "blank"})

	for _, path := range []string{
		"/repos/alice/Tools/archive/nothing.zip",
		"/repos/alice/Tools/archive/nothing.tar.gz",
		"/repos/alice/Tools/archive/nothing.bundle",
		"/repos/alice/Tools/archive/main.rar",
		"/repos/alice/Tools/archive/main",
		"/repos/alice/Tools/archive/.zip",
		"/repos/alice/Tools/archive/",
		"/repos/alice/Tools/zipball/nothing",
		"/repos/alice/Tools/tarball/",
		"/repos/alice/Tools/bundle/feature/none",
		"/repos/alice/Tools/tarball/0000000000000000000000000000000000000000",
		"/repos/alice/blank/archive/main.zip",
		"/repos/alice/blank/tarball/main",
		"/repos/alice/blank/bundle/main",
		"/repos/alice/nothing/archive/main.zip",
	} {
		t.Run(path, func(t *testing.T) {
			r := srv.Do("GET", path, nil)
			assertAPIError(t, r, http.StatusNotFound, "")
		})
	}
	// Only the three ball types are routes; any other word is not one.
	if r := srv.Do("GET", "/repos/alice/Tools/rarball/main", nil); r.Status != http.StatusNotFound {
		t.Fatalf("rarball: status %d", r.Status)
	}
}

// archiveAccessPaths are the routes of this group, for the access checks.
var archiveAccessPaths = []string{"/archive/main.zip", "/archive/main.tar.gz", "/archive/main.bundle", "/tarball/main",
	"/zipball/main", "/bundle/main", "/languages", "/licenses", "/editorconfig/a.go"}

func TestArchiveAccess(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	_, aliceC := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	newAccount(t, srv, "bob", gitea.VisibleTypePublic)
	newAccount(t, srv, "reader", gitea.VisibleTypePublic)
	createRepo(t, aliceC, gitea.CreateRepoOption{Name: "secret", AutoInit: true, Private: true})
	createRepo(t, aliceC, gitea.CreateRepoOption{Name: "nocode", AutoInit: true})
	for _, name := range []string{"secret", "nocode"} {
		archivePush(t, srv, "alice", name, "main", map[string]string{".editorconfig": "[*]\nindent_style = tab\n"}, false)
	}
	read := gitea.AccessModeRead
	if _, err := aliceC.AddCollaborator("alice", "secret", "reader", gitea.AddCollaboratorOption{Permission: &read}); err != nil {
		t.Fatal(err)
	}
	// The SDK's EditRepoOption has no has_code: send it raw.
	if r := srv.Do("PATCH", "/repos/alice/nocode", map[string]any{"has_code": false}, basicAs("alice")...); r.Status != http.StatusOK {
		t.Fatalf("disable code: %d %s", r.Status, r.Body)
	}

	for _, p := range archiveAccessPaths {
		t.Run(p, func(t *testing.T) {
			// A private repository is hidden from anonymous callers and
			// strangers alike.
			assertAPIError(t, srv.Do("GET", "/repos/alice/secret"+p, nil), http.StatusNotFound, "repository does not exist")
			assertAPIError(t, srv.Do("GET", "/repos/alice/secret"+p, nil, basicAs("bob")...), http.StatusNotFound,
				"repository does not exist")
			// A reader and the owner are served.
			for _, who := range []string{"reader", "alice"} {
				if r := srv.Do("GET", "/repos/alice/secret"+p, nil, basicAs(who)...); r.Status != http.StatusOK {
					t.Errorf("%s: status %d (%s)", who, r.Status, r.Body)
				}
			}
			// Without the code unit, only who administers the repository
			// reads it.
			r := srv.Do("GET", "/repos/alice/nocode"+p, nil, basicAs("bob")...)
			if r.Status != http.StatusForbidden {
				t.Errorf("no code unit: status %d, want 403 (%s)", r.Status, r.Body)
			}
			if r := srv.Do("GET", "/repos/alice/nocode"+p, nil, basicAs("alice")...); r.Status != http.StatusOK {
				t.Errorf("owner without code unit: status %d (%s)", r.Status, r.Body)
			}
		})
	}
}

func TestAnalysisLanguages(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := testserver.Start(t)
	_, aliceC := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	createRepo(t, aliceC, gitea.CreateRepoOption{Name: "code", AutoInit: true})
	createRepo(t, aliceC, gitea.CreateRepoOption{Name: "blank"})

	goSrc := "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"hi\")\n}\n"
	pySrc := "import sys\n\n\ndef main():\n    print(sys.argv)\n"
	archivePush(t, srv, "alice", "code", "main", map[string]string{
		"cmd/main.go":      goSrc,
		"tool/run.py":      pySrc,
		"vendor/x/x.go":    "package x\n",
		"docs/index.md":    "# docs\n",
		"settings.json":    "{}\n",
		".eslintrc.js":     "module.exports = {}\n",
		"img/logo.png":     "\x89PNG\r\n\x1a\n\x00\x00",
		"api/api.pb.go":    "// Code generated by protoc-gen-go. DO NOT EDIT.\npackage api\n",
		"other/branch.txt": "text\n",
	}, false)
	// Another branch's files do not count: the default branch does.
	archivePush(t, srv, "alice", "code", "rust", map[string]string{"lib.rs": "fn main() {}\n"}, false)

	langs, _, err := aliceC.GetRepoLanguages("alice", "code")
	is.NoErr(err)
	is.Equal(langs, map[string]int64{"Go": int64(len(goSrc)), "Python": int64(len(pySrc))})
	// Anonymous callers read a public repository's languages.
	var anon map[string]int64
	srv.Do("GET", "/repos/alice/code/languages", nil).Decode(t, &anon)
	is.Equal(anon, langs)

	// A repository without commits has no languages.
	r := srv.Do("GET", "/repos/alice/blank/languages", nil)
	is.Equal(r.Status, http.StatusOK)
	is.Equal(strings.TrimSpace(string(r.Body)), "{}")
	assertAPIError(t, srv.Do("GET", "/repos/alice/nothing/languages", nil), http.StatusNotFound, "repository does not exist")
}

// archiveLicenseText is a licence text the classifier ships.
func archiveLicenseText(t *testing.T, path string) string {
	t.Helper()
	b, err := assets.ReadLicenseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestAnalysisLicenses(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := testserver.Start(t)
	_, aliceC := newAccount(t, srv, "alice", gitea.VisibleTypePublic)

	// The licence POST /user/repos writes is detected.
	createRepo(t, aliceC, gitea.CreateRepoOption{Name: "mit", AutoInit: true, License: "MIT"})
	ids, _, err := aliceC.GetRepoLicenses("alice", "mit")
	is.NoErr(err)
	is.Equal(ids, []string{"MIT"})

	// Two licence files: both, sorted.
	createRepo(t, aliceC, gitea.CreateRepoOption{Name: "dual", AutoInit: true})
	archivePush(t, srv, "alice", "dual", "main", map[string]string{
		"LICENSE-MIT":    strings.Replace(archiveLicenseText(t, "License/MIT/pristine.txt"), "<year> <copyright holders>", "2024 Alice", 1),
		"LICENSE-APACHE": archiveLicenseText(t, "License/Apache-2.0/pristine.txt"),
	}, false)
	ids, _, err = aliceC.GetRepoLicenses("alice", "dual")
	is.NoErr(err)
	is.Equal(ids, []string{"Apache-2.0", "MIT"})

	// None: an empty list, not null.
	createRepo(t, aliceC, gitea.CreateRepoOption{Name: "none", AutoInit: true})
	r := srv.Do("GET", "/repos/alice/none/licenses", nil)
	is.Equal(r.Status, http.StatusOK)
	is.Equal(strings.TrimSpace(string(r.Body)), "[]")
	createRepo(t, aliceC, gitea.CreateRepoOption{Name: "blank"})
	r = srv.Do("GET", "/repos/alice/blank/licenses", nil)
	is.Equal(r.Status, http.StatusOK)
	is.Equal(strings.TrimSpace(string(r.Body)), "[]")
}

func TestAnalysisEditorconfig(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t)
	_, aliceC := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	createRepo(t, aliceC, gitea.CreateRepoOption{Name: "ec", AutoInit: true})
	createRepo(t, aliceC, gitea.CreateRepoOption{Name: "plain", AutoInit: true})
	createRepo(t, aliceC, gitea.CreateRepoOption{Name: "blank"})
	archivePush(t, srv, "alice", "ec", "main", map[string]string{".editorconfig": `root = true

[*]
indent_style = space
indent_size = 2
end_of_line = lf
insert_final_newline = true

[*.go]
indent_style = tab
indent_size = 8

[Makefile]
indent_style = tab

[docs/**.md]
max_line_length = 80
`}, false)
	archivePush(t, srv, "alice", "ec", "old", map[string]string{".editorconfig": "[*]\nindent_style = tab\n"}, false)

	for _, tc := range []struct {
		file, query string
		want        map[string]string
	}{
		{"main.go", "", map[string]string{"indent_style": "tab", "indent_size": "8", "end_of_line": "lf", "insert_final_newline": "true"}},
		{"pkg/deep/x.go", "", map[string]string{"indent_style": "tab", "indent_size": "8", "end_of_line": "lf", "insert_final_newline": "true"}},
		{"Makefile", "", map[string]string{"indent_style": "tab", "indent_size": "2", "end_of_line": "lf", "insert_final_newline": "true"}},
		{"docs/a/guide.md", "", map[string]string{"indent_style": "space", "indent_size": "2", "end_of_line": "lf", "insert_final_newline": "true", "max_line_length": "80"}},
		{"web/app.js", "", map[string]string{"indent_style": "space", "indent_size": "2", "end_of_line": "lf", "insert_final_newline": "true"}},
		{"web/app.js", "?ref=old", map[string]string{"indent_style": "tab"}},
	} {
		t.Run(tc.file+tc.query, func(t *testing.T) {
			is := is.New(t)
			r := srv.Do("GET", "/repos/alice/ec/editorconfig/"+tc.file+tc.query, nil)
			is.Equal(r.Status, http.StatusOK)
			var got map[string]string
			r.Decode(t, &got)
			is.Equal(got, tc.want)
		})
	}

	t.Run("sdk", func(t *testing.T) {
		is := is.New(t)
		raw, _, err := aliceC.GetEditorConfig("alice", "ec", "main.go")
		is.NoErr(err)
		is.True(bytes.Contains(raw, []byte(`"indent_style":"tab"`)))
	})

	for name, path := range map[string]string{
		"no .editorconfig":  "/repos/alice/plain/editorconfig/main.go",
		"absent ref":        "/repos/alice/ec/editorconfig/main.go?ref=nothing",
		"empty repository":  "/repos/alice/blank/editorconfig/main.go",
		"absent repository": "/repos/alice/nothing/editorconfig/main.go",
	} {
		t.Run(name, func(t *testing.T) {
			assertAPIError(t, srv.Do("GET", path, nil), http.StatusNotFound, "")
		})
	}
}
