package http

import (
	"net/http"

	"github.com/depothq/depot/app/hooks"
	"github.com/depothq/depot/domain/hook"
)

// hookRoutes are the repository, user, admin and Git hook routes (catalogue
// 4.4, 4.5, 4.9; organisation hooks come with organisations). The Git hook
// rows come first: "git" is no hook id. Their extra rule (the site enables
// Git hooks, the caller is a site admin or allowed to edit them) is the use
// case's, since it is no access code.
func (s *kernel) hookRoutes() []route {
	return []route{
		{"GET", R + "/hooks/git", scopes(catRepo), "T,RA,GitHooks", s.listGitHooks},
		{"GET", R + "/hooks/git/{id}", scopes(catRepo), "T,RA,GitHooks", s.getGitHook},
		{"PATCH", R + "/hooks/git/{id}", scopes(catRepo), "T,RA,GitHooks", s.editGitHook},
		{"DELETE", R + "/hooks/git/{id}", scopes(catRepo), "T,RA,GitHooks", s.deleteGitHook},

		{"GET", R + "/hooks", scopes(catRepo), "T,RA,WH", s.listRepoHooks},
		{"POST", R + "/hooks", scopes(catRepo), "T,RA,WH", s.createRepoHook},
		{"GET", R + "/hooks/{id}", scopes(catRepo), "T,RA,WH", s.getRepoHook},
		{"PATCH", R + "/hooks/{id}", scopes(catRepo), "T,RA,WH", s.editRepoHook},
		{"DELETE", R + "/hooks/{id}", scopes(catRepo), "T,RA,WH", s.deleteRepoHook},

		{"GET", "/user/hooks", scopes(catUser), "T,WH", s.listMyHooks},
		{"POST", "/user/hooks", scopes(catUser), "T,WH", s.createMyHook},
		{"GET", "/user/hooks/{id}", scopes(catUser), "T,WH", s.getMyHook},
		{"PATCH", "/user/hooks/{id}", scopes(catUser), "T,WH", s.editMyHook},
		{"DELETE", "/user/hooks/{id}", scopes(catUser), "T,WH", s.deleteMyHook},

		{"GET", "/admin/hooks", scopes(catAdmin), "T,SA", s.adminListHooks},
		{"POST", "/admin/hooks", scopes(catAdmin), "T,SA", s.adminCreateHook},
		{"GET", "/admin/hooks/{id}", scopes(catAdmin), "T,SA", s.adminGetHook},
		{"PATCH", "/admin/hooks/{id}", scopes(catAdmin), "T,SA", s.adminEditHook},
		{"DELETE", "/admin/hooks/{id}", scopes(catAdmin), "T,SA", s.adminDeleteHook},
	}
}

func repoHooks(q *request) hook.Scope { return hook.RepoScope(q.repo.Repo.ID) }
func myHooks(q *request) hook.Scope   { return hook.OwnerScope(q.caller.UserID()) }

// writeHookList answers one page of the scope's hooks with paging headers.
func (s *kernel) writeHookList(q *request, scope hook.Scope) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	list, total, err := s.hooks.List(q.r.Context(), scope, opts)
	if err != nil {
		return err
	}
	s.setPaging(q.w, q.r, opts, total)
	q.json(http.StatusOK, toHooks(list))
	return nil
}

// writeHook answers the hook a use case returned, or its error.
func writeHook(q *request, status int, h *hook.Hook, err error) error {
	if err != nil {
		return err
	}
	q.json(status, toHook(h))
	return nil
}

// writeGitHook answers the Git hook a use case returned, or its error.
func writeGitHook(q *request, h hook.GitHook, err error) error {
	if err != nil {
		return err
	}
	q.json(http.StatusOK, toGitHook(h))
	return nil
}

// createHook creates a hook from the body in the scope pick chooses for it
// (the admin route reads the scope from the body).
func (s *kernel) createHook(q *request, pick func(createHookBody) (hook.Scope, error)) error {
	var b createHookBody
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	scope, err := pick(b)
	if err != nil {
		return err
	}
	h, err := s.hooks.Create(q.r.Context(), scope, b.options())
	return writeHook(q, http.StatusCreated, h, err)
}

// fixedScope is createHook's pick for routes whose scope is the route's own.
func fixedScope(scope hook.Scope) func(createHookBody) (hook.Scope, error) {
	return func(createHookBody) (hook.Scope, error) { return scope, nil }
}

func (s *kernel) getHook(q *request, scope hook.Scope) error {
	id, err := pathID(q, "id")
	if err != nil {
		return err
	}
	h, err := s.hooks.Get(q.r.Context(), scope, id)
	return writeHook(q, http.StatusOK, h, err)
}

// editHookRequest reads PATCH …/hooks/{id}: the id and the body.
func editHookRequest(q *request) (int64, editHookBody, error) {
	var b editHookBody
	id, err := pathID(q, "id")
	if err != nil {
		return 0, b, err
	}
	if err := decodeJSON(q.r, &b); err != nil {
		return 0, b, err
	}
	return id, b, nil
}

