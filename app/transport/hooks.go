package transport

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/app/mirrors"
	"github.com/depothq/depot/domain/actions"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// MaxHookChanges bounds the ref updates one hook call may carry.
const MaxHookChanges = 100_000

// HookInput is what git's pre-receive or post-receive hook reports: the
// repository and pusher the receive-pack runner named, and the ref updates.
type HookInput struct {
	RepoID   int64
	PusherID int64
	Changes  []repository.RefChange
	// DeployKeyID names the deploy key a push over SSH came with; the
	// pusher is then the repository's owner and the key's access counts.
	DeployKeyID int64
	// TaskID names the workflow task whose token pushed; the pusher is
	// then the Actions pseudo-user, with the rights of the task's run.
	TaskID int64
	// Quarantine is the name of the push's incoming object directory under
	// objects/, where its objects wait until pre-receive accepts them.
	Quarantine string
}

// PreReceive decides whether a push may update its refs. It runs while the
// pushed objects are still quarantined, so a refusal leaves nothing behind.
// The pusher's permission is computed again: it may have changed since the
// request was admitted.
func (s *Service) PreReceive(ctx context.Context, in HookInput) error {
	r, u, err := s.hookFacts(ctx, in)
	if err != nil {
		return err
	}
	if in.TaskID != 0 {
		err = s.checkTaskPusher(ctx, r, in.TaskID)
	} else {
		err = s.checkPushingKeyOrAccount(ctx, r, u, in.DeployKeyID)
	}
	if err != nil {
		return err
	}
	if err := checkPushable(r); err != nil {
		return err
	}
	for _, c := range in.Changes {
		if err := repository.CheckPushedRef(c); err != nil {
			return err
		}
		if err := s.checkBranchProtection(ctx, r, u, in, c); err != nil {
			return err
		}
		if err := repository.CheckDefaultBranchKept(r, c); err != nil {
			return err
		}
	}
	if err := s.checkProtectedTags(ctx, r, u, in.Changes); err != nil {
		return err
	}
	return nil
}

// PostReceive records what a push changed: the first push to an empty
// repository chooses its default branch (in the database and HEAD), the
// empty flag and size follow the repository, and a push event is emitted.
// The refs have moved already; errors here are reported, never undone.
func (s *Service) PostReceive(ctx context.Context, in HookInput) error {
	r, pusher, err := s.hookFacts(ctx, in)
	if err != nil {
		return err
	}
	p := ports.RepoPath{Owner: r.Owner.Name, Name: r.Name}
	empty, err := s.git.IsEmpty(ctx, p)
	if err != nil {
		return err
	}
	if err := s.recordEmptiness(ctx, r, p, empty, in.Changes); err != nil {
		return err
	}
	size, err := s.git.Size(ctx, p)
	if err != nil {
		return err
	}
	ev := ports.PushEvent{RepoID: r.ID, Owner: r.Owner.Name, Repo: r.Name, PusherID: pusher.ID,
		PusherName: pusher.Name, Changes: in.Changes, When: s.clock.Now()}
	// The size and the push's deliveries commit together (an outbox).
	err = s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		if err := tx.Repos.SetSize(ctx, r.ID, size); err != nil {
			return err
		}
		if len(in.Changes) == 0 {
			return nil
		}
		if err := s.events.Pushed(ctx, tx, ev); err != nil {
			return err
		}
		for _, f := range s.pushed {
			if err := f(ctx, tx, r, pusher.ID, in.Changes); err != nil {
				return err
			}
		}
		return mirrors.EnqueueOnCommit(ctx, tx, r.ID)
	})
	if n, ok := s.events.(committedNotifier); ok && err == nil {
		n.Notify()
	}
	if err == nil {
		s.warmCommitCounts(p, in.Changes)
	}
	return err
}

// warmCountTimeout bounds one push's commit-count warm-up.
const warmCountTimeout = 5 * time.Minute

// warmCommitCounts counts, in the background, the history of the branches
// a push moved, so that the first commit listing after the push (which
// reports the total) does not wait for a walk of the whole history.
func (s *Service) warmCommitCounts(p ports.RepoPath, changes []repository.RefChange) {
	var ids []string
	for _, c := range changes {
		if !c.IsDelete() && strings.HasPrefix(c.Ref, "refs/heads/") {
			ids = append(ids, c.NewID)
		}
	}
	if len(ids) == 0 {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), warmCountTimeout)
		defer cancel()
		if err := s.git.WarmCommitCounts(ctx, p, ids); err != nil {
			s.log.Warn("counting the pushed branches' commits", "repo", p.Owner+"/"+p.Name, "err", err)
		}
	}()
}

// committedNotifier is an event port whose queued work waits for a signal
// after the transaction that queued it commits (the webhook dispatcher
// wakes its delivery workers).
type committedNotifier interface{ Notify() }

