package contract

import (
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/ports"
)

// comment writes a comment (or event) of issue i posted by posterID at minute m.
func (f *fixture) comment(i *issue.Issue, posterID int64, typ issue.CommentType, body string, m int, edit ...func(c *issue.Comment)) *issue.Comment {
	f.t.Helper()
	c := &issue.Comment{Type: typ, IssueID: i.ID, RepoID: i.RepoID, PosterID: posterID, Body: body,
		CreatedAt: at(m), UpdatedAt: at(m)}
	for _, e := range edit {
		e(c)
	}
	if err := f.Comments.Create(f.ctx, c); err != nil {
		f.t.Fatalf("create comment %q: %v", body, err)
	}
	if c.ID == 0 {
		f.t.Fatalf("create comment %q: id not set", body)
	}
	return c
}

// issueNow reads an issue back.
func (f *fixture) issueNow(id int64) *issue.Issue {
	f.t.Helper()
	i, err := f.Issues.GetByID(f.ctx, id)
	if err != nil {
		f.t.Fatalf("get issue %d: %v", id, err)
	}
	return i
}

func commentBodies(list []*issue.Comment) []string {
	out := make([]string, len(list))
	for i, c := range list {
		out[i] = c.Body
	}
	return out
}

func commentID(c *issue.Comment) int64 { return c.ID }

