package memstore

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

var _ ports.UserStore = (*UserStore)(nil)

// UserStore is the in-memory ports.UserStore.
type UserStore struct{ d *DB }

var (
	errUserNotFound     = errs.NotFound("user does not exist")
	errUserTaken        = errs.Conflict("user already exists")
	errRedirectNotFound = errs.NotFound("user redirect does not exist")
)

// dbTime is t as a database column keeps it: UTC, to the microsecond,
// without a monotonic reading.
func dbTime(t time.Time) time.Time {
	if t.IsZero() {
		return time.Time{}
	}
	return t.UTC().Truncate(time.Microsecond)
}

func dbTimePtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	c := dbTime(*t)
	return &c
}

// userOut is the stored user as a read returns it.
func (s *state) userOut(u user.User) *user.User {
	n := 0
	for k := range s.stars {
		if k.a == u.ID {
			n++
		}
	}
	u.NumStars = n
	u.NumFollowers, u.NumFollowing = 0, 0
	for k := range s.follows {
		if k.b == u.ID {
			u.NumFollowers++
		}
		if k.a == u.ID {
			u.NumFollowing++
		}
	}
	return &u
}

func (s *state) userByLowerName(lower string) (user.User, bool) {
	for _, u := range s.users {
		if u.LowerName == lower {
			return u, true
		}
	}
	return user.User{}, false
}

func userIn(u *user.User) user.User {
	c := *u
	if c.LowerName == "" {
		c.LowerName = strings.ToLower(c.Name)
	}
	c.NumStars, c.NumFollowers, c.NumFollowing = 0, 0, 0
	c.Created, c.Updated, c.LastLogin = dbTime(c.Created), dbTime(c.Updated), dbTime(c.LastLogin)
	return c
}

func (s *UserStore) Create(ctx context.Context, u *user.User) error {
	defer s.d.lock(ctx)()
	st := s.d.s
	row := userIn(u)
	if _, taken := st.userByLowerName(row.LowerName); taken {
		return errUserTaken
	}
	row.ID = st.next("users")
	st.users[row.ID] = row
	u.ID = row.ID
	return nil
}

func (s *UserStore) Update(ctx context.Context, u *user.User) error {
	defer s.d.lock(ctx)()
	st := s.d.s
	if _, ok := st.users[u.ID]; !ok {
		return errUserNotFound
	}
	row := userIn(u)
	if other, taken := st.userByLowerName(row.LowerName); taken && other.ID != u.ID {
		return errUserTaken
	}
	st.users[u.ID] = row
	return nil
}

func (s *UserStore) Delete(ctx context.Context, id int64) error {
	defer s.d.lock(ctx)()
	st := s.d.s
	if _, ok := st.users[id]; !ok {
		return errUserNotFound
	}
	for _, r := range st.repos {
		if r.Owner.ID == id {
			return errs.Conflict("user still owns repositories")
		}
	}
	st.deleteAccount(id)
	return nil
}

// deleteAccount removes an account and every row that refers to it, as the
// database's cascades do.
func (s *state) deleteAccount(id int64) {
	delete(s.users, id)
	delete(s.orgs, id)
	for k, v := range s.userRedirects {
		if v == id {
			delete(s.userRedirects, k)
		}
	}
	for k, e := range s.emails {
		if e.UserID == id {
			delete(s.emails, k)
		}
	}
	for k, t := range s.tokens {
		if t.UserID == id {
			delete(s.tokens, k)
		}
	}
	for k := range s.stars {
		if k.a == id {
			delete(s.stars, k)
		}
	}
	for k := range s.follows {
		if k.a == id || k.b == id {
			delete(s.follows, k)
		}
	}
	for k := range s.watches {
		if k.a == id {
			delete(s.watches, k)
		}
	}
	for k := range s.collaborators {
		if k.b == id {
			delete(s.collaborators, k)
		}
	}
	for k, t := range s.transfers {
		if t.RecipientID == id || t.DoerID == id {
			delete(s.transfers, k)
		}
	}
	for k := range s.members {
		if k.a == id || k.b == id {
			delete(s.members, k)
		}
	}
	for k, t := range s.teams {
		if t.OrgID == id {
			delete(s.teams, k)
			for tu := range s.teamUsers {
				if tu.a == k {
					delete(s.teamUsers, tu)
				}
			}
			for tr := range s.teamRepos {
				if tr.a == k {
					delete(s.teamRepos, tr)
				}
			}
		}
	}
	for k := range s.teamUsers {
		if k.b == id {
			delete(s.teamUsers, k)
		}
	}
	for k, b := range s.blocks {
		if b.BlockerID == id || b.BlockeeID == id {
			delete(s.blocks, k)
		}
	}
	for k := range s.issueWatch {
		if k.b == id {
			delete(s.issueWatch, k)
		}
	}
	for k, l := range s.labels {
		if l.OrgID == id {
			s.deleteLabel(k)
		}
	}
	for k, ids := range s.assignees {
		if slices.Contains(ids, id) {
			s.assignees[k] = slices.DeleteFunc(slices.Clone(ids), func(v int64) bool { return v == id })
		}
	}
}

