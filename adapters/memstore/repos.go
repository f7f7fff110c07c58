package memstore

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

var _ ports.RepoStore = (*RepoStore)(nil)

// RepoStore is the in-memory ports.RepoStore. The forks counter is kept in
// the row (RecountSocial and a fork's deletion recount it); the other
// counters (stars, watches, issues, pulls, milestones) are computed from
// the rows on every read, as their stores keep them in step.
type RepoStore struct{ d *DB }

var (
	errRepoNotFound         = errs.NotFound("repository does not exist")
	errRepoTaken            = errs.Conflict("repository already exists")
	errRepoRedirectNotFound = errs.NotFound("repository redirect does not exist")
)

// repoOut is the stored repository as reads return it: owner, topics,
// pending transfer and counters filled.
func (s *state) repoOut(r repository.Repository) *repository.Repository {
	if u, ok := s.users[r.Owner.ID]; ok {
		r.Owner = repository.Owner{ID: u.ID, Name: u.Name, Kind: u.Kind, Visibility: u.Visibility}
	}
	r.Units = slices.Clone(r.Units)
	r.Topics = slices.Clone(r.Topics)
	if r.Topics == nil {
		r.Topics = []string{}
	}
	r.PendingTransferTo = 0
	if t, ok := s.transfers[r.ID]; ok {
		r.PendingTransferTo = t.RecipientID
	}
	r.NumStars, r.NumWatches = 0, 0
	for k := range s.stars {
		if k.b == r.ID {
			r.NumStars++
		}
	}
	for k, w := range s.watches {
		if k.b == r.ID && (w.Mode == repository.WatchNormal || w.Mode == repository.WatchAuto) {
			r.NumWatches++
		}
	}
	r.NumIssues, r.NumClosedIssues, r.NumPulls, r.NumClosedPulls = 0, 0, 0, 0
	for _, i := range s.issues {
		if i.RepoID != r.ID {
			continue
		}
		switch {
		case i.IsPull:
			r.NumPulls++
			if i.IsClosed {
				r.NumClosedPulls++
			}
		default:
			r.NumIssues++
			if i.IsClosed {
				r.NumClosedIssues++
			}
		}
	}
	r.NumMilestones, r.NumClosedMilestones = 0, 0
	for _, m := range s.milestones {
		if m.RepoID == r.ID {
			r.NumMilestones++
			if m.IsClosed {
				r.NumClosedMilestones++
			}
		}
	}
	return &r
}

func (s *state) repoByName(ownerID int64, lower string) (repository.Repository, bool) {
	for _, r := range s.repos {
		if r.Owner.ID == ownerID && r.LowerName == lower {
			return r, true
		}
	}
	return repository.Repository{}, false
}

func repoIn(r *repository.Repository) repository.Repository {
	c := *r
	c.LowerName = strings.ToLower(c.Name)
	c.Units = slices.Clone(c.Units)
	c.Topics = normalizeTopicNames(c.Topics)
	c.PendingTransferTo = 0
	c.Created, c.Updated, c.ArchivedAt = dbTime(c.Created), dbTime(c.Updated), dbTime(c.ArchivedAt)
	return c
}

func (s *RepoStore) Create(ctx context.Context, r *repository.Repository) error {
	defer s.d.lock(ctx)()
	st := s.d.s
	row := repoIn(r)
	if _, ok := st.users[row.Owner.ID]; !ok {
		return errs.NotFound("owner does not exist")
	}
	if _, taken := st.repoByName(row.Owner.ID, row.LowerName); taken {
		return errRepoTaken
	}
	row.ID = st.next("repos")
	st.repos[row.ID] = row
	r.ID, r.LowerName = row.ID, row.LowerName
	return nil
}

func (s *RepoStore) Update(ctx context.Context, r *repository.Repository) error {
	defer s.d.lock(ctx)()
	st := s.d.s
	old, ok := st.repos[r.ID]
	if !ok {
		return errRepoNotFound
	}
	row := repoIn(r)
	if other, taken := st.repoByName(row.Owner.ID, row.LowerName); taken && other.ID != r.ID {
		return errRepoTaken
	}
	row.Size, row.Topics = old.Size, old.Topics
	row.NumForks, row.NumReleases = old.NumForks, old.NumReleases
	st.repos[r.ID] = row
	r.LowerName = row.LowerName
	return nil
}

func (s *RepoStore) Delete(ctx context.Context, id int64) error {
	defer s.d.lock(ctx)()
	st := s.d.s
	if _, ok := st.repos[id]; !ok {
		return errRepoNotFound
	}
	st.deleteRepo(id)
	return nil
}

