package hooks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/depothq/depot/app/jobs"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/hook"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

var _ ports.Events = (*Dispatcher)(nil)

// DeliverKind is the job kind of a webhook delivery.
const DeliverKind = "hook.deliver"

// deliverJob is a delivery job's payload: the delivery, and the hook with
// its scope (the hook store finds a hook within its scope).
type deliverJob struct {
	Delivery int64 `json:"delivery"`
	Hook     int64 `json:"hook"`
	RepoID   int64 `json:"repo_id,omitempty"`
	OwnerID  int64 `json:"owner_id,omitempty"`
	System   bool  `json:"system,omitempty"`
}

func (j deliverJob) scope() hook.Scope {
	return hook.Scope{RepoID: j.RepoID, OwnerID: j.OwnerID, System: j.System}
}

// Dispatcher is the event port: it matches each event to the hooks that want
// it and queues one delivery per hook in the event's transaction (an outbox);
// its job handler sends them.
type Dispatcher struct {
	stores   ports.Stores
	tx       ports.Transactor
	git      ports.GitContent
	sender   ports.HookSender
	jobs     *jobs.Runner
	payloads ports.HookPayloads
	secrets  ports.SecretGenerator
	seal     sealer
	clock    ports.Clock
	settings site.Settings
	log      *slog.Logger
	baseURL  string
	// records are the delivery attempts still being recorded (deliver.go).
	records inflightRecords
}

// NewDispatcher builds the dispatcher and registers its delivery handler
// with the job runner.
func NewDispatcher(stores ports.Stores, tx ports.Transactor, git ports.GitContent, sender ports.HookSender,
	runner *jobs.Runner, payloads ports.HookPayloads, secrets ports.SecretGenerator, box ports.SecretBox,
	clock ports.Clock, settings site.Settings, log *slog.Logger) *Dispatcher {
	d := &Dispatcher{stores: stores, tx: tx, git: git, sender: sender, jobs: runner, payloads: payloads, secrets: secrets,
		seal: sealer{box}, clock: clock, settings: settings, log: log, baseURL: strings.TrimSuffix(settings.BaseURL, "/")}
	runner.Handle(DeliverKind, d.kindOptions(), d.deliver)
	return d
}

// Notify wakes the delivery workers; the writer calls it once the
// transaction that queued deliveries has committed.
func (d *Dispatcher) Notify() { d.jobs.Notify() }

// matched is one event and the hooks that hear about it.
type matched struct {
	ev    refEvent
	hooks []*hook.Hook
}

// Pushed queues the deliveries of a push: push, create and delete events
// of branches and tags, for every active hook that wants them. It runs in
// the push's transaction and reads only the local repository.
func (d *Dispatcher) Pushed(ctx context.Context, tx ports.Stores, e ports.PushEvent) error {
	if !d.settings.EnableWebhooks {
		return nil
	}
	events := pushEvents(e.Changes)
	if len(events) == 0 {
		return nil
	}
	r, err := tx.Repos.GetByID(ctx, e.RepoID)
	if err != nil {
		return err
	}
	all, err := tx.Hooks.ActiveFor(ctx, r.ID, r.Owner.ID)
	if err != nil || len(all) == 0 {
		return err
	}
	var matches []matched
	for _, ev := range events {
		if hs := hook.Matching(all, r.ID, r.Owner.ID, ev.event, ev.branch()); len(hs) > 0 {
			matches = append(matches, matched{ev, hs})
		}
	}
	if len(matches) == 0 {
		return nil
	}
	pc, err := d.payloadContext(ctx, tx, r, e.PusherID)
	if err != nil {
		return err
	}
	p := ports.RepoPath{Owner: r.Owner.Name, Name: r.Name}
	facts := make([]pushFacts, len(matches))
	var addrs []string
	for i, m := range matches {
		if m.ev.event != hook.EventPush {
			continue
		}
		if facts[i], err = d.pushFacts(ctx, p, r, m.ev.change); err != nil {
			return err
		}
		addrs = append(addrs, facts[i].addresses()...)
	}
	if pc.byEmail, err = usersByEmails(ctx, tx, addrs); err != nil {
		return err
	}
	now := d.clock.Now()
	for i, m := range matches {
		var ep *eventPayload
		switch m.ev.event {
		case hook.EventPush:
			ep = pc.push(facts[i])
		case hook.EventCreate:
			ep = pc.create(m.ev)
		default:
			ep = pc.remove(m.ev)
		}
		for _, h := range m.hooks {
			if h.Kind != hook.KindService && h.Kind != hook.KindGitea && ep.noCommits() {
				continue
			}
			if err := d.enqueue(ctx, tx, h, r.ID, ep, now); err != nil {
				return err
			}
		}
	}
	return nil
}

