// Package hook holds webhooks: what a hook is, which kinds and content types
// exist, and the rule that decides which hooks an event reaches.
package hook

import "time"

// Kind is the payload dialect a hook receives.
type Kind string

// Hook kinds. Gitea clients send "gitea" for the native JSON kind; it is
// stored as KindService.
const (
	KindService  Kind = "service"
	KindGitea    Kind = "gitea"
	KindSlack    Kind = "slack"
	KindDiscord  Kind = "discord"
	KindDingtalk Kind = "dingtalk"
)

// ContentType is how a native payload is encoded.
type ContentType string

// Content types.
const (
	ContentJSON ContentType = "json"
	ContentForm ContentType = "form"
)

// Scope says whose hook it is: one repository's, one account's (user or
// organisation: every repository it owns), or the site's.
type Scope struct {
	// RepoID is set for a repository hook.
	RepoID int64
	// OwnerID is set for a user or organisation hook.
	OwnerID int64
	// System marks a site-wide hook (admin): it receives events of every
	// repository. Default marks an admin default hook, copied into new
	// repositories and never itself delivered to.
	System  bool
	Default bool
}

// Hook is one webhook.
type Hook struct {
	ID    int64
	Scope Scope
	Kind  Kind
	// URL is where deliveries go.
	URL         string
	HTTPMethod  string
	ContentType ContentType
	// Secret signs native payloads (HMAC-SHA256); never shown back.
	Secret string
	// Events are the event names the hook wants (Gitea's names: push,
	// create, delete, issues, issue_comment, repository, …).
	Events []string
	// BranchFilter is a glob on branch names for push, create and delete;
	// empty or "*" passes every branch.
	BranchFilter string
	// AuthorizationHeader is sent as Authorization with each delivery.
	AuthorizationHeader string
	Active              bool
	Created, Updated    time.Time
}
