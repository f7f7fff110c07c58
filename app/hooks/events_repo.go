package hooks

import (
	"context"
	"net/url"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/hook"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// RepositoryCreated runs in the transaction that inserts a repository. It
// first takes over the repository's copies of the site's default hooks
// (their sealed secrets are re-sealed for their own rows) and, for a
// generated repository, copies its template's hooks; then it queues, as
// Gitea's notifier does:
//   - for a repository that is no fork, or a fork into an organisation, a
//     repository event (action "created") to the hooks that cover it: the
//     owner's, the system hooks and the copies of the default hooks;
//   - for a fork, a fork event to the hooks of the repository forked.
func (d *Dispatcher) RepositoryCreated(ctx context.Context, tx ports.Stores, e ports.RepoEvent) error {
	if err := d.adoptDefaultCopies(ctx, tx, e.Repo.ID); err != nil {
		return err
	}
	if err := d.copyTemplateHooks(ctx, tx, e); err != nil {
		return err
	}
	if !d.settings.EnableWebhooks {
		return nil
	}
	r, err := tx.Repos.GetByID(ctx, e.Repo.ID)
	if err != nil {
		return err
	}
	var parent *repository.Repository
	if r.ForkID != 0 {
		if parent, err = tx.Repos.GetByID(ctx, r.ForkID); err != nil {
			return err
		}
	}
	var created, forked []*hook.Hook
	if parent == nil || r.Owner.Kind == user.KindOrganization {
		if created, err = d.hooksFor(ctx, tx, r, hook.EventRepository); err != nil {
			return err
		}
	}
	if parent != nil {
		if forked, err = d.hooksFor(ctx, tx, parent, hook.EventFork); err != nil {
			return err
		}
	}
	if len(created) == 0 && len(forked) == 0 {
		return nil
	}
	rc, err := d.repoContext(ctx, tx, e.SenderID, r, parent)
	if err != nil {
		return err
	}
	if err := d.enqueueAll(ctx, tx, created, r.ID, rc.repositoryEvent(repoActionCreated)); err != nil {
		return err
	}
	if len(forked) == 0 {
		return nil
	}
	ep, err := rc.forkEvent(ctx, tx)
	if err != nil {
		return err
	}
	return d.enqueueAll(ctx, tx, forked, parent.ID, ep)
}

// RepositoryDeleted runs in the transaction that deletes repository
// e.Repo, before the row goes. It queues a repository event (action
// "deleted") to the owner's and the system hooks: the repository's own
// hooks go with it, while these deliveries outlive it (a delivery keeps
// the repository's id, not a reference to its row).
func (d *Dispatcher) RepositoryDeleted(ctx context.Context, tx ports.Stores, e ports.RepoEvent) error {
	if !d.settings.EnableWebhooks {
		return nil
	}
	all, err := d.hooksFor(ctx, tx, e.Repo, hook.EventRepository)
	if err != nil {
		return err
	}
	var survivors []*hook.Hook
	for _, h := range all {
		if h.Scope.RepoID == 0 {
			survivors = append(survivors, h)
		}
	}
	if len(survivors) == 0 {
		return nil
	}
	rc, err := d.repoContext(ctx, tx, e.SenderID, e.Repo, nil)
	if err != nil {
		return err
	}
	return d.enqueueAll(ctx, tx, survivors, e.Repo.ID, rc.repositoryEvent(repoActionDeleted))
}

// hooksFor returns the active hooks that hear about event in r.
func (d *Dispatcher) hooksFor(ctx context.Context, tx ports.Stores, r *repository.Repository, event string) ([]*hook.Hook, error) {
	all, err := tx.Hooks.ActiveFor(ctx, r.ID, r.Owner.ID)
	if err != nil || len(all) == 0 {
		return nil, err
	}
	return hook.Matching(all, r.ID, r.Owner.ID, event, ""), nil
}

// enqueueAll queues ep to each hook.
func (d *Dispatcher) enqueueAll(ctx context.Context, tx ports.Stores, hs []*hook.Hook, repoID int64, ep *eventPayload) error {
	now := d.clock.Now()
	for _, h := range hs {
		if err := d.enqueue(ctx, tx, h, repoID, ep, now); err != nil {
			return err
		}
	}
	return nil
}

// repoContext is what a repository or fork event shows: the repository,
// its owner, the sender and, for a fork, the repository forked and its
// owner.
type repoContext struct {
	payloads           ports.HookPayloads
	baseURL            string
	repo, parent       *repository.Repository
	owner, parentOwner *user.User
	sender             *user.User
}

// repoContext loads the accounts an event of r (forked from parent, or
// nil) shows in one query. Without a sender (a failed migration cleaned
// up) the owner stands in.
func (d *Dispatcher) repoContext(ctx context.Context, tx ports.Stores, senderID int64, r, parent *repository.Repository) (*repoContext, error) {
	if senderID == 0 {
		senderID = r.Owner.ID
	}
	ids := []int64{r.Owner.ID, senderID}
	if parent != nil {
		ids = append(ids, parent.Owner.ID)
	}
	us, err := tx.Users.GetByIDs(ctx, ids)
	if err != nil {
		return nil, err
	}
	rc := &repoContext{payloads: d.payloads, baseURL: d.baseURL, repo: r, parent: parent}
	for _, u := range us {
		if u.ID == r.Owner.ID {
			rc.owner = u
		}
		if u.ID == senderID {
			rc.sender = u
		}
		if parent != nil && u.ID == parent.Owner.ID {
			rc.parentOwner = u
		}
	}
	if rc.owner == nil || rc.sender == nil || (parent != nil && rc.parentOwner == nil) {
		return nil, errs.NotFound("the repository's owner or the sender no longer exists")
	}
	return rc, nil
}

// repository renders r (the event's repository or the fork's parent);
// the event's repository, when a fork, shows its parent.
func (c *repoContext) repository(r *repository.Repository, owner *user.User, ownerAccess bool) any {
	if r == c.repo && c.parent != nil {
		return c.payloads.RepositoryWithParent(r, owner, ownerAccess, c.parent, c.parentOwner)
	}
	return c.payloads.Repository(r, owner, ownerAccess)
}

// webURL is a repository's web address (Gitea's HTMLURL).
func (c *repoContext) webURL(r *repository.Repository) string {
	return c.baseURL + "/" + url.PathEscape(r.Owner.Name) + "/" + url.PathEscape(r.Name)
}

// eventPayload fills in what every event about r shows.
func (c *repoContext) eventPayload(event string, native any, r *repository.Repository) *eventPayload {
	return &eventPayload{
		event: event, eventType: event, native: native,
		repoName: r.FullName(), repoURL: c.webURL(r),
		senderName: c.sender.Name, senderURL: c.baseURL + "/" + url.PathEscape(c.sender.Name),
	}
}

// repositoryEvent renders Gitea's RepositoryPayload: the repository as its
// owner sees it, and the owner as the organisation.
func (c *repoContext) repositoryEvent(action string) *eventPayload {
	p := &repositoryPayload{Action: action, Repository: c.repository(c.repo, c.owner, true),
		Organization: c.payloads.User(c.owner), Sender: c.payloads.User(c.sender)}
	return c.eventPayload(hook.EventRepository, p, c.repo)
}

// forkEvent renders Gitea's ForkPayload for the hooks of the repository
// forked. As Gitea's notifier does, each repository shows the sender's
// permissions in it: the repository forked (forkee) the sender's access to
// it, the new fork (with its parent) the sender's access to the fork. Each
// costs one relations query in the transaction at most, none where the
// sender owns the repository or is a site administrator.
func (c *repoContext) forkEvent(ctx context.Context, tx ports.Stores) (*eventPayload, error) {
	forkee := &payloadContext{payloads: c.payloads, baseURL: c.baseURL, repo: c.parent, owner: c.parentOwner, sender: c.sender}
	fork := &payloadContext{payloads: c.payloads, baseURL: c.baseURL, repo: c.repo, owner: c.owner, sender: c.sender,
		parent: c.parent, parentOwner: c.parentOwner}
	for _, pc := range []*payloadContext{forkee, fork} {
		if err := pc.loadSenderPermission(ctx, tx); err != nil {
			return nil, err
		}
	}
	p := &forkPayload{Forkee: forkee.senderRepository(), Repo: fork.senderRepository(), Sender: c.payloads.User(c.sender)}
	ep := c.eventPayload(hook.EventFork, p, c.parent)
	ep.forkName, ep.forkURL = c.repo.FullName(), c.webURL(c.repo)
	return ep, nil
}
