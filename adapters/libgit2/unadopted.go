package libgit2

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	git "github.com/libgit2/git2go/v34"

	"github.com/depothq/depot/ports"
)

// RepoDirs lists the <owner>/<name>.git directories under the root. Only
// directories count; entries whose owner or name is not a plain segment
// (dot-directories such as the trash, anything with a separator) are left
// out, so nothing listed can address a path outside the root.
func (s *Storage) RepoDirs(ctx context.Context) ([]ports.RepoPath, error) {
	owners, err := os.ReadDir(s.root)
	if err != nil {
		return nil, fmt.Errorf("libgit2: list repository root: %w", err)
	}
	var out []ports.RepoPath
	for _, o := range owners {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if !o.IsDir() || validSegment(o.Name()) != nil || o.Name() != strings.ToLower(o.Name()) {
			continue
		}
		repos, err := os.ReadDir(filepath.Join(s.root, o.Name()))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		} else if err != nil {
			return nil, fmt.Errorf("libgit2: list owner directory: %w", err)
		}
		for _, r := range repos {
			name, ok := strings.CutSuffix(r.Name(), ".git")
			if !r.IsDir() || !ok || validSegment(name) != nil || name != strings.ToLower(name) {
				continue
			}
			out = append(out, ports.RepoPath{Owner: o.Name(), Name: name})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Owner != out[j].Owner {
			return out[i].Owner < out[j].Owner
		}
		return out[i].Name < out[j].Name
	})
	return out, nil
}

// HeadBranch is the branch HEAD points at, whether or not it exists yet.
func (s *Storage) HeadBranch(ctx context.Context, p ports.RepoPath) (string, error) {
	var branch string
	err := s.withRepo(ctx, p, func(repo *git.Repository) error {
		ref, err := repo.References.Lookup("HEAD")
		if err != nil {
			return fmt.Errorf("libgit2: read HEAD: %w", err)
		}
		defer ref.Free()
		if ref.Type() == git.ReferenceSymbolic {
			branch, _ = strings.CutPrefix(ref.SymbolicTarget(), "refs/heads/")
			if branch == ref.SymbolicTarget() {
				branch = ""
			}
		}
		return nil
	})
	return branch, err
}