// deleteRepo removes a repository and every row that belongs to it; its
// forks become source repositories.
func (s *state) deleteRepo(id int64) {
	parent := s.repos[id].ForkID
	delete(s.repos, id)
	delete(s.repoTopics, id)
	delete(s.transfers, id)
	for k, v := range s.repoRedirects {
		if v == id {
			delete(s.repoRedirects, k)
		}
	}
	for k, r := range s.repos {
		if r.ForkID == id {
			r.ForkID = 0
			s.repos[k] = r
		}
	}
	for k := range s.collaborators {
		if k.a == id {
			delete(s.collaborators, k)
		}
	}
	for k := range s.stars {
		if k.b == id {
			delete(s.stars, k)
		}
	}
	for k, dk := range s.deployKeys {
		if dk.RepoID == id {
			delete(s.deployKeys, k)
		}
	}
	for k := range s.watches {
		if k.b == id {
			delete(s.watches, k)
		}
	}
	for k := range s.teamRepos {
		if k.b == id {
			delete(s.teamRepos, k)
		}
	}
	for k, i := range s.issues {
		if i.RepoID == id {
			s.deleteIssue(k)
		}
	}
	for k, l := range s.labels {
		if l.RepoID == id {
			s.deleteLabel(k)
		}
	}
	for k, m := range s.milestones {
		if m.RepoID == id {
			delete(s.milestones, k)
		}
	}
	delete(s.nextIndex, id)
	s.recountForks(parent)
}

// recountForks recomputes a repository's forks counter (the one counter
// kept in its row; the others are computed on read).
func (s *state) recountForks(repoID int64) {
	r, ok := s.repos[repoID]
	if !ok {
		return
	}
	r.NumForks = 0
	for _, o := range s.repos {
		if o.ForkID == repoID {
			r.NumForks++
		}
	}
	s.repos[repoID] = r
}

func (s *RepoStore) GetByID(ctx context.Context, id int64) (*repository.Repository, error) {
	defer s.d.lock(ctx)()
	r, ok := s.d.s.repos[id]
	if !ok {
		return nil, errRepoNotFound
	}
	return s.d.s.repoOut(r), nil
}

func (s *RepoStore) GetByIDs(ctx context.Context, ids []int64) (map[int64]*repository.Repository, error) {
	defer s.d.lock(ctx)()
	out := map[int64]*repository.Repository{}
	for _, id := range ids {
		if r, ok := s.d.s.repos[id]; ok {
			out[id] = s.d.s.repoOut(r)
		}
	}
	return out, nil
}

func (s *RepoStore) GetByName(ctx context.Context, ownerID int64, name string) (*repository.Repository, error) {
	defer s.d.lock(ctx)()
	r, ok := s.d.s.repoByName(ownerID, strings.ToLower(name))
	if !ok {
		return nil, errRepoNotFound
	}
	return s.d.s.repoOut(r), nil
}

func (s *RepoStore) GetByFullName(ctx context.Context, ownerName, name string) (*repository.Repository, error) {
	defer s.d.lock(ctx)()
	o, ok := s.d.s.userByLowerName(strings.ToLower(ownerName))
	if !ok {
		return nil, errRepoNotFound
	}
	r, ok := s.d.s.repoByName(o.ID, strings.ToLower(name))
	if !ok {
		return nil, errRepoNotFound
	}
	return s.d.s.repoOut(r), nil
}

// visibleTo reports whether v may see r (see ports.RepoViewer).
func (s *state) visibleTo(r *repository.Repository, v ports.RepoViewer) bool {
	switch {
	case v.PublicOnly || v.UserID == 0:
		return !r.Private && r.Owner.Visibility == user.VisibilityPublic
	case v.IsAdmin:
		return true
	}
	if r.Owner.ID == v.UserID || s.collaborates(r.ID, v.UserID) || s.teamReaches(r, v.UserID) {
		return true
	}
	if v.Restricted {
		return false
	}
	if !r.Private && r.Owner.Visibility != user.VisibilityPrivate {
		return true
	}
	_, member := s.members[pair{r.Owner.ID, v.UserID}]
	return !r.Private && member
}

func (s *state) collaborates(repoID, userID int64) bool {
	_, ok := s.collaborators[pair{repoID, userID}]
	return ok
}

// teamGives reports whether one of the user's teams was given the repository.
func (s *state) teamGives(repoID, userID int64) bool {
	for k := range s.teamRepos {
		if k.b == repoID && s.teamUsers[pair{k.a, userID}] {
			return true
		}
	}
	return false
}

// teamReaches reports whether one of the user's teams reaches r: given it,
// or including every repository of r's organisation.
func (s *state) teamReaches(r *repository.Repository, userID int64) bool {
	if s.teamGives(r.ID, userID) {
		return true
	}
	for id, t := range s.teams {
		if t.OrgID == r.Owner.ID && t.IncludesAllRepositories && s.teamUsers[pair{id, userID}] {
			return true
		}
	}
	return false
}

