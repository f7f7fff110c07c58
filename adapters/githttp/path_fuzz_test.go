package githttp

import (
	"strings"
	"testing"
)

// FuzzParsePath fuzzes the smart HTTP paths: a recognised one names an
// owner and a repository without path separators or NUL and one of the
// three Git actions, and its canonical spelling parses to the same target.
func FuzzParsePath(f *testing.F) {
	for _, s := range []string{"/alice/repo.git/info/refs", "/alice/repo/git-upload-pack", "/a/b.git/git-receive-pack",
		"/a/b/c/info/refs", "/a/.git/info/refs", "//b/info/refs", "/a/b\x00/info/refs", "/a\\b/c/info/refs", "alice/repo/info/refs",
		"/info/refs", "/a/b.git.git/git-upload-pack"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		tg, ok := parsePath(p)
		if !ok {
			return
		}
		switch tg.action {
		case actionInfoRefs, actionUploadPack, actionReceivePack:
		default:
			t.Fatalf("parsePath(%q) action %q", p, tg.action)
		}
		if tg.owner == "" || tg.name == "" || strings.ContainsAny(tg.owner, "/\\\x00") || strings.ContainsAny(tg.name, "/\\\x00") {
			t.Fatalf("parsePath(%q) = %+v", p, tg)
		}
		suffix := ""
		if tg.dotGit {
			suffix = ".git"
		}
		again, ok := parsePath("/" + tg.owner + "/" + tg.name + suffix + "/" + tg.action)
		if !ok || again != tg {
			t.Fatalf("canonical path of %q parses as %+v, %v", p, again, ok)
		}
	})
}
