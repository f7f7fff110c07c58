package memstore

import (
	"context"
	"slices"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/protection"
	"github.com/depothq/depot/ports"
)

var _ ports.TagProtectionStore = (*TagProtectionStore)(nil)

// TagProtectionStore is the in-memory ports.TagProtectionStore. The SQL
// store's cascades (a deleted repository, user or team) are played on
// read: rules of a repository that is gone, and allowlisted accounts and
// teams that are gone, are not seen.
type TagProtectionStore struct{ d *DB }

var errTagRuleNotFound = errs.NotFound("tag protection does not exist")

func (s *TagProtectionStore) Create(ctx context.Context, r *protection.TagRule) error {
	defer s.d.lock(ctx)()
	st := s.d.s
	if err := st.checkTagRule(r); err != nil {
		return err
	}
	row := st.tagRuleRow(r)
	row.ID = st.next("tag_protections")
	st.tagRules[row.ID] = row
	r.ID = row.ID
	return nil
}

func (s *TagProtectionStore) Get(ctx context.Context, repoID, id int64) (*protection.TagRule, error) {
	defer s.d.lock(ctx)()
	r, ok := s.d.s.liveTagRule(repoID, id)
	if !ok {
		return nil, errTagRuleNotFound
	}
	return r, nil
}

func (s *TagProtectionStore) List(ctx context.Context, repoID int64, opts ports.ListOptions) ([]*protection.TagRule, int64, error) {
	defer s.d.lock(ctx)()
	list := s.d.s.tagRulesOf(repoID)
	return page(list, opts), int64(len(list)), nil
}

func (s *TagProtectionStore) ListAll(ctx context.Context, repoID int64) ([]*protection.TagRule, error) {
	defer s.d.lock(ctx)()
	return s.d.s.tagRulesOf(repoID), nil
}

func (s *TagProtectionStore) Update(ctx context.Context, r *protection.TagRule) error {
	defer s.d.lock(ctx)()
	st := s.d.s
	old, ok := st.liveTagRule(r.RepoID, r.ID)
	if !ok {
		return errTagRuleNotFound
	}
	if err := st.checkTagRule(r); err != nil {
		return err
	}
	row := st.tagRuleRow(r)
	row.Created = old.Created
	st.tagRules[r.ID] = row
	return nil
}

func (s *TagProtectionStore) Delete(ctx context.Context, repoID, id int64) error {
	defer s.d.lock(ctx)()
	if _, ok := s.d.s.liveTagRule(repoID, id); !ok {
		return errTagRuleNotFound
	}
	delete(s.d.s.tagRules, id)
	return nil
}

// checkTagRule is what the SQL store's constraints check: the repository,
// the allowlisted users and teams exist, the pattern is not taken by
// another rule of the repository.
func (s *state) checkTagRule(r *protection.TagRule) error {
	if _, ok := s.repos[r.RepoID]; !ok {
		return errRepoNotFound
	}
	for _, o := range s.tagRulesOf(r.RepoID) {
		if o.ID != r.ID && o.NamePattern == r.NamePattern {
			return errs.Conflict("tag protection already exists")
		}
	}
	for _, id := range r.AllowlistUserIDs {
		if _, ok := s.users[id]; !ok {
			return errs.NotFound("user does not exist")
		}
	}
	for _, id := range r.AllowlistTeamIDs {
		if _, ok := s.teams[id]; !ok {
			return errs.NotFound("team does not exist")
		}
	}
	return nil
}

// tagRuleRow is r as stored: times at the database's precision, the
// allowlists sorted without repeats.
func (s *state) tagRuleRow(r *protection.TagRule) protection.TagRule {
	row := *r
	row.Created, row.Updated = dbTime(r.Created), dbTime(r.Updated)
	row.AllowlistUserIDs = tagSortedUnique(r.AllowlistUserIDs)
	row.AllowlistTeamIDs = tagSortedUnique(r.AllowlistTeamIDs)
	return row
}

// liveTagRule is rule id of repoID as a read sees it.
func (s *state) liveTagRule(repoID, id int64) (*protection.TagRule, bool) {
	r, ok := s.tagRules[id]
	if !ok || r.RepoID != repoID {
		return nil, false
	}
	if _, ok := s.repos[repoID]; !ok {
		return nil, false
	}
	r.AllowlistUserIDs = slices.DeleteFunc(slices.Clone(r.AllowlistUserIDs), func(id int64) bool { _, ok := s.users[id]; return !ok })
	r.AllowlistTeamIDs = slices.DeleteFunc(slices.Clone(r.AllowlistTeamIDs), func(id int64) bool { _, ok := s.teams[id]; return !ok })
	if len(r.AllowlistUserIDs) == 0 {
		r.AllowlistUserIDs = nil
	}
	if len(r.AllowlistTeamIDs) == 0 {
		r.AllowlistTeamIDs = nil
	}
	return &r, true
}

// tagRulesOf lists repoID's rules by id.
func (s *state) tagRulesOf(repoID int64) []*protection.TagRule {
	var out []*protection.TagRule
	for _, id := range sortedKeys(s.tagRules) {
		if r, ok := s.liveTagRule(repoID, id); ok {
			out = append(out, r)
		}
	}
	return out
}

// tagSortedUnique is ids sorted without repeats, nil when empty.
func tagSortedUnique(ids []int64) []int64 {
	if len(ids) == 0 {
		return nil
	}
	out := slices.Clone(ids)
	slices.Sort(out)
	return slices.Compact(out)
}
