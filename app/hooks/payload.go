package hooks

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"
	"time"

	"github.com/depothq/depot/domain/hook"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// The payloads of the native (service/gitea) hooks, in the shapes of
// Gitea's modules/structs (PushPayload, CreatePayload, DeletePayload,
// PayloadCommit, PayloadUser). The repository and account records come
// from ports.HookPayloads, so they are the API's own.

// maxPayloadCommits is how many commits a push payload lists (Gitea's
// [ui] FEED_MAX_COMMIT_NUM); total_commits still counts them all.
const maxPayloadCommits = 5

// maxNewBranchCommits is how far back a new branch's push is counted: Gitea
// takes the ten commits before the new head.
const maxNewBranchCommits = 10

// payloadUser is Gitea's PayloadUser: a commit identity and the name of the
// account its address belongs to ("" when none).
type payloadUser struct {
	Name     string `json:"name"`
	Email    string `json:"email"`
	UserName string `json:"username"`
}

// payloadCommit is Gitea's PayloadCommit. Verification stays null, as in
// Gitea's push payloads.
type payloadCommit struct {
	ID           string       `json:"id"`
	Message      string       `json:"message"`
	URL          string       `json:"url"`
	Author       *payloadUser `json:"author"`
	Committer    *payloadUser `json:"committer"`
	Verification any          `json:"verification"`
	Timestamp    time.Time    `json:"timestamp"`
	Added        []string     `json:"added"`
	Removed      []string     `json:"removed"`
	Modified     []string     `json:"modified"`
}

// pushPayload is Gitea's PushPayload.
type pushPayload struct {
	Ref          string           `json:"ref"`
	Before       string           `json:"before"`
	After        string           `json:"after"`
	CompareURL   string           `json:"compare_url"`
	Commits      []*payloadCommit `json:"commits"`
	TotalCommits int              `json:"total_commits"`
	HeadCommit   *payloadCommit   `json:"head_commit"`
	Repo         any              `json:"repository"`
	Pusher       any              `json:"pusher"`
	Sender       any              `json:"sender"`
}

// createPayload is Gitea's CreatePayload; Ref is the short name.
type createPayload struct {
	Sha     string `json:"sha"`
	Ref     string `json:"ref"`
	RefType string `json:"ref_type"`
	Repo    any    `json:"repository"`
	Sender  any    `json:"sender"`
}

// deletePayload is Gitea's DeletePayload; Ref is the short name.
type deletePayload struct {
	Ref        string `json:"ref"`
	RefType    string `json:"ref_type"`
	PusherType string `json:"pusher_type"`
	Repo       any    `json:"repository"`
	Sender     any    `json:"sender"`
}

// Repository event actions (Gitea's HookRepoAction).
const (
	repoActionCreated = "created"
	repoActionDeleted = "deleted"
)

// repositoryPayload is Gitea's RepositoryPayload; Organization is the
// repository's owner, a user or an organisation.
type repositoryPayload struct {
	Action       string `json:"action"`
	Repository   any    `json:"repository"`
	Organization any    `json:"organization"`
	Sender       any    `json:"sender"`
}

// forkPayload is Gitea's ForkPayload: Forkee is the repository that was
// forked, Repo the new fork.
type forkPayload struct {
	Forkee any `json:"forkee"`
	Repo   any `json:"repository"`
	Sender any `json:"sender"`
}

// eventPayload is one event ready to render for any kind of hook: the
// native payload and the few facts the chat formats show.
type eventPayload struct {
	event, eventType string
	// native is a *pushPayload, *createPayload, *deletePayload,
	// *repositoryPayload or *forkPayload.
	native any
	// repoName and repoURL are the repository's full name and web address;
	// senderName and senderURL the account that caused the event.
	repoName, repoURL     string
	senderName, senderURL string
	// forkName and forkURL are a fork event's new fork (repoName is the
	// repository forked).
	forkName, forkURL string
	// refName is the branch or tag name, refType "branch" or "tag".
	refName, refType string
	// issue are an issue event's facts (nil for other events).
	issue *issueFacts
	// rendered caches the body per kind: one push to ten hooks renders once.
	rendered map[hook.Kind][]byte
}

