package repository

import (
	"strings"
	"testing"

	"github.com/matryer/is"
)

func TestValidRefName(t *testing.T) {
	longest := "refs/heads/" + strings.Repeat("a", MaxRefNameLength-len("refs/heads/"))
	cases := []struct {
		name string
		ok   bool
	}{
		{"refs/heads/main", true}, {"refs/heads/feature/x", true}, {"refs/tags/v1.0.0", true},
		{"refs/heads/ünïcødé", true}, {"refs/heads/a-b_c", true}, {"refs/heads/x.lockx", true},
		{"refs/heads/a@b", true}, {"refs/heads/{}", true}, {"HEAD", true}, {"refs/notes/commits", true},
		{longest, true},
		{longest + "a", false},
		{"refs/heads/" + strings.Repeat("a", 5000), false},
		{"refs/heads/" + strings.Repeat("d/", 600) + "e", false},
		{"", false}, {"@", false},
		{"refs/heads/a..b", false}, {"refs/heads/x.lock", false}, {"refs/heads/dir/x.lock/y", false},
		{"refs/heads/a\x00b", false}, {"refs/heads/a\x01b", false}, {"refs/heads/tab\tname", false},
		{"refs/heads/del\x7f", false}, {"refs/heads/@{", false}, {"refs/heads/a@{1}", false},
		{"refs/heads/sp ace", false}, {"refs/heads/til~de", false}, {"refs/heads/car^et", false},
		{"refs/heads/col:on", false}, {"refs/heads/q?uestion", false}, {"refs/heads/st*ar", false},
		{"refs/heads/br[acket", false}, {"refs/heads/back\\slash", false}, {"refs/heads/.hidden", false},
		{"refs/heads/dir/.hidden", false}, {"refs/heads/trail.", false}, {"refs/heads/trail/", false},
		{"/refs/heads/x", false}, {"refs/heads//x", false}, {"refs/heads/", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			is.Equal(ValidRefName(tc.name), tc.ok)
		})
	}
}
