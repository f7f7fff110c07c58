package ports

import (
	"context"
	"time"

	"github.com/depothq/depot/domain/hook"
)

// HookStore persists webhooks. Missing hooks, and hooks of another scope, are
// errs.ErrNotFound. A scope addresses a repository's hooks (RepoID), an
// account's (OwnerID), or the site's: system hooks (System), default hooks
// (Default), or both kinds (hook.AdminScope).
type HookStore interface {
	// Create inserts h and sets h.ID.
	Create(ctx context.Context, h *hook.Hook) error
	// Update writes every field of h (found by id within h.Scope; a site
	// hook is found whatever its kind, so an edit may turn a default hook
	// into a system hook and back).
	Update(ctx context.Context, h *hook.Hook) error
	Delete(ctx context.Context, scope hook.Scope, id int64) error
	Get(ctx context.Context, scope hook.Scope, id int64) (*hook.Hook, error)
	// List returns one page of the scope's hooks ordered by id, and the total.
	List(ctx context.Context, scope hook.Scope, opts ListOptions) ([]*hook.Hook, int64, error)
	// ActiveFor returns, in one query, the active hooks an event of
	// repository repoID (owned by ownerID) may reach: the repository's, the
	// owner's and the system hooks, ordered by id. Whether each wants the
	// event is hook.Wants.
	ActiveFor(ctx context.Context, repoID, ownerID int64) ([]*hook.Hook, error)
	// CopyDefaults gives repository repoID a copy of every site default
	// hook, created at now, in one statement (a new repository's hooks).
	CopyDefaults(ctx context.Context, repoID int64, now time.Time) error
}

// GitHookScripts keeps each repository's own Git hook scripts (the names of
// hook.GitHookNames), which Depot's push hooks run after their own logic.
type GitHookScripts interface {
	// Read returns the script of hook name; ok is false when the repository
	// has none.
	Read(ctx context.Context, p RepoPath, name string) (content string, ok bool, err error)
	// Write stores the script of hook name, executable.
	Write(ctx context.Context, p RepoPath, name, content string) error
	// Remove deletes the script of hook name; having none is not an error.
	Remove(ctx context.Context, p RepoPath, name string) error
}

// HookDeliveryStore keeps the record of webhook deliveries. A delivery dies
// with its hook. Missing deliveries are errs.ErrNotFound.
type HookDeliveryStore interface {
	// Create records a queued delivery (UUID, HookID and Payload set) and
	// fills in its id; a taken UUID is errs.ErrConflict, an absent hook
	// errs.ErrNotFound.
	Create(ctx context.Context, d *hook.Delivery) error
	Get(ctx context.Context, id int64) (*hook.Delivery, error)
	// RecordAttempt stores what one try did as the delivery's last attempt
	// and counts it.
	RecordAttempt(ctx context.Context, id int64, a hook.Attempt) error
	// ListByHook returns one page of a hook's deliveries, newest first, and
	// the total.
	ListByHook(ctx context.Context, hookID int64, opts ListOptions) ([]*hook.Delivery, int64, error)
	// DeleteDeliveredBefore removes the deliveries last attempted before t
	// (Gitea's cleanup of its hook_task table) and returns how many went;
	// deliveries never attempted stay.
	DeleteDeliveredBefore(ctx context.Context, t time.Time) (int64, error)
}
