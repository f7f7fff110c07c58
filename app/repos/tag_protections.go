package repos

import (
	"context"
	"errors"
	"slices"
	"sort"
	"strings"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/protection"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// TagProtections are the use cases of a repository's tag protection rules:
// managing them (repository administrators; the route's access codes have
// checked that) and deciding, for every path that creates, moves or deletes
// a tag, whether its writer may.
type TagProtections struct{ *Service }

// TagProtections returns the tag protection use cases.
func (s *Service) TagProtections() TagProtections { return TagProtections{s} }

// The API's field names, which 422s name.
const (
	fieldTagNamePattern = "name_pattern"
	fieldTagUsers       = "whitelist_usernames"
	fieldTagTeams       = "whitelist_teams"
)

// maxTagAllowlist bounds each allowlist of one request: every name is one
// lookup.
const maxTagAllowlist = 100

// Gitea's refusals of a create request (routers/api/v1/repo/tag.go).
const (
	msgTagPatternEmpty   = "name_pattern are empty"
	msgTagAllowlistEmpty = "both whitelist_usernames and whitelist_teams are empty"
)

// TagProtectionView is a rule with its allowlists by name, as the API shows
// them: the accounts allowed, and the teams allowed that reach the
// repository with read access to its code or pull requests (Gitea's
// ToTagProtection shows those only), each sorted by name.
type TagProtectionView struct {
	Rule  *protection.TagRule
	Users []string
	Teams []string
}

// TagProtectionInput is Gitea's CreateTagProtectionOption and
// EditTagProtectionOption: a nil field is left as it is (on an edit).
type TagProtectionInput struct {
	NamePattern *string
	Users       []string
	Teams       []string
	// UsersSet and TeamsSet say whether Users and Teams were given (an
	// empty list given empties the allowlist).
	UsersSet, TeamsSet bool
}

// List returns one page of a's rules ordered by id, and the total.
func (s TagProtections) List(ctx context.Context, a *Access, opts ports.ListOptions) ([]TagProtectionView, int64, error) {
	list, total, err := s.stores.TagProtections.List(ctx, a.Repo.ID, opts)
	if err != nil {
		return nil, 0, err
	}
	views, err := s.views(ctx, s.stores, a.Repo, list)
	return views, total, err
}

// Get returns one of a's rules.
func (s TagProtections) Get(ctx context.Context, a *Access, id int64) (TagProtectionView, error) {
	r, err := s.stores.TagProtections.Get(ctx, a.Repo.ID, id)
	if err != nil {
		return TagProtectionView{}, err
	}
	views, err := s.views(ctx, s.stores, a.Repo, []*protection.TagRule{r})
	if err != nil {
		return TagProtectionView{}, err
	}
	return views[0], nil
}

// Create adds a rule to a. Gitea's order of refusals: an empty pattern and
// two empty allowlists (400), then a pattern another rule has, an unknown
// user, an unknown team (422 naming the field). Depot also refuses a
// pattern that does not compile (422), which Gitea would store and then
// fail every push on.
func (s TagProtections) Create(ctx context.Context, a *Access, in TagProtectionInput) (TagProtectionView, error) {
	pattern := ""
	if in.NamePattern != nil {
		pattern = strings.TrimSpace(*in.NamePattern)
	}
	if pattern == "" {
		return TagProtectionView{}, errs.BadRequest(msgTagPatternEmpty)
	}
	if len(in.Users) == 0 && len(in.Teams) == 0 {
		return TagProtectionView{}, errs.BadRequest(msgTagAllowlistEmpty)
	}
	if _, err := protection.ParseTagPattern(pattern); err != nil {
		return TagProtectionView{}, err
	}
	now := s.clock.Now()
	r := &protection.TagRule{RepoID: a.Repo.ID, NamePattern: pattern, Created: now, Updated: now}
	var view TagProtectionView
	err := s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		var err error
		if r.AllowlistUserIDs, err = tagAllowedUsers(ctx, tx, in.Users); err != nil {
			return err
		}
		if r.AllowlistTeamIDs, err = tagAllowedTeams(ctx, tx, a.Repo, in.Teams); err != nil {
			return err
		}
		if err := tx.TagProtections.Create(ctx, r); err != nil {
			return tagRuleWriteErr(err)
		}
		// Read back, as Gitea does: the answer shows what was stored.
		stored, err := tx.TagProtections.Get(ctx, a.Repo.ID, r.ID)
		if err != nil {
			return err
		}
		views, err := s.views(ctx, tx, a.Repo, []*protection.TagRule{stored})
		if err != nil {
			return err
		}
		view = views[0]
		return nil
	})
	if err != nil {
		return TagProtectionView{}, err
	}
	s.tagRules.drop(a.Repo.ID)
	return view, nil
}

