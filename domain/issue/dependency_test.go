package issue

import (
	"errors"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
)

func TestCheckNewDependency(t *testing.T) {
	a, b := &Issue{ID: 1}, &Issue{ID: 2}
	cases := []struct {
		name string
		f    DependencyFacts
		want error
	}{
		{"ok", DependencyFacts{Issue: a, DependsOn: b}, nil},
		{"self", DependencyFacts{Issue: a, DependsOn: a}, errs.ErrInvalid},
		{"twice", DependencyFacts{Issue: a, DependsOn: b, Exists: true}, errs.ErrConflict},
		{"cycle", DependencyFacts{Issue: a, DependsOn: b, Reverse: true}, errs.ErrInvalid},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			err := CheckNewDependency(c.f)
			if c.want == nil {
				is.NoErr(err)
				return
			}
			is.True(errors.Is(err, c.want))
		})
	}
}
