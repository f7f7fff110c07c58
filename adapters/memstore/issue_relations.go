package memstore

import (
	"cmp"
	"context"
	"slices"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/ports"
)

var _ ports.IssueRelationStore = (*IssueRelationStore)(nil)

// IssueRelationStore is the in-memory ports.IssueRelationStore:
// dependencies, issue subscriptions and pins.
type IssueRelationStore struct{ d *DB }

var errDependencyNotFound = errs.NotFound("issue dependency does not exist")

func (s *IssueRelationStore) AddDependency(ctx context.Context, issueID, dependsOnID int64) error {
	defer s.d.lock(ctx)()
	st := s.d.s
	k := pair{issueID, dependsOnID}
	if _, ok := st.deps[k]; ok {
		return errs.Conflict("issue dependency does already exist")
	}
	_, okA := st.issues[issueID]
	_, okB := st.issues[dependsOnID]
	if !okA || !okB {
		return errIssueNotFound
	}
	st.deps[k] = st.next("issue_dependencies")
	return nil
}

func (s *IssueRelationStore) RemoveDependency(ctx context.Context, issueID, dependsOnID int64) error {
	defer s.d.lock(ctx)()
	k := pair{issueID, dependsOnID}
	if _, ok := s.d.s.deps[k]; !ok {
		return errDependencyNotFound
	}
	delete(s.d.s.deps, k)
	return nil
}

func (s *IssueRelationStore) HasDependency(ctx context.Context, issueID, dependsOnID int64) (bool, error) {
	defer s.d.lock(ctx)()
	_, ok := s.d.s.deps[pair{issueID, dependsOnID}]
	return ok, nil
}

// links lists the other ends of the dependencies where id is on side
// "issue" (dependencies) or "depends on" (blocks), oldest link first.
func (s *IssueRelationStore) links(ctx context.Context, id int64, dependencies bool, opts ports.ListOptions) ([]int64, int64, error) {
	defer s.d.lock(ctx)()
	type link struct{ order, other int64 }
	var ls []link
	for k, order := range s.d.s.deps {
		switch {
		case dependencies && k.a == id:
			ls = append(ls, link{order, k.b})
		case !dependencies && k.b == id:
			ls = append(ls, link{order, k.a})
		}
	}
	slices.SortFunc(ls, func(a, b link) int { return cmp.Compare(a.order, b.order) })
	out := make([]int64, len(ls))
	for i, l := range ls {
		out[i] = l.other
	}
	return page(out, opts), int64(len(out)), nil
}

func (s *IssueRelationStore) Dependencies(ctx context.Context, issueID int64, opts ports.ListOptions) ([]int64, int64, error) {
	return s.links(ctx, issueID, true, opts)
}

func (s *IssueRelationStore) Blocks(ctx context.Context, issueID int64, opts ports.ListOptions) ([]int64, int64, error) {
	return s.links(ctx, issueID, false, opts)
}

func (s *IssueRelationStore) DependsTransitively(ctx context.Context, from, to int64) (bool, error) {
	defer s.d.lock(ctx)()
	seen := map[int64]bool{}
	next := []int64{from}
	for len(next) > 0 {
		cur := next[0]
		next = next[1:]
		for k := range s.d.s.deps {
			if k.a != cur || seen[k.b] {
				continue
			}
			if k.b == to {
				return true, nil
			}
			seen[k.b] = true
			next = append(next, k.b)
		}
	}
	return false, nil
}

func (s *IssueRelationStore) HasOpenDependencies(ctx context.Context, issueID int64) (bool, error) {
	defer s.d.lock(ctx)()
	for k := range s.d.s.deps {
		if i, ok := s.d.s.issues[k.b]; k.a == issueID && ok && !i.IsClosed {
			return true, nil
		}
	}
	return false, nil
}

func (s *IssueRelationStore) SetWatch(ctx context.Context, issueID, userID int64, watching bool) error {
	defer s.d.lock(ctx)()
	if _, ok := s.d.s.issues[issueID]; !ok {
		return errIssueNotFound
	}
	s.d.s.issueWatch[pair{issueID, userID}] = watching
	return nil
}

func (s *IssueRelationStore) Watch(ctx context.Context, issueID, userID int64) (bool, error) {
	defer s.d.lock(ctx)()
	w, ok := s.d.s.issueWatch[pair{issueID, userID}]
	if !ok {
		return false, errs.NotFound("issue watch does not exist")
	}
	return w, nil
}

func (s *IssueRelationStore) Watchers(ctx context.Context, issueID int64, opts ports.ListOptions) ([]int64, int64, error) {
	defer s.d.lock(ctx)()
	var ids []int64
	for k, w := range s.d.s.issueWatch {
		if k.a == issueID && w {
			ids = append(ids, k.b)
		}
	}
	slices.Sort(ids)
	return page(ids, opts), int64(len(ids)), nil
}