func (s *UserStore) GetByID(ctx context.Context, id int64) (*user.User, error) {
	defer s.d.lock(ctx)()
	u, ok := s.d.s.users[id]
	if !ok {
		return nil, errUserNotFound
	}
	return s.d.s.userOut(u), nil
}

func (s *UserStore) GetByName(ctx context.Context, name string) (*user.User, error) {
	defer s.d.lock(ctx)()
	u, ok := s.d.s.userByLowerName(strings.ToLower(name))
	if !ok {
		return nil, errUserNotFound
	}
	return s.d.s.userOut(u), nil
}

func (s *UserStore) GetByIDs(ctx context.Context, ids []int64) ([]*user.User, error) {
	defer s.d.lock(ctx)()
	out := []*user.User{}
	seen := map[int64]bool{}
	for _, id := range ids {
		if u, ok := s.d.s.users[id]; ok && !seen[id] {
			seen[id] = true
			out = append(out, s.d.s.userOut(u))
		}
	}
	slices.SortFunc(out, func(a, b *user.User) int { return int(a.ID - b.ID) })
	return out, nil
}

func (s *UserStore) GetByNames(ctx context.Context, names []string) ([]*user.User, error) {
	defer s.d.lock(ctx)()
	out := []*user.User{}
	seen := map[int64]bool{}
	for _, n := range names {
		if u, ok := s.d.s.userByLowerName(strings.ToLower(n)); ok && !seen[u.ID] {
			seen[u.ID] = true
			out = append(out, s.d.s.userOut(u))
		}
	}
	slices.SortFunc(out, func(a, b *user.User) int { return int(a.ID - b.ID) })
	return out, nil
}

// containsFold reports whether s contains the lower-cased keyword kw.
func containsFold(s, kw string) bool { return strings.Contains(strings.ToLower(s), kw) }

func (s *UserStore) Search(ctx context.Context, q ports.UserSearch) ([]*user.User, int64, error) {
	defer s.d.lock(ctx)()
	st := s.d.s
	kw := strings.ToLower(strings.TrimSpace(q.Keyword))
	var list []*user.User
	for _, id := range sortedKeys(st.users) {
		u := st.users[id]
		if u.Kind != q.Kind {
			continue
		}
		if kw != "" && !containsFold(u.LowerName, kw) && !containsFold(u.FullName, kw) {
			continue
		}
		if q.UID != 0 && u.ID != q.UID {
			continue
		}
		if q.LoginName != "" && u.LowerName != strings.ToLower(q.LoginName) {
			continue
		}
		if len(q.Visibilities) > 0 && !slices.Contains(q.Visibilities, u.Visibility) &&
			(q.IncludeUserID == 0 || u.ID != q.IncludeUserID) {
			continue
		}
		list = append(list, st.userOut(u))
	}
	return page(list, q.ListOptions), int64(len(list)), nil
}

func (s *UserStore) Count(ctx context.Context) (int64, error) {
	defer s.d.lock(ctx)()
	return int64(len(s.d.s.users)), nil
}

func (s *UserStore) AddRedirect(ctx context.Context, oldName string, userID int64) error {
	defer s.d.lock(ctx)()
	if _, ok := s.d.s.users[userID]; !ok {
		return errUserNotFound
	}
	s.d.s.userRedirects[strings.ToLower(oldName)] = userID
	return nil
}

func (s *UserStore) LookupRedirect(ctx context.Context, oldName string) (int64, error) {
	defer s.d.lock(ctx)()
	id, ok := s.d.s.userRedirects[strings.ToLower(oldName)]
	if !ok {
		return 0, errRedirectNotFound
	}
	return id, nil
}

func (s *UserStore) DeleteRedirect(ctx context.Context, oldName string) error {
	defer s.d.lock(ctx)()
	delete(s.d.s.userRedirects, strings.ToLower(oldName))
	return nil
}