// repoMatchesKeyword applies RepoSearch.Keyword (see ports.RepoSearch).
func (s *state) repoMatchesKeyword(r *repository.Repository, q ports.RepoSearch) bool {
	kw := strings.ToLower(strings.TrimSpace(q.Keyword))
	if kw == "" {
		return true
	}
	var pieces []string
	for _, p := range strings.Split(kw, ",") {
		if p = strings.TrimSpace(p); p != "" {
			pieces = append(pieces, p)
		}
	}
	if len(pieces) == 0 {
		return true
	}
	for _, p := range pieces {
		for _, t := range r.Topics {
			if q.TopicOnly && t == p || !q.TopicOnly && strings.Contains(t, p) {
				return true
			}
		}
		if q.TopicOnly {
			continue
		}
		if strings.Contains(r.LowerName, p) || q.IncludeDescription && strings.Contains(strings.ToLower(r.Description), p) {
			return true
		}
	}
	if !q.TopicOnly && strings.Count(kw, "/") == 1 {
		owner, name, _ := strings.Cut(kw, "/")
		if strings.Contains(strings.ToLower(r.Owner.Name), strings.TrimSpace(owner)) &&
			strings.Contains(r.LowerName, strings.TrimSpace(name)) {
			return true
		}
	}
	return false
}

func flagIs(v *bool, got bool) bool { return v == nil || *v == got }

func (s *RepoStore) Search(ctx context.Context, q ports.RepoSearch) ([]*repository.Repository, int64, error) {
	defer s.d.lock(ctx)()
	st := s.d.s
	var list []*repository.Repository
	for _, id := range sortedKeys(st.repos) {
		r := st.repoOut(st.repos[id])
		if !st.visibleTo(r, q.Viewer) || !st.repoMatchesKeyword(r, q) {
			continue
		}
		if q.TeamID != 0 {
			t, ok := st.teams[q.TeamID]
			if !ok || !(st.teamRepos[pair{q.TeamID, r.ID}] || t.IncludesAllRepositories && t.OrgID == r.Owner.ID) {
				continue
			}
		}
		if q.OwnerID != 0 {
			owns, collab := r.Owner.ID == q.OwnerID, st.collaborates(r.ID, q.OwnerID)
			switch {
			case q.Collaborative && (owns || !collab), q.Exclusive && !owns, !owns && !collab:
				continue
			}
		}
		if q.ExcludePrivate && r.Private || !flagIs(q.IsPrivate, r.Private) || !flagIs(q.Template, r.Template) ||
			!flagIs(q.Archived, r.Archived) || !flagIs(q.Mirror, r.IsMirror) || !flagIs(q.Fork, r.ForkID != 0) {
			continue
		}
		if q.ForkOf != 0 && r.ForkID != q.ForkOf {
			continue
		}
		if _, ok := st.stars[pair{q.StarredBy, r.ID}]; q.StarredBy != 0 && !ok {
			continue
		}
		if w, ok := st.watches[pair{q.WatchedBy, r.ID}]; q.WatchedBy != 0 &&
			(!ok || w.Mode != repository.WatchNormal && w.Mode != repository.WatchAuto) {
			continue
		}
		list = append(list, r)
	}
	slices.SortStableFunc(list, func(a, b *repository.Repository) int {
		c := repoSortKey(a, b, q.Sort)
		if c == 0 {
			c = cmp.Compare(a.ID, b.ID)
		}
		if q.Desc {
			return -c
		}
		return c
	})
	return page(list, q.ListOptions), int64(len(list)), nil
}

// repoSortKey compares two repositories by RepoSearch.Sort.
func repoSortKey(a, b *repository.Repository, sort string) int {
	switch sort {
	case "alpha":
		if c := cmp.Compare(a.LowerName, b.LowerName); c != 0 {
			return c
		}
		if a.Private != b.Private {
			if a.Private {
				return 1
			}
			return -1
		}
		return cmp.Compare(a.Owner.ID, b.Owner.ID)
	case "created":
		return a.Created.Compare(b.Created)
	case "updated":
		return a.Updated.Compare(b.Updated)
	case "size":
		return cmp.Compare(a.Size, b.Size)
	case "stars":
		return cmp.Compare(a.NumStars, b.NumStars)
	case "forks":
		return cmp.Compare(a.NumForks, b.NumForks)
	}
	return 0
}

func (s *RepoStore) CountByOwner(ctx context.Context, ownerID int64) (int64, error) {
	defer s.d.lock(ctx)()
	var n int64
	for _, r := range s.d.s.repos {
		if r.Owner.ID == ownerID {
			n++
		}
	}
	return n, nil
}

