package http

import (
	"net/http"

	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
)

// repoCollaborators serves the collaborators of repositories (catalogue 4.5).
type repoCollaborators struct{ *kernel }

// repoCollaboratorRoutes are the rows of repoCollaborators.
func (s *kernel) repoCollaboratorRoutes() []route {
	h := repoCollaborators{s}
	return []route{
		{"GET", R + "/collaborators", scopes(catRepo), "T,AR", h.listCollaborators},
		{"GET", R + "/collaborators/{collaborator}", scopes(catRepo), "T,AR", h.checkCollaborator},
		{"PUT", R + "/collaborators/{collaborator}", scopes(catRepo), "T,RA,NA", h.addCollaborator},
		{"DELETE", R + "/collaborators/{collaborator}", scopes(catRepo), "T,RA,NA", h.removeCollaborator},
		{"GET", R + "/collaborators/{collaborator}/permission", scopes(catRepo), "T", h.collaboratorPermission},
	}
}

// listCollaborators answers GET R/collaborators.
func (s repoCollaborators) listCollaborators(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	list, total, err := s.repos.Collaborators().List(q.r.Context(), q.repo, opts)
	if err != nil {
		return err
	}
	users := make([]*user.User, len(list))
	for i, c := range list {
		users[i] = c.User
	}
	s.writeUserList(q, users, total)
	return nil
}

// checkCollaborator answers GET R/collaborators/{collaborator}: 204, 404, or 422 for an unknown user.
func (s repoCollaborators) checkCollaborator(q *request) error {
	return noContent(q, s.repos.Collaborators().Check(q.r.Context(), q.repo, q.var_("collaborator")))
}

// addCollaborator answers PUT R/collaborators/{collaborator}.
func (s repoCollaborators) addCollaborator(q *request) error {
	var b struct {
		Permission *string `json:"permission"`
	}
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	p := ""
	if b.Permission != nil {
		p = *b.Permission
	}
	mode, err := repository.ParseCollaboratorMode("Permission", p)
	if err != nil {
		return err
	}
	return noContent(q, s.repos.Collaborators().Add(q.r.Context(), q.repo, q.var_("collaborator"), mode))
}

// removeCollaborator answers DELETE R/collaborators/{collaborator}.
func (s repoCollaborators) removeCollaborator(q *request) error {
	return noContent(q, s.repos.Collaborators().Remove(q.r.Context(), q.repo, q.var_("collaborator")))
}

// collaboratorPermission answers GET R/collaborators/{collaborator}/permission.
func (s repoCollaborators) collaboratorPermission(q *request) error {
	cp, err := s.repos.Collaborators().Permission(q.r.Context(), q.repo, q.var_("collaborator"))
	if err != nil {
		return err
	}
	mode := cp.Perm.Mode
	if mode == permission.ModeOwner {
		mode = permission.ModeAdmin
	}
	q.json(http.StatusOK, collaboratorPermissionDTO{Permission: mode.String(), RoleName: mode.String(), User: s.toUser(q.caller, cp.User)})
	return nil
}

// collaboratorPermissionDTO is Gitea's RepoCollaboratorPermission.
type collaboratorPermissionDTO struct {
	Permission string  `json:"permission"`
	RoleName   string  `json:"role_name"`
	User       userDTO `json:"user"`
}