// Edit changes the fields of a's rule id that in gives.
func (s TagProtections) Edit(ctx context.Context, a *Access, id int64, in TagProtectionInput) (TagProtectionView, error) {
	var pattern string
	if in.NamePattern != nil {
		pattern = strings.TrimSpace(*in.NamePattern)
		if pattern == "" {
			return TagProtectionView{}, errs.BadRequest(msgTagPatternEmpty)
		}
		if _, err := protection.ParseTagPattern(pattern); err != nil {
			return TagProtectionView{}, err
		}
	}
	var view TagProtectionView
	err := s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		r, err := tx.TagProtections.Get(ctx, a.Repo.ID, id)
		if err != nil {
			return err
		}
		if in.NamePattern != nil {
			r.NamePattern = pattern
		}
		if in.TeamsSet {
			if r.AllowlistTeamIDs, err = tagAllowedTeams(ctx, tx, a.Repo, in.Teams); err != nil {
				return err
			}
		}
		if in.UsersSet {
			if r.AllowlistUserIDs, err = tagAllowedUsers(ctx, tx, in.Users); err != nil {
				return err
			}
		}
		r.Updated = s.clock.Now()
		if err := tx.TagProtections.Update(ctx, r); err != nil {
			return tagRuleWriteErr(err)
		}
		if r, err = tx.TagProtections.Get(ctx, a.Repo.ID, id); err != nil {
			return err
		}
		views, err := s.views(ctx, tx, a.Repo, []*protection.TagRule{r})
		if err != nil {
			return err
		}
		view = views[0]
		return nil
	})
	if err != nil {
		return TagProtectionView{}, err
	}
	s.tagRules.drop(a.Repo.ID)
	return view, nil
}

// Delete removes one of a's rules.
func (s TagProtections) Delete(ctx context.Context, a *Access, id int64) error {
	err := s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		return tx.TagProtections.Delete(ctx, a.Repo.ID, id)
	})
	if err != nil {
		return err
	}
	s.tagRules.drop(a.Repo.ID)
	return nil
}

// RefusedTag decides for every path that creates, moves or deletes tags
// of r (a push, the tag routes, releases): it returns the first of tags
// that userID may not change, "" when all may proceed. The rules come from
// a per-repository cache; the user's teams are looked up only when a team
// could make the difference.
func (s TagProtections) RefusedTag(ctx context.Context, r *repository.Repository, userID int64, tags ...string) (string, error) {
	if len(tags) == 0 {
		return "", nil
	}
	rules, err := s.tagRules.get(ctx, r.ID, s.stores.TagProtections.ListAll)
	if err != nil {
		return "", err
	}
	if rules.Len() == 0 {
		return "", nil
	}
	who := protection.TagChanger{UserID: userID}
	if r.Owner.Kind == user.KindOrganization && rules.NeedsTeams(userID, tags...) {
		teams, err := s.stores.Orgs.TeamsOf(ctx, r.Owner.ID, userID)
		if err != nil && !errors.Is(err, errs.ErrNotFound) {
			return "", err
		}
		for _, t := range teams {
			who.TeamIDs = append(who.TeamIDs, t.ID)
		}
	}
	tag, _ := rules.FirstRefused(who, tags...)
	return tag, nil
}

// tagAllowedUsers resolves allowlisted account names; an unknown name (or
// an organisation's) is a 422 naming whitelist_usernames.
func tagAllowedUsers(ctx context.Context, tx ports.Stores, names []string) ([]int64, error) {
	if len(names) > maxTagAllowlist {
		return nil, errs.Invalid("MaxSize", fieldTagUsers)
	}
	ids := make([]int64, 0, len(names))
	for _, n := range tagUniqueNames(names) {
		u, err := tx.Users.GetByName(ctx, n)
		if errors.Is(err, errs.ErrNotFound) || (err == nil && u.Kind != user.KindIndividual) {
			return nil, errs.Invalid("user does not exist [name: "+n+"]", fieldTagUsers)
		}
		if err != nil {
			return nil, err
		}
		ids = append(ids, u.ID)
	}
	return ids, nil
}

