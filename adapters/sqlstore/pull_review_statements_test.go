package sqlstore_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/domain/pull"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// TestPullReviewListStatementCount pins that GET R/pulls/{index}/reviews
// costs as many statements for a page of 50 reviews (by several reviewers,
// each with line comments and a timeline entry) as for a page of one:
// reviewers, teams, comment counts and entries are each one batch.
func TestPullReviewListStatementCount(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			app, admin, caller := statementApp(t, b)
			ctx := context.Background()
			base, err := app.Repos.Create(ctx, caller, admin, repos.CreateInput{Name: "reviewed", AutoInit: true})
			is.NoErr(err)

			var reader *user.User
			err = app.DB.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
				people, err := createUsers(ctx, tx, "reader", "alice", "bob", "carol")
				if err != nil {
					return err
				}
				reader = people[0]
				if err := seedPull(ctx, tx, base, base, people[1].ID, 0, 0, pullExtras{}); err != nil {
					return err
				}
				i, err := tx.Issues.GetByIndex(ctx, base.ID, 1)
				if err != nil {
					return err
				}
				at := time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)
				for k := range 60 {
					r := &pull.Review{IssueID: i.ID, ReviewerID: people[1+k%3].ID, State: pull.ReviewComment,
						Body: "note", CommitID: strings.Repeat("a", 40), CreatedAt: at, UpdatedAt: at}
					if err := tx.PullReviews.Create(ctx, r); err != nil {
						return err
					}
					for _, c := range []*issue.Comment{
						{Type: issue.CommentReview, Body: "note"},
						{Type: issue.CommentCode, Body: "here", TreePath: "a.txt", Line: 1},
						{Type: issue.CommentCode, Body: "and here", TreePath: "a.txt", Line: -2},
					} {
						c.IssueID, c.RepoID, c.PosterID, c.ReviewID, c.CreatedAt, c.UpdatedAt = i.ID, base.ID, r.ReviewerID, r.ID, at, at
						if err := tx.Comments.Create(ctx, c); err != nil {
							return err
						}
					}
				}
				return nil
			})
			is.NoErr(err)
			_, secret, err := app.Users.Tokens().Create(ctx, reader.ID, "reviews", []string{"read:repository"})
			is.NoErr(err)

			counter := newStatementCounter(t, app, secret)
			count := func(path string) (int64, []*gitea.PullReview) {
				var list []*gitea.PullReview
				n, _ := counter.count("repos/admin/reviewed/pulls/1/"+path, &list)
				return n, list
			}
			one, listOne := count("reviews?limit=1")
			fifty, listFifty := count("reviews?limit=50")
			t.Logf("statements: %d for 1 review, %d for 50", one, fifty)
			is.Equal(len(listOne), 1)
			is.Equal(len(listFifty), 50)
			is.Equal(one, fifty)
			for _, r := range listFifty {
				is.Equal(r.CodeCommentsCount, 2)
				is.True(r.Reviewer != nil)
				is.True(strings.Contains(r.HTMLURL, "#issuecomment-"))
			}
		})
	}
}
