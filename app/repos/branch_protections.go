package repos

import (
	"context"
	"errors"
	"sync"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/protection"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// BranchProtections are the use cases of a repository's branch protection
// rules, and the cached rule sets every write path checks.
type BranchProtections struct{ *Service }

// BranchProtections returns the branch protection use cases.
func (s *Service) BranchProtections() BranchProtections { return BranchProtections{s} }

// ruleCache keeps each repository's compiled rules, keyed by repository id,
// until a rule of that repository changes. A load that started before a
// change is not kept (the generation moved on).
type ruleCache struct {
	ports.DropSharing
	mu   sync.Mutex
	sets map[int64]*protection.RuleSet
	gen  map[int64]uint64
	// epoch moves on with DropAll, which no single generation records.
	epoch uint64
	// stats counts the lookups, for the metrics page.
	stats *ports.CacheStats
}

func newRuleCache() *ruleCache {
	return &ruleCache{sets: map[int64]*protection.RuleSet{}, gen: map[int64]uint64{},
		stats: ports.NewCacheStats("branch_protections", false)}
}

// drop forgets repoID's rules, here and on the servers that share the
// database.
func (c *ruleCache) drop(repoID int64) {
	c.dropLocal(repoID)
	c.Share(ports.CacheDrop{Cache: ports.CacheBranchRules, ID: repoID})
}

func (c *ruleCache) dropLocal(repoID int64) {
	c.mu.Lock()
	c.gen[repoID]++
	delete(c.sets, repoID)
	c.mu.Unlock()
}

// ApplyDrop drops what another server's drop names.
func (c *ruleCache) ApplyDrop(d ports.CacheDrop) {
	if d.Cache == ports.CacheBranchRules {
		c.dropLocal(d.ID)
	}
}

// DropAll forgets every repository's rules; the epoch moves on, so no load
// that started before is kept.
func (c *ruleCache) DropAll() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.epoch++
	c.sets = map[int64]*protection.RuleSet{}
}

// BranchRuleHook is told, inside the transaction that creates, edits or
// deletes the branch protection rule named ruleName of repo, so that what
// the rule judges is judged again (the pull requests into the branches it
// names, as Gitea's CheckPRsForBaseBranch).
type BranchRuleHook func(ctx context.Context, tx ports.Stores, repo *repository.Repository, ruleName string) error

// OnBranchRuleChange registers the hook; the pull request use cases build
// on this package, so they reach in here. Call it before serving.
func (s *Service) OnBranchRuleChange(h BranchRuleHook) { s.rulesChanged = h }

// ruleChanged runs the registered hook, if any.
func (s BranchProtections) ruleChanged(ctx context.Context, tx ports.Stores, repo *repository.Repository, name string) error {
	if s.rulesChanged == nil {
		return nil
	}
	return s.rulesChanged(ctx, tx, repo, name)
}

// Rules returns the repository's rules, compiled and ordered (cached).
func (s BranchProtections) Rules(ctx context.Context, repoID int64) (*protection.RuleSet, error) {
	c := s.ruleCache
	c.mu.Lock()
	if set, ok := c.sets[repoID]; ok {
		c.mu.Unlock()
		c.stats.Hit()
		return set, nil
	}
	gen, epoch := c.gen[repoID], c.epoch
	c.mu.Unlock()
	c.stats.Miss()
	list, err := s.stores.BranchProtections.List(ctx, repoID)
	if err != nil {
		return nil, err
	}
	set := protection.NewRuleSet(list)
	c.mu.Lock()
	if c.gen[repoID] == gen && c.epoch == epoch {
		c.sets[repoID] = set
	}
	c.mu.Unlock()
	return set, nil
}

// Match returns the protection of branch in r, nil when none applies.
func (s BranchProtections) Match(ctx context.Context, r *repository.Repository, branch string) (*protection.Protection, error) {
	set, err := s.Rules(ctx, r.ID)
	if err != nil {
		return nil, err
	}
	return set.Match(branch), nil
}

