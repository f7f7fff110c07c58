package test

import (
	"strings"
	"testing"

	"github.com/matryer/is"
)

// testCLIAdminBadges defines, lists and deletes badges with the admin CLI.
func testCLIAdminBadges(t *testing.T, bin string) {
	is := is.New(t)
	dir := t.TempDir()
	badge := func(args ...string) cliResult {
		return cliRun(t, bin, nil, append([]string{"admin", "badge"}, append(args, "--data-dir", dir)...)...)
	}

	r := badge("create", "--slug", "early-adopter", "--description", "Was here first", "--image-url", "https://example.com/e.png")
	is.Equal(r.code, 0)
	is.True(strings.Contains(r.stdout, "created badge early-adopter"))
	r = badge("create", "--slug", "helper")
	is.Equal(r.code, 0)

	r = badge("create", "--slug", "early-adopter")
	is.True(r.code != 0)
	is.True(strings.Contains(r.stderr, "badge already exists"))
	r = badge("create", "--slug", "has space")
	is.True(r.code != 0)
	is.True(strings.Contains(r.stderr, "invalid badge slug"))
	r = badge("create")
	is.True(r.code != 0)
	is.True(strings.Contains(r.stderr, "--slug is required"))

	r = badge("list")
	is.Equal(r.code, 0)
	is.True(strings.Contains(r.stdout, "early-adopter  Was here first  https://example.com/e.png"))
	is.True(strings.Contains(r.stdout, "helper"))

	r = badge("delete", "--slug", "helper")
	is.Equal(r.code, 0)
	is.True(strings.Contains(r.stdout, "deleted badge helper"))
	r = badge("delete", "--slug", "helper")
	is.True(r.code != 0)
	is.True(strings.Contains(r.stderr, "badge does not exist"))
	r = badge("list")
	is.Equal(r.code, 0)
	is.True(!strings.Contains(r.stdout, "helper"))

	r = badge("frobnicate")
	is.True(r.code != 0)
	is.True(strings.Contains(r.stderr, `unknown admin badge command "frobnicate"`))
}
