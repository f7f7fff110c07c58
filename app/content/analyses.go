package content

import (
	"context"
	"errors"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
)

// Analyses are the use cases that read a repository's files for what they
// say: languages, licences and editorconfig properties.
type Analyses struct{ *Service }

// Analyses returns the analysis use cases.
func (s *Service) Analyses() Analyses { return Analyses{s} }

// Languages returns the bytes per language on the default branch. As in
// Gitea, a repository without commits (or whose default branch is missing)
// has no languages rather than an error.
func (s Analyses) Languages(ctx context.Context, a *repos.Access) (map[string]int64, error) {
	if a.Repo.Empty {
		return map[string]int64{}, nil
	}
	langs, err := s.git.Languages(ctx, pathOf(a.Repo), a.Repo.DefaultBranch)
	if errors.Is(err, errs.ErrNotFound) {
		return map[string]int64{}, nil
	}
	return langs, err
}

// Licenses returns the SPDX ids of the licence files at the root of the
// default branch; none (not an error) for a repository without commits.
func (s Analyses) Licenses(ctx context.Context, a *repos.Access) ([]string, error) {
	if a.Repo.Empty {
		return []string{}, nil
	}
	ids, err := s.git.Licenses(ctx, pathOf(a.Repo), a.Repo.DefaultBranch)
	if errors.Is(err, errs.ErrNotFound) {
		return []string{}, nil
	}
	return ids, err
}

// EditorConfig returns the editorconfig properties of filename from the root
// .editorconfig of ref (the default branch when empty). No commits, no
// .editorconfig or an absent ref: not found.
func (s Analyses) EditorConfig(ctx context.Context, a *repos.Access, ref, filename string) (map[string]string, error) {
	if a.Repo.Empty {
		return nil, errs.NotFound("the repository is empty")
	}
	if ref == "" {
		ref = a.Repo.DefaultBranch
	}
	return s.git.EditorConfig(ctx, pathOf(a.Repo), ref, filename)
}