// tagAllowedTeams resolves allowlisted team names among the teams of r's
// organisation. A personal repository has no teams, so any name is unknown
// (Gitea drops the names silently, leaving a rule nobody may pass).
func tagAllowedTeams(ctx context.Context, tx ports.Stores, r *repository.Repository, names []string) ([]int64, error) {
	if len(names) > maxTagAllowlist {
		return nil, errs.Invalid("MaxSize", fieldTagTeams)
	}
	ids := make([]int64, 0, len(names))
	for _, n := range tagUniqueNames(names) {
		if r.Owner.Kind != user.KindOrganization {
			return nil, errs.Invalid("team does not exist [name: "+n+"]", fieldTagTeams)
		}
		t, err := tx.Orgs.GetTeamByName(ctx, r.Owner.ID, n)
		if errors.Is(err, errs.ErrNotFound) {
			return nil, errs.Invalid("team does not exist [name: "+n+"]", fieldTagTeams)
		}
		if err != nil {
			return nil, err
		}
		ids = append(ids, t.ID)
	}
	return ids, nil
}

// tagUniqueNames is names trimmed, without blanks and case-insensitive repeats.
func tagUniqueNames(names []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, n := range names {
		n = strings.TrimSpace(n)
		if n == "" || seen[strings.ToLower(n)] {
			continue
		}
		seen[strings.ToLower(n)] = true
		out = append(out, n)
	}
	return out
}

// tagRuleWriteErr turns a store's refusal into the API's: a pattern another
// rule has is a 422 on name_pattern, as the issue asks (Gitea answers 403);
// a user or team deleted meanwhile is a 422 on its allowlist.
func tagRuleWriteErr(err error) error {
	switch {
	case errors.Is(err, errs.ErrConflict):
		return errs.Invalid("a tag protection with this name pattern already exists", fieldTagNamePattern)
	case errors.Is(err, errs.ErrNotFound) && strings.HasPrefix(errs.Message(err), "team"):
		return errs.Invalid(errs.Message(err), fieldTagTeams)
	case errors.Is(err, errs.ErrNotFound) && strings.HasPrefix(errs.Message(err), "user"):
		return errs.Invalid(errs.Message(err), fieldTagUsers)
	}
	return err
}

// views renders rules with their allowlists by name: one query for the
// accounts of the whole list, one for the teams that reach r.
func (s TagProtections) views(ctx context.Context, st ports.Stores, r *repository.Repository, rules []*protection.TagRule) ([]TagProtectionView, error) {
	var userIDs []int64
	teamsWanted := false
	for _, rule := range rules {
		userIDs = append(userIDs, rule.AllowlistUserIDs...)
		teamsWanted = teamsWanted || len(rule.AllowlistTeamIDs) > 0
	}
	names := map[int64]string{}
	if len(userIDs) > 0 {
		slices.Sort(userIDs)
		list, err := st.Users.GetByIDs(ctx, slices.Compact(userIDs))
		if err != nil {
			return nil, err
		}
		for _, u := range list {
			names[u.ID] = u.Name
		}
	}
	teamNames := map[int64]string{}
	if teamsWanted && r.Owner.Kind == user.KindOrganization {
		teams, err := st.Orgs.RepoTeams(ctx, r.ID)
		if err != nil {
			return nil, err
		}
		for _, t := range teams {
			if t.Units[permission.UnitCode] >= permission.ModeRead || t.Units[permission.UnitPulls] >= permission.ModeRead {
				teamNames[t.ID] = t.Name
			}
		}
	}
	out := make([]TagProtectionView, len(rules))
	for i, rule := range rules {
		v := TagProtectionView{Rule: rule, Users: []string{}, Teams: []string{}}
		for _, id := range rule.AllowlistUserIDs {
			if n, ok := names[id]; ok {
				v.Users = append(v.Users, n)
			}
		}
		for _, id := range rule.AllowlistTeamIDs {
			if n, ok := teamNames[id]; ok {
				v.Teams = append(v.Teams, n)
			}
		}
		sort.Slice(v.Users, func(a, b int) bool { return strings.ToLower(v.Users[a]) < strings.ToLower(v.Users[b]) })
		sort.Slice(v.Teams, func(a, b int) bool { return strings.ToLower(v.Teams[a]) < strings.ToLower(v.Teams[b]) })
		out[i] = v
	}
	return out, nil
}
