package repository

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func FuzzCleanTreePath(f *testing.F) {
	for _, s := range []string{"a.txt", "dir/./b", "./x", "../x", "a/../b", "/abs", "a//b", ".git/config", "x/.GIT./y",
		"GIT~1/z", "a\\b", "a\x00b", ".", "a/.g\u200cit/b", "\xff", "docs/README.md"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		clean, err := CleanTreePath("TreePath", p)
		if err != nil {
			invalidOn(t, err, "TreePath")
			return
		}
		if clean == "" || !utf8.ValidString(clean) || strings.HasPrefix(clean, "/") ||
			strings.ContainsAny(clean, "\\\x00") || len(clean) > len(p) {
			t.Fatalf("CleanTreePath(%q) = %q", p, clean)
		}
		for _, seg := range strings.Split(clean, "/") {
			if seg == "" || seg == "." || seg == ".." || isDotGit(seg) {
				t.Fatalf("CleanTreePath(%q) = %q keeps segment %q", p, clean, seg)
			}
		}
		// The canonical form is a fixed point.
		again, err := CleanTreePath("TreePath", clean)
		if err != nil || again != clean {
			t.Fatalf("CleanTreePath(%q) = %q, %v; want it unchanged", clean, again, err)
		}
	})
}

func FuzzCheckFileChanges(f *testing.F) {
	sha := strings.Repeat("a", 40)
	f.Add("create", "a.txt", "", "", []byte("x"))
	f.Add("update", "b/c", "b/d", strings.ToUpper(sha), []byte(nil))
	f.Add("rename", "x", "x", sha, []byte(nil))
	f.Add("delete", "../y", "", sha, []byte("z"))
	f.Add("upload", "u", "", " "+sha+" ", []byte("u"))
	f.Add("chmod", "a", "", "", []byte(nil))
	f.Fuzz(func(t *testing.T, op, path, from, sha string, content []byte) {
		in := []FileChange{{Operation: FileOperation(op), Path: path, FromPath: from, SHA: sha, Content: content}}
		out, err := CheckFileChanges(in)
		if err != nil {
			invalidOnOneOf(t, err, "Files", "Operation", "TreePath", "FromPath", "SHA", "Content")
			return
		}
		c := out[0]
		if cp, err := CleanTreePath("TreePath", c.Path); err != nil || cp != c.Path {
			t.Fatalf("kept path %q is not clean", c.Path)
		}
		if c.SHA != "" && (len(c.SHA) != 40 || strings.ToLower(c.SHA) != c.SHA) {
			t.Fatalf("kept SHA %q is not a lower-case object id", c.SHA)
		}
		if c.Operation == FileRename && !c.Moves() {
			t.Fatalf("a rename that moves nothing was accepted: %+v", c)
		}
	})
}
