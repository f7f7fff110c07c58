package security_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/adapters/security"
)

func TestTokenSecretShape(t *testing.T) {
	is := is.New(t)
	re := regexp.MustCompile(`^[0-9a-f]{40}$`)
	g := security.NewRandomSecrets()
	seen := map[string]bool{}
	for range 1000 {
		s, err := g.TokenSecret()
		is.NoErr(err)
		is.True(re.MatchString(s))
		is.True(!seen[s])
		seen[s] = true
	}
}

func TestSaltShape(t *testing.T) {
	is := is.New(t)
	re := regexp.MustCompile(`^[0-9a-f]{32}$`)
	g := security.NewRandomSecrets()
	a, err := g.Salt()
	is.NoErr(err)
	b, err := g.Salt()
	is.NoErr(err)
	is.True(re.MatchString(a))
	is.True(a != b)
}

func TestPasswordShape(t *testing.T) {
	is := is.New(t)
	g := security.NewRandomSecrets()
	seen := map[string]bool{}
	used := map[rune]bool{}
	for range 1000 {
		p, err := g.Password()
		is.NoErr(err)
		is.Equal(len(p), 20)
		is.True(!strings.ContainsAny(p, "0Oo1lI")) // no look-alikes
		for _, r := range p {
			is.True(r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '2' && r <= '9'))
			used[r] = true
		}
		is.True(!seen[p])
		seen[p] = true
	}
	// 20,000 draws over 56 letters: every letter should have shown up.
	is.Equal(len(used), 56)
}