// Doer gathers what protection p needs to know of u writing to r with
// permission perm: its write access to code and, when p names teams, its
// teams in r's organisation. deployKey marks a deploy key's push.
func (s BranchProtections) Doer(ctx context.Context, r *repository.Repository, u *user.User, perm permission.Permission,
	deployKey bool, p *protection.Protection) (protection.Doer, error) {
	d := protection.Doer{DeployKey: deployKey, CanWriteCode: perm.CanWrite(permission.UnitCode)}
	if u == nil {
		return d, nil
	}
	d.UserID, d.UserName = u.ID, u.LowerName
	if p != nil && p.NeedsTeams() && r.Owner.Kind == user.KindOrganization && !deployKey {
		teams, err := s.stores.Orgs.TeamsOf(ctx, r.Owner.ID, u.ID)
		if err != nil {
			return d, err
		}
		for _, t := range teams {
			d.TeamIDs = append(d.TeamIDs, t.ID)
		}
	}
	return d, nil
}

// View is a repository's rules with the caller as they judge it, for
// rendering branches: rules loaded once (cached) and the caller's teams
// looked up once, whatever the number of branches.
type View struct {
	Rules *protection.RuleSet
	Doer  protection.Doer
}

// ViewFor gathers the View of a's repository for a's caller.
func (s BranchProtections) ViewFor(ctx context.Context, a *Access) (View, error) {
	set, err := s.Rules(ctx, a.Repo.ID)
	if err != nil {
		return View{}, err
	}
	v := View{Rules: set, Doer: protection.Doer{CanWriteCode: a.Perm.CanWrite(permission.UnitCode)}}
	u := a.Caller.User
	if u == nil || set.Len() == 0 {
		return v, nil
	}
	v.Doer.UserID, v.Doer.UserName = u.ID, u.LowerName
	if set.NeedsTeams() && a.Repo.Owner.Kind == user.KindOrganization {
		teams, err := s.stores.Orgs.TeamsOf(ctx, a.Repo.Owner.ID, u.ID)
		if err != nil {
			return v, err
		}
		for _, t := range teams {
			v.Doer.TeamIDs = append(v.Doer.TeamIDs, t.ID)
		}
	}
	return v, nil
}

// BranchRuleInput is a rule as a request gives it: allowlists by names.
// For an edit, nil fields are left as they are.
type BranchRuleInput struct {
	EnablePush, EnablePushAllowlist, PushAllowlistDeployKeys                *bool
	PushAllowlistUsers, PushAllowlistTeams                                  *[]string
	EnableForcePush, EnableForcePushAllowlist, ForcePushAllowlistDeployKeys *bool
	ForcePushAllowlistUsers, ForcePushAllowlistTeams                        *[]string
	EnableMergeAllowlist                                                    *bool
	MergeAllowlistUsers, MergeAllowlistTeams                                *[]string
	EnableStatusCheck                                                       *bool
	StatusCheckContexts                                                     *[]string
	RequiredApprovals                                                       *int64
	EnableApprovalsAllowlist                                                *bool
	ApprovalsAllowlistUsers, ApprovalsAllowlistTeams                        *[]string
	BlockOnRejectedReviews, BlockOnOfficialReviewRequests, BlockOnOutdated  *bool
	DismissStaleApprovals, IgnoreStaleApprovals, RequireSignedCommits       *bool
	ProtectedFilePatterns, UnprotectedFilePatterns                          *string
	BlockAdminMergeOverride                                                 *bool
	Priority                                                                *int64
}

// Get returns the rule named name.
func (s BranchProtections) Get(ctx context.Context, a *Access, name string) (*protection.BranchRule, error) {
	return s.stores.BranchProtections.GetByName(ctx, a.Repo.ID, name)
}

// List returns the repository's rules in the order they apply.
func (s BranchProtections) List(ctx context.Context, a *Access) ([]*protection.BranchRule, error) {
	set, err := s.Rules(ctx, a.Repo.ID)
	if err != nil {
		return nil, err
	}
	return set.Rules(), nil
}

