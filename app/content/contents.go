package content

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// Contents are the use cases of the contents read route: a file,
// directory, link or submodule at a ref.
type Contents struct{ *Service }

// Contents returns the contents use cases.
func (s *Service) Contents() Contents { return Contents{s} }

// MaxBlobContent is the largest file whose bytes the contents and Git blob
// routes include (Gitea's API default); larger files come without content
// and are fetched through the raw route.
const MaxBlobContent = 10 << 20

// cleanPath checks a path given by a user for reading and returns it in the
// form Git trees use: "" and "." are the root and one trailing slash is
// dropped ("docs/" is "docs"), while empty, "." and ".." segments, a leading
// slash, NUL and bytes that are not UTF-8 are refused, so no path ever
// leaves the tree.
func cleanPath(p string) (string, error) {
	if p == "." || p == "/" {
		return "", nil
	}
	p = strings.TrimSuffix(p, "/")
	if p == "" {
		return "", nil
	}
	if !utf8.ValidString(p) {
		return "", errs.Invalid("must be valid UTF-8", "filepath")
	}
	if strings.IndexByte(p, 0) >= 0 {
		return "", errs.Invalid("must not contain NUL characters", "filepath")
	}
	for _, seg := range strings.Split(p, "/") {
		switch seg {
		case "":
			return "", errs.Invalid("must be a relative path without empty segments", "filepath")
		case ".", "..":
			return "", errs.Invalid("must not contain . or .. segments", "filepath")
		}
	}
	return p, nil
}

// Get reads p at ref ("" for the default branch): a file with its
// content (up to MaxBlobContent), a directory with its entries, a symbolic
// link with its target or a submodule with its URL, each with the last
// commit that changed it. The root of an empty repository is an empty
// directory; any other path of it is not found.
func (s Contents) Get(ctx context.Context, a *repos.Access, ref, p string) (ports.GitPathResult, error) {
	p, err := cleanPath(p)
	if err != nil {
		return ports.GitPathResult{}, err
	}
	if a.Repo.Empty {
		if p == "" {
			return ports.GitPathResult{Entry: ports.GitEntry{Type: ports.EntryDir}, Entries: []ports.GitEntry{}}, nil
		}
		return ports.GitPathResult{}, errs.NotFound("file " + p + " does not exist")
	}
	return s.git.ReadPath(ctx, pathOf(a.Repo), ports.GitPathQuery{
		Ref: refOrDefault(a, ref), Path: p, Content: true, MaxContent: MaxBlobContent, List: true, LastCommit: true,
	})
}

// refOrDefault is ref, or the repository's default branch when ref is
// empty, as Gitea reads it (from the repository's record, which saves
// reading HEAD).
func refOrDefault(a *repos.Access, ref string) string {
	if ref == "" {
		return a.Repo.DefaultBranch
	}
	return ref
}
