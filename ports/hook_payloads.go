package ports

import (
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/org"
	"github.com/depothq/depot/domain/packages"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/pull"
	"github.com/depothq/depot/domain/release"
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
	// RepositoryWithParent renders fork r as Repository does, with the
	// repository it was forked from (owned by parentOwner) as its parent,
	// shown with no permissions.
	RepositoryWithParent(r *repository.Repository, owner *user.User, ownerAccess bool,
		parent *repository.Repository, parentOwner *user.User) any
	// RepositoryFor renders r, owned by owner, with perm as its permissions
	// object (Gitea's issue payloads show the sender's access); a fork's
	// parent (owned by parentOwner), when not nil, is shown with no
	// permissions.
	RepositoryFor(r *repository.Repository, owner *user.User, perm permission.Permission,
		parent *repository.Repository, parentOwner *user.User) any
	// User renders an account as payloads show it: as an anonymous caller
	// sees it, with Gitea's placeholder e-mail address.
	User(u *user.User) any
	// Issue renders an issue (or a pull request's issue half) as the API's
	// Issue.
	Issue(v HookIssue) any
	// Comment renders a comment of issue v.Issue as the API's Comment.
	Comment(c HookComment) any
	// PullRequest renders a pull request as the API's PullRequest.
	PullRequest(v HookPull) any
	// Release renders a release as the API's Release.
	Release(v HookRelease) any
	// Package renders a package version as the API's Package.
	Package(v HookPackage) any
}

// HookRelease is a release and the records its JSON shows.
type HookRelease struct {
	Release *release.Release
	// Repo is the release's repository (its owner's name is in Repo.Owner).
	Repo *repository.Repository
	// Publisher is nil when the account is gone (Gitea's ghost stands in).
	Publisher *user.User
	Assets    []*release.Asset
}

// HookIssue is an issue and every record its JSON shows, loaded by the
// dispatcher in the event's transaction (the renderer does no I/O).
type HookIssue struct {
	Issue *issue.Issue
	// Repo is the issue's repository (its owner's name is in Repo.Owner).
	Repo      *repository.Repository
	Poster    *user.User
	Labels    []*issue.Label
	Milestone *issue.Milestone
	Assignees []*user.User
}

// HookComment is a comment and the records its JSON shows.
type HookComment struct {
	Comment     *issue.Comment
	Issue       *issue.Issue
	Repo        *repository.Repository
	Poster      *user.User
	Attachments []*issue.Attachment
}

// HookPull is a pull request and every record its JSON shows beyond its
// issue half, loaded by the dispatcher in the event's transaction.
type HookPull struct {
	HookIssue
	Pull *pull.PullRequest
	// BaseRepo is the base repository as rendered by this port (Repository
	// or RepositoryFor), shown as the base's repo.
	BaseRepo any
	// Head is the head repository (nil once deleted); HeadRepo its
	// rendering when it is not the base (a fork), nil otherwise.
	Head     *repository.Repository
	HeadRepo any
	// BaseCommitID is the base branch's tip ("" when the branch is gone).
	BaseCommitID string
	// MergedBy is who merged it; nil while unmerged.
	MergedBy *user.User
	// RequestedReviewers and RequestedTeams are who is asked to review.
	RequestedReviewers []*user.User
	RequestedTeams     []*org.Team
}

// HookPackage is a package version and the records its JSON shows.
type HookPackage struct {
	Package packages.Package
	Version packages.Version
	Owner   *user.User
	// Creator is nil when the account is gone.
	Creator *user.User
	// Repo is the linked repository the sender may read (nil when none),
	// owned by RepoOwner, shown with the sender's permissions Perm.
	Repo      *repository.Repository
	RepoOwner *user.User
	Perm      permission.Permission
}