// render returns the body a hook of kind k receives.
func (p *eventPayload) render(k hook.Kind) ([]byte, error) {
	if b, ok := p.rendered[k]; ok {
		return b, nil
	}
	var v any
	switch k {
	case hook.KindSlack:
		v = slackMessage(p)
	case hook.KindDiscord:
		v = discordMessage(p)
	case hook.KindDingtalk:
		v = dingtalkMessage(p)
	default:
		v = p.native
	}
	// Gitea indents its payloads by two spaces; chat services take either.
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, err
	}
	if p.rendered == nil {
		p.rendered = map[hook.Kind][]byte{}
	}
	p.rendered[k] = b
	return b, nil
}

// noCommits reports whether the event is a push without commits, which
// chat hooks do not hear about (Gitea spares them "0 new commits").
func (p *eventPayload) noCommits() bool {
	pp, ok := p.native.(*pushPayload)
	return ok && len(pp.Commits) == 0
}

// payloadContext is what every payload of one event source shares.
type payloadContext struct {
	payloads ports.HookPayloads
	baseURL  string
	repo     *repository.Repository
	owner    *user.User
	sender   *user.User
	// parent and parentOwner are the repository a fork was forked from
	// (nil when repo is no fork, or its parent is gone).
	parent      *repository.Repository
	parentOwner *user.User
	// byEmail maps lower-case commit addresses to their accounts.
	byEmail map[string]*user.User
	// senderPerm is the sender's access to repo, for the payloads that show
	// it (loadSenderPermission).
	senderPerm permission.Permission
}

// loadSenderPermission computes the sender's access to the repository with
// the permission core, as the API computes a caller's: one relations query
// at most (none for the owner or a site administrator), once per event
// however many hooks get it.
func (c *payloadContext) loadSenderPermission(ctx context.Context, tx ports.Stores) error {
	u, facts := c.sender, c.repo.Facts()
	a := permission.Actor{Kind: permission.ActorUser, UserID: u.ID, IsSiteAdmin: u.IsAdmin, IsActive: u.IsActive,
		ProhibitLogin: u.ProhibitLogin, IsRestricted: u.IsRestricted}
	var rel permission.Relations
	if !u.IsAdmin && u.ID != c.repo.Owner.ID {
		var err error
		if rel, err = tx.Repos.Relations(ctx, facts, u.ID); err != nil {
			return err
		}
	}
	c.senderPerm = permission.Compute(a, facts, rel)
	return nil
}

// senderRepository renders the event's repository with the sender's
// permissions in it, as Gitea's issue and comment payloads do.
func (c *payloadContext) senderRepository() any {
	if c.parent != nil && c.parentOwner != nil {
		return c.payloads.RepositoryFor(c.repo, c.owner, c.senderPerm, c.parent, c.parentOwner)
	}
	return c.payloads.RepositoryFor(c.repo, c.owner, c.senderPerm, nil, nil)
}

// repository renders the event's repository, a fork with its parent.
func (c *payloadContext) repository(ownerAccess bool) any {
	if c.parent != nil && c.parentOwner != nil {
		return c.payloads.RepositoryWithParent(c.repo, c.owner, ownerAccess, c.parent, c.parentOwner)
	}
	return c.payloads.Repository(c.repo, c.owner, ownerAccess)
}

// repoPath is the repository's path under the base URL, escaped.
func (c *payloadContext) repoPath() string {
	return url.PathEscape(c.repo.Owner.Name) + "/" + url.PathEscape(c.repo.Name)
}

// repoURL is the repository's web address (Gitea's HTMLURL).
func (c *payloadContext) repoURL() string { return c.baseURL + "/" + c.repoPath() }

// compareURL is Gitea's ComposeCompareURL under the base URL.
func (c *payloadContext) compareURL(base, head string) string {
	return c.baseURL + "/" + c.repoPath() + "/compare/" + escapeSegments(base) + "..." + escapeSegments(head)
}

// escapeSegments escapes each segment of a slash-separated name.
func escapeSegments(s string) string {
	parts := strings.Split(s, "/")
	for i, p := range parts {
		parts[i] = url.PathEscape(p)
	}
	return strings.Join(parts, "/")
}

