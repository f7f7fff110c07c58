package memstore

import (
	"context"
	"strings"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

var _ ports.EmailStore = (*EmailStore)(nil)

// EmailStore is the in-memory ports.EmailStore.
type EmailStore struct{ d *DB }

var errEmailNotFound = errs.NotFound("email does not exist")

func (s *EmailStore) Add(ctx context.Context, e *user.Email) error {
	defer s.d.lock(ctx)()
	st := s.d.s
	row := *e
	if row.LowerEmail == "" {
		row.LowerEmail = strings.ToLower(row.Email)
	}
	for _, o := range st.emails {
		if o.LowerEmail == row.LowerEmail {
			return errs.Conflict("email already in use")
		}
	}
	if _, ok := st.users[row.UserID]; !ok {
		return errUserNotFound
	}
	row.ID = st.next("emails")
	st.emails[row.ID] = row
	e.ID, e.LowerEmail = row.ID, row.LowerEmail
	return nil
}

func (s *EmailStore) ListByUser(ctx context.Context, userID int64) ([]*user.Email, error) {
	defer s.d.lock(ctx)()
	out := []*user.Email{}
	for _, id := range sortedKeys(s.d.s.emails) {
		if e := s.d.s.emails[id]; e.UserID == userID {
			out = append(out, &e)
		}
	}
	return out, nil
}

func (s *EmailStore) byLower(lower string) (user.Email, bool) {
	for _, e := range s.d.s.emails {
		if e.LowerEmail == lower {
			return e, true
		}
	}
	return user.Email{}, false
}

func (s *EmailStore) GetByEmail(ctx context.Context, addr string) (*user.Email, error) {
	defer s.d.lock(ctx)()
	e, ok := s.byLower(strings.ToLower(addr))
	if !ok {
		return nil, errEmailNotFound
	}
	return &e, nil
}

func (s *EmailStore) Delete(ctx context.Context, userID int64, addr string) error {
	defer s.d.lock(ctx)()
	e, ok := s.byLower(strings.ToLower(addr))
	if !ok || e.UserID != userID {
		return errEmailNotFound
	}
	delete(s.d.s.emails, e.ID)
	return nil
}

func (s *EmailStore) SetPrimary(ctx context.Context, userID int64, addr string) error {
	defer s.d.lock(ctx)()
	lower := strings.ToLower(addr)
	e, ok := s.byLower(lower)
	if !ok || e.UserID != userID {
		return errEmailNotFound
	}
	for id, o := range s.d.s.emails {
		if o.UserID == userID {
			o.Primary = o.LowerEmail == lower
			s.d.s.emails[id] = o
		}
	}
	return nil
}

func (s *EmailStore) Search(ctx context.Context, keyword string, opts ports.ListOptions) ([]*user.EmailOwner, int64, error) {
	defer s.d.lock(ctx)()
	st := s.d.s
	kw := strings.ToLower(strings.TrimSpace(keyword))
	var list []*user.EmailOwner
	for _, id := range sortedKeys(st.emails) {
		e := st.emails[id]
		u, ok := st.users[e.UserID]
		if !ok {
			continue
		}
		if kw != "" && !containsFold(e.LowerEmail, kw) && !containsFold(u.LowerName, kw) && !containsFold(u.FullName, kw) {
			continue
		}
		list = append(list, &user.EmailOwner{Email: e, UserName: u.Name})
	}
	return page(list, opts), int64(len(list)), nil
}

func (s *EmailStore) UsersByEmails(ctx context.Context, addrs []string) (map[string]*user.User, error) {
	defer s.d.lock(ctx)()
	out := map[string]*user.User{}
	for _, a := range addrs {
		l := strings.ToLower(a)
		if l == "" {
			continue
		}
		if e, ok := s.byLower(l); ok && e.Activated {
			if u, ok := s.d.s.users[e.UserID]; ok {
				out[l] = s.d.s.userOut(u)
			}
		}
	}
	return out, nil
}
