package http

import (
	"net/http"

	"github.com/depothq/depot/domain/hook"
)

// gitHooks serves a repository's Git hook scripts (catalogue 4.5). Their
// rows come before the webhook rows: "git" is no hook id. Their extra rule
// (the site enables Git hooks, the caller is a site admin or allowed to edit
// them) is the access code GitHooks.
type gitHooks struct{ *kernel }

// gitHookRoutes are the rows of gitHooks.
func (s *kernel) gitHookRoutes() []route {
	h := gitHooks{s}
	return []route{
		{"GET", R + "/hooks/git", scopes(catRepo), "T,RA,GitHooks", h.listGitHooks},
		{"GET", R + "/hooks/git/{id}", scopes(catRepo), "T,RA,GitHooks", h.getGitHook},
		{"PATCH", R + "/hooks/git/{id}", scopes(catRepo), "T,RA,GitHooks", h.editGitHook},
		{"DELETE", R + "/hooks/git/{id}", scopes(catRepo), "T,RA,GitHooks", h.deleteGitHook},
	}
}

// writeGitHook answers the Git hook a use case returned, or its error.
func writeGitHook(q *request, h hook.GitHook, err error) error {
	if err != nil {
		return err
	}
	q.json(http.StatusOK, toGitHook(h))
	return nil
}

// listGitHooks answers GET R/hooks/git: pre-receive, update and
// post-receive, each with its script when the repository has one.
func (s gitHooks) listGitHooks(q *request) error {
	list, err := s.hooks.GitHooks().List(q.r.Context(), q.repo.Repo)
	if err != nil {
		return err
	}
	out := make([]gitHookDTO, 0, len(list))
	for _, h := range list {
		out = append(out, toGitHook(h))
	}
	q.json(http.StatusOK, out)
	return nil
}

// getGitHook answers GET R/hooks/git/{id}, the id being the hook's name.
func (s gitHooks) getGitHook(q *request) error {
	h, err := s.hooks.GitHooks().Get(q.r.Context(), q.repo.Repo, q.var_("id"))
	return writeGitHook(q, h, err)
}

// editGitHook answers PATCH R/hooks/git/{id} with the hook: the content
// becomes the script (a blank one removes it).
func (s gitHooks) editGitHook(q *request) error {
	var b editGitHookBody
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	h, err := s.hooks.GitHooks().Edit(q.r.Context(), q.repo.Repo, q.var_("id"), b.Content)
	return writeGitHook(q, h, err)
}

// deleteGitHook answers DELETE R/hooks/git/{id} with 204.
func (s gitHooks) deleteGitHook(q *request) error {
	return noContent(q, s.hooks.GitHooks().Delete(q.r.Context(), q.repo.Repo, q.var_("id")))
}

// gitHookDTO is Gitea's GitHook.
type gitHookDTO struct {
	Name     string `json:"name"`
	IsActive bool   `json:"is_active"`
	Content  string `json:"content,omitempty"`
}

// editGitHookBody is Gitea's EditGitHookOption.
type editGitHookBody struct {
	Content string `json:"content"`
}

func toGitHook(h hook.GitHook) gitHookDTO {
	return gitHookDTO{Name: h.Name, IsActive: h.Active, Content: h.Content}
}