// Create adds a rule named name (422 when the name is taken or invalid).
func (s BranchProtections) Create(ctx context.Context, a *Access, name string, in BranchRuleInput) (*protection.BranchRule, error) {
	if a.Repo.Archived {
		return nil, errs.Locked("repository is archived")
	}
	now := s.clock.Now()
	r := &protection.BranchRule{RepoID: a.Repo.ID, Name: name, Created: now, Updated: now}
	if _, err := protection.CompileName(name); err != nil {
		return nil, err
	}
	if _, err := s.stores.BranchProtections.GetByName(ctx, a.Repo.ID, name); err == nil {
		return nil, protection.ErrRuleExists()
	} else if !errors.Is(err, errs.ErrNotFound) {
		return nil, err
	}
	if err := s.apply(ctx, a.Repo, r, in); err != nil {
		return nil, err
	}
	err := s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		if err := tx.BranchProtections.Create(ctx, r); err != nil {
			return err
		}
		return s.ruleChanged(ctx, tx, a.Repo, r.Name)
	})
	s.ruleCache.drop(a.Repo.ID)
	s.notifyEvents()
	if errors.Is(err, errs.ErrConflict) {
		return nil, protection.ErrRuleExists()
	}
	return r, err
}

// Edit changes the options in changes of the rule named name.
func (s BranchProtections) Edit(ctx context.Context, a *Access, name string, in BranchRuleInput) (*protection.BranchRule, error) {
	if a.Repo.Archived {
		return nil, errs.Locked("repository is archived")
	}
	r, err := s.stores.BranchProtections.GetByName(ctx, a.Repo.ID, name)
	if err != nil {
		return nil, err
	}
	if err := s.apply(ctx, a.Repo, r, in); err != nil {
		return nil, err
	}
	r.Updated = s.clock.Now()
	err = s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		if err := tx.BranchProtections.Update(ctx, r); err != nil {
			return err
		}
		return s.ruleChanged(ctx, tx, a.Repo, r.Name)
	})
	s.ruleCache.drop(a.Repo.ID)
	s.notifyEvents()
	return r, err
}

// FollowRename renames rule, named after a branch just renamed to to,
// inside tx (Gitea's RenameBranch). The caller calls RulesChanged once tx
// has ended.
func (s BranchProtections) FollowRename(ctx context.Context, tx ports.Stores, rule *protection.BranchRule, to string) error {
	renamed := *rule
	renamed.Name, renamed.Updated = to, s.clock.Now()
	return tx.BranchProtections.Update(ctx, &renamed)
}

// RulesChanged drops the cached rules of a repository whose rules a
// transaction of another use case changed, after it ended.
func (s BranchProtections) RulesChanged(repoID int64) { s.ruleCache.drop(repoID) }

// Delete removes the rule named name.
func (s BranchProtections) Delete(ctx context.Context, a *Access, name string) error {
	r, err := s.stores.BranchProtections.GetByName(ctx, a.Repo.ID, name)
	if err != nil {
		return err
	}
	err = s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		if err := tx.BranchProtections.Delete(ctx, a.Repo.ID, r.ID); err != nil {
			return err
		}
		return s.ruleChanged(ctx, tx, a.Repo, r.Name)
	})
	s.ruleCache.drop(a.Repo.ID)
	s.notifyEvents()
	return err
}

// SetPriorities orders the rules: ids first to last (Gitea's
// UpdateBranchProtectionPriories). Every id must be one of the
// repository's rules (422 otherwise).
func (s BranchProtections) SetPriorities(ctx context.Context, a *Access, ids []int64) error {
	if a.Repo.Archived {
		return errs.Locked("repository is archived")
	}
	list, err := s.stores.BranchProtections.List(ctx, a.Repo.ID)
	if err != nil {
		return err
	}
	known := map[int64]bool{}
	for _, r := range list {
		known[r.ID] = true
	}
	seen := map[int64]bool{}
	for _, id := range ids {
		if !known[id] || seen[id] {
			return errs.Invalid("must list each of the repository's branch protections at most once", "IDs")
		}
		seen[id] = true
	}
	err = s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		return tx.BranchProtections.SetPriorities(ctx, a.Repo.ID, ids)
	})
	s.ruleCache.drop(a.Repo.ID)
	return err
}

