package sqlstore_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/ports"
)

// TestIssueCommentListStatementCount pins that GET R/issues/{index}/comments
// costs as many statements for twenty comments by five authors, with
// attachments, as for one comment: the issue, its comments, their authors
// and their attachments are each one query.
func TestIssueCommentListStatementCount(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			app, admin, caller := statementApp(t, b)
			ctx := context.Background()
			r, err := app.Repos.Create(ctx, caller, admin, repos.CreateInput{Name: "talk"})
			is.NoErr(err)
			at := time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)
			var one, twenty int64
			err = app.DB.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
				people, err := createUsers(ctx, tx, "ann", "ben", "cat", "dan")
				if err != nil {
					return err
				}
				authors := []int64{admin.ID, people[0].ID, people[1].ID, people[2].ID, people[3].ID}
				for _, n := range []int{1, 20} {
					i := &issue.Issue{RepoID: r.ID, PosterID: admin.ID, Title: "talk", CreatedAt: at, UpdatedAt: at}
					if err := tx.Issues.Create(ctx, i); err != nil {
						return err
					}
					if n == 1 {
						one = i.Index
					} else {
						twenty = i.Index
					}
					for k := range n {
						c := &issue.Comment{Type: issue.CommentPlain, IssueID: i.ID, RepoID: r.ID,
							PosterID: authors[k%len(authors)], Body: "said " + itoa(k), CreatedAt: at, UpdatedAt: at}
						if err := tx.Comments.Create(ctx, c); err != nil {
							return err
						}
						if err := tx.Attachments.Create(ctx, &issue.Attachment{UUID: fmt.Sprintf("c-%d-%d", n, k),
							RepoID: r.ID, IssueID: i.ID, CommentID: c.ID, UploaderID: c.PosterID, Name: "log.txt",
							Size: 3, CreatedAt: at}); err != nil {
							return err
						}
					}
				}
				return nil
			})
			is.NoErr(err)
			_, secret, err := app.Users.Tokens().Create(ctx, admin.ID, "comments", []string{"read:issue", "read:repository"})
			is.NoErr(err)

			counter := newStatementCounter(t, app, secret)
			count := func(index int64) (int64, []*gitea.Comment) {
				var list []*gitea.Comment
				n, _ := counter.count(fmt.Sprintf("repos/admin/talk/issues/%d/comments", index), &list)
				return n, list
			}
			n1, list1 := count(one)
			n20, list20 := count(twenty)
			t.Logf("statements: %d for 1 comment, %d for 20", n1, n20)
			is.Equal(len(list1), 1)
			is.Equal(len(list20), 20)
			is.Equal(n1, n20)
			for _, c := range list20 {
				is.True(c.Poster != nil && c.Poster.UserName != "")
				is.Equal(len(c.Attachments), 1)
			}
		})
	}
}
