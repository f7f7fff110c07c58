package users

import (
	"context"
	"errors"
	"unicode/utf8"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// Blocks are the use cases of blocking: an account's (or an organisation's)
// blocks of other users. The checks other use cases make against blocks
// (CheckNotBlocked, BlockedByAny) stay on Service.
type Blocks struct{ *Service }

// Blocks returns the blocking use cases.
func (s *Service) Blocks() Blocks { return Blocks{s} }

// MaxBlockNoteLength bounds a block's note, as Gitea's column does.
const MaxBlockNoteLength = 255

// List lists one page of the users blocker blocks, and the total.
func (s Blocks) List(ctx context.Context, blocker *user.User, opts ports.ListOptions) ([]*user.User, int64, error) {
	return s.stores.Blocks.List(ctx, blocker.ID, opts)
}

// Check answers nil when blocker blocks blockee, else a 404.
func (s Blocks) Check(ctx context.Context, blocker, blockee *user.User) error {
	ok, err := s.stores.Blocks.IsBlocked(ctx, blocker.ID, blockee.ID)
	if err != nil {
		return err
	}
	if !ok {
		return errs.NotFound("user is not blocked")
	}
	return nil
}

// blockFacts gathers the block rules' facts inside tx: whether the pair is
// blocked, and for a blocking organisation the doer's ownership of it and
// the blockee's membership.
func blockFacts(ctx context.Context, tx ports.Stores, doer, blocker, blockee *user.User) (user.BlockFacts, error) {
	f := user.BlockFacts{
		DoerID: doer.ID, DoerIsAdmin: doer.IsAdmin,
		BlockerID: blocker.ID, BlockerIsOrg: blocker.Kind == user.KindOrganization,
		BlockeeID: blockee.ID, BlockeeIsOrg: blockee.Kind == user.KindOrganization,
	}
	var err error
	if f.Blocked, err = tx.Blocks.IsBlocked(ctx, blocker.ID, blockee.ID); err != nil {
		return f, err
	}
	if f.BlockerIsOrg {
		m, err := tx.Orgs.Membership(ctx, blocker.ID, blockee.ID)
		if err != nil {
			return f, err
		}
		f.BlockeeIsMember = m.IsMember
		if m, err = tx.Orgs.Membership(ctx, blocker.ID, doer.ID); err != nil {
			return f, err
		}
		f.DoerOwnsBlocker = m.IsOwner
	}
	return f, nil
}

// Block makes blocker (the caller itself, or an organisation it owns)
// block blockee, as Gitea's BlockUser: in the same transaction each stops
// following the other and starring and watching the other's repositories,
// loses its collaborations on them, and pending transfers between the two
// are cancelled.
func (s Blocks) Block(ctx context.Context, c auth.Caller, blocker, blockee *user.User, note string) error {
	if c.User == nil {
		return errs.Unauthenticated("token is required")
	}
	if blockee.Kind == user.KindOrganization {
		return user.ErrBlockOrganization
	}
	if utf8.RuneCountInString(note) > MaxBlockNoteLength {
		return errs.Invalid("MaxSize", "note")
	}
	err := s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		f, err := blockFacts(ctx, tx, c.User, blocker, blockee)
		if err != nil {
			return err
		}
		if err := user.CanBlock(f); err != nil {
			return err
		}
		// Stars, watches, collaborations, transfers, issue assignments and
		// follows between the two go.
		if _, err := tx.Blocks.SeverTies(ctx, blocker.ID, blockee.ID); err != nil {
			return err
		}
		if err := tx.Follows.Sever(ctx, blocker.ID, blockee.ID); err != nil {
			return err
		}
		return tx.Blocks.Block(ctx, &user.Block{
			BlockerID: blocker.ID, BlockeeID: blockee.ID, Note: note, Created: s.clock.Now(),
		})
	})
	// The two accounts' counters changed with the severed ties.
	s.forgetCached(blocker.ID, blockee.ID)
	// A concurrent block of the same pair won the race.
	if errors.Is(err, errs.ErrConflict) {
		return user.ErrCannotBlock
	}
	return err
}

// Unblock lifts blocker's block of blockee; the ties it severed stay severed.
func (s Blocks) Unblock(ctx context.Context, c auth.Caller, blocker, blockee *user.User) error {
	if c.User == nil {
		return errs.Unauthenticated("token is required")
	}
	err := s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		f, err := blockFacts(ctx, tx, c.User, blocker, blockee)
		if err != nil {
			return err
		}
		if err := user.CanUnblock(f); err != nil {
			return err
		}
		return tx.Blocks.Unblock(ctx, blocker.ID, blockee.ID)
	})
	if errors.Is(err, errs.ErrNotFound) {
		return user.ErrCannotUnblock
	}
	return err
}

// CheckNotBlocked answers user.ErrBlocked (403 "user is blocked") when
// doer is blocked by any of blockerIDs: an issue's poster, the user a
// collaboration, transfer or team membership names, an organisation. Site
// administrators are never held back, as in Gitea's IsUserBlockedBy; an
// anonymous doer is not either. It runs in the caller's transaction when
// ctx carries one, so use cases can check and write atomically. The
// repository owner's block on a route's caller is the NotBlocked access
// code of the route's row instead (BlockedByAny).
func (s *Service) CheckNotBlocked(ctx context.Context, doer *user.User, blockerIDs ...int64) error {
	blocked, err := s.BlockedByAny(ctx, doer, blockerIDs...)
	if err != nil {
		return err
	}
	if blocked {
		return user.ErrBlocked
	}
	return nil
}

// BlockedByAny reports whether any of blockerIDs holds doer back: false
// for an anonymous doer and a site administrator (user.HeldBack).
func (s *Service) BlockedByAny(ctx context.Context, doer *user.User, blockerIDs ...int64) (bool, error) {
	if doer == nil || doer.IsAdmin || len(blockerIDs) == 0 {
		return false, nil
	}
	blocked, err := s.stores.Blocks.IsBlockedByAny(ctx, doer.ID, blockerIDs)
	if err != nil {
		return false, err
	}
	return user.HeldBack(doer, blocked), nil
}