// base fills in the facts every event of this source shares.
func (c *payloadContext) base(event string, native any, refName, refType string) *eventPayload {
	return &eventPayload{
		event: event, eventType: event, native: native,
		repoName: c.repo.FullName(), repoURL: c.repoURL(),
		senderName: c.sender.Name, senderURL: c.baseURL + "/" + url.PathEscape(c.sender.Name),
		refName: refName, refType: refType,
	}
}

// commit renders a commit as Gitea's PayloadCommit.
func (c *payloadContext) commit(d ports.CommitDetail) *payloadCommit {
	pc := &payloadCommit{
		ID: d.ID, Message: d.Message, URL: c.repoURL() + "/commit/" + url.PathEscape(d.ID),
		Author: c.identity(d.Author), Committer: c.identity(d.Committer), Timestamp: d.Author.When,
		Added: []string{}, Removed: []string{}, Modified: []string{},
	}
	for _, f := range d.Files {
		switch f.Status {
		case ports.CommitFileAdded:
			pc.Added = append(pc.Added, f.Path)
		case ports.CommitFileRemoved:
			pc.Removed = append(pc.Removed, f.Path)
		default:
			pc.Modified = append(pc.Modified, f.Path)
		}
	}
	return pc
}

func (c *payloadContext) identity(sig ports.GitSignature) *payloadUser {
	u := &payloadUser{Name: sig.Name, Email: sig.Email}
	if acc := c.byEmail[strings.ToLower(sig.Email)]; acc != nil {
		u.UserName = acc.Name
	}
	return u
}

// pushFacts are a push event's commits as read from Git.
type pushFacts struct {
	ref, before, after string
	// commits are the newest first, at most maxPayloadCommits; total
	// counts them all.
	commits []ports.CommitDetail
	total   int
	head    *ports.CommitDetail
	// compareBase is where the compare link starts, "" for no link.
	compareBase string
}

// push renders a push event. Gitea renders its repository as the owner
// sees it.
func (c *payloadContext) push(f pushFacts) *eventPayload {
	sender := c.payloads.User(c.sender)
	p := &pushPayload{
		Ref: f.ref, Before: f.before, After: f.after, Commits: make([]*payloadCommit, 0, len(f.commits)),
		TotalCommits: f.total, Repo: c.repository(true), Pusher: sender, Sender: sender,
	}
	if f.compareBase != "" {
		p.CompareURL = c.compareURL(f.compareBase, f.after)
	}
	for _, d := range f.commits {
		p.Commits = append(p.Commits, c.commit(d))
	}
	if f.head != nil {
		if len(p.Commits) > 0 && p.Commits[0].ID == f.head.ID {
			p.HeadCommit = p.Commits[0]
		} else {
			p.HeadCommit = c.commit(*f.head)
		}
	}
	name, kind := shortRef(f.ref)
	return c.base(hook.EventPush, p, name, kind)
}

// create renders the creation of a branch or tag. Gitea renders its
// repository with no access.
func (c *payloadContext) create(e refEvent) *eventPayload {
	p := &createPayload{Sha: e.change.NewID, Ref: e.change.ShortName(), RefType: e.refType(),
		Repo: c.repository(false), Sender: c.payloads.User(c.sender)}
	return c.base(hook.EventCreate, p, p.Ref, p.RefType)
}

// remove renders the deletion of a branch or tag (Gitea's DeletePayload).
func (c *payloadContext) remove(e refEvent) *eventPayload {
	p := &deletePayload{Ref: e.change.ShortName(), RefType: e.refType(), PusherType: "user",
		Repo: c.repository(true), Sender: c.payloads.User(c.sender)}
	return c.base(hook.EventDelete, p, p.Ref, p.RefType)
}

// shortRef splits a full ref name into its short name and type.
func shortRef(ref string) (name, refType string) {
	switch {
	case strings.HasPrefix(ref, repository.BranchPrefix):
		return strings.TrimPrefix(ref, repository.BranchPrefix), refTypeBranch
	case strings.HasPrefix(ref, repository.TagPrefix):
		return strings.TrimPrefix(ref, repository.TagPrefix), refTypeTag
	}
	return ref, refTypeBranch
}
