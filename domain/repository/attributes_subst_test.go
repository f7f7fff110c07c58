package repository

import (
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
)

func TestExpandExportSubst(t *testing.T) {
	when := time.Date(2024, 6, 1, 10, 0, 0, 0, time.FixedZone("", 2*3600))
	c := &SubstCommit{ID: "abcdef1234", ShortID: "abcdef1", AuthorName: "Ann", AuthorEmail: "ann@x.org",
		AuthorWhen: when, CommitterWhen: when.UTC(), RawMessage: "\n Sub  \nject\n\n\nBody\n",
		Decorations: []Decoration{{Name: "HEAD", HeadTarget: "main"}, {Name: "v1", Tag: true}, {Name: "main", Skip: true}}}
	cases := []struct{ in, want string }{
		{"no marker", "no marker"},
		{"$Format:%H$", "abcdef1234"},
		{"a $Format:%h$ b $Format:%an <%ae>$ c", "a abcdef1 b Ann <ann@x.org> c"},
		{"$Format:%ad|%aD|%ai|%aI|%at$", "Sat Jun 1 10:00:00 2024 +0200|Sat, 1 Jun 2024 10:00:00 +0200|" +
			"2024-06-01 10:00:00 +0200|2024-06-01T10:00:00+02:00|1717228800"},
		{"$Format:%cI$", "2024-06-01T08:00:00+00:00"},
		{"[$Format:%s$][$Format:%b$]", "[ Sub ject][Body\n]"},
		{"$Format:%d$|$Format:%D$", " (HEAD -> main, tag: v1)|HEAD -> main, tag: v1"},
		{"$Format:%q%%%n%x4a%xZZ%$", "%q%\nJ%xZZ%"},
		{"$Format:%H", "$Format:%H"},
		{"$Format:$$", "$"},
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			is := is.New(t)
			is.Equal(string(ExpandExportSubst([]byte(tc.in), c, 1<<20)), tc.want)
		})
	}
	t.Run("too large once expanded", func(t *testing.T) {
		is := is.New(t)
		in := strings.Repeat("$Format:%H%H%H$", 10)
		is.Equal(string(ExpandExportSubst([]byte(in), c, 100)), in)
	})
}