// commentTests is the Comments group of the store suite: comments and
// timeline events, reactions and attachment rows.
var commentTests = map[string]func(t *testing.T, f *fixture){
	"CreateCountsPlainCommentsAndRoundTrips": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice := f.user("alice")
		r := f.repo(alice, "tools")
		i := f.issue(r.ID, alice.ID, "bug", "", 1)

		c := f.comment(i, alice.ID, issue.CommentPlain, "first", 5, func(c *issue.Comment) {
			c.OriginalAuthor, c.OriginalAuthorID = "octocat", 583231 // migrated
		})
		got := f.issueNow(i.ID)
		is.Equal(got.NumComments, 1)
		is.True(got.UpdatedAt.Equal(at(5))) // the comment touched the issue

		// An event is stored with every column but neither counts nor touches.
		ev := f.comment(i, alice.ID, issue.CommentMilestone, "", 7, func(c *issue.Comment) {
			c.LabelID, c.OldMilestoneID, c.MilestoneID, c.AssigneeID, c.RemovedAssignee = 2, 3, 4, 5, true
			c.OldTitle, c.NewTitle, c.RefRepoID, c.RefIssueID, c.RefCommentID = "old", "new", 6, 7, 8
			c.DependentIssueID, c.TimeID, c.Content = 9, 10, "2024-01-02|2024-02-03"
		})
		got = f.issueNow(i.ID)
		is.Equal(got.NumComments, 1)
		is.True(got.UpdatedAt.Equal(at(5)))

		back, err := f.Comments.GetByID(f.ctx, ev.ID)
		is.NoErr(err)
		is.Equal(back, ev) // every column round-trips
		back, err = f.Comments.GetByID(f.ctx, c.ID)
		is.NoErr(err)
		is.Equal(back, c)

		// A paged listing (the form the API sends) reads every column too.
		paged, total, err := f.Comments.List(f.ctx, ports.CommentQuery{IssueID: i.ID,
			ListOptions: ports.ListOptions{Page: 1, Limit: 10}})
		is.NoErr(err)
		is.Equal(total, int64(2))
		is.Equal(paged, []*issue.Comment{c, ev})
		// A listing of the text only reads at least the text's columns.
		texts, total, err := f.Comments.List(f.ctx, ports.CommentQuery{IssueID: i.ID, TextOnly: true,
			ListOptions: ports.ListOptions{Page: 1, Limit: 10}})
		is.NoErr(err)
		is.Equal(total, int64(2))
		is.Equal(len(texts), 2)
		for k, want := range []*issue.Comment{c, ev} {
			got := *texts[k]
			text := issue.Comment{ID: got.ID, Type: got.Type, IssueID: got.IssueID, RepoID: got.RepoID,
				PosterID: got.PosterID, OriginalAuthor: got.OriginalAuthor, OriginalAuthorID: got.OriginalAuthorID,
				Body: got.Body, CreatedAt: got.CreatedAt, UpdatedAt: got.UpdatedAt}
			is.Equal(text, issue.Comment{ID: want.ID, Type: want.Type, IssueID: want.IssueID, RepoID: want.RepoID,
				PosterID: want.PosterID, OriginalAuthor: want.OriginalAuthor, OriginalAuthorID: want.OriginalAuthorID,
				Body: want.Body, CreatedAt: want.CreatedAt, UpdatedAt: want.UpdatedAt})
		}

		both, err := f.Comments.GetByIDs(f.ctx, []int64{ev.ID, c.ID, 999999})
		is.NoErr(err)
		is.Equal(ids(both, commentID), []int64{c.ID, ev.ID})
		none, err := f.Comments.GetByIDs(f.ctx, nil)
		is.NoErr(err)
		is.Equal(len(none), 0)

		_, err = f.Comments.GetByID(f.ctx, 999999)
		isCategory(is, err, errs.ErrNotFound, "comment does not exist")
		err = f.Comments.Create(f.ctx, &issue.Comment{IssueID: 999999, RepoID: r.ID, PosterID: alice.ID,
			Body: "x", CreatedAt: at(1), UpdatedAt: at(1)})
		isCategory(is, err, errs.ErrNotFound, "issue does not exist")
	},

	"UpdateAndDeleteUncount": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice, bob := f.user("alice"), f.user("bob")
		r := f.repo(alice, "tools")
		i := f.issue(r.ID, alice.ID, "bug", "", 1)
		c1 := f.comment(i, alice.ID, issue.CommentPlain, "one", 2)
		c2 := f.comment(i, bob.ID, issue.CommentPlain, "two", 3)
		ev := f.comment(i, bob.ID, issue.CommentLabel, "", 4, func(c *issue.Comment) { c.LabelID, c.Content = 1, "1" })
		is.Equal(f.issueNow(i.ID).NumComments, 2)

		c1.Body, c1.UpdatedAt = "one, edited", at(9)
		is.NoErr(f.Comments.Update(f.ctx, c1))
		back, err := f.Comments.GetByID(f.ctx, c1.ID)
		is.NoErr(err)
		is.Equal(back.Body, "one, edited")
		is.True(back.UpdatedAt.Equal(at(9)))
		is.True(back.CreatedAt.Equal(at(2)))
		err = f.Comments.Update(f.ctx, &issue.Comment{ID: 999999, Body: "x", UpdatedAt: at(1)})
		isCategory(is, err, errs.ErrNotFound, "comment does not exist")

		// Deleting a comment takes its reactions and attachment rows along.
		is.NoErr(f.Reactions.Add(f.ctx, &issue.Reaction{Type: "heart", IssueID: i.ID, CommentID: c2.ID, UserID: alice.ID, CreatedAt: at(5)}))
		is.NoErr(f.Reactions.Add(f.ctx, &issue.Reaction{Type: "heart", IssueID: i.ID, UserID: alice.ID, CreatedAt: at(5)}))
		att := &issue.Attachment{UUID: "00000000-0000-4000-8000-000000000001", RepoID: r.ID, IssueID: i.ID,
			CommentID: c2.ID, UploaderID: bob.ID, Name: "a.txt", Size: 3, CreatedAt: at(6)}
		is.NoErr(f.Attachments.Create(f.ctx, att))
		is.NoErr(f.Comments.Delete(f.ctx, c2.ID))
		is.Equal(f.issueNow(i.ID).NumComments, 1)
		_, err = f.Comments.GetByID(f.ctx, c2.ID)
		isCategory(is, err, errs.ErrNotFound, "comment does not exist")
		left, total, err := f.Reactions.List(f.ctx, i.ID, c2.ID, ports.ListOptions{})
		is.NoErr(err)
		is.Equal(len(left), 0)
		is.Equal(total, int64(0))
		_, total, err = f.Reactions.List(f.ctx, i.ID, 0, ports.ListOptions{})
		is.NoErr(err)
		is.Equal(total, int64(1)) // the issue's own reaction stays
		_, err = f.Attachments.GetByID(f.ctx, att.ID)
		isCategory(is, err, errs.ErrNotFound, "attachment does not exist")

		// An event is deleted without touching the counter.
		is.NoErr(f.Comments.Delete(f.ctx, ev.ID))
		is.Equal(f.issueNow(i.ID).NumComments, 1)
		isCategory(is, f.Comments.Delete(f.ctx, ev.ID), errs.ErrNotFound, "comment does not exist")
	},

	"ListFiltersAndPages": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice := f.user("alice")
		r := f.repo(alice, "tools")
		other := f.repo(alice, "other")
		i1 := f.issue(r.ID, alice.ID, "one", "", 1)
		i2 := f.issue(r.ID, alice.ID, "two", "", 1, pullIssue)
		x := f.issue(other.ID, alice.ID, "x", "", 1)
		// Created out of order: listings follow created_at, then id.
		f.comment(i1, alice.ID, issue.CommentPlain, "c", 30)
		f.comment(i1, alice.ID, issue.CommentPlain, "a", 10)
		f.comment(i1, alice.ID, issue.CommentClose, "", 15)
		f.comment(i2, alice.ID, issue.CommentPlain, "b", 20)
		f.comment(x, alice.ID, issue.CommentPlain, "elsewhere", 5)

		list := func(q ports.CommentQuery) ([]string, int64) {
			t.Helper()
			got, total, err := f.Comments.List(f.ctx, q)
			if err != nil {
				t.Fatalf("list %+v: %v", q, err)
			}
			return commentBodies(got), total
		}
		plain := []issue.CommentType{issue.CommentPlain}
		got, total := list(ports.CommentQuery{IssueID: i1.ID})
		is.Equal(got, []string{"a", "", "c"})
		is.Equal(total, int64(3))
		got, _ = list(ports.CommentQuery{IssueID: i1.ID, Types: plain})
		is.Equal(got, []string{"a", "c"})
		got, total = list(ports.CommentQuery{RepoID: r.ID, Types: plain})
		is.Equal(got, []string{"a", "b", "c"})
		is.Equal(total, int64(3))
		no, yes := false, true
		got, _ = list(ports.CommentQuery{RepoID: r.ID, Types: plain, IsPull: &no})
		is.Equal(got, []string{"a", "c"})
		got, _ = list(ports.CommentQuery{RepoID: r.ID, Types: plain, IsPull: &yes})
		is.Equal(got, []string{"b"})

		// since and before bound updated_at, both inclusive.
		got, _ = list(ports.CommentQuery{RepoID: r.ID, Types: plain, Since: at(20)})
		is.Equal(got, []string{"b", "c"})
		got, _ = list(ports.CommentQuery{RepoID: r.ID, Types: plain, Before: at(20)})
		is.Equal(got, []string{"a", "b"})
		got, _ = list(ports.CommentQuery{RepoID: r.ID, Types: plain, Since: at(11), Before: at(29)})
		is.Equal(got, []string{"b"})
		got, _ = list(ports.CommentQuery{RepoID: r.ID, Types: plain, Since: at(20).Add(time.Microsecond)})
		is.Equal(got, []string{"c"})

		got, total = list(ports.CommentQuery{RepoID: r.ID, Types: plain, ListOptions: ports.ListOptions{Page: 2, Limit: 2}})
		is.Equal(got, []string{"c"})
		is.Equal(total, int64(3))

		// Paged, each filter as above: a full page is counted, a short one
		// is its own total, a page past the end is counted too.
		page := func(p, n int) ports.ListOptions { return ports.ListOptions{Page: p, Limit: n} }
		got, total = list(ports.CommentQuery{RepoID: r.ID, Types: plain, ListOptions: page(1, 2)})
		is.Equal(got, []string{"a", "b"})
		is.Equal(total, int64(3))
		got, total = list(ports.CommentQuery{RepoID: r.ID, Types: plain, ListOptions: page(3, 2)})
		is.Equal(len(got), 0)
		is.Equal(total, int64(3))
		got, total = list(ports.CommentQuery{IssueID: i1.ID, ListOptions: page(1, 2)})
		is.Equal(got, []string{"a", ""})
		is.Equal(total, int64(3))
		got, total = list(ports.CommentQuery{IssueID: i1.ID, Types: plain, ListOptions: page(1, 10)})
		is.Equal(got, []string{"a", "c"})
		is.Equal(total, int64(2))
		got, total = list(ports.CommentQuery{IssueID: i1.ID, Types: []issue.CommentType{issue.CommentPlain, issue.CommentClose},
			ListOptions: page(1, 1)})
		is.Equal(got, []string{"a"})
		is.Equal(total, int64(3))
		got, total = list(ports.CommentQuery{RepoID: r.ID, Types: plain, IsPull: &no, ListOptions: page(1, 1)})
		is.Equal(got, []string{"a"})
		is.Equal(total, int64(2))
		got, total = list(ports.CommentQuery{RepoID: r.ID, Types: plain, IsPull: &yes, ListOptions: page(1, 5)})
		is.Equal(got, []string{"b"})
		is.Equal(total, int64(1))
		got, total = list(ports.CommentQuery{IssueID: x.ID, RepoID: other.ID, Types: plain, ListOptions: page(1, 5)})
		is.Equal(got, []string{"elsewhere"})
		is.Equal(total, int64(1))
	},

	"PosterIDsAndRefsFrom": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice, bob := f.user("alice"), f.user("bob")
		r := f.repo(alice, "tools")
		i1 := f.issue(r.ID, alice.ID, "one", "", 1)
		i2 := f.issue(r.ID, alice.ID, "two", "", 1)
		f.comment(i1, bob.ID, issue.CommentPlain, "x", 2)
		f.comment(i1, alice.ID, issue.CommentPlain, "y", 3)
		f.comment(i1, bob.ID, issue.CommentPlain, "z", 4)
		f.comment(i1, 424242, issue.CommentLabel, "", 5) // events are not posts
		posters, err := f.Comments.PosterIDs(f.ctx, i1.ID)
		is.NoErr(err)
		is.Equal(posters, []int64{alice.ID, bob.ID})

		src := f.comment(i2, alice.ID, issue.CommentPlain, "see #1", 6)
		ref := f.comment(i1, alice.ID, issue.CommentCommentRef, "", 7, func(c *issue.Comment) {
			c.RefRepoID, c.RefIssueID, c.RefCommentID = r.ID, i2.ID, src.ID
		})
		issueRef := f.comment(i1, alice.ID, issue.CommentIssueRef, "", 8, func(c *issue.Comment) {
			c.RefRepoID, c.RefIssueID = r.ID, i2.ID
		})
		f.comment(i1, alice.ID, issue.CommentAddDependency, "", 9, func(c *issue.Comment) { c.RefIssueID = i2.ID })
		got, err := f.Comments.RefsFrom(f.ctx, i2.ID, src.ID)
		is.NoErr(err)
		is.Equal(ids(got, commentID), []int64{ref.ID})
		got, err = f.Comments.RefsFrom(f.ctx, i2.ID, 0)
		is.NoErr(err)
		is.Equal(ids(got, commentID), []int64{issueRef.ID})
	},

	"Reactions": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice, bob := f.user("alice"), f.user("bob")
		r := f.repo(alice, "tools")
		i := f.issue(r.ID, alice.ID, "one", "", 1)
		c := f.comment(i, alice.ID, issue.CommentPlain, "x", 2)

		r1 := &issue.Reaction{Type: "+1", IssueID: i.ID, UserID: bob.ID, CreatedAt: at(5)}
		is.NoErr(f.Reactions.Add(f.ctx, r1))
		is.True(r1.ID != 0)
		is.NoErr(f.Reactions.Add(f.ctx, &issue.Reaction{Type: "heart", IssueID: i.ID, UserID: bob.ID, CreatedAt: at(4)}))
		is.NoErr(f.Reactions.Add(f.ctx, &issue.Reaction{Type: "+1", IssueID: i.ID, UserID: alice.ID, CreatedAt: at(6)}))
		is.NoErr(f.Reactions.Add(f.ctx, &issue.Reaction{Type: "+1", IssueID: i.ID, CommentID: c.ID, UserID: bob.ID, CreatedAt: at(7)}))
		err := f.Reactions.Add(f.ctx, &issue.Reaction{Type: "+1", IssueID: i.ID, UserID: bob.ID, CreatedAt: at(8)})
		isCategory(is, err, errs.ErrConflict, "reaction already exists")

		got, err := f.Reactions.Get(f.ctx, i.ID, 0, bob.ID, "+1")
		is.NoErr(err)
		is.Equal(got, r1)
		_, err = f.Reactions.Get(f.ctx, i.ID, c.ID, alice.ID, "+1")
		isCategory(is, err, errs.ErrNotFound, "reaction does not exist")

		list, total, err := f.Reactions.List(f.ctx, i.ID, 0, ports.ListOptions{Page: 1, Limit: 2})
		is.NoErr(err)
		is.Equal(total, int64(3)) // the comment's reaction is not the issue's
		is.Equal(len(list), 2)
		is.Equal(list[0].Type, "heart") // oldest first
		is.Equal(list[1].ID, r1.ID)
		list, total, err = f.Reactions.List(f.ctx, i.ID, c.ID, ports.ListOptions{})
		is.NoErr(err)
		is.Equal(total, int64(1))
		is.Equal(list[0].CommentID, c.ID)

		is.NoErr(f.Reactions.Remove(f.ctx, i.ID, 0, bob.ID, "+1"))
		is.NoErr(f.Reactions.Remove(f.ctx, i.ID, 0, bob.ID, "+1")) // absent: fine
		_, total, err = f.Reactions.List(f.ctx, i.ID, 0, ports.ListOptions{})
		is.NoErr(err)
		is.Equal(total, int64(2))
	},

	"Attachments": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice := f.user("alice")
		r := f.repo(alice, "tools")
		i := f.issue(r.ID, alice.ID, "one", "", 1)
		c1 := f.comment(i, alice.ID, issue.CommentPlain, "x", 2)
		c2 := f.comment(i, alice.ID, issue.CommentPlain, "y", 3)
		mk := func(uuid string, commentID int64, name string) *issue.Attachment {
			a := &issue.Attachment{UUID: uuid, RepoID: r.ID, IssueID: i.ID, CommentID: commentID,
				UploaderID: alice.ID, Name: name, Size: 42, CreatedAt: at(4)}
			if err := f.Attachments.Create(f.ctx, a); err != nil {
				t.Fatalf("create attachment %s: %v", name, err)
			}
			return a
		}
		own := mk("00000000-0000-4000-8000-0000000000a1", 0, "issue.png")
		a1 := mk("00000000-0000-4000-8000-0000000000a2", c1.ID, "one.txt")
		a2 := mk("00000000-0000-4000-8000-0000000000a3", c1.ID, "two.txt")
		a3 := mk("00000000-0000-4000-8000-0000000000a4", c2.ID, "three.txt")
		err := f.Attachments.Create(f.ctx, &issue.Attachment{UUID: own.UUID, RepoID: r.ID, IssueID: i.ID,
			UploaderID: alice.ID, Name: "dup", CreatedAt: at(4)})
		isCategory(is, err, errs.ErrConflict, "attachment already exists")

		got, err := f.Attachments.GetByID(f.ctx, a1.ID)
		is.NoErr(err)
		is.Equal(got, a1)
		got, err = f.Attachments.GetByUUID(f.ctx, own.UUID)
		is.NoErr(err)
		is.Equal(got, own)
		_, err = f.Attachments.GetByUUID(f.ctx, "nope")
		isCategory(is, err, errs.ErrNotFound, "attachment does not exist")

		list, err := f.Attachments.ListByIssue(f.ctx, i.ID, 0)
		is.NoErr(err)
		is.Equal(list, []*issue.Attachment{own})
		list, err = f.Attachments.ListByIssue(f.ctx, i.ID, c1.ID)
		is.NoErr(err)
		is.Equal(list, []*issue.Attachment{a1, a2})
		byComment, err := f.Attachments.OfComments(f.ctx, []int64{c1.ID, c2.ID, 999999})
		is.NoErr(err)
		is.Equal(len(byComment), 2)
		is.Equal(byComment[c1.ID], []*issue.Attachment{a1, a2})
		is.Equal(byComment[c2.ID], []*issue.Attachment{a3})

		a1.Name = "renamed.txt"
		is.NoErr(f.Attachments.Update(f.ctx, a1))
		is.NoErr(f.Attachments.CountDownload(f.ctx, a1.ID))
		is.NoErr(f.Attachments.CountDownload(f.ctx, a1.ID))
		got, err = f.Attachments.GetByID(f.ctx, a1.ID)
		is.NoErr(err)
		is.Equal(got.Name, "renamed.txt")
		is.Equal(got.DownloadCount, int64(2))
		isCategory(is, f.Attachments.CountDownload(f.ctx, 999999), errs.ErrNotFound, "attachment does not exist")

		is.NoErr(f.Attachments.Delete(f.ctx, a2.ID))
		isCategory(is, f.Attachments.Delete(f.ctx, a2.ID), errs.ErrNotFound, "attachment does not exist")
		list, err = f.Attachments.ListByIssue(f.ctx, i.ID, c1.ID)
		is.NoErr(err)
		is.Equal(len(list), 1)
	},
}
