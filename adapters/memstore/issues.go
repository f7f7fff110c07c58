package memstore

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/permission"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

var _ ports.IssueStore = (*IssueStore)(nil)

// IssueStore is the in-memory ports.IssueStore. Its List supports every
// filter of ports.IssueQuery and the latest, oldest, recentupdate,
// leastupdate, mostcomment and leastcomment sorts (not the due-date and
// priority ones).
type IssueStore struct{ d *DB }

var errIssueNotFound = errs.NotFound("issue does not exist")

func issueOut(i issue.Issue) *issue.Issue {
	i.Deadline, i.ClosedAt = timePtr(i.Deadline), timePtr(i.ClosedAt)
	return &i
}

func issueIn(i *issue.Issue) issue.Issue {
	c := *i
	c.CreatedAt, c.UpdatedAt = dbTime(c.CreatedAt), dbTime(c.UpdatedAt)
	c.Deadline, c.ClosedAt = dbTimePtr(c.Deadline), dbTimePtr(c.ClosedAt)
	return c
}

func (s *IssueStore) Create(ctx context.Context, i *issue.Issue) error {
	defer s.d.lock(ctx)()
	st := s.d.s
	if _, ok := st.repos[i.RepoID]; !ok {
		return errRepoNotFound
	}
	row := issueIn(i)
	st.nextIndex[i.RepoID]++
	row.Index = st.nextIndex[i.RepoID]
	row.ID = st.next("issues")
	st.issues[row.ID] = row
	i.ID, i.Index = row.ID, row.Index
	i.CreatedAt, i.UpdatedAt, i.Deadline, i.ClosedAt = row.CreatedAt, row.UpdatedAt, timePtr(row.Deadline), timePtr(row.ClosedAt)
	return nil
}

func (s *IssueStore) GetByID(ctx context.Context, id int64) (*issue.Issue, error) {
	defer s.d.lock(ctx)()
	i, ok := s.d.s.issues[id]
	if !ok {
		return nil, errIssueNotFound
	}
	return issueOut(i), nil
}

func (s *IssueStore) GetByIndex(ctx context.Context, repoID, index int64) (*issue.Issue, error) {
	defer s.d.lock(ctx)()
	for _, i := range s.d.s.issues {
		if i.RepoID == repoID && i.Index == index {
			return issueOut(i), nil
		}
	}
	return nil, errIssueNotFound
}

func (s *IssueStore) GetByIDs(ctx context.Context, ids []int64) ([]*issue.Issue, error) {
	defer s.d.lock(ctx)()
	var out []*issue.Issue
	for _, id := range slices.Compact(slices.Sorted(slices.Values(ids))) {
		if i, ok := s.d.s.issues[id]; ok {
			out = append(out, issueOut(i))
		}
	}
	return out, nil
}

func (s *IssueStore) Update(ctx context.Context, i *issue.Issue) error {
	defer s.d.lock(ctx)()
	old, ok := s.d.s.issues[i.ID]
	if !ok {
		return errIssueNotFound
	}
	row := issueIn(i)
	row.RepoID, row.Index, row.CreatedAt, row.NumComments, row.PinOrder = old.RepoID, old.Index, old.CreatedAt, old.NumComments, old.PinOrder
	s.d.s.issues[i.ID] = row
	return nil
}

func (s *IssueStore) Touch(ctx context.Context, id int64, at time.Time) error {
	defer s.d.lock(ctx)()
	i, ok := s.d.s.issues[id]
	if !ok {
		return errIssueNotFound
	}
	i.UpdatedAt = dbTime(at)
	s.d.s.issues[id] = i
	return nil
}

func (s *IssueStore) Delete(ctx context.Context, id int64) error {
	defer s.d.lock(ctx)()
	if _, ok := s.d.s.issues[id]; !ok {
		return errIssueNotFound
	}
	s.d.s.deleteIssue(id)
	return nil
}

