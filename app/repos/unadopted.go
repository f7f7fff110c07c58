package repos

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/depothq/depot/app/auth"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// Unadopted serves the admin's unadopted repositories: Git directories
// under the repository root that have no record.
type Unadopted struct{ s *Service }

// Unadopted returns the unadopted repositories' use cases.
func (s *Service) Unadopted() Unadopted { return Unadopted{s} }

// errNoUnadopted is the 404 for an address with no directory on disk.
var errNoUnadopted = errs.NotFound("no unadopted repository files at this address")

// List answers the page of "owner/name" of the directories without a record
// that pattern selects (repository.MatchUnadopted), sorted, and their total.
// A directory whose owner does not exist is unadopted too (as in Gitea);
// one whose names the domain would refuse is left out.
func (u Unadopted) List(ctx context.Context, pattern string, opts ports.ListOptions) ([]string, int64, error) {
	dirs, err := u.s.git.RepoDirs(ctx)
	if err != nil {
		return nil, 0, err
	}
	var candidates []ports.RepoPath
	var ownerNames []string
	for _, d := range dirs {
		if user.ValidateName("owner", d.Owner) != nil || repository.ValidateName("name", d.Name) != nil ||
			!repository.MatchUnadopted(pattern, d.Owner, d.Name) {
			continue
		}
		if len(candidates) == 0 || candidates[len(candidates)-1].Owner != d.Owner {
			ownerNames = append(ownerNames, d.Owner)
		}
		candidates = append(candidates, d)
	}
	// One query for the owners and one for their repositories' names,
	// however many directories there are.
	owners, err := u.s.stores.Users.GetByNames(ctx, ownerNames)
	if err != nil {
		return nil, 0, err
	}
	ownerIDs := map[string]int64{}
	ids := make([]int64, 0, len(owners))
	for _, o := range owners {
		ownerIDs[strings.ToLower(o.Name)] = o.ID
		ids = append(ids, o.ID)
	}
	recorded, err := u.s.stores.Repos.NamesByOwners(ctx, ids)
	if err != nil {
		return nil, 0, err
	}
	var all []string
	for _, d := range candidates {
		if id, ok := ownerIDs[d.Owner]; ok && slices.Contains(recorded[id], d.Name) {
			continue
		}
		all = append(all, d.Owner+"/"+d.Name)
	}
	total := int64(len(all))
	opts = opts.Clamped()
	start := (opts.Page - 1) * opts.Limit
	if opts.Limit <= 0 || start >= len(all) {
		if opts.Limit <= 0 {
			return all, total, nil
		}
		return []string{}, total, nil
	}
	return all[start:min(start+opts.Limit, len(all))], total, nil
}

// check validates an address and reports ErrNameTaken when it has a
// record and errNoUnadopted when nothing is on disk there.
func (u Unadopted) check(ctx context.Context, owner *user.User, name string) (ports.RepoPath, error) {
	p := ports.RepoPath{Owner: owner.Name, Name: name}
	if err := repository.ValidateName("reponame", name); err != nil {
		return p, err
	}
	if _, err := u.s.stores.Repos.GetByName(ctx, owner.ID, name); err == nil {
		return p, ErrNameTaken
	} else if !errors.Is(err, errs.ErrNotFound) {
		return p, err
	}
	ok, err := u.s.git.Exists(ctx, p)
	if err != nil {
		return p, err
	}
	if !ok {
		return p, errNoUnadopted
	}
	return p, nil
}

// Adopt creates the record of the repository on disk at owner/name on
// behalf of caller c, private as Gitea's adoption makes it, with its
// default branch, emptiness and size read from disk, in the creation's
// transaction (webhooks copied, watches, redirect freed). The directory is
// left in place whatever happens.
func (u Unadopted) Adopt(ctx context.Context, c auth.Caller, owner *user.User, name string) (*repository.Repository, error) {
	s := u.s
	if err := s.checkRepoLimit(ctx, owner); err != nil {
		return nil, err
	}
	unlock, err := s.lockDirectories(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	p, err := u.check(ctx, owner, name)
	if err != nil {
		return nil, err
	}
	r := s.newRepository(owner, name, "", true)
	if branch, err := s.git.HeadBranch(ctx, p); err != nil {
		return nil, err
	} else if branch != "" && repository.ValidateBranchName("branch", branch) == nil {
		r.DefaultBranch = branch
	}
	if r.Empty, err = s.git.IsEmpty(ctx, p); err != nil {
		return nil, err
	}
	// HEAD may name a branch that does not exist while others do: point it
	// at the default branch chosen.
	if !r.Empty {
		if err := s.git.SetHead(ctx, p, r.DefaultBranch); err != nil {
			return nil, err
		}
	}
	if size, err := s.git.Size(ctx, p); err == nil {
		r.Size = size
	}
	if err := s.insert(ctx, r, c.UserID()); err != nil {
		return nil, err
	}
	return s.stores.Repos.GetByID(ctx, r.ID)
}

// Delete removes the directory at owner/name, which must have no record.
func (u Unadopted) Delete(ctx context.Context, owner *user.User, name string) error {
	s := u.s
	unlock, err := s.lockDirectories(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	p, err := u.check(ctx, owner, name)
	if err != nil {
		return err
	}
	return s.git.Delete(ctx, p)
}