// payloadContext loads the repository's owner and the sender.
func (d *Dispatcher) payloadContext(ctx context.Context, stores ports.Stores, r *repository.Repository, senderID int64) (*payloadContext, error) {
	parent, err := forkParent(ctx, stores, r)
	if err != nil {
		return nil, err
	}
	ids := []int64{r.Owner.ID}
	var sender *user.User
	if senderID == user.ActionsUserID {
		// A workflow task's token acted: the pseudo-user has no row.
		sender = user.NewActionsUser()
	} else {
		ids = append(ids, senderID)
	}
	if parent != nil {
		ids = append(ids, parent.Owner.ID)
	}
	us, err := stores.Users.GetByIDs(ctx, ids)
	if err != nil {
		return nil, err
	}
	pc := &payloadContext{payloads: d.payloads, baseURL: d.baseURL, repo: r, parent: parent, sender: sender}
	for _, u := range us {
		if u.ID == r.Owner.ID {
			pc.owner = u
		}
		if u.ID == senderID {
			pc.sender = u
		}
		if parent != nil && u.ID == parent.Owner.ID {
			pc.parentOwner = u
		}
	}
	if pc.owner == nil || pc.sender == nil {
		return nil, errs.NotFound("the repository's owner or the sender no longer exists")
	}
	return pc, nil
}

// forkParent is the repository r was forked from, nil when r is no fork
// or the parent is gone.
func forkParent(ctx context.Context, stores ports.Stores, r *repository.Repository) (*repository.Repository, error) {
	if r.ForkID == 0 {
		return nil, nil
	}
	p, err := stores.Repos.GetByID(ctx, r.ForkID)
	if errors.Is(err, errs.ErrNotFound) {
		return nil, nil
	}
	return p, err
}

// usersByEmails finds the accounts of commit addresses in one query.
func usersByEmails(ctx context.Context, stores ports.Stores, addrs []string) (map[string]*user.User, error) {
	if len(addrs) == 0 {
		return nil, nil
	}
	return stores.Emails.UsersByEmails(ctx, addrs)
}

// enqueue records one delivery of ep to h and queues its job on the hook's
// queue, so that one hook's deliveries go out in order.
func (d *Dispatcher) enqueue(ctx context.Context, tx ports.Stores, h *hook.Hook, repoID int64, ep *eventPayload, now time.Time) error {
	body, err := ep.render(h.Kind)
	if err != nil {
		return fmt.Errorf("hooks: render %s payload: %w", ep.event, err)
	}
	id, err := d.newUUID()
	if err != nil {
		return err
	}
	del := &hook.Delivery{UUID: id, HookID: h.ID, RepoID: repoID, Event: ep.event, EventType: ep.eventType,
		Payload: body, Created: now}
	if err := tx.HookDeliveries.Create(ctx, del); err != nil {
		return err
	}
	job, err := json.Marshal(deliverJob{Delivery: del.ID, Hook: h.ID, RepoID: h.Scope.RepoID,
		OwnerID: h.Scope.OwnerID, System: h.Scope.System})
	if err != nil {
		return err
	}
	_, err = tx.Jobs.Enqueue(ctx, ports.NewJob{Kind: DeliverKind, Queue: "hook:" + strconv.FormatInt(h.ID, 10), Payload: job})
	return err
}

// newUUID makes a random (version 4) UUID from the secret generator's
// random hex.
func (d *Dispatcher) newUUID() (string, error) {
	hex, err := d.secrets.TokenSecret()
	if err != nil {
		return "", err
	}
	if len(hex) < 32 {
		return "", errors.New("hooks: the secret generator gave too few random digits")
	}
	b := []byte(hex[:32])
	b[12] = '4'                                                    // version 4
	b[16] = "89ab"[strings.IndexByte("0123456789abcdef", b[16])%4] // RFC 4122 variant
	s := string(b)
	return s[:8] + "-" + s[8:12] + "-" + s[12:16] + "-" + s[16:20] + "-" + s[20:], nil
}

// TestDelivery queues a test push delivery to hook hookID of repository r,
// as Gitea's "test push event": the commit ref names (the default branch's
// head when empty) pushed by doer. An empty repository sends nothing. The
// hook's events and branch filter are not consulted: the test was asked
// for.
func (d *Dispatcher) TestDelivery(ctx context.Context, r *repository.Repository, doer *user.User, hookID int64, ref string) error {
	h, err := d.stores.Hooks.Get(ctx, hook.RepoScope(r.ID), hookID)
	if err != nil {
		return err
	}
	if r.Empty {
		return nil
	}
	p := ports.RepoPath{Owner: r.Owner.Name, Name: r.Name}
	name := ref
	if ref == "" {
		ref, name = repository.BranchPrefix+r.DefaultBranch, r.DefaultBranch
	} else {
		name = strings.TrimPrefix(strings.TrimPrefix(ref, repository.BranchPrefix), repository.TagPrefix)
	}
	rev, err := d.git.Resolve(ctx, p, name)
	if err != nil {
		return err
	}
	head, err := d.git.CommitDetail(ctx, p, rev.CommitID, ports.CommitExtras{Files: true})
	if err != nil {
		return err
	}
	pc, err := d.payloadContext(ctx, d.stores, r, doer.ID)
	if err != nil {
		return err
	}
	f := pushFacts{ref: ref, before: head.ID, after: head.ID, commits: []ports.CommitDetail{head}, total: 1,
		head: &head, compareBase: head.ID}
	if pc.byEmail, err = usersByEmails(ctx, d.stores, f.addresses()); err != nil {
		return err
	}
	ep := pc.push(f)
	// Gitea's test payload shows the repository with no access.
	ep.native.(*pushPayload).Repo = pc.repository(false)
	err = d.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		return d.enqueue(ctx, tx, h, r.ID, ep, d.clock.Now())
	})
	if err != nil {
		return err
	}
	d.Notify()
	return nil
}
