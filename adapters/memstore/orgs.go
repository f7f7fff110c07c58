package memstore

import (
	"context"
	"maps"
	"slices"
	"strings"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/org"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

var _ ports.OrgStore = (*OrgStore)(nil)

// OrgStore is the in-memory ports.OrgStore. Membership of an organisation
// is a row of its own (kept beside the team memberships, as org_users is).
type OrgStore struct{ d *DB }

var (
	errOrgNotFound    = errs.NotFound("organization does not exist")
	errTeamNotFound   = errs.NotFound("team does not exist")
	errTeamTaken      = errs.Conflict("team already exists")
	errMemberNotFound = errs.NotFound("user is not a member of the organization")
)

func (s *state) orgOut(id int64) (*org.Organization, bool) {
	u, ok := s.users[id]
	if !ok || u.Kind != user.KindOrganization {
		return nil, false
	}
	return &org.Organization{User: *s.userOut(u), RepoAdminChangeTeamAccess: s.orgs[id].repoAdminChangeTeamAccess}, true
}

func (s *state) teamOut(t org.Team) *org.Team {
	t.Units = maps.Clone(t.Units)
	if t.Units == nil {
		t.Units = map[permission.Unit]permission.AccessMode{}
	}
	t.NumMembers = 0
	for k := range s.teamUsers {
		if k.a == t.ID {
			t.NumMembers++
		}
	}
	return &t
}

func teamIn(t *org.Team) org.Team {
	c := *t
	c.LowerName = strings.ToLower(c.Name)
	c.Units = maps.Clone(c.Units)
	c.NumMembers, c.NumRepos = 0, 0
	return c
}

func (s *state) ownersTeam(orgID int64) (org.Team, bool) {
	for _, t := range s.teams {
		if t.OrgID == orgID && t.Mode == permission.ModeOwner {
			return t, true
		}
	}
	return org.Team{}, false
}

func (s *state) insertTeam(t *org.Team) error {
	row := teamIn(t)
	for _, o := range s.teams {
		if o.OrgID == row.OrgID && o.LowerName == row.LowerName {
			return errTeamTaken
		}
	}
	if _, ok := s.users[row.OrgID]; !ok {
		return errOrgNotFound
	}
	row.ID = s.next("teams")
	s.teams[row.ID] = row
	t.ID, t.LowerName = row.ID, row.LowerName
	return nil
}

// addTeamMember puts the user in the team and its organisation.
func (s *state) addTeamMember(t org.Team, userID int64) {
	s.teamUsers[pair{t.ID, userID}] = true
	k := pair{t.OrgID, userID}
	if _, ok := s.members[k]; !ok {
		s.members[k] = memberRow{}
	}
}

// dropLoneMembers takes out of the organisation the members left in none of its teams.
func (s *state) dropLoneMembers(orgID int64) {
	for k := range s.members {
		if k.a != orgID {
			continue
		}
		inTeam := false
		for tu := range s.teamUsers {
			if tu.b == k.b && s.teams[tu.a].OrgID == orgID {
				inTeam = true
				break
			}
		}
		if !inTeam {
			delete(s.members, k)
		}
	}
}

func (s *OrgStore) Create(ctx context.Context, o *org.Organization, creatorID int64) error {
	defer s.d.lock(ctx)()
	st := s.d.s
	if _, ok := st.users[creatorID]; !ok {
		return errUserNotFound
	}
	o.Kind = user.KindOrganization
	row := userIn(&o.User)
	if _, taken := st.userByLowerName(row.LowerName); taken {
		return errUserTaken
	}
	row.ID = st.next("users")
	st.users[row.ID] = row
	o.ID = row.ID
	st.orgs[o.ID] = orgRow{repoAdminChangeTeamAccess: o.RepoAdminChangeTeamAccess}
	owners := org.NewOwnersTeam(o.ID)
	if err := st.insertTeam(owners); err != nil {
		return err
	}
	st.addTeamMember(st.teams[owners.ID], creatorID)
	return nil
}

func (s *OrgStore) Get(ctx context.Context, id int64) (*org.Organization, error) {
	defer s.d.lock(ctx)()
	o, ok := s.d.s.orgOut(id)
	if !ok {
		return nil, errOrgNotFound
	}
	return o, nil
}

func (s *OrgStore) GetByName(ctx context.Context, name string) (*org.Organization, error) {
	defer s.d.lock(ctx)()
	u, ok := s.d.s.userByLowerName(strings.ToLower(name))
	if !ok {
		return nil, errOrgNotFound
	}
	o, ok := s.d.s.orgOut(u.ID)
	if !ok {
		return nil, errOrgNotFound
	}
	return o, nil
}

func (s *OrgStore) Update(ctx context.Context, o *org.Organization) error {
	defer s.d.lock(ctx)()
	st := s.d.s
	if old, ok := st.users[o.ID]; !ok || old.Kind != user.KindOrganization {
		return errOrgNotFound
	}
	row := userIn(&o.User)
	if other, taken := st.userByLowerName(row.LowerName); taken && other.ID != o.ID {
		return errUserTaken
	}
	st.users[o.ID] = row
	st.orgs[o.ID] = orgRow{repoAdminChangeTeamAccess: o.RepoAdminChangeTeamAccess}
	return nil
}

func (s *OrgStore) Delete(ctx context.Context, id int64) error {
	defer s.d.lock(ctx)()
	st := s.d.s
	if u, ok := st.users[id]; !ok || u.Kind != user.KindOrganization {
		return errOrgNotFound
	}
	for _, r := range st.repos {
		if r.Owner.ID == id {
			return errs.Conflict("organization still owns repositories")
		}
	}
	st.deleteAccount(id)
	return nil
}

func (s *OrgStore) Search(ctx context.Context, q ports.OrgSearch) ([]*org.Organization, int64, error) {
	defer s.d.lock(ctx)()
	st := s.d.s
	kw := strings.ToLower(strings.TrimSpace(q.Keyword))
	member := func(orgID, userID int64, publicOnly bool) bool {
		m, ok := st.members[pair{orgID, userID}]
		return ok && (!publicOnly || m.public)
	}
	var list []*org.Organization
	for _, id := range sortedKeys(st.users) {
		o, ok := st.orgOut(id)
		if !ok {
			continue
		}
		if kw != "" && !containsFold(o.LowerName, kw) && !containsFold(o.FullName, kw) {
			continue
		}
		if q.MemberID != 0 && !member(id, q.MemberID, q.PublicMembershipOnly) {
			continue
		}
		if q.ViewerMemberID != 0 && !member(id, q.ViewerMemberID, false) {
			continue
		}
		if len(q.Visibilities) > 0 && !slices.Contains(q.Visibilities, o.Visibility) &&
			(q.IncludeMemberID == 0 || !member(id, q.IncludeMemberID, false)) {
			continue
		}
		list = append(list, o)
	}
	slices.SortStableFunc(list, func(a, b *org.Organization) int { return strings.Compare(a.LowerName, b.LowerName) })
	return page(list, q.ListOptions), int64(len(list)), nil
}

func (s *OrgStore) Membership(ctx context.Context, orgID, userID int64) (org.Membership, error) {
	if userID == 0 {
		return org.Membership{}, nil
	}
	defer s.d.lock(ctx)()
	st := s.d.s
	var m org.Membership
	if row, ok := st.members[pair{orgID, userID}]; ok {
		m.IsMember, m.IsPublic = true, row.public
	}
	for k := range st.teamUsers {
		t, ok := st.teams[k.a]
		if k.b != userID || !ok || t.OrgID != orgID {
			continue
		}
		m.IsOwner = m.IsOwner || t.Mode == permission.ModeOwner
		m.CanCreateRepo = m.CanCreateRepo || t.CanCreateOrgRepo
		m.MaxMode = max(m.MaxMode, t.Mode)
	}
	return m, nil
}

// usersByName returns the users with these ids, by lower-cased name.
func (s *state) usersByName(ids []int64) []*user.User {
	var out []*user.User
	for _, id := range ids {
		if u, ok := s.users[id]; ok {
			out = append(out, s.userOut(u))
		}
	}
	slices.SortFunc(out, func(a, b *user.User) int { return strings.Compare(a.LowerName, b.LowerName) })
	return out
}

func (s *OrgStore) Members(ctx context.Context, orgID int64, publicOnly bool, opts ports.ListOptions) ([]*user.User, int64, error) {
	defer s.d.lock(ctx)()
	var ids []int64
	for k, m := range s.d.s.members {
		if k.a == orgID && (!publicOnly || m.public) {
			ids = append(ids, k.b)
		}
	}
	list := s.d.s.usersByName(ids)
	return page(list, opts), int64(len(list)), nil
}

func (s *OrgStore) SetPublic(ctx context.Context, orgID, userID int64, public bool) error {
	defer s.d.lock(ctx)()
	k := pair{orgID, userID}
	if _, ok := s.d.s.members[k]; !ok {
		return errMemberNotFound
	}
	s.d.s.members[k] = memberRow{public: public}
	return nil
}

func (s *OrgStore) RemoveMember(ctx context.Context, orgID, userID int64) error {
	defer s.d.lock(ctx)()
	st := s.d.s
	owners, ok := st.ownersTeam(orgID)
	if !ok {
		return errTeamNotFound
	}
	if st.teamUsers[pair{owners.ID, userID}] {
		if err := st.teamOut(owners).CheckRemoveMember(st.teamOut(owners).NumMembers); err != nil {
			return err
		}
	}
	if _, ok := st.members[pair{orgID, userID}]; !ok {
		return errMemberNotFound
	}
	for k := range st.teamUsers {
		if k.b == userID && st.teams[k.a].OrgID == orgID {
			delete(st.teamUsers, k)
		}
	}
	delete(st.members, pair{orgID, userID})
	return nil
}

func (s *OrgStore) OwnersTeam(ctx context.Context, orgID int64) (*org.Team, error) {
	defer s.d.lock(ctx)()
	t, ok := s.d.s.ownersTeam(orgID)
	if !ok {
		return nil, errTeamNotFound
	}
	return s.d.s.teamOut(t), nil
}

// teamsWhere returns the teams f keeps, ordered by less.
func (s *state) teamsWhere(f func(org.Team) bool, byID bool) []*org.Team {
	var out []*org.Team
	for _, id := range sortedKeys(s.teams) {
		if t := s.teams[id]; f(t) {
			out = append(out, s.teamOut(t))
		}
	}
	if !byID {
		slices.SortStableFunc(out, func(a, b *org.Team) int { return strings.Compare(a.LowerName, b.LowerName) })
	}
	return out
}

func (s *OrgStore) TeamsOf(ctx context.Context, orgID, userID int64) ([]*org.Team, error) {
	defer s.d.lock(ctx)()
	st := s.d.s
	return st.teamsWhere(func(t org.Team) bool { return t.OrgID == orgID && st.teamUsers[pair{t.ID, userID}] }, false), nil
}

func (s *OrgStore) CreateTeam(ctx context.Context, t *org.Team) error {
	defer s.d.lock(ctx)()
	return s.d.s.insertTeam(t)
}

func (s *OrgStore) AddTeamMember(ctx context.Context, teamID, userID int64) error {
	defer s.d.lock(ctx)()
	st := s.d.s
	t, ok := st.teams[teamID]
	if !ok {
		return errTeamNotFound
	}
	if _, ok := st.users[userID]; !ok {
		return errUserNotFound
	}
	st.addTeamMember(t, userID)
	return nil
}

func (s *OrgStore) GetTeam(ctx context.Context, id int64) (*org.Team, error) {
	defer s.d.lock(ctx)()
	t, ok := s.d.s.teams[id]
	if !ok {
		return nil, errTeamNotFound
	}
	return s.d.s.teamOut(t), nil
}

func (s *OrgStore) IsTeamMember(ctx context.Context, teamID, userID int64) (bool, error) {
	defer s.d.lock(ctx)()
	return s.d.s.teamUsers[pair{teamID, userID}], nil
}

func (s *OrgStore) RemoveTeamMember(ctx context.Context, teamID, userID int64) error {
	defer s.d.lock(ctx)()
	st := s.d.s
	t, ok := st.teams[teamID]
	if !ok {
		return errTeamNotFound
	}
	if !st.teamUsers[pair{teamID, userID}] {
		return errMemberNotFound
	}
	out := st.teamOut(t)
	if err := out.CheckRemoveMember(out.NumMembers); err != nil {
		return err
	}
	delete(st.teamUsers, pair{teamID, userID})
	st.dropLoneMembers(t.OrgID)
	return nil
}

func (s *OrgStore) GetMany(ctx context.Context, ids []int64) ([]*org.Organization, error) {
	defer s.d.lock(ctx)()
	var out []*org.Organization
	for _, id := range slices.Sorted(slices.Values(slices.Compact(slices.Sorted(slices.Values(ids))))) {
		if o, ok := s.d.s.orgOut(id); ok {
			out = append(out, o)
		}
	}
	return out, nil
}

func (s *OrgStore) ListTeams(ctx context.Context, orgID int64, keyword string, includeDesc bool, opts ports.ListOptions) ([]*org.Team, int64, error) {
	defer s.d.lock(ctx)()
	kw := strings.ToLower(strings.TrimSpace(keyword))
	list := s.d.s.teamsWhere(func(t org.Team) bool {
		return t.OrgID == orgID && (kw == "" || strings.Contains(t.LowerName, kw) || includeDesc && containsFold(t.Description, kw))
	}, false)
	return page(list, opts), int64(len(list)), nil
}

func (s *OrgStore) TeamsOfUser(ctx context.Context, userID int64, opts ports.ListOptions) ([]*org.Team, int64, error) {
	defer s.d.lock(ctx)()
	st := s.d.s
	list := st.teamsWhere(func(t org.Team) bool { return st.teamUsers[pair{t.ID, userID}] }, true)
	return page(list, opts), int64(len(list)), nil
}

func (s *OrgStore) GetTeamByName(ctx context.Context, orgID int64, name string) (*org.Team, error) {
	defer s.d.lock(ctx)()
	lower := strings.ToLower(name)
	for _, t := range s.d.s.teams {
		if t.OrgID == orgID && t.LowerName == lower {
			return s.d.s.teamOut(t), nil
		}
	}
	return nil, errTeamNotFound
}

func (s *OrgStore) UpdateTeam(ctx context.Context, t *org.Team) error {
	defer s.d.lock(ctx)()
	st := s.d.s
	old, ok := st.teams[t.ID]
	if !ok {
		return errTeamNotFound
	}
	row := teamIn(t)
	row.OrgID = old.OrgID
	for _, o := range st.teams {
		if o.ID != t.ID && o.OrgID == row.OrgID && o.LowerName == row.LowerName {
			return errTeamTaken
		}
	}
	st.teams[t.ID] = row
	t.LowerName = row.LowerName
	return nil
}

func (s *OrgStore) DeleteTeam(ctx context.Context, id int64) error {
	defer s.d.lock(ctx)()
	st := s.d.s
	t, ok := st.teams[id]
	if !ok {
		return errTeamNotFound
	}
	delete(st.teams, id)
	for k := range st.teamUsers {
		if k.a == id {
			delete(st.teamUsers, k)
		}
	}
	for k := range st.teamRepos {
		if k.a == id {
			delete(st.teamRepos, k)
		}
	}
	st.dropLoneMembers(t.OrgID)
	return nil
}

func (s *OrgStore) TeamMembers(ctx context.Context, teamID int64, opts ports.ListOptions) ([]*user.User, int64, error) {
	defer s.d.lock(ctx)()
	var ids []int64
	for k := range s.d.s.teamUsers {
		if k.a == teamID {
			ids = append(ids, k.b)
		}
	}
	list := s.d.s.usersByName(ids)
	return page(list, opts), int64(len(list)), nil
}

func (s *OrgStore) RemoveTeamRepo(ctx context.Context, teamID, repoID int64) error {
	defer s.d.lock(ctx)()
	k := pair{teamID, repoID}
	if !s.d.s.teamRepos[k] {
		return errs.NotFound("repository is not in the team")
	}
	delete(s.d.s.teamRepos, k)
	return nil
}

func (s *OrgStore) RepoTeams(ctx context.Context, repoID int64) ([]*org.Team, error) {
	defer s.d.lock(ctx)()
	st := s.d.s
	r, ok := st.repos[repoID]
	return st.teamsWhere(func(t org.Team) bool {
		return st.teamRepos[pair{t.ID, repoID}] || ok && t.IncludesAllRepositories && t.OrgID == r.Owner.ID
	}, false), nil
}

func (s *OrgStore) AddTeamRepo(ctx context.Context, teamID, repoID int64) error {
	defer s.d.lock(ctx)()
	st := s.d.s
	t, okT := st.teams[teamID]
	r, okR := st.repos[repoID]
	if !okT || !okR || r.Owner.ID != t.OrgID {
		return errRepoNotFound
	}
	st.teamRepos[pair{teamID, repoID}] = true
	return nil
}
