package repos

import (
	"context"
	"errors"
	"strings"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// journalMove records a repository's directory move and makes it. The
// caller commits the database change and then calls settleMove, whatever
// the outcome; a crash in between is settled by ReconcileMoves at the next
// start.
func (s *Service) journalMove(ctx context.Context, repoID int64, from, to ports.RepoPath) (ports.DirMove, error) {
	m, err := s.git.JournalMove(ctx, ports.DirMove{RepoID: repoID, From: from, To: to})
	if err != nil {
		return m, err
	}
	if err := s.git.Move(ctx, from, to); err != nil {
		if serr := s.git.SettleMove(context.WithoutCancel(ctx), m); serr != nil {
			s.log.Error("forgetting a move that did not happen", "journal", m.ID, "err", serr)
		}
		return m, err
	}
	return m, nil
}

// settleMove ends a journalled move: when the database change failed
// (failed != nil) the directory moves back first. A record that cannot be
// settled stays for ReconcileMoves.
func (s *Service) settleMove(ctx context.Context, m ports.DirMove, failed error) {
	ctx = context.WithoutCancel(ctx)
	if failed != nil {
		if err := s.git.Move(ctx, m.To, m.From); err != nil {
			s.log.Error("moving a repository directory back after a failed change", "from", m.To, "to", m.From, "err", err)
			return
		}
	}
	if err := s.git.SettleMove(ctx, m); err != nil {
		s.log.Error("settling a repository move", "journal", m.ID, "err", err)
	}
}

// ReconcileMoves settles the moves a crash left unsettled: the database
// decides, and a directory whose change did not commit moves back. It runs
// at start-up, before requests are served.
func (s *Service) ReconcileMoves(ctx context.Context) error {
	moves, listErr := s.git.PendingMoves(ctx)
	var failed error
	for _, m := range moves {
		if err := s.reconcileMove(ctx, m); err != nil {
			failed = errors.Join(failed, err)
			continue
		}
		if err := s.git.SettleMove(ctx, m); err != nil {
			failed = errors.Join(failed, err)
			continue
		}
		s.log.Info("settled an interrupted move", "journal", m.ID, "from", m.From, "to", m.To)
	}
	return errors.Join(listErr, failed)
}

// reconcileMove brings the disk in line with the database for one move.
func (s *Service) reconcileMove(ctx context.Context, m ports.DirMove) error {
	if m.Owner {
		u, err := s.stores.Users.GetByID(ctx, m.UserID)
		if errors.Is(err, errs.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		if strings.EqualFold(u.Name, m.From.Owner) {
			// The rename did not commit.
			return s.git.MoveOwner(ctx, m.To.Owner, m.From.Owner)
		}
		return nil
	}
	r, err := s.stores.Repos.GetByID(ctx, m.RepoID)
	if errors.Is(err, errs.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	cur := pathOf(r)
	if !strings.EqualFold(cur.Owner, m.From.Owner) || !strings.EqualFold(cur.Name, m.From.Name) {
		return nil // the change committed (or a later one did)
	}
	err = s.git.Move(ctx, m.To, m.From)
	if errors.Is(err, errs.ErrNotFound) {
		return nil // the directory never moved
	}
	return err
}
