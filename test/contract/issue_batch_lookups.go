package contract

import (
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

// issueBatchLookupTests is the IssueBatchLookups group of the store suite: the batch reads the
// time listings and the timeline use (RepoStore.GetByIDs,
// TrackedTimeStore.GetByIDs) and the refs of change_issue_ref events.
var issueBatchLookupTests = map[string]func(t *testing.T, f *fixture){
	"ReposByIDs":         testReposByIDs,
	"TrackedTimesByIDs":  testTrackedTimesByIDs,
	"CommentRefs":        testCommentRefs,
	"PageRecordsOptions": testPageRecordsOptions,
}

// testPageRecordsOptions: the accounts of MoreUsers come with the posters
// (absent ones left out), and NoAttachments leaves the attachments unread.
func testPageRecordsOptions(t *testing.T, f *fixture) {
	is := is.New(t)
	alice, bob, carol := f.user("alice"), f.user("bob"), f.user("carol")
	r := f.repo(alice, "r")
	i := f.issue(r.ID, alice.ID, "i", "", 1)
	is.NoErr(f.Attachments.Create(f.ctx, &issue.Attachment{UUID: "00000000-0000-4000-8000-0000000000aa",
		RepoID: r.ID, IssueID: i.ID, UploaderID: alice.ID, Name: "a.txt", Size: 3, CreatedAt: at(2)}))

	rec, err := f.Issues.PageRecords(f.ctx, []*issue.Issue{i}, ports.IssuePageOptions{MoreUsers: []int64{bob.ID, 9999}})
	is.NoErr(err)
	is.Equal(len(rec.Users), 2) // the poster and bob
	is.Equal(rec.Users[bob.ID].Name, "bob")
	is.Equal(rec.Users[alice.ID].Name, "alice")
	_, has := rec.Users[carol.ID]
	is.True(!has)
	is.Equal(len(rec.Attachments[i.ID]), 1)

	rec, err = f.Issues.PageRecords(f.ctx, []*issue.Issue{i}, ports.IssuePageOptions{NoAttachments: true})
	is.NoErr(err)
	is.Equal(len(rec.Attachments), 0)
	is.Equal(len(rec.Users), 1)
}

func testReposByIDs(t *testing.T, f *fixture) {
	is := is.New(t)
	alice, bob := f.user("alice"), f.user("bob")
	a := f.repo(alice, "a")
	b := f.repo(bob, "b", private)
	c := f.repo(alice, "c")

	got, err := f.Repos.GetByIDs(f.ctx, []int64{b.ID, a.ID, b.ID, 9999})
	is.NoErr(err)
	is.Equal(len(got), 2) // repeated ids once, absent ones left out
	for _, r := range []*repository.Repository{a, b} {
		is.Equal(got[r.ID], f.getRepo(r.ID)) // as GetByID reads it, owner included
	}
	is.Equal(got[b.ID].Owner.Name, "bob")
	is.True(got[b.ID].Private)
	_, has := got[c.ID]
	is.True(!has) // only what was asked

	none, err := f.Repos.GetByIDs(f.ctx, nil)
	is.NoErr(err)
	is.Equal(len(none), 0)
	is.True(none != nil) // an empty map, safe to read
}

func testTrackedTimesByIDs(t *testing.T, f *fixture) {
	is := is.New(t)
	u := f.user("alice")
	r := f.repo(u, "r")
	i := f.issue(r.ID, u.ID, "i", "", 1)
	var times []*issue.TrackedTime
	for n, secs := range []int64{60, 120, 180} {
		tt := &issue.TrackedTime{IssueID: i.ID, UserID: u.ID, Seconds: secs, CreatedAt: at(10 + n)}
		is.NoErr(f.TrackedTimes.Add(f.ctx, tt))
		times = append(times, tt)
	}
	got, err := f.TrackedTimes.GetByIDs(f.ctx, []int64{times[2].ID, 9999, times[0].ID})
	is.NoErr(err)
	is.Equal(len(got), 2)
	is.Equal(*got[0], *times[0]) // by id, every column
	is.Equal(*got[1], *times[2])

	is.NoErr(f.TrackedTimes.Delete(f.ctx, times[0].ID))
	got, err = f.TrackedTimes.GetByIDs(f.ctx, []int64{times[0].ID})
	is.NoErr(err)
	is.Equal(len(got), 0) // deleted times are gone
	got, err = f.TrackedTimes.GetByIDs(f.ctx, nil)
	is.NoErr(err)
	is.Equal(len(got), 0)
}

func testCommentRefs(t *testing.T, f *fixture) {
	is := is.New(t)
	u := f.user("alice")
	r := f.repo(u, "r")
	i := f.issue(r.ID, u.ID, "i", "", 1)
	ev := f.comment(i, u.ID, issue.CommentChangeIssueRef, "", 2, func(c *issue.Comment) {
		c.OldRef, c.NewRef = "main", "feature/ünïcode|x"
	})
	back, err := f.Comments.GetByID(f.ctx, ev.ID)
	is.NoErr(err)
	is.Equal(back, ev) // both refs round-trip
	is.Equal(back.NewRef, "feature/ünïcode|x")
}
