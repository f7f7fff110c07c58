package libgit2

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
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

// HeadBranch is the branch HEAD points at when it exists or no branch
// does, else the first branch by name.
func (s *Storage) HeadBranch(ctx context.Context, p ports.RepoPath) (string, error) {
	var branch string
	err := s.withRepo(ctx, p, func(repo *git.Repository) error {
		ref, err := repo.References.Lookup("HEAD")
		if err != nil {
			return fmt.Errorf("libgit2: read HEAD: %w", err)
		}
		if ref.Type() == git.ReferenceSymbolic {
			if b, ok := strings.CutPrefix(ref.SymbolicTarget(), "refs/heads/"); ok {
				branch = b
			}
		}
		ref.Free()
		names, err := localBranchNames(repo)
		if err != nil || len(names) == 0 || slices.Contains(names, branch) {
			return err
		}
		branch = slices.Min(names)
		return nil
	})
	return branch, err
}

// localBranchNames lists repo's branches.
func localBranchNames(repo *git.Repository) ([]string, error) {
	it, err := repo.NewBranchIterator(git.BranchLocal)
	if err != nil {
		return nil, fmt.Errorf("libgit2: list branches: %w", err)
	}
	defer it.Free()
	var names []string
	err = it.ForEach(func(b *git.Branch, _ git.BranchType) error {
		name, err := b.Name()
		if err == nil {
			names = append(names, name)
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("libgit2: list branches: %w", err)
	}
	return names, nil
}
