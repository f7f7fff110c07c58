package content

import (
	"context"
	"errors"
	"strings"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/commitstatus"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// Statuses are the use cases of commit statuses.
type Statuses struct{ *Service }

// Statuses returns the commit status use cases.
func (s *Service) Statuses() Statuses { return Statuses{s} }

// StatusPage is one page of commit statuses with the accounts that
// reported them.
type StatusPage struct {
	Statuses []*commitstatus.Status
	// Creators maps creator ids to accounts; a deleted account is absent.
	Creators map[int64]*user.User
	// Total counts what matched, over every page.
	Total int64
}

// CombinedStatus is a commit's combined state and one page of the latest
// status of each of its contexts.
type CombinedStatus struct {
	// SHA is the commit's full id.
	SHA string
	// State combines the latest status of every context, not only the
	// page's; "" when the commit has no status.
	State commitstatus.State
	StatusPage
}

// Create records a status, reported by the caller, on the commit sha
// names (a full or abbreviated commit id, or a branch or tag name, as Gitea
// resolves it). The body is validated first (422), then the commit must
// exist (404).
func (s Statuses) Create(ctx context.Context, a *repos.Access, sha string, in commitstatus.Report) (*commitstatus.Status, *user.User, error) {
	r, err := in.Validate()
	if err != nil {
		return nil, nil, err
	}
	if strings.TrimSpace(sha) == "" {
		return nil, nil, errs.BadRequest("sha not given")
	}
	rev, err := s.git.Resolve(ctx, pathOf(a.Repo), sha)
	if err != nil {
		if errors.Is(err, errs.ErrNotFound) {
			return nil, nil, errs.NotFound("commit " + sha + " does not exist")
		}
		return nil, nil, err
	}
	creator := a.Caller.User
	if creator == nil {
		// The route requires a sign-in; this guards a miswired table.
		return nil, nil, errs.Unauthenticated("token is required")
	}
	now := s.clock.Now()
	st := &commitstatus.Status{
		RepoID: a.Repo.ID, SHA: rev.CommitID, State: commitstatus.State(r.State),
		TargetURL: r.TargetURL, Description: r.Description, Context: r.Context,
		CreatorID: creator.ID, Created: now, Updated: now,
	}
	err = s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		if err := tx.CommitStatuses.Create(ctx, st); err != nil {
			return err
		}
		for _, f := range s.statusRecorders {
			if err := f(ctx, tx, a.Repo, st.SHA); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return st, creator, nil
}

// List lists one page of the statuses of the commit sha names, in
// q's order (GET R/statuses/{sha}). A full commit id is taken as it is,
// without asking Git, as Gitea does, so the statuses of a commit since
// rewritten away stay readable; anything else (an abbreviated id, a branch
// or tag) must resolve (404).
func (s Statuses) List(ctx context.Context, a *repos.Access, sha string, q ports.CommitStatusQuery) (*StatusPage, error) {
	return s.list(ctx, a, sha, false, q)
}

// ListByRef is List for the commit a branch, tag or commit
// id names (GET R/commits/{ref}/statuses); the commit must exist (404).
func (s Statuses) ListByRef(ctx context.Context, a *repos.Access, ref string, q ports.CommitStatusQuery) (*StatusPage, error) {
	return s.list(ctx, a, ref, true, q)
}

func (s Statuses) list(ctx context.Context, a *repos.Access, ref string, mustExist bool, q ports.CommitStatusQuery) (*StatusPage, error) {
	sha, err := s.commit(ctx, a, ref, mustExist)
	if err != nil {
		return nil, err
	}
	list, total, err := s.stores.CommitStatuses.List(ctx, a.Repo.ID, sha, q)
	if err != nil {
		return nil, err
	}
	return s.page(ctx, list, total)
}

// Combined answers for the commit a branch, tag or commit id names
// (404 when there is none): one page of the latest status per context and
// the combined state of all of them.
func (s Statuses) Combined(ctx context.Context, a *repos.Access, ref string, opts ports.ListOptions) (*CombinedStatus, error) {
	sha, err := s.commit(ctx, a, ref, true)
	if err != nil {
		return nil, err
	}
	list, total, err := s.stores.CommitStatuses.Latest(ctx, a.Repo.ID, sha, opts)
	if err != nil {
		return nil, err
	}
	state := commitstatus.CombineStatuses(list)
	if int64(len(list)) < total {
		// Other pages hold contexts too: count their states instead of
		// loading them.
		counts, err := s.stores.CommitStatuses.LatestStates(ctx, a.Repo.ID, sha)
		if err != nil {
			return nil, err
		}
		state = commitstatus.CombineCounts(counts)
	}
	page, err := s.page(ctx, list, total)
	if err != nil {
		return nil, err
	}
	return &CombinedStatus{SHA: sha, State: state, StatusPage: *page}, nil
}

// commit turns a route's sha or ref into the full commit id statuses
// are stored under. Unless mustExist, a full id is taken without asking Git.
func (s Statuses) commit(ctx context.Context, a *repos.Access, ref string, mustExist bool) (string, error) {
	if ref == "" {
		return "", errs.BadRequest("ref/sha not given")
	}
	if !mustExist && isFullCommitID(ref) {
		return strings.ToLower(ref), nil
	}
	rev, err := s.git.Resolve(ctx, pathOf(a.Repo), ref)
	if err != nil {
		return "", err
	}
	return rev.CommitID, nil
}

// isFullCommitID reports a SHA-1 or SHA-256 object id in hex.
func isFullCommitID(s string) bool {
	return (len(s) == 40 || len(s) == 64) && repository.IsHex(s)
}

// page loads the creators of list in one query.
func (s Statuses) page(ctx context.Context, list []*commitstatus.Status, total int64) (*StatusPage, error) {
	seen := map[int64]bool{}
	var ids []int64
	for _, st := range list {
		if st.CreatorID != 0 && !seen[st.CreatorID] {
			seen[st.CreatorID] = true
			ids = append(ids, st.CreatorID)
		}
	}
	creators := make(map[int64]*user.User, len(ids))
	if seen[user.ActionsUserID] { // workflow jobs report as the Actions pseudo-user, which has no row
		creators[user.ActionsUserID] = user.NewActionsUser()
	}
	if len(ids) > 0 {
		users, err := s.stores.Users.GetByIDs(ctx, ids)
		if err != nil {
			return nil, err
		}
		for _, u := range users {
			creators[u.ID] = u
		}
	}
	return &StatusPage{Statuses: list, Creators: creators, Total: total}, nil
}
