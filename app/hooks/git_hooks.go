package hooks

import (
	"context"

	"github.com/depothq/depot/domain/hook"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

// The Git hook use cases manage a repository's own scripts for the hooks
// of hook.GitHookNames. The scripts live beside the bare repository (the
// ports.GitHookScripts adapter), and Depot's push hooks run them after their
// own logic, so a custom pre-receive can refuse a push and a custom
// post-receive can print to the pusher. Only site admins and accounts
// allowed to edit Git hooks may use them, and only when the site enables
// them: the route rows' codes T, RA and GitHooks say so, and the HTTP API is
// the only path to these use cases.

// GitHooks are the use cases of a repository's Git hook scripts.
type GitHooks struct{ *Service }

// GitHooks returns the Git hook use cases.
func (s *Service) GitHooks() GitHooks { return GitHooks{s} }

func gitPath(r *repository.Repository) ports.RepoPath {
	return ports.RepoPath{Owner: r.Owner.Name, Name: r.Name}
}

// List returns every Git hook of r, in GitHookNames order, with its
// script when r has one.
func (s GitHooks) List(ctx context.Context, r *repository.Repository) ([]hook.GitHook, error) {
	out := make([]hook.GitHook, 0, len(hook.GitHookNames))
	for _, name := range hook.GitHookNames {
		h, err := s.read(ctx, r, name)
		if err != nil {
			return nil, err
		}
		out = append(out, h)
	}
	return out, nil
}

// Get returns r's Git hook name; a name outside GitHookNames is 404.
func (s GitHooks) Get(ctx context.Context, r *repository.Repository, name string) (hook.GitHook, error) {
	if err := hook.CheckGitHookName(name); err != nil {
		return hook.GitHook{}, err
	}
	return s.read(ctx, r, name)
}

// Edit sets r's script for hook name. A blank script removes it, as
// in Gitea, and the hook answers inactive.
func (s GitHooks) Edit(ctx context.Context, r *repository.Repository, name, content string) (hook.GitHook, error) {
	if err := hook.CheckGitHookName(name); err != nil {
		return hook.GitHook{}, err
	}
	script, ok := hook.NormalizeScript(content)
	if !ok {
		if err := s.scripts.Remove(ctx, gitPath(r), name); err != nil {
			return hook.GitHook{}, err
		}
		return hook.GitHook{Name: name}, nil
	}
	if err := s.scripts.Write(ctx, gitPath(r), name, script); err != nil {
		return hook.GitHook{}, err
	}
	return hook.GitHook{Name: name, Active: true, Content: script}, nil
}

// Delete removes r's script for hook name; having none is fine.
func (s GitHooks) Delete(ctx context.Context, r *repository.Repository, name string) error {
	if err := hook.CheckGitHookName(name); err != nil {
		return err
	}
	return s.scripts.Remove(ctx, gitPath(r), name)
}

func (s GitHooks) read(ctx context.Context, r *repository.Repository, name string) (hook.GitHook, error) {
	content, ok, err := s.scripts.Read(ctx, gitPath(r), name)
	if err != nil {
		return hook.GitHook{}, err
	}
	return hook.GitHook{Name: name, Active: ok, Content: content}, nil
}
