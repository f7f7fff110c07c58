package issues

import (
	"context"
	"errors"
	"path"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/ports"
)

// Templates are the use cases of a repository's issue templates and issue
// config, read from its default branch.
type Templates struct{ *Service }

// Templates returns the issue template use cases.
func (s *Service) Templates() Templates { return Templates{s} }

// templateRev resolves the default branch of a repository to the commit
// templates are read at; ok is false for an empty repository or a missing
// default branch, which have no templates.
func (s Templates) templateRev(ctx context.Context, a *repos.Access) (ports.RepoPath, string, bool, error) {
	p := ports.RepoPath{Owner: a.Repo.Owner.Name, Name: a.Repo.Name}
	if a.Repo.Empty {
		return p, "", false, nil
	}
	rev, err := s.git.Resolve(ctx, p, a.Repo.DefaultBranch)
	if errors.Is(err, errs.ErrNotFound) {
		return p, "", false, nil
	}
	if err != nil {
		return p, "", false, err
	}
	return p, rev.CommitID, true, nil
}

// List parses the issue templates of the default branch's
// template folders, in Gitea's folder order; invalid files are skipped (and
// logged), as Gitea does.
func (s Templates) List(ctx context.Context, a *repos.Access) ([]*issue.Template, error) {
	out := []*issue.Template{}
	p, commit, ok, err := s.templateRev(ctx, a)
	if err != nil || !ok {
		return out, err
	}
	for _, dir := range issue.TemplateDirs {
		res, err := s.git.ReadPath(ctx, p, ports.GitPathQuery{Ref: commit, Path: dir, List: true})
		if errors.Is(err, errs.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if res.Entry.Type != ports.EntryDir {
			continue
		}
		for _, e := range res.Entries {
			if e.Type != ports.EntryFile || issue.TemplateKind(e.Name) == "" {
				continue
			}
			blob, err := s.git.Blob(ctx, p, e.ID, issue.MaxTemplateBytes)
			if err != nil {
				return nil, err
			}
			name := path.Join(dir, e.Name)
			if blob.Content == nil && e.Size > 0 {
				s.log.Debug("issue template too large", "repo", a.Repo.FullName(), "file", name)
				continue
			}
			t, err := issue.ParseTemplate(name, blob.Content)
			if err != nil {
				s.log.Debug("invalid issue template", "repo", a.Repo.FullName(), "file", name, "err", err)
				continue
			}
			out = append(out, t)
		}
	}
	return out, nil
}

// Config reads the issue config of the default branch. A
// broken file gives the default config and the reason it is broken
// (problem, "" for a valid or absent file); err is a failure to read.
func (s Templates) Config(ctx context.Context, a *repos.Access) (c issue.TemplateConfig, problem string, err error) {
	p, commit, ok, err := s.templateRev(ctx, a)
	if err != nil || !ok {
		return issue.DefaultTemplateConfig(), "", err
	}
	for _, base := range issue.TemplateConfigPaths {
		for _, ext := range []string{".yaml", ".yml"} {
			res, err := s.git.ReadPath(ctx, p, ports.GitPathQuery{Ref: commit, Path: base + ext, Content: true,
				MaxContent: issue.MaxTemplateBytes})
			if errors.Is(err, errs.ErrNotFound) {
				continue
			}
			if err != nil {
				return issue.DefaultTemplateConfig(), "", err
			}
			if res.Entry.Type != ports.EntryFile {
				continue
			}
			if res.Entry.Content == nil && res.Entry.Size > 0 {
				return issue.DefaultTemplateConfig(), "config file is too large", nil
			}
			c, bad := issue.ParseTemplateConfig(res.Entry.Content)
			if bad != nil {
				return c, bad.Error(), nil
			}
			return c, "", nil
		}
	}
	return issue.DefaultTemplateConfig(), "", nil
}