func (s *kernel) editHook(q *request, scope hook.Scope) error {
	id, b, err := editHookRequest(q)
	if err != nil {
		return err
	}
	h, err := s.hooks.Edit(q.r.Context(), scope, id, b.options())
	return writeHook(q, http.StatusOK, h, err)
}

func (s *kernel) deleteHook(q *request, scope hook.Scope) error {
	id, err := pathID(q, "id")
	if err != nil {
		return err
	}
	return noContent(q, s.hooks.Delete(q.r.Context(), scope, id))
}

// listRepoHooks answers GET R/hooks.
func (s *kernel) listRepoHooks(q *request) error { return s.writeHookList(q, repoHooks(q)) }

// createRepoHook answers POST R/hooks with 201 and the hook.
func (s *kernel) createRepoHook(q *request) error { return s.createHook(q, fixedScope(repoHooks(q))) }

// getRepoHook answers GET R/hooks/{id}.
func (s *kernel) getRepoHook(q *request) error { return s.getHook(q, repoHooks(q)) }

// editRepoHook answers PATCH R/hooks/{id} with the hook.
func (s *kernel) editRepoHook(q *request) error { return s.editHook(q, repoHooks(q)) }

// deleteRepoHook answers DELETE R/hooks/{id} with 204.
func (s *kernel) deleteRepoHook(q *request) error { return s.deleteHook(q, repoHooks(q)) }

// listMyHooks answers GET /user/hooks: the caller's own hooks, which hear
// about every repository the caller owns.
func (s *kernel) listMyHooks(q *request) error { return s.writeHookList(q, myHooks(q)) }

// createMyHook answers POST /user/hooks with 201 and the hook.
func (s *kernel) createMyHook(q *request) error { return s.createHook(q, fixedScope(myHooks(q))) }

// getMyHook answers GET /user/hooks/{id}; another account's hook is 404.
func (s *kernel) getMyHook(q *request) error { return s.getHook(q, myHooks(q)) }

// editMyHook answers PATCH /user/hooks/{id} with the hook.
func (s *kernel) editMyHook(q *request) error { return s.editHook(q, myHooks(q)) }

// deleteMyHook answers DELETE /user/hooks/{id} with 204.
func (s *kernel) deleteMyHook(q *request) error { return s.deleteHook(q, myHooks(q)) }

// adminListHooks answers GET /admin/hooks?type=system|default|all: the
// site's system hooks by default, as in Gitea (an unknown type too).
func (s *kernel) adminListHooks(q *request) error {
	scope := hook.SystemScope()
	switch q.r.URL.Query().Get("type") {
	case "default":
		scope = hook.DefaultScope()
	case "all":
		scope = hook.AdminScope()
	}
	return s.writeHookList(q, scope)
}

// adminCreateHook answers POST /admin/hooks with 201: a system hook when
// is_system_webhook says so (in the body, or as Gitea 1.2x reads it, in
// config), otherwise a default hook, copied into every new repository.
func (s *kernel) adminCreateHook(q *request) error {
	return s.createHook(q, func(b createHookBody) (hook.Scope, error) {
		system, err := hook.SystemFlag(b.IsSystemWebhook, b.Config)
		if err != nil || !system {
			return hook.DefaultScope(), err
		}
		return hook.SystemScope(), nil
	})
}

// adminGetHook answers GET /admin/hooks/{id}: a system or default hook.
func (s *kernel) adminGetHook(q *request) error { return s.getHook(q, hook.AdminScope()) }

// adminEditHook answers PATCH /admin/hooks/{id}; is_system_webhook moves
// the hook between the two kinds.
func (s *kernel) adminEditHook(q *request) error {
	id, b, err := editHookRequest(q)
	if err != nil {
		return err
	}
	h, err := s.hooks.EditAdmin(q.r.Context(), id, hooks.AdminEditOptions{EditOptions: b.options(), IsSystem: b.IsSystemWebhook})
	return writeHook(q, http.StatusOK, h, err)
}

// adminDeleteHook answers DELETE /admin/hooks/{id} with 204.
func (s *kernel) adminDeleteHook(q *request) error { return s.deleteHook(q, hook.AdminScope()) }

// listGitHooks answers GET R/hooks/git: pre-receive, update and
// post-receive, each with its script when the repository has one.
func (s *kernel) listGitHooks(q *request) error {
	list, err := s.hooks.ListGitHooks(q.r.Context(), q.repo.Repo)
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
func (s *kernel) getGitHook(q *request) error {
	h, err := s.hooks.GetGitHook(q.r.Context(), q.repo.Repo, q.var_("id"))
	return writeGitHook(q, h, err)
}

// editGitHook answers PATCH R/hooks/git/{id} with the hook: the content
// becomes the script (a blank one removes it).
func (s *kernel) editGitHook(q *request) error {
	var b editGitHookBody
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	h, err := s.hooks.EditGitHook(q.r.Context(), q.repo.Repo, q.var_("id"), b.Content)
	return writeGitHook(q, h, err)
}

// deleteGitHook answers DELETE R/hooks/git/{id} with 204.
func (s *kernel) deleteGitHook(q *request) error {
	return noContent(q, s.hooks.DeleteGitHook(q.r.Context(), q.repo.Repo, q.var_("id")))
}
