package http

import (
	"net/http"

	"github.com/depothq/depot/app/users"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/user"
)

// adminUsers serves a site admin's administration of accounts (catalogue 4.9).
type adminUsers struct{ *kernel }

// adminUserRoutes are the rows of adminUsers.
func (s *kernel) adminUserRoutes() []route {
	h := adminUsers{s}
	return []route{
		{"GET", "/admin/users", scopes(catAdmin), "T,SA", h.adminListUsers},
		{"POST", "/admin/users", scopes(catAdmin), "T,SA", h.adminCreateUser},
		{"PATCH", "/admin/users/{username}", scopes(catAdmin), "T,SA", h.adminEditUser},
		{"DELETE", "/admin/users/{username}", scopes(catAdmin), "T,SA", h.adminDeleteUser},
		{"POST", "/admin/users/{username}/rename", scopes(catAdmin), "T,SA", h.adminRenameUser},
	}
}

// createUserBody is Gitea's CreateUserOption.
type createUserBody struct {
	Username           string  `json:"username"`
	FullName           string  `json:"full_name"`
	Email              string  `json:"email"`
	Password           string  `json:"password"`
	MustChangePassword *bool   `json:"must_change_password"`
	Visibility         *string `json:"visibility"`
	LoginName          string  `json:"login_name"`
	SourceID           int64   `json:"source_id"`
	SendNotify         bool    `json:"send_notify"`
}

// adminCreateUser answers POST /admin/users.
func (s adminUsers) adminCreateUser(q *request) error {
	var b createUserBody
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	if b.SourceID != 0 {
		return errs.Invalid("only local accounts (source_id 0) are supported", "SourceID")
	}
	in := users.CreateInput{Name: b.Username, Email: b.Email, Password: b.Password, FullName: b.FullName,
		MustChangePassword: b.MustChangePassword}
	if b.Visibility != nil && *b.Visibility != "" {
		v := user.Visibility(*b.Visibility)
		in.Visibility = &v
	}
	u, err := s.users.Admin().Create(q.r.Context(), in)
	if err != nil {
		return err
	}
	q.json(http.StatusCreated, s.toUser(q.caller, u))
	return nil
}

// editUserBody is Gitea's EditUserOption.
type editUserBody struct {
	Email                   *string `json:"email"`
	FullName                *string `json:"full_name"`
	Password                *string `json:"password"`
	Description             *string `json:"description"`
	MustChangePassword      *bool   `json:"must_change_password"`
	Website                 *string `json:"website"`
	Location                *string `json:"location"`
	Active                  *bool   `json:"active"`
	Admin                   *bool   `json:"admin"`
	AllowGitHook            *bool   `json:"allow_git_hook"`
	AllowImportLocal        *bool   `json:"allow_import_local"`
	MaxRepoCreation         *int    `json:"max_repo_creation"`
	ProhibitLogin           *bool   `json:"prohibit_login"`
	AllowCreateOrganization *bool   `json:"allow_create_organization"`
	Restricted              *bool   `json:"restricted"`
	Visibility              *string `json:"visibility"`
	SourceID                int64   `json:"source_id"`
	LoginName               string  `json:"login_name"`
}

// adminEditUser answers PATCH /admin/users/{username}.
func (s adminUsers) adminEditUser(q *request) error {
	var b editUserBody
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	in := users.EditInput{Email: b.Email, FullName: b.FullName, Password: b.Password, Description: b.Description,
		Website: b.Website, Location: b.Location, MustChangePassword: b.MustChangePassword, Active: b.Active,
		Admin: b.Admin, AllowGitHook: b.AllowGitHook, AllowImportLocal: b.AllowImportLocal,
		ProhibitLogin: b.ProhibitLogin, AllowCreateOrganization: b.AllowCreateOrganization,
		Restricted: b.Restricted, MaxRepoCreation: b.MaxRepoCreation}
	if b.Visibility != nil && *b.Visibility != "" {
		v := user.Visibility(*b.Visibility)
		in.Visibility = &v
	}
	u, err := s.users.Admin().Edit(q.r.Context(), q.subject.Name, in)
	if err != nil {
		return err
	}
	q.json(http.StatusOK, s.toUser(q.caller, u))
	return nil
}

// adminDeleteUser answers DELETE /admin/users/{username}.
func (s adminUsers) adminDeleteUser(q *request) error {
	if err := s.users.Admin().Delete(q.r.Context(), q.caller.User.ID, q.subject.Name); err != nil {
		return err
	}
	q.w.WriteHeader(http.StatusNoContent)
	return nil
}

// renameBody is Gitea's RenameUserOption.
type renameBody struct {
	NewName string `json:"new_username"`
}

// adminRenameUser answers POST /admin/users/{username}/rename.
func (s adminUsers) adminRenameUser(q *request) error {
	var b renameBody
	if err := decodeJSON(q.r, &b); err != nil {
		return err
	}
	if err := s.users.Admin().Rename(q.r.Context(), q.subject.Name, b.NewName); err != nil {
		return err
	}
	q.w.WriteHeader(http.StatusNoContent)
	return nil
}

// adminListUsers answers GET /admin/users.
func (s adminUsers) adminListUsers(q *request) error {
	opts, err := s.listOptions(q.r)
	if err != nil {
		return err
	}
	list, total, err := s.users.Admin().List(q.r.Context(), users.AdminListQuery{
		LoginName: q.r.URL.Query().Get("login_name"), ListOptions: opts})
	if err != nil {
		return err
	}
	s.setPaging(q.w, q.r, opts, total)
	q.json(http.StatusOK, s.toUsers(q.caller, list))
	return nil
}