// recordEmptiness keeps the empty flag right and, when the repository has
// just received its first branch, makes one of the pushed branches its
// default.
func (s *Service) recordEmptiness(ctx context.Context, r *repository.Repository, p ports.RepoPath, empty bool,
	changes []repository.RefChange) error {
	if r.Empty && !empty {
		branch, ok := repository.DefaultBranchAfterFirstPush(r.DefaultBranch, changes)
		if ok {
			if has, err := s.git.HasBranch(ctx, p, branch); err != nil {
				return err
			} else if !has {
				ok = false // deleted again by a concurrent push
			}
		}
		if ok && branch != r.DefaultBranch {
			if err := s.git.SetHead(ctx, p, branch); err != nil {
				return err
			}
			return s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
				cur, err := tx.Repos.GetByID(ctx, r.ID)
				if err != nil {
					return err
				}
				cur.DefaultBranch, cur.Empty = branch, false
				return tx.Repos.Update(ctx, cur)
			})
		}
	}
	if r.Empty != empty {
		return s.stores.Repos.SetEmpty(ctx, r.ID, empty)
	}
	return nil
}

// hookFacts loads the repository and the pusher a hook names: an account,
// or the Actions pseudo-user for a push made with a task's token.
func (s *Service) hookFacts(ctx context.Context, in HookInput) (*repository.Repository, *user.User, error) {
	byTask := in.TaskID > 0 && in.PusherID == user.ActionsUserID
	if in.RepoID <= 0 || (in.PusherID <= 0 && !byTask) || (in.TaskID != 0 && !byTask) {
		return nil, nil, errs.BadRequest("hook: repository and pusher are required")
	}
	if len(in.Changes) > MaxHookChanges {
		return nil, nil, errs.TooLarge(fmt.Sprintf("a push may update at most %d refs", MaxHookChanges))
	}
	r, err := s.stores.Repos.GetByID(ctx, in.RepoID)
	if err != nil {
		return nil, nil, err
	}
	if byTask {
		return r, user.NewActionsUser(), nil
	}
	u, err := s.stores.Users.GetByID(ctx, in.PusherID)
	if errors.Is(err, errs.ErrNotFound) {
		return nil, nil, errs.Forbidden(msgNoPush)
	}
	if err != nil {
		return nil, nil, err
	}
	return r, u, nil
}

// taskCaller is the caller a task's token makes, while the task runs; a
// finished or unknown task is errs.ErrForbidden.
func (s *Service) taskCaller(ctx context.Context, taskID int64) (auth.Caller, error) {
	task, err := s.stores.ActionTasks.Get(ctx, taskID)
	if errors.Is(err, errs.ErrNotFound) {
		return auth.Caller{}, errs.Forbidden(msgNoPush)
	}
	if err != nil {
		return auth.Caller{}, err
	}
	if task.Status != actions.StatusRunning {
		return auth.Caller{}, errs.Forbidden(msgNoPush)
	}
	return auth.Caller{User: user.NewActionsUser(),
		Task: &auth.TaskCaller{TaskID: task.ID, RunID: task.Run.ID, RepoID: task.Run.RepoID}}, nil
}

// checkTaskPusher checks that the task whose token pushes still runs and
// that its run may write r's code (its own repository's).
func (s *Service) checkTaskPusher(ctx context.Context, r *repository.Repository, taskID int64) error {
	perm, err := s.pushPermission(ctx, r, nil, taskID)
	if err != nil {
		return err
	}
	if !perm.CanWrite(permission.UnitCode) {
		return errs.Forbidden(msgNoPush)
	}
	return nil
}

// pushPermission is the pusher's permission in r: the task's run's when a
// task's token pushes (taskID set), else account u's.
func (s *Service) pushPermission(ctx context.Context, r *repository.Repository, u *user.User, taskID int64) (permission.Permission, error) {
	if taskID == 0 {
		return s.repos.PermissionOf(ctx, u, r)
	}
	c, err := s.taskCaller(ctx, taskID)
	if err != nil {
		return permission.Permission{}, err
	}
	return s.repos.CallerPermission(ctx, c, r)
}

// checkPusher checks that u may still sign in and write r's code.
func (s *Service) checkPusher(ctx context.Context, r *repository.Repository, u *user.User) error {
	actor := auth.Caller{User: u}.Actor()
	if err := permission.CheckAccount(actor, s.settings.RequireEmailConfirmation, s.accountURL); err != nil {
		return err
	}
	perm, err := s.repos.PermissionOf(ctx, u, r)
	if err != nil {
		return err
	}
	if !perm.CanWrite(permission.UnitCode) {
		return errs.Forbidden(msgNoPush)
	}
	return nil
}
