package ports

import (
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
)

// HookPayloads renders the records webhook payloads embed (Gitea's
// Repository and User) in the REST API's JSON shapes, so that a payload shows
// a repository or an account exactly as the API does. The values it returns
// are meant for encoding/json and are otherwise opaque.
type HookPayloads interface {
	// Repository renders r, owned by owner. With ownerAccess the permissions
	// object grants everything (Gitea renders push and delete events'
	// repository as its owner sees it); without, it grants nothing.
	Repository(r *repository.Repository, owner *user.User, ownerAccess bool) any
	// User renders an account as payloads show it: as an anonymous caller
	// sees it, with Gitea's placeholder e-mail address.
	User(u *user.User) any
}
