package memstore

import (
	"cmp"
	"context"
	"slices"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/ports"
)

var _ ports.TrackedTimeStore = (*TrackedTimeStore)(nil)

// TrackedTimeStore is the in-memory ports.TrackedTimeStore: tracked times
// and stopwatches.
type TrackedTimeStore struct{ d *DB }

var (
	errTrackedTimeNotFound = errs.NotFound("tracked time does not exist")
	errStopwatchNotFound   = errs.NotFound("stopwatch does not exist")
)

// trackedTimeRow is a tracked time with the repository of its issue.
type trackedTimeRow struct {
	issue.TrackedTime
	repoID int64
}

func (s *TrackedTimeStore) Add(ctx context.Context, t *issue.TrackedTime) error {
	defer s.d.lock(ctx)()
	st := s.d.s
	i, ok := st.issues[t.IssueID]
	if !ok {
		return errIssueNotFound
	}
	row := trackedTimeRow{TrackedTime: *t, repoID: i.RepoID}
	row.CreatedAt = dbTime(row.CreatedAt)
	row.ID = st.next("tracked_times")
	st.times[row.ID] = row
	t.ID = row.ID
	return nil
}

func (s *TrackedTimeStore) GetByID(ctx context.Context, id int64) (*issue.TrackedTime, error) {
	defer s.d.lock(ctx)()
	t, ok := s.d.s.times[id]
	if !ok {
		return nil, errTrackedTimeNotFound
	}
	return &t.TrackedTime, nil
}

func (s *TrackedTimeStore) GetByIDs(ctx context.Context, ids []int64) ([]*issue.TrackedTime, error) {
	defer s.d.lock(ctx)()
	var out []*issue.TrackedTime
	for _, id := range slices.Compact(slices.Sorted(slices.Values(ids))) {
		if t, ok := s.d.s.times[id]; ok {
			out = append(out, &t.TrackedTime)
		}
	}
	return out, nil
}

func (s *TrackedTimeStore) List(ctx context.Context, q ports.TrackedTimeQuery) ([]*issue.TrackedTime, int64, error) {
	defer s.d.lock(ctx)()
	var list []*issue.TrackedTime
	for _, t := range s.d.s.times {
		switch {
		case q.IssueID != 0 && t.IssueID != q.IssueID, q.RepoID != 0 && t.repoID != q.RepoID,
			q.UserID != 0 && t.UserID != q.UserID,
			!q.Since.IsZero() && t.CreatedAt.Before(dbTime(q.Since)),
			!q.Before.IsZero() && t.CreatedAt.After(dbTime(q.Before)):
			continue
		}
		list = append(list, &t.TrackedTime)
	}
	slices.SortFunc(list, func(a, b *issue.TrackedTime) int {
		return cmp.Or(a.CreatedAt.Compare(b.CreatedAt), cmp.Compare(a.ID, b.ID))
	})
	return page(list, q.ListOptions), int64(len(list)), nil
}

func (s *TrackedTimeStore) Delete(ctx context.Context, id int64) error {
	defer s.d.lock(ctx)()
	if _, ok := s.d.s.times[id]; !ok {
		return errTrackedTimeNotFound
	}
	delete(s.d.s.times, id)
	return nil
}

func (s *TrackedTimeStore) DeleteByIssueUser(ctx context.Context, issueID, userID int64) (int64, error) {
	defer s.d.lock(ctx)()
	var sum int64
	for id, t := range s.d.s.times {
		if t.IssueID == issueID && t.UserID == userID {
			sum += t.Seconds
			delete(s.d.s.times, id)
		}
	}
	return sum, nil
}

func (s *TrackedTimeStore) TotalOfIssues(ctx context.Context, issueIDs []int64) (map[int64]int64, error) {
	defer s.d.lock(ctx)()
	out := map[int64]int64{}
	for _, t := range s.d.s.times {
		if slices.Contains(issueIDs, t.IssueID) {
			out[t.IssueID] += t.Seconds
		}
	}
	return out, nil
}

func (s *TrackedTimeStore) StartStopwatch(ctx context.Context, w *issue.Stopwatch) error {
	defer s.d.lock(ctx)()
	st := s.d.s
	for _, o := range st.stopwatches {
		if o.UserID == w.UserID {
			return errs.Conflict("a stopwatch is already running")
		}
	}
	if _, ok := st.issues[w.IssueID]; !ok {
		return errIssueNotFound
	}
	row := *w
	row.CreatedAt = dbTime(row.CreatedAt)
	row.ID = st.next("stopwatches")
	st.stopwatches[row.ID] = row
	w.ID = row.ID
	return nil
}

func (s *TrackedTimeStore) Stopwatch(ctx context.Context, issueID, userID int64) (*issue.Stopwatch, error) {
	defer s.d.lock(ctx)()
	for _, w := range s.d.s.stopwatches {
		if w.IssueID == issueID && w.UserID == userID {
			return &w, nil
		}
	}
	return nil, errStopwatchNotFound
}

// stopwatchesOf lists the user's stopwatches by id.
func (s *state) stopwatchesOf(userID int64) []*issue.Stopwatch {
	var out []*issue.Stopwatch
	for _, id := range sortedKeys(s.stopwatches) {
		if w := s.stopwatches[id]; w.UserID == userID {
			out = append(out, &w)
		}
	}
	return out
}

func (s *TrackedTimeStore) UserStopwatch(ctx context.Context, userID int64) (*issue.Stopwatch, error) {
	defer s.d.lock(ctx)()
	list := s.d.s.stopwatchesOf(userID)
	if len(list) == 0 {
		return nil, errStopwatchNotFound
	}
	return list[0], nil
}

func (s *TrackedTimeStore) UserStopwatches(ctx context.Context, userID int64, opts ports.ListOptions) ([]*issue.Stopwatch, int64, error) {
	defer s.d.lock(ctx)()
	list := s.d.s.stopwatchesOf(userID)
	return page(list, opts), int64(len(list)), nil
}

func (s *TrackedTimeStore) DeleteStopwatch(ctx context.Context, id int64) error {
	defer s.d.lock(ctx)()
	if _, ok := s.d.s.stopwatches[id]; !ok {
		return errStopwatchNotFound
	}
	delete(s.d.s.stopwatches, id)
	return nil
}
