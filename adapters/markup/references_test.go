package markup

import (
	"testing"

	"github.com/matryer/is"
)

func TestFindRefs(t *testing.T) {
	all := refScan{mentions: true, fullIssues: true, shortIssues: true, commits: true}
	cases := []struct {
		text string
		want []textRef
	}{
		{"@alice", []textRef{{start: 0, end: 6, kind: refMention, name: "alice"}}},
		{"hi @a.b-c_d.", []textRef{{start: 3, end: 11, kind: refMention, name: "a.b-c_d"}}},
		{"mail a@b", nil},  // not after a space
		{"@org/team", nil}, // teams are not linked
		{"@alice's", []textRef{{start: 0, end: 6, kind: refMention, name: "alice"}}},
		{"see #12, ok", []textRef{{start: 4, end: 7, kind: refIssue, index: 12}}},
		{"(!3)", []textRef{{start: 1, end: 3, kind: refPull, index: 3}}},
		{"#0 #-1 #12a #99999999999999999999", nil},
		{"#1 #2", []textRef{{start: 0, end: 2, kind: refIssue, index: 1}, {start: 3, end: 5, kind: refIssue, index: 2}}},
		{"a-b/c.d#4.", []textRef{{start: 0, end: 9, kind: refIssue, owner: "a-b", repo: "c.d", index: 4}}},
		{"x/y!5", []textRef{{start: 0, end: 5, kind: refPull, owner: "x", repo: "y", index: 5}}},
		{"abcdef1 deadbeefcafe", []textRef{{start: 0, end: 7, kind: refCommit, name: "abcdef1"},
			{start: 8, end: 20, kind: refCommit, name: "deadbeefcafe"}}},
		{"abcdef", nil},   // too short
		{"ABCDEF12", nil}, // commit ids are lower case
		{"abcdef1x", nil}, // not followed by a boundary
		{"[#7]", []textRef{{start: 1, end: 3, kind: refIssue, index: 7}}},
		{"issue#7", nil},
		{"#7!", []textRef{{start: 0, end: 2, kind: refIssue, index: 7}}},
		{"#7?x", nil},
	}
	for _, c := range cases {
		t.Run(c.text, func(t *testing.T) {
			is := is.New(t)
			got := findRefs([]byte(c.text), all)
			is.Equal(len(got), len(c.want))
			for i := range got {
				is.Equal(got[i], c.want[i])
			}
		})
	}
}

func TestFindRefsHonoursTheScan(t *testing.T) {
	is := is.New(t)
	text := []byte("@alice #1 o/r#2 abcdef1")
	is.Equal(len(findRefs(text, refScan{})), 0)
	got := findRefs(text, refScan{fullIssues: true})
	is.Equal(len(got), 1)
	is.Equal(got[0].owner, "o")
	got = findRefs(text, refScan{mentions: true, shortIssues: true})
	is.Equal(len(got), 2)
}

func TestFindRefsIsBounded(t *testing.T) {
	is := is.New(t)
	text := make([]byte, 0, 3*1000)
	for i := 0; i < 1000; i++ {
		text = append(text, "#1 "...)
	}
	is.Equal(len(findRefs(text, refScan{shortIssues: true})), maxRefsPerRun)
}

func FuzzFindRefs(f *testing.F) {
	for _, s := range []string{"@alice #1 o/r#2 abcdef1", "a/b!3.", "(#12)", "@@@", "#", "o/r#", "/#1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		refs := findRefs([]byte(s), refScan{mentions: true, fullIssues: true, shortIssues: true, commits: true})
		last := 0
		for _, r := range refs {
			if r.start < last || r.end <= r.start || r.end > len(s) {
				t.Fatalf("reference %+v out of order or bounds in %q", r, s)
			}
			if (r.kind == refIssue || r.kind == refPull) && r.index <= 0 {
				t.Fatalf("reference %+v with a non-positive index", r)
			}
			last = r.end
		}
	})
}
