// Package hook holds webhooks: what a hook is, which kinds and content types
// exist, how a client's create and edit options become a hook, and the rule
// that decides which hooks an event reaches. It also names the Git hooks a
// repository may carry as scripts.
package hook

import "time"

// Kind is the payload dialect a hook receives.
type Kind string

// Hook kinds. Gitea clients send "gitea" for the native JSON kind; it is
// stored as KindService (the client's spelling is kept in Hook.KindName so
// that the answer uses the name the client gave).
const (
	KindService  Kind = "service"
	KindGitea    Kind = "gitea"
	KindSlack    Kind = "slack"
	KindDiscord  Kind = "discord"
	KindDingtalk Kind = "dingtalk"
)

// ParseKind reads a hook type as a client writes it: the native kind as
// "service" or "gitea", or one of slack, discord, dingtalk. ok is false for
// anything else (Gitea's other kinds, such as msteams, are not offered).
func ParseKind(s string) (k Kind, ok bool) {
	switch Kind(s) {
	case KindService, KindGitea:
		return KindService, true
	case KindSlack, KindDiscord, KindDingtalk:
		return Kind(s), true
	}
	return "", false
}

// ContentType is how a native payload is encoded.
type ContentType string

// Content types.
const (
	ContentJSON ContentType = "json"
	ContentForm ContentType = "form"
)

// HTTP methods a hook may deliver with; POST is the default.
const (
	MethodPost = "POST"
	MethodGet  = "GET"
	MethodPut  = "PUT"
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
	// repositories and never itself delivered to. A scope with both set
	// addresses the site's hooks of either kind (the admin routes find a hook
	// by id whatever its kind; the admin listing's type=all).
	System  bool
	Default bool
}

// RepoScope is the scope of repository repoID's hooks.
func RepoScope(repoID int64) Scope { return Scope{RepoID: repoID} }

// OwnerScope is the scope of an account's hooks (a user's or an organisation's).
func OwnerScope(ownerID int64) Scope { return Scope{OwnerID: ownerID} }

// SystemScope is the scope of the site's system hooks.
func SystemScope() Scope { return Scope{System: true} }

// DefaultScope is the scope of the site's default hooks.
func DefaultScope() Scope { return Scope{Default: true} }

// AdminScope addresses the site's hooks of both kinds.
func AdminScope() Scope { return Scope{System: true, Default: true} }

// IsAdmin reports whether the scope is the site's (system, default or both).
func (s Scope) IsAdmin() bool { return s.RepoID == 0 && s.OwnerID == 0 }

// Covers reports whether a hook of this scope hears about events of
// repository repoID owned by ownerID: the repository's own hooks, its
// owner's hooks and the system hooks do; default hooks never do (their
// copies in each repository do).
func (s Scope) Covers(repoID, ownerID int64) bool {
	switch {
	case s.RepoID != 0:
		return s.RepoID == repoID
	case s.OwnerID != 0:
		return s.OwnerID == ownerID
	}
	return s.System && !s.Default
}

// Hook is one webhook.
type Hook struct {
	ID    int64
	Scope Scope
	// Kind is the payload dialect (the native kind is always KindService).
	Kind Kind
	// KindName is the type as the client named it ("gitea" or "service" for
	// the native kind), answered back; empty means Kind.
	KindName Kind
	// URL is where deliveries go.
	URL         string
	HTTPMethod  string
	ContentType ContentType
	// Secret signs native payloads (HMAC-SHA256); never shown back.
	Secret string
	// Events are the event names the hook wants, expanded (a client's
	// "issues" group is stored as its members) and in EventNames order.
	Events []string
	// BranchFilter is a glob on branch names for push, create and delete;
	// empty or "*" passes every branch.
	BranchFilter string
	// AuthorizationHeader is sent as Authorization with each delivery.
	AuthorizationHeader string
	// Meta holds the chat kinds' settings: channel, username, icon_url and
	// color for Slack; username and icon_url for Discord.
	Meta             map[string]string
	Active           bool
	Created, Updated time.Time
}

// TypeName is the type shown to clients: the name the client used.
func (h *Hook) TypeName() Kind {
	if h.KindName != "" {
		return h.KindName
	}
	return h.Kind
}

// CopyTo returns a copy of h in another scope, as a new hook (no id): the
// admin default hooks are copied so into every new repository.
func (h *Hook) CopyTo(s Scope, now time.Time) *Hook {
	c := *h
	c.ID, c.Scope, c.Created, c.Updated = 0, s, now, now
	c.Events = append([]string(nil), h.Events...)
	if h.Meta != nil {
		c.Meta = make(map[string]string, len(h.Meta))
		for k, v := range h.Meta {
			c.Meta[k] = v
		}
	}
	return &c
}
