package http_test

import (
	"context"
	"testing"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/repos"
)

// contentsBenchRepo creates the administrator's repository "files" with
// auto_init (a README.md of a few bytes), as `make bench` reads it.
func contentsBenchRepo(b *testing.B, a benchApp) {
	b.Helper()
	_, err := a.app.Repos.Create(context.Background(), auth.Caller{User: a.admin, Method: auth.MethodToken}, a.admin,
		repos.CreateInput{Name: "files", AutoInit: true, License: "MIT"})
	if err != nil {
		b.Fatal(err)
	}
}

// BenchmarkGetContentsFile is GET R/contents/README.md with a token: the
// repository resolved, the default branch and the path read in one open of
// the Git repository, the last commit answered from the cache after the
// first request, and the file rendered with its base64 content.
func BenchmarkGetContentsFile(b *testing.B) {
	a := newBenchApp(b)
	h := a.repoToken(b)
	contentsBenchRepo(b, a)
	const path = "/api/v1/repos/admin/files/contents/README.md"
	b.Run("handler", func(b *testing.B) { benchHandler(b, a.app.HTTP, path, h) })
	b.Run("loopback", func(b *testing.B) { benchLoopback(b, a.app.HTTP, path, h) })
}

// BenchmarkGetContentsRoot is GET R/contents: the root listed with each
// entry's last commit (cached after the first request).
func BenchmarkGetContentsRoot(b *testing.B) {
	a := newBenchApp(b)
	h := a.repoToken(b)
	contentsBenchRepo(b, a)
	const path = "/api/v1/repos/admin/files/contents"
	b.Run("handler", func(b *testing.B) { benchHandler(b, a.app.HTTP, path, h) })
}

// BenchmarkGetRaw is GET R/raw/{ref}/README.md with a token: the ref split
// off the path, the blob streamed with its sniffed content type.
func BenchmarkGetRaw(b *testing.B) {
	a := newBenchApp(b)
	h := a.repoToken(b)
	contentsBenchRepo(b, a)
	for _, c := range []struct{ name, path string }{
		{"ref-in-path", "/api/v1/repos/admin/files/raw/main/README.md"},
		{"ref-query", "/api/v1/repos/admin/files/raw/README.md?ref=main"},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.Run("handler", func(b *testing.B) { benchHandler(b, a.app.HTTP, c.path, h) })
			b.Run("loopback", func(b *testing.B) { benchLoopback(b, a.app.HTTP, c.path, h) })
		})
	}
}