// deleteIssue removes an issue with everything that belongs to it and
// closes the gap it leaves among the pinned issues.
func (s *state) deleteIssue(id int64) {
	i := s.issues[id]
	delete(s.issues, id)
	delete(s.assignees, id)
	s.deletePullsOfIssue(id)
	s.deleteReviewsOfIssue(id)
	for k, c := range s.comments {
		if c.IssueID == id || c.RefIssueID == id {
			s.deleteComment(k)
		}
	}
	for k, r := range s.reactions {
		if r.IssueID == id {
			delete(s.reactions, k)
		}
	}
	for k, a := range s.attachments {
		if a.IssueID == id {
			delete(s.attachments, k)
		}
	}
	for k, t := range s.times {
		if t.IssueID == id {
			delete(s.times, k)
		}
	}
	for k, w := range s.stopwatches {
		if w.IssueID == id {
			delete(s.stopwatches, k)
		}
	}
	for k := range s.issueLabels {
		if k.a == id {
			delete(s.issueLabels, k)
		}
	}
	for k := range s.deps {
		if k.a == id || k.b == id {
			delete(s.deps, k)
		}
	}
	for k := range s.issueWatch {
		if k.a == id {
			delete(s.issueWatch, k)
		}
	}
	if i.PinOrder > 0 {
		for k, o := range s.issues {
			if o.RepoID == i.RepoID && o.IsPull == i.IsPull && o.PinOrder > i.PinOrder {
				o.PinOrder--
				s.issues[k] = o
			}
		}
	}
}

// words splits text into the lower-cased words the search matches
// against, as issue.SearchTerms splits a keyword.
func words(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// allPrefix reports whether every term starts one of the words.
func allPrefix(terms, words []string) bool {
	for _, t := range terms {
		if !slices.ContainsFunc(words, func(w string) bool { return strings.HasPrefix(w, t) }) {
			return false
		}
	}
	return true
}

// matchesKeyword applies IssueQuery.Keyword: every term starts a word of
// the issue's title and body, or of one of its plain comments; a number
// also matches the issue with that index.
func (s *state) matchesKeyword(i issue.Issue, kw string) bool {
	if n, err := strconv.ParseInt(strings.TrimSpace(kw), 10, 64); err == nil && n == i.Index {
		return true
	}
	terms := issue.SearchTerms(kw)
	if len(terms) == 0 {
		return false
	}
	if allPrefix(terms, words(i.Title+" "+i.Body)) {
		return true
	}
	for _, c := range s.comments {
		if c.IssueID == i.ID && c.Type == issue.CommentPlain && allPrefix(terms, words(c.Body)) {
			return true
		}
	}
	return false
}

// readable reports whether the cross-repository searcher v reads issues
// like i in their repository.
func (s *state) readable(i issue.Issue, v *ports.IssueViewer) bool {
	row, ok := s.repos[i.RepoID]
	if !ok {
		return false
	}
	r := s.repoOut(row)
	unit := permission.UnitIssues
	if i.IsPull {
		unit = permission.UnitPulls
	}
	if !r.HasUnit(unit) {
		return false
	}
	switch {
	case v.PublicOnly || v.UserID == 0:
		return !r.Private && r.Owner.Visibility == user.VisibilityPublic
	case v.IsAdmin:
		return true
	}
	facts := r.Facts()
	actor := permission.Actor{Kind: permission.ActorUser, UserID: v.UserID, IsActive: true, IsActivated: true,
		IsRestricted: v.Restricted}
	return permission.Compute(actor, facts, s.relations(facts, v.UserID)).CanRead(unit)
}

// inScope applies the query's repository scope: the listed repositories,
// or for a cross-repository search those the viewer reads, narrowed to an
// owner's or a team's.
func (s *state) inScope(i issue.Issue, q ports.IssueQuery) bool {
	if len(q.RepoIDs) > 0 && !slices.Contains(q.RepoIDs, i.RepoID) {
		return false
	}
	if q.Viewer != nil && !s.readable(i, q.Viewer) {
		return false
	}
	r := s.repos[i.RepoID]
	if q.OwnerID != 0 && r.Owner.ID != q.OwnerID {
		return false
	}
	if q.TeamID != 0 {
		t, ok := s.teams[q.TeamID]
		if !ok || !(s.teamRepos[pair{q.TeamID, r.ID}] || t.IncludesAllRepositories && t.OrgID == r.Owner.ID) {
			return false
		}
	}
	return true
}

// namedLabels resolves label names against the issue's repository and its
// owner's labels; unknown names are discarded.
func (s *state) namedLabels(repoID int64, names []string) []int64 {
	owner := s.repos[repoID].Owner.ID
	var ids []int64
	for _, n := range names {
		var found int64
		for _, l := range s.labels {
			if l.Name == n && (l.RepoID == repoID || l.OrgID != 0 && l.OrgID == owner) && (found == 0 || l.ID < found) {
				found = l.ID
			}
		}
		if found != 0 {
			ids = append(ids, found)
		}
	}
	return ids
}

// matches applies the filters of q to i.
func (s *state) matches(i issue.Issue, q ports.IssueQuery) bool {
	switch q.State {
	case "closed":
		if !i.IsClosed {
			return false
		}
	case "all":
	default:
		if i.IsClosed {
			return false
		}
	}
	if !s.inScope(i, q) || q.IsPull != nil && i.IsPull != *q.IsPull {
		return false
	}
	if q.BaseBranch != "" && !s.pullIntoBranch(i.ID, q.BaseBranch) {
		return false
	}
	for _, l := range append(slices.Clone(q.LabelIDs), s.namedLabels(i.RepoID, q.LabelNames)...) {
		if !s.issueLabels[pair{i.ID, l}] {
			return false
		}
	}
	if len(q.MilestoneIDs) > 0 && !slices.Contains(q.MilestoneIDs, i.MilestoneID) || q.NoMilestone && i.MilestoneID != 0 {
		return false
	}
	if len(q.MilestoneNames) > 0 {
		m, ok := s.milestones[i.MilestoneID]
		if !ok || !slices.Contains(q.MilestoneNames, m.Title) {
			return false
		}
	}
	if !q.Since.IsZero() && i.UpdatedAt.Before(q.Since) || !q.Before.IsZero() && i.UpdatedAt.After(q.Before) {
		return false
	}
	if q.PosterID != 0 && i.PosterID != q.PosterID || q.AssigneeID != 0 && !slices.Contains(s.assignees[i.ID], q.AssigneeID) {
		return false
	}
	if q.MentionedID != 0 {
		u, ok := s.users[q.MentionedID]
		if !ok || !mentions(i.Body, u.LowerName) {
			return false
		}
	}
	if q.Keyword != "" && !s.matchesKeyword(i, q.Keyword) {
		return false
	}
	return true
}

// mentions reports whether body holds "@name" as a whole name.
func mentions(body, name string) bool {
	body = strings.ToLower(body)
	for rest := body; ; {
		at := strings.Index(rest, "@"+name)
		if at < 0 {
			return false
		}
		end := rest[at+1+len(name):]
		if end == "" || !isNameRune(rune(end[0])) {
			return true
		}
		rest = end
	}
}

func isNameRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_' || r == '.'
}

