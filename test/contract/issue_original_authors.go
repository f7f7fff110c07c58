package contract

import (
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/ports"
)

// The original author of a migrated issue and comment is stored and read
// back, by id and in listings.
func init() {
	issueTests["OriginalAuthorRoundTrip"] = func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice := f.user("alice")
		r := f.repo(alice, "app")
		i := f.issue(r.ID, alice.ID, "Copied", "from elsewhere", 1, func(i *issue.Issue) {
			i.OriginalAuthor, i.OriginalAuthorID = "carol", 42
		})
		plain := f.issue(r.ID, alice.ID, "Written here", "", 2)
		got, err := f.Issues.GetByID(f.ctx, i.ID)
		is.NoErr(err)
		is.Equal(got.OriginalAuthor, "carol")
		is.Equal(got.OriginalAuthorID, int64(42))
		list, _, err := f.Issues.List(f.ctx, ports.IssueQuery{RepoIDs: []int64{r.ID}, State: "all", ListOptions: ports.ListOptions{Page: 1, Limit: 10}})
		is.NoErr(err)
		authors := map[int64]string{}
		for _, x := range list {
			authors[x.ID] = x.OriginalAuthor
		}
		is.Equal(authors, map[int64]string{i.ID: "carol", plain.ID: ""})

		c := &issue.Comment{Type: issue.CommentPlain, IssueID: i.ID, RepoID: r.ID, PosterID: alice.ID, Body: "copied too",
			OriginalAuthor: "dave", OriginalAuthorID: 7, CreatedAt: at(3), UpdatedAt: at(3)}
		is.NoErr(f.Comments.Create(f.ctx, c))
		gc, err := f.Comments.GetByID(f.ctx, c.ID)
		is.NoErr(err)
		is.Equal(gc.OriginalAuthor, "dave")
		is.Equal(gc.OriginalAuthorID, int64(7))
	}
}
