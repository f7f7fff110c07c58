package hooks

import (
	"strings"

	"github.com/depothq/depot/domain/hook"
	"github.com/depothq/depot/domain/repository"
)

// Ref types of create and delete payloads, as Gitea names them.
const (
	refTypeBranch = "branch"
	refTypeTag    = "tag"
)

// zeroID is the all-zeros object id Gitea's payloads use for "none"
// (SHA-1; a SHA-256 repository's changes carry their own zeros).
const zeroID = "0000000000000000000000000000000000000000"

// refEvent is one webhook event a ref update causes.
type refEvent struct {
	event  string
	change repository.RefChange
}

// branch is the branch the event is about, for branch filters; "" for a tag.
func (e refEvent) branch() string {
	if e.change.IsBranch() {
		return e.change.ShortName()
	}
	return ""
}

// refType is "branch" or "tag".
func (e refEvent) refType() string {
	if e.change.IsBranch() {
		return refTypeBranch
	}
	return refTypeTag
}

// pushEvents derives Gitea's events from a push's ref updates, in the order
// Gitea emits them: a new branch is created, then pushed; a deleted branch
// is only deleted; a tag, created or moved, is pushed (without commits),
// then created; a deleted tag is pushed (to nothing), then deleted. Refs
// outside branches and tags cause nothing.
func pushEvents(changes []repository.RefChange) []refEvent {
	var out []refEvent
	for _, c := range changes {
		switch {
		case c.IsBranch() && c.IsDelete():
			out = append(out, refEvent{hook.EventDelete, c})
		case c.IsBranch() && c.IsCreate():
			out = append(out, refEvent{hook.EventCreate, c}, refEvent{hook.EventPush, c})
		case c.IsBranch():
			out = append(out, refEvent{hook.EventPush, c})
		case c.IsTag() && c.IsDelete():
			out = append(out, refEvent{hook.EventPush, c}, refEvent{hook.EventDelete, c})
		case c.IsTag():
			out = append(out, refEvent{hook.EventPush, c}, refEvent{hook.EventCreate, c})
		}
	}
	return out
}

// isZero reports whether id is an all-zeros object id.
func isZero(id string) bool { return id != "" && strings.Trim(id, "0") == "" }