func (s *IssueRelationStore) Ignorers(ctx context.Context, issueID int64) ([]int64, error) {
	defer s.d.lock(ctx)()
	var ids []int64
	for k, w := range s.d.s.issueWatch {
		if k.a == issueID && !w {
			ids = append(ids, k.b)
		}
	}
	slices.Sort(ids)
	return ids, nil
}

// participants are the poster, the assignees and the plain commenters.
func (s *state) participants(issueID int64) map[int64]bool {
	out := map[int64]bool{}
	if i, ok := s.issues[issueID]; ok {
		out[i.PosterID] = true
	}
	for _, u := range s.assignees[issueID] {
		out[u] = true
	}
	for _, c := range s.comments {
		if c.IssueID == issueID && c.Type == issue.CommentPlain {
			out[c.PosterID] = true
		}
	}
	return out
}

func (s *IssueRelationStore) IsParticipant(ctx context.Context, issueID, userID int64) (bool, error) {
	defer s.d.lock(ctx)()
	return s.d.s.participants(issueID)[userID], nil
}

func (s *IssueRelationStore) Subscribers(ctx context.Context, issueID int64, opts ports.ListOptions) ([]int64, int64, error) {
	defer s.d.lock(ctx)()
	st := s.d.s
	set := st.participants(issueID)
	for k, w := range st.issueWatch {
		if k.a == issueID && w {
			set[k.b] = true
		}
	}
	ids := []int64{}
	for id := range set {
		if _, ok := st.users[id]; !ok {
			continue
		}
		if w, ok := st.issueWatch[pair{issueID, id}]; ok && !w {
			continue
		}
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return page(ids, opts), int64(len(ids)), nil
}

// pinnedCount counts the pinned issues of i's repository and kind.
func (s *state) pinnedCount(i issue.Issue) int {
	n := 0
	for _, o := range s.issues {
		if o.RepoID == i.RepoID && o.IsPull == i.IsPull && o.PinOrder > 0 {
			n++
		}
	}
	return n
}

func (s *IssueRelationStore) Pin(ctx context.Context, issueID int64) (int, error) {
	defer s.d.lock(ctx)()
	st := s.d.s
	i, ok := st.issues[issueID]
	if !ok {
		return 0, errIssueNotFound
	}
	if i.PinOrder > 0 {
		return i.PinOrder, nil
	}
	i.PinOrder = st.pinnedCount(i) + 1
	st.issues[issueID] = i
	return i.PinOrder, nil
}

func (s *IssueRelationStore) Unpin(ctx context.Context, issueID int64) error {
	defer s.d.lock(ctx)()
	st := s.d.s
	i, ok := st.issues[issueID]
	if !ok {
		return errIssueNotFound
	}
	if i.PinOrder == 0 {
		return nil
	}
	was := i.PinOrder
	i.PinOrder = 0
	st.issues[issueID] = i
	st.shiftPins(i, func(o int) bool { return o > was }, -1)
	return nil
}

// shiftPins moves by delta the pins of i's repository and kind that in keeps.
func (s *state) shiftPins(i issue.Issue, in func(order int) bool, delta int) {
	for k, o := range s.issues {
		if o.RepoID == i.RepoID && o.IsPull == i.IsPull && o.PinOrder > 0 && o.ID != i.ID && in(o.PinOrder) {
			o.PinOrder += delta
			s.issues[k] = o
		}
	}
}

func (s *IssueRelationStore) MovePin(ctx context.Context, issueID int64, position int) error {
	defer s.d.lock(ctx)()
	st := s.d.s
	i, ok := st.issues[issueID]
	if !ok {
		return errIssueNotFound
	}
	if i.PinOrder == 0 {
		return errs.NotFound("issue is not pinned")
	}
	to, err := issue.PinPosition(position, st.pinnedCount(i))
	if err != nil || to == i.PinOrder {
		return err
	}
	from := i.PinOrder
	if to < from {
		st.shiftPins(i, func(o int) bool { return o >= to && o < from }, 1)
	} else {
		st.shiftPins(i, func(o int) bool { return o > from && o <= to }, -1)
	}
	i.PinOrder = to
	st.issues[issueID] = i
	return nil
}

func (s *IssueRelationStore) Pinned(ctx context.Context, repoID int64, isPull bool) ([]int64, error) {
	defer s.d.lock(ctx)()
	var list []issue.Issue
	for _, i := range s.d.s.issues {
		if i.RepoID == repoID && i.IsPull == isPull && i.PinOrder > 0 {
			list = append(list, i)
		}
	}
	slices.SortFunc(list, func(a, b issue.Issue) int {
		return cmp.Or(cmp.Compare(a.PinOrder, b.PinOrder), cmp.Compare(a.ID, b.ID))
	})
	ids := []int64{}
	for _, i := range list {
		ids = append(ids, i.ID)
	}
	return ids, nil
}
