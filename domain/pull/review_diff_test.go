package pull_test

import (
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/pull"
)

const sampleDiff = `diff --git a/README.md b/README.md
index 1111111..2222222 100644
--- a/README.md
+++ b/README.md
@@ -1,6 +1,7 @@
 one
 two
-three
+THREE
+three and a half
 four
 five
 six
diff --git a/gone.txt b/gone.txt
deleted file mode 100644
index 3333333..0000000
--- a/gone.txt
+++ /dev/null
@@ -1,2 +0,0 @@
-bye
-now
`

func TestCutDiffAroundLine(t *testing.T) {
	for _, tc := range []struct {
		name  string
		at    pull.DiffLine
		ok    bool
		hunk  string
		lines int
	}{
		{"added line", pull.DiffLine{Path: "README.md", New: 4}, true,
			"@@ -2,2 +2,3 @@\n two\n-three\n+THREE\n+three and a half", 0},
		{"context line", pull.DiffLine{Path: "README.md", New: 2}, true, "@@ -1,2 +1,2 @@\n one\n two", 0},
		{"removed line", pull.DiffLine{Path: "README.md", Old: 3}, true, "@@ -1,3 +1,2 @@\n one\n two\n-three", 0},
		{"last line keeps four", pull.DiffLine{Path: "README.md", New: 7}, true, "", 4},
		{"line past the hunk", pull.DiffLine{Path: "README.md", New: 40}, false, "", 0},
		{"old side of an added line", pull.DiffLine{Path: "README.md", Old: 7}, false, "", 0},
		{"deleted file, old side", pull.DiffLine{Path: "gone.txt", Old: 2}, true, "@@ -1,2 +0,0 @@\n-bye\n-now", 0},
		{"deleted file, new side", pull.DiffLine{Path: "gone.txt", New: 1}, false, "", 0},
		{"path not in the diff", pull.DiffLine{Path: "other.go", New: 1}, false, "", 0},
		{"no line", pull.DiffLine{Path: "README.md"}, false, "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			patch, ok := pull.CutDiffAroundLine(sampleDiff, tc.at)
			is.Equal(ok, tc.ok)
			if !ok {
				return
			}
			is.True(strings.HasPrefix(patch, "diff --git a/"+tc.at.Path))
			hunk := pull.DiffHunk(patch)
			if tc.hunk != "" {
				is.Equal(hunk, tc.hunk)
			}
			if tc.lines > 0 {
				is.Equal(strings.Count(hunk, "\n"), tc.lines)
			}
		})
	}
}

func TestDiffLineSigned(t *testing.T) {
	is := is.New(t)
	is.Equal(pull.DiffLine{New: 4}.Signed(), int64(4))
	is.Equal(pull.DiffLine{Old: 3, New: 9}.Signed(), int64(-3))
	is.Equal(pull.LineOf("a", -3), pull.DiffLine{Path: "a", Old: 3})
	is.Equal(pull.LineOf("a", 5), pull.DiffLine{Path: "a", New: 5})
}

func FuzzCutDiffAroundLine(f *testing.F) {
	f.Add(sampleDiff, "README.md", int64(0), int64(4))
	f.Add("diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -a +b @@\n+x", "x", int64(1), int64(0))
	f.Add("diff --git \n@@ -1 +1 @@", "", int64(-1), int64(1))
	f.Fuzz(func(t *testing.T, diff, path string, oldLine, newLine int64) {
		patch, ok := pull.CutDiffAroundLine(diff, pull.DiffLine{Path: path, Old: oldLine, New: newLine})
		if !ok && patch != "" {
			t.Fatalf("patch %q without a match", patch)
		}
		if ok && pull.DiffHunk(patch) == "" {
			t.Fatalf("patch %q has no hunk", patch)
		}
	})
}
