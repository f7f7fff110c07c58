package http

import (
	"github.com/depothq/depot/app/issues"
	"github.com/depothq/depot/ports"
)

// Package renders v as the package routes render a version (Gitea's
// Package), its accounts as anybody sees them, its creator as Gitea's
// ghost when the account is gone, and its repository only when the sender
// may read it (v.Repo set), as Gitea's ToPackage shows it.
func (h *HookPayloads) Package(v ports.HookPackage) any {
	owner := h.User(v.Owner).(userDTO)
	creator := v.Creator
	if creator == nil {
		creator = issues.Ghost()
	}
	cr := h.User(creator).(userDTO)
	d := packageDTO{ID: v.Version.ID, Owner: owner, Creator: &cr, Type: string(v.Package.Type),
		Name: v.Package.Name, Version: v.Version.Version, CreatedAt: v.Version.CreatedAt,
		HTMLURL: h.render.packageURL(owner.Username, string(v.Package.Type), v.Package.Name, v.Version.Version)}
	if v.Repo != nil {
		d.Repository = h.RepositoryFor(v.Repo, v.RepoOwner, v.Perm, nil, nil).(*repoDTO)
	}
	return &d
}