func (s *RepoStore) NamesByOwners(ctx context.Context, ownerIDs []int64) (map[int64][]string, error) {
	defer s.d.lock(ctx)()
	out := map[int64][]string{}
	for _, r := range s.d.s.repos {
		if slices.Contains(ownerIDs, r.Owner.ID) {
			out[r.Owner.ID] = append(out[r.Owner.ID], strings.ToLower(r.Name))
		}
	}
	for _, names := range out {
		slices.Sort(names)
	}
	return out, nil
}

func (s *RepoStore) Relations(ctx context.Context, r permission.Repo, userID int64) (permission.Relations, error) {
	m, err := s.RelationsMany(ctx, []permission.Repo{r}, userID)
	if err != nil {
		return permission.Relations{}, err
	}
	return m[r.ID], nil
}

// raise sets units[u] to m unless it is already higher.
func raise(units map[permission.Unit]permission.AccessMode, u permission.Unit, m permission.AccessMode) map[permission.Unit]permission.AccessMode {
	if units == nil {
		units = map[permission.Unit]permission.AccessMode{}
	}
	units[u] = max(units[u], m)
	return units
}

func (s *RepoStore) RelationsMany(ctx context.Context, rs []permission.Repo, userID int64) (map[int64]permission.Relations, error) {
	defer s.d.lock(ctx)()
	out := make(map[int64]permission.Relations, len(rs))
	for _, r := range rs {
		out[r.ID] = s.d.s.relations(r, userID)
	}
	return out, nil
}

// relations gathers userID's ties to r: collaboration, and for an
// organisation's repository membership, ownership and the units of the
// teams that reach it.
func (s *state) relations(r permission.Repo, userID int64) permission.Relations {
	rel := permission.Relations{IsOwner: userID != 0 && userID == r.OwnerID, CollaboratorMode: permission.ModeNone}
	if userID == 0 || userID == r.OwnerID {
		return rel
	}
	if c, ok := s.collaborators[pair{r.ID, userID}]; ok {
		rel.CollaboratorMode = c.Mode
	}
	if !r.OwnerIsOrg {
		return rel
	}
	for id, t := range s.teams {
		if t.OrgID != r.OwnerID || !s.teamUsers[pair{id, userID}] {
			continue
		}
		rel.IsOrgMember = true
		if t.Mode == permission.ModeOwner {
			rel.IsOrgOwner = true
		}
		if t.IncludesAllRepositories || s.teamRepos[pair{id, r.ID}] {
			for u, m := range t.Units {
				rel.TeamUnits = raise(rel.TeamUnits, u, m)
			}
		}
	}
	if _, ok := s.members[pair{r.OwnerID, userID}]; ok {
		rel.IsOrgMember = true
	}
	return rel
}

func (s *RepoStore) RecountSocial(ctx context.Context, repoID int64) error {
	defer s.d.lock(ctx)()
	if _, ok := s.d.s.repos[repoID]; !ok {
		return errRepoNotFound
	}
	s.d.s.recountForks(repoID)
	return nil
}

func (s *RepoStore) SetSize(ctx context.Context, repoID, size int64) error {
	defer s.d.lock(ctx)()
	r, ok := s.d.s.repos[repoID]
	if !ok {
		return errRepoNotFound
	}
	r.Size = size
	s.d.s.repos[repoID] = r
	return nil
}

func (s *RepoStore) SetEmpty(ctx context.Context, repoID int64, empty bool) error {
	defer s.d.lock(ctx)()
	r, ok := s.d.s.repos[repoID]
	if !ok {
		return errRepoNotFound
	}
	r.Empty = empty
	s.d.s.repos[repoID] = r
	return nil
}

func (s *RepoStore) AddRedirect(ctx context.Context, ownerID int64, oldName string, repoID int64) error {
	defer s.d.lock(ctx)()
	if _, ok := s.d.s.repos[repoID]; !ok {
		return errRepoNotFound
	}
	s.d.s.repoRedirects[ownerName{ownerID, strings.ToLower(oldName)}] = repoID
	return nil
}

func (s *RepoStore) LookupRedirect(ctx context.Context, ownerID int64, oldName string) (int64, error) {
	defer s.d.lock(ctx)()
	id, ok := s.d.s.repoRedirects[ownerName{ownerID, strings.ToLower(oldName)}]
	if !ok {
		return 0, errRepoRedirectNotFound
	}
	return id, nil
}

func (s *RepoStore) DeleteRedirect(ctx context.Context, ownerID int64, name string) error {
	defer s.d.lock(ctx)()
	delete(s.d.s.repoRedirects, ownerName{ownerID, strings.ToLower(name)})
	return nil
}