// issueOrder compares two issues by IssueQuery.Sort, newest first by default.
func issueOrder(sort string) func(a, b *issue.Issue) int {
	return func(a, b *issue.Issue) int {
		switch sort {
		case "oldest":
			return cmp.Or(a.CreatedAt.Compare(b.CreatedAt), cmp.Compare(a.ID, b.ID))
		case "recentupdate":
			return cmp.Or(b.UpdatedAt.Compare(a.UpdatedAt), cmp.Compare(b.ID, a.ID))
		case "leastupdate":
			return cmp.Or(a.UpdatedAt.Compare(b.UpdatedAt), cmp.Compare(a.ID, b.ID))
		case "mostcomment":
			return cmp.Or(cmp.Compare(b.NumComments, a.NumComments), cmp.Compare(b.ID, a.ID))
		case "leastcomment":
			return cmp.Or(cmp.Compare(a.NumComments, b.NumComments), cmp.Compare(a.ID, b.ID))
		}
		return cmp.Or(b.CreatedAt.Compare(a.CreatedAt), cmp.Compare(b.ID, a.ID))
	}
}

func (s *IssueStore) List(ctx context.Context, q ports.IssueQuery) ([]*issue.Issue, int64, error) {
	defer s.d.lock(ctx)()
	if len(q.RepoIDs) == 0 && q.Viewer == nil {
		return nil, 0, errors.New("memstore: an issue listing names its repositories or its viewer")
	}
	list := []*issue.Issue{}
	for _, i := range s.d.s.issues {
		if s.d.s.matches(i, q) {
			list = append(list, issueOut(i))
		}
	}
	order := issueOrder(q.Sort)
	slices.SortFunc(list, func(a, b *issue.Issue) int {
		if q.PriorityRepoID != 0 && (a.RepoID == q.PriorityRepoID) != (b.RepoID == q.PriorityRepoID) {
			if a.RepoID == q.PriorityRepoID {
				return -1
			}
			return 1
		}
		return order(a, b)
	})
	return page(list, q.ListOptions), int64(len(list)), nil
}