// apply sets the given options on r, resolving the allowlists' names, and
// validates the result.
func (s BranchProtections) apply(ctx context.Context, repo *repository.Repository, r *protection.BranchRule, in BranchRuleInput) error {
	setB := func(dst *bool, v *bool) {
		if v != nil {
			*dst = *v
		}
	}
	setB(&r.EnablePush, in.EnablePush)
	setB(&r.EnablePushAllowlist, in.EnablePushAllowlist)
	setB(&r.PushAllowlistDeployKeys, in.PushAllowlistDeployKeys)
	setB(&r.EnableForcePush, in.EnableForcePush)
	setB(&r.EnableForcePushAllowlist, in.EnableForcePushAllowlist)
	setB(&r.ForcePushAllowlistDeployKeys, in.ForcePushAllowlistDeployKeys)
	setB(&r.EnableMergeAllowlist, in.EnableMergeAllowlist)
	setB(&r.EnableStatusCheck, in.EnableStatusCheck)
	setB(&r.EnableApprovalsAllowlist, in.EnableApprovalsAllowlist)
	setB(&r.BlockOnRejectedReviews, in.BlockOnRejectedReviews)
	setB(&r.BlockOnOfficialReviewRequests, in.BlockOnOfficialReviewRequests)
	setB(&r.BlockOnOutdatedBranch, in.BlockOnOutdated)
	setB(&r.DismissStaleApprovals, in.DismissStaleApprovals)
	setB(&r.IgnoreStaleApprovals, in.IgnoreStaleApprovals)
	setB(&r.RequireSignedCommits, in.RequireSignedCommits)
	setB(&r.BlockAdminMergeOverride, in.BlockAdminMergeOverride)
	if in.StatusCheckContexts != nil {
		r.StatusCheckContexts = *in.StatusCheckContexts
	}
	if in.RequiredApprovals != nil && *in.RequiredApprovals >= 0 {
		r.RequiredApprovals = *in.RequiredApprovals
	}
	if in.ProtectedFilePatterns != nil {
		r.ProtectedFilePatterns = *in.ProtectedFilePatterns
	}
	if in.UnprotectedFilePatterns != nil {
		r.UnprotectedFilePatterns = *in.UnprotectedFilePatterns
	}
	if in.Priority != nil {
		r.Priority = *in.Priority
	}
	users := []struct {
		names *[]string
		dst   *[]int64
		field string
		unit  permission.Unit
	}{
		{in.PushAllowlistUsers, &r.PushAllowlistUserIDs, "PushWhitelistUsernames", permission.UnitCode},
		{in.ForcePushAllowlistUsers, &r.ForcePushAllowlistUserIDs, "ForcePushAllowlistUsernames", permission.UnitCode},
		{in.MergeAllowlistUsers, &r.MergeAllowlistUserIDs, "MergeWhitelistUsernames", permission.UnitCode},
		{in.ApprovalsAllowlistUsers, &r.ApprovalsAllowlistUserIDs, "ApprovalsWhitelistUsernames", permission.UnitPulls},
	}
	for _, u := range users {
		if u.names == nil {
			continue
		}
		ids, err := s.allowlistUsers(ctx, repo, *u.names, u.field, u.unit)
		if err != nil {
			return err
		}
		*u.dst = ids
	}
	teams := []struct {
		names *[]string
		dst   *[]int64
		field string
	}{
		{in.PushAllowlistTeams, &r.PushAllowlistTeamIDs, "PushWhitelistTeams"},
		{in.ForcePushAllowlistTeams, &r.ForcePushAllowlistTeamIDs, "ForcePushAllowlistTeams"},
		{in.MergeAllowlistTeams, &r.MergeAllowlistTeamIDs, "MergeWhitelistTeams"},
		{in.ApprovalsAllowlistTeams, &r.ApprovalsAllowlistTeamIDs, "ApprovalsWhitelistTeams"},
	}
	for _, t := range teams {
		if t.names == nil {
			continue
		}
		ids, err := s.allowlistTeams(ctx, repo, *t.names, t.field)
		if err != nil {
			return err
		}
		*t.dst = ids
	}
	r.Normalize()
	return r.Validate()
}

