// Package memstore is a hand-written, in-memory implementation of the store
// ports (ports.Stores and ports.Transactor) for use-case unit tests: no SQL,
// no files.
//
// It passes, whole, the contract suite's groups (test/contract) named in
// Groups. Not implemented, and so not run:
//   - the stores left nil in Stores: PublicKeys, GPGKeys, CommitStatuses,
//     Jobs, Mirrors, PushMirrors, Hooks, HookDeliveries and ActionSecrets,
//     and their groups (PublicKeys, GPGKeys, CommitStatuses, Jobs, Mirrors,
//     Hooks, HookDeliveries, ActionSecrets).
//
// Beyond the suite, IssueStore.List does not sort by due date or priority.
//
// A DB is one guarded state. Every call takes the DB's mutex; InTx holds it
// for the whole of fn, snapshots the state first and puts the snapshot back
// when fn fails, so a failed transaction leaves nothing behind. Calls made
// with the transaction's context (through the tx stores or the DB's own)
// join it; fn must not hand that context to other goroutines.
package memstore

import (
	"context"
	"sync"

	"github.com/depothq/depot/ports"
)

// Groups are the contract suite's groups this fake passes.
var Groups = []string{
	"Users", "Emails", "EmailsBatch", "Tokens", "InTx",
	"Repos", "RepoSearch", "Collaborators", "DeployKeys", "Topics", "Stars", "Watches", "Transfers",
	"ReposEmpty", "TagProtections",
	"Orgs", "OrgTeams", "Blocks", "Follows",
	"Issues", "Labels", "Comments", "IssueExtras", "IssueBatchLookups",
	"Pulls", "PullReviews",
}

// DB is one in-memory database.
type DB struct {
	mu sync.Mutex
	s  *state
}

// New returns an empty database.
func New() *DB { return &DB{s: newState()} }

// txKey marks a context that runs inside one DB's transaction.
type txKey struct{}

// lock takes the DB's mutex unless ctx runs inside its transaction, which
// holds it already, and returns the matching release.
func (d *DB) lock(ctx context.Context) func() {
	if ctx.Value(txKey{}) == d {
		return func() {}
	}
	d.mu.Lock()
	return d.mu.Unlock
}

// Stores returns the stores bound to d.
func (d *DB) Stores() ports.Stores {
	return ports.Stores{
		Users:          &UserStore{d},
		Emails:         &EmailStore{d},
		Tokens:         &TokenStore{d},
		Repos:          &RepoStore{d},
		Collaborators:  &CollaboratorStore{d},
		DeployKeys:     &DeployKeyStore{d},
		Topics:         &TopicStore{d},
		Stars:          &StarStore{d},
		Watches:        &WatchStore{d},
		Transfers:      &TransferStore{d},
		TagProtections: &TagProtectionStore{d},
		Orgs:           &OrgStore{d},
		Blocks:         &BlockStore{d},
		Follows:        &FollowStore{d},
		Issues:         &IssueStore{d},
		Labels:         &LabelStore{d},
		Milestones:     &MilestoneStore{d},
		Comments:       &CommentStore{d},
		Reactions:      &ReactionStore{d},
		Attachments:    &AttachmentStore{d},
		TrackedTimes:   &TrackedTimeStore{d},
		IssueRelations: &IssueRelationStore{d},
		Pulls:          &PullStore{d},
		PullReviews:    &PullReviewStore{d},
	}
}

// InTx runs fn with d's stores while holding d; when fn returns an error
// every write it made is undone. A nested call joins the outer one, as a
// savepoint: its failure undoes its own writes, and the outer transaction's
// failure undoes both.
func (d *DB) InTx(ctx context.Context, fn func(ctx context.Context, tx ports.Stores) error) error {
	if ctx.Value(txKey{}) == d {
		savepoint := d.s.clone()
		if err := fn(ctx, d.Stores()); err != nil {
			d.s = savepoint
			return err
		}
		return nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	snapshot := d.s.clone()
	if err := fn(context.WithValue(ctx, txKey{}, d), d.Stores()); err != nil {
		d.s = snapshot
		return err
	}
	return nil
}

var _ ports.Transactor = (*DB)(nil)
