package content

import (
	"errors"
	"testing"

	"github.com/depothq/depot/domain/errs"
	"github.com/matryer/is"
)

func TestContentsCleanPath(t *testing.T) {
	for _, c := range []struct {
		in, out string
		ok      bool
	}{
		{"", "", true},
		{".", "", true},
		{"/", "", true},
		{"README.md", "README.md", true},
		{"docs/", "docs", true},
		{"a/b/c.txt", "a/b/c.txt", true},
		{"ünïcødé/文件 one.txt", "ünïcødé/文件 one.txt", true},
		{".gitignore", ".gitignore", true},
		{"..", "", false},
		{"../etc/passwd", "", false},
		{"a/../b", "", false},
		{"a/./b", "", false},
		{"./a", "", false},
		{"/etc/passwd", "", false},
		{"a//b", "", false},
		{"docs//", "", false},
		{"a\x00b", "", false},
		{"\xff\xfe", "", false},
	} {
		t.Run(c.in, func(t *testing.T) {
			is := is.New(t)
			out, err := cleanPath(c.in)
			if !c.ok {
				is.True(errors.Is(err, errs.ErrInvalid))
				return
			}
			is.NoErr(err)
			is.Equal(out, c.out)
		})
	}
}
