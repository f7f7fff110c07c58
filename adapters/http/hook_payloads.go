package http

import (
	"strings"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/app/users"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

var _ ports.HookPayloads = (*HookPayloads)(nil)

// HookPayloads renders the repositories and accounts of webhook payloads
// with the API's own renderers, so a payload's records are the ones the API
// answers (ports.HookPayloads). It is built apart from the Server because
// the dispatcher that uses it is built before the Server.
type HookPayloads struct {
	// render is a kernel holding only what toRepo and toUser read: the
	// users service (e-mail visibility) and the base URL.
	render *kernel
}

// NewHookPayloads builds the payload renderers.
func NewHookPayloads(us *users.Service, settings site.Settings) *HookPayloads {
	return &HookPayloads{render: &kernel{users: us, settings: settings,
		baseURL: strings.TrimSuffix(settings.BaseURL, "/")}}
}

// Repository renders r as Gitea's Repository, with the permissions object
// of its owner or of nobody.
func (h *HookPayloads) Repository(r *repository.Repository, owner *user.User, ownerAccess bool) any {
	return h.RepositoryFor(r, owner, ownerPermission(ownerAccess), nil, nil)
}

// RepositoryWithParent renders fork r with its parent, as Gitea's
// payloads show a fork.
func (h *HookPayloads) RepositoryWithParent(r *repository.Repository, owner *user.User, ownerAccess bool,
	parent *repository.Repository, parentOwner *user.User) any {
	return h.RepositoryFor(r, owner, ownerPermission(ownerAccess), parent, parentOwner)
}

// RepositoryFor renders r as Gitea's Repository with perm's permissions
// object, and a fork's parent with none: Gitea shows the parent with the
// fork's permissions, which its own code calls wrong, and Depot has no
// cheaper right answer for it.
func (h *HookPayloads) RepositoryFor(r *repository.Repository, owner *user.User, perm permission.Permission,
	parent *repository.Repository, parentOwner *user.User) any {
	anon := auth.Caller{}
	d := h.render.toRepo(anon, repoView{access: &repos.Access{Repo: r, Perm: perm, Caller: anon}, owner: owner})
	if parent != nil {
		d.Parent = h.RepositoryFor(parent, parentOwner, permission.Permission{}, nil, nil).(*repoDTO)
	}
	return d
}

// ownerPermission is everything for ownerAccess, else nothing.
func ownerPermission(ownerAccess bool) permission.Permission {
	if ownerAccess {
		return permission.Permission{Mode: permission.ModeOwner}
	}
	return permission.Permission{}
}

// payloadViewer is a signed-in account that is nobody in particular: it is
// shown an account's address only when the account does not hide it.
var payloadViewer = auth.Caller{User: &user.User{ID: -1}}

// User renders u as Gitea's User the way its webhooks do: the public
// record, with the placeholder address in place of the e-mail.
func (h *HookPayloads) User(u *user.User) any {
	d := h.render.toUser(auth.Caller{}, u)
	hidden := *u
	hidden.HideEmail = true
	d.Email = h.render.users.ShownEmail(payloadViewer, &hidden)
	return d
}
