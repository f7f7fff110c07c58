package hooks

import (
	"context"
	"errors"
	"net/url"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/hook"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

var _ ports.PackageEvents = (*Dispatcher)(nil)

// packagePayload is Gitea's PackagePayload. Gitea's notifier leaves the
// repository and the organisation out (null): the package shows both.
type packagePayload struct {
	Action       string `json:"action"`
	Repository   any    `json:"repository"`
	Package      any    `json:"package"`
	Organization any    `json:"organization"`
	Sender       any    `json:"sender"`
}

// PackageChanged queues a package event (created, deleted) to the hooks
// Gitea sends it to: the owner's (user or organisation), the system hooks
// and, for a package linked to a repository, that repository's. The
// package shows its linked repository only when the sender may read it.
func (d *Dispatcher) PackageChanged(ctx context.Context, tx ports.Stores, e ports.PackageEvent) error {
	if !d.settings.EnableWebhooks {
		return nil
	}
	p := e.Package
	all, err := tx.Hooks.ActiveFor(ctx, p.RepoID, p.OwnerID)
	if err != nil || len(all) == 0 {
		return err
	}
	hs := hook.Matching(all, p.RepoID, p.OwnerID, hook.EventPackage, "")
	if len(hs) == 0 {
		return nil
	}
	us, err := tx.Users.GetByIDs(ctx, []int64{p.OwnerID, e.SenderID, e.Version.CreatorID})
	if err != nil {
		return err
	}
	hp := ports.HookPackage{Package: p, Version: e.Version}
	var sender *user.User
	for _, u := range us {
		if u.ID == p.OwnerID {
			hp.Owner = u
		}
		if u.ID == e.SenderID {
			sender = u
		}
		if u.ID == e.Version.CreatorID {
			hp.Creator = u
		}
	}
	if hp.Owner == nil || sender == nil {
		return errs.NotFound("the package's owner or the sender no longer exists")
	}
	if p.RepoID != 0 {
		if err := d.linkedRepository(ctx, tx, &hp, sender); err != nil {
			return err
		}
	}
	native := &packagePayload{Action: e.Action, Package: d.payloads.Package(hp), Sender: d.payloads.User(sender)}
	ownerURL := d.baseURL + "/" + url.PathEscape(hp.Owner.Name)
	ep := &eventPayload{event: hook.EventPackage, eventType: hook.EventPackage, native: native,
		repoName: hp.Owner.Name + "/" + p.Name, repoURL: ownerURL + "/-/packages/" + string(p.Type) + "/" + url.PathEscape(p.Name),
		senderName: sender.Name, senderURL: d.baseURL + "/" + url.PathEscape(sender.Name)}
	return d.enqueueAll(ctx, tx, hs, p.RepoID, ep)
}

// linkedRepository sets hp's repository to the package's linked one when
// the sender may read it, with the sender's permissions.
func (d *Dispatcher) linkedRepository(ctx context.Context, tx ports.Stores, hp *ports.HookPackage, sender *user.User) error {
	r, err := tx.Repos.GetByID(ctx, hp.Package.RepoID)
	if errors.Is(err, errs.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	pc := &payloadContext{payloads: d.payloads, baseURL: d.baseURL, repo: r, sender: sender}
	if err := pc.loadSenderPermission(ctx, tx); err != nil {
		return err
	}
	if !pc.senderPerm.HasAnyAccess() {
		return nil
	}
	hp.Repo, hp.Perm = r, pc.senderPerm
	if r.Owner.ID == hp.Owner.ID {
		hp.RepoOwner = hp.Owner
		return nil
	}
	owners, err := tx.Users.GetByIDs(ctx, []int64{r.Owner.ID})
	if err != nil || len(owners) == 0 {
		hp.Repo, hp.Perm = nil, permission.Permission{}
		return err
	}
	hp.RepoOwner = owners[0]
	return nil
}