func (s *IssueStore) RecountRepo(ctx context.Context, repoID int64) error {
	defer s.d.lock(ctx)()
	if _, ok := s.d.s.repos[repoID]; !ok {
		return errRepoNotFound
	}
	return nil // counters are computed on read
}

func (s *IssueStore) ReserveIndexes(ctx context.Context, repoID, upTo int64) error {
	defer s.d.lock(ctx)()
	s.d.s.nextIndex[repoID] = max(s.d.s.nextIndex[repoID], upTo)
	return nil
}

func (s *IssueStore) Assignees(ctx context.Context, issueIDs []int64) (map[int64][]int64, error) {
	defer s.d.lock(ctx)()
	out := map[int64][]int64{}
	for _, id := range issueIDs {
		if a := s.d.s.assignees[id]; len(a) > 0 {
			out[id] = slices.Sorted(slices.Values(a))
		}
	}
	return out, nil
}

func (s *IssueStore) SetAssignees(ctx context.Context, issueID int64, userIDs []int64) error {
	defer s.d.lock(ctx)()
	if _, ok := s.d.s.issues[issueID]; !ok && len(userIDs) > 0 {
		return errIssueNotFound
	}
	ids := slices.Compact(slices.Sorted(slices.Values(userIDs)))
	if len(ids) == 0 {
		delete(s.d.s.assignees, issueID)
		return nil
	}
	s.d.s.assignees[issueID] = ids
	return nil
}

func (s *IssueStore) Repositories(ctx context.Context, ids []int64) ([]*repository.Repository, error) {
	defer s.d.lock(ctx)()
	var out []*repository.Repository
	for _, id := range slices.Compact(slices.Sorted(slices.Values(ids))) {
		if r, ok := s.d.s.repos[id]; ok {
			out = append(out, s.d.s.repoOut(r))
		}
	}
	return out, nil
}

func (s *IssueStore) PageRecords(ctx context.Context, list []*issue.Issue, opt ports.IssuePageOptions) (*ports.IssuePageRecords, error) {
	defer s.d.lock(ctx)()
	st := s.d.s
	rec := &ports.IssuePageRecords{Labels: map[int64][]*issue.Label{}, Assignees: map[int64][]int64{},
		Attachments: map[int64][]*issue.Attachment{}, Milestones: map[int64]*issue.Milestone{}, Users: map[int64]*user.User{}}
	for _, i := range list {
		if ls := st.labelsOf(i.ID); len(ls) > 0 {
			rec.Labels[i.ID] = ls
		}
		if a := st.assignees[i.ID]; len(a) > 0 {
			rec.Assignees[i.ID] = slices.Clone(a)
		}
		for _, id := range sortedKeys(st.attachments) {
			if a := st.attachments[id]; !opt.NoAttachments && a.IssueID == i.ID && a.CommentID == 0 {
				rec.Attachments[i.ID] = append(rec.Attachments[i.ID], &a)
			}
		}
		if m, ok := st.milestones[i.MilestoneID]; ok {
			rec.Milestones[m.ID] = st.milestoneOut(m)
		}
		for _, id := range append([]int64{i.PosterID}, st.assignees[i.ID]...) {
			if u, ok := st.users[id]; ok {
				rec.Users[id] = st.userOut(u)
			}
		}
	}
	for _, id := range opt.MoreUsers {
		if u, ok := st.users[id]; ok {
			rec.Users[id] = st.userOut(u)
		}
	}
	return rec, nil
}
