package content

import (
	"context"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// MaxBlobContent is the largest file whose bytes the contents and Git blob
// routes include (Gitea's API default); larger files come without content
// and are fetched through the raw route.
const MaxBlobContent = 10 << 20

// GitTreesPerPage is the default and largest page of the Git trees route,
// as Gitea's setting.
const GitTreesPerPage = 1000

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

// Contents reads p at ref ("" for the default branch): a file with its
// content (up to MaxBlobContent), a directory with its entries, a symbolic
// link with its target or a submodule with its URL, each with the last
// commit that changed it. The root of an empty repository is an empty
// directory; any other path of it is not found.
func (s *Service) Contents(ctx context.Context, a *repos.Access, ref, p string) (ports.GitPathResult, error) {
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

// OpenRaw opens a file or symbolic link for download. With ref set, p is
// the whole path; without, p is "<ref>/<path>" (the ref may contain
// slashes), or a path of the default branch when no leading part of it
// names a ref. Directories and submodules are not found. The reader must be
// closed.
func (s *Service) OpenRaw(ctx context.Context, a *repos.Access, ref, p string) (ports.GitPathResult, io.ReadCloser, error) {
	p, err := cleanPath(p)
	if err != nil {
		return ports.GitPathResult{}, nil, err
	}
	if a.Repo.Empty || p == "" {
		return ports.GitPathResult{}, nil, errs.NotFound("file does not exist")
	}
	return s.git.OpenBlob(ctx, pathOf(a.Repo), ports.GitPathQuery{Ref: refOrDefault(a, ref), RefInPath: ref == "", Path: p})
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

// GitTree lists the tree sha names (a tree or commit id, a branch or tag),
// recursively when asked, one page of perPage entries (GitTreesPerPage when
// out of range). It returns the page and the page number used. A page past
// the end has no entries.
func (s *Service) GitTree(ctx context.Context, a *repos.Access, sha string, recursive bool, page, perPage int) (ports.GitTreePage, int, error) {
	if sha == "" {
		return ports.GitTreePage{}, 0, errs.BadRequest("sha not provided")
	}
	if perPage <= 0 || perPage > GitTreesPerPage {
		perPage = GitTreesPerPage
	}
	page = max(page, 1)
	offset := perPage * (page - 1)
	if offset < 0 || offset/perPage != page-1 {
		// The page number overflows: past any end.
		offset, perPage = 0, 0
	}
	if a.Repo.Empty {
		return ports.GitTreePage{}, page, errs.NotFound("sha not found [" + sha + "]")
	}
	t, err := s.git.Tree(ctx, pathOf(a.Repo), ports.GitTreeQuery{Rev: sha, Recursive: recursive, Offset: offset, Limit: perPage})
	return t, page, err
}

// GitBlob reads the blob sha (a full id); its content is left out when it
// is larger than MaxBlobContent.
func (s *Service) GitBlob(ctx context.Context, a *repos.Access, sha string) (ports.GitBlob, error) {
	if sha == "" {
		return ports.GitBlob{}, errs.BadRequest("sha not provided")
	}
	if a.Repo.Empty {
		return ports.GitBlob{}, errs.NotFound("blob " + sha + " does not exist")
	}
	return s.git.Blob(ctx, pathOf(a.Repo), sha, MaxBlobContent)
}
