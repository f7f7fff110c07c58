package repos

import (
	"context"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

// GenerateInput is Gitea's GenerateRepoOption. Labels, webhooks, Git hooks
// and branch protections are copied once those features exist.
type GenerateInput struct {
	Owner, Name, Description, DefaultBranch string
	Private                                 bool
	GitContent, Topics, Avatar              bool
	GitHooks, Webhooks, Labels              bool
	ProtectedBranch                         bool
}

// errGenerateForOtherUser is Gitea's refusal of a generation into another
// user's account by someone other than a site admin.
var errGenerateForOtherUser = errs.Forbidden("Only admin can generate repository for other user.")

// Generate creates a repository from the template a.
func (s *Service) Generate(ctx context.Context, a *Access, in GenerateInput) (*repository.Repository, error) {
	tpl := a.Repo
	if !tpl.Template {
		return nil, errs.Invalid("this is not a template repo", "template")
	}
	if !(in.GitContent || in.Topics || in.Avatar || in.GitHooks || in.Webhooks || in.Labels || in.ProtectedBranch) {
		return nil, errs.Invalid("must select at least one template item", "git_content")
	}
	if in.Owner == "" {
		return nil, errs.Invalid("Required", "Owner")
	}
	owner, err := s.targetOwner(ctx, a.Caller, in.Owner, "Owner", errGenerateForOtherUser)
	if err != nil {
		return nil, err
	}
	if err := validateNew("Name", in.Name, in.Description); err != nil {
		return nil, err
	}
	branch := tpl.DefaultBranch
	if in.DefaultBranch != "" {
		if err := repository.ValidateBranchName("DefaultBranch", in.DefaultBranch); err != nil {
			return nil, err
		}
		branch = in.DefaultBranch
	}
	if err := s.checkRepoLimit(ctx, owner); err != nil {
		return nil, err
	}
	r := s.newRepository(owner, in.Name, in.Description, in.Private)
	r.Empty, r.DefaultBranch, r.ObjectFormat = !in.GitContent || tpl.Empty, branch, tpl.ObjectFormat
	r.Units, r.Tracker, r.Merge = append([]permission.Unit(nil), tpl.Units...), tpl.Tracker, tpl.Merge
	if in.Topics {
		r.Topics = append([]string(nil), tpl.Topics...)
	}
	if in.Avatar && tpl.Avatar != "" {
		img, err := s.avatars.Open(ctx, tpl.Avatar)
		if err == nil {
			r.Avatar, err = s.avatars.Put(ctx, "avatar", "repo-"+r.LowerName+"-"+owner.LowerName, img)
		}
		if err != nil {
			return nil, err
		}
	}
	return s.createRepository(ctx, r, a.Caller.UserID(), func(p ports.RepoPath) error {
		if !in.GitContent || tpl.Empty {
			return s.git.Init(ctx, p, branch)
		}
		sig := s.signature(a.Caller.User)
		return s.git.Generate(ctx, pathOf(tpl), tpl.DefaultBranch, p, ports.GitCommit{
			Branch: branch, Message: "Initial commit", Author: sig, Committer: sig,
		})
	})
}