// allowlistUsers resolves names to ids: an unknown account is a 422 naming
// field; as in Gitea, an account without the unit's access (write code, or
// read pull requests for approvals) is left out.
func (s BranchProtections) allowlistUsers(ctx context.Context, repo *repository.Repository, names []string, field string,
	unit permission.Unit) ([]int64, error) {
	ids := make([]int64, 0, len(names))
	for _, n := range names {
		u, err := s.stores.Users.GetByName(ctx, n)
		if errors.Is(err, errs.ErrNotFound) || (err == nil && u.Kind != user.KindIndividual) {
			return nil, errs.Invalid("user does not exist [name: "+n+"]", field)
		}
		if err != nil {
			return nil, err
		}
		perm, err := s.PermissionOf(ctx, u, repo)
		if err != nil {
			return nil, err
		}
		ok := perm.CanWrite(unit)
		if unit == permission.UnitPulls {
			ok = perm.CanRead(unit)
		}
		if ok {
			ids = append(ids, u.ID)
		}
	}
	return ids, nil
}

// allowlistTeams resolves team names of the repository's organisation;
// an unknown team is a 422 naming field. A user's repository has no teams:
// the lists are ignored there, as in Gitea.
func (s BranchProtections) allowlistTeams(ctx context.Context, repo *repository.Repository, names []string, field string) ([]int64, error) {
	if repo.Owner.Kind != user.KindOrganization {
		return []int64{}, nil
	}
	ids := make([]int64, 0, len(names))
	for _, n := range names {
		t, err := s.stores.Orgs.GetTeamByName(ctx, repo.Owner.ID, n)
		if errors.Is(err, errs.ErrNotFound) {
			return nil, errs.Invalid("team does not exist [name: "+n+"]", field)
		}
		if err != nil {
			return nil, err
		}
		ids = append(ids, t.ID)
	}
	return ids, nil
}

// Names returns the names of the accounts and teams the rules' allowlists
// hold, in two queries at most.
func (s BranchProtections) Names(ctx context.Context, a *Access, rules []*protection.BranchRule) (users, teams map[int64]string, err error) {
	users, teams = map[int64]string{}, map[int64]string{}
	var userIDs []int64
	needTeams := false
	for _, r := range rules {
		for _, l := range [][]int64{r.PushAllowlistUserIDs, r.ForcePushAllowlistUserIDs, r.MergeAllowlistUserIDs, r.ApprovalsAllowlistUserIDs} {
			userIDs = append(userIDs, l...)
		}
		needTeams = needTeams || len(r.PushAllowlistTeamIDs)+len(r.ForcePushAllowlistTeamIDs)+len(r.MergeAllowlistTeamIDs)+
			len(r.ApprovalsAllowlistTeamIDs) > 0
	}
	if len(userIDs) > 0 {
		list, err := s.stores.Users.GetByIDs(ctx, userIDs)
		if err != nil {
			return nil, nil, err
		}
		for _, u := range list {
			users[u.ID] = u.Name
		}
	}
	if needTeams && a.Repo.Owner.Kind == user.KindOrganization {
		list, _, err := s.stores.Orgs.ListTeams(ctx, a.Repo.Owner.ID, "", false, ports.ListOptions{Page: 1, Limit: 10000})
		if err != nil {
			return nil, nil, err
		}
		for _, t := range list {
			teams[t.ID] = t.Name
		}
	}
	return users, teams, nil
}
