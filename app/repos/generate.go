package repos

import (
	"context"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/hook"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

// GenerateInput is Gitea's GenerateRepoOption. Git hooks and branch
// protections are not copied yet.
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
	copies := []copier{copyTemplateRows(tpl.ID, in.Labels, in.Webhooks && a.Perm.IsAdmin())}
	gitHooks := in.GitHooks && a.Perm.IsAdmin() && s.mayEditGitHooks(a.Caller)
	return s.createRepository(ctx, r, a.Caller.UserID(), func(p ports.RepoPath) error {
		var err error
		if !in.GitContent || tpl.Empty {
			err = s.git.Init(ctx, p, branch)
		} else {
			sig := s.signature(a.Caller.User)
			err = s.git.Generate(ctx, pathOf(tpl), tpl.DefaultBranch, p, ports.GitCommit{
				Branch: branch, Message: "Initial commit", Author: sig, Committer: sig,
			})
		}
		if err != nil || !gitHooks {
			return err
		}
		return s.copyGitHooks(ctx, pathOf(tpl), p)
	}, copies...)
}

// mayEditGitHooks reports whether c may edit Git hook scripts: only then
// does a generation copy the template's (they run code on the server, and
// reading them is the Git hook routes' privilege too).
func (s *Service) mayEditGitHooks(c auth.Caller) bool {
	allowed := c.User != nil && c.User.AllowGitHook
	return hook.CanEditGitHooks(s.settings.EnableGitHooks, c.IsAdmin(), allowed) == nil
}

// copyGitHooks copies template from's Git hook scripts into the new
// repository to, inside its creation (a failure undoes the repository).
func (s *Service) copyGitHooks(ctx context.Context, from, to ports.RepoPath) error {
	for _, name := range hook.GitHookNames {
		script, ok, err := s.scripts.Read(ctx, from, name)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		if err := s.scripts.Write(ctx, to, name, script); err != nil {
			return err
		}
	}
	return nil
}

// copier writes, in a new repository's creation transaction (after its row
// and its copies of the default hooks, before its creation event), what
// the way it is created copies into it, and may ask the event for more.
type copier func(ctx context.Context, tx ports.Stores, e *ports.RepoEvent) error

// copyTemplateRows copies template tplID's labels and webhooks as asked.
// The webhooks carry the template's secrets and delivery addresses (a chat
// hook's URL is itself a credential), so they are copied only for a caller
// who may administer the template (and list its hooks); for anyone else
// webhooks:true copies none, as if not asked. The hooks are copied by the
// creation event, which alone can open and seal their secrets.
func copyTemplateRows(tplID int64, labels, webhooks bool) copier {
	return func(ctx context.Context, tx ports.Stores, e *ports.RepoEvent) error {
		if labels {
			if err := tx.Labels.CopyRepoLabels(ctx, tplID, e.Repo.ID, e.Repo.Created); err != nil {
				return err
			}
		}
		if webhooks {
			e.HooksFrom = tplID
		}
		return nil
	}
}
