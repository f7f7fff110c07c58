package contract

import (
	"context"
	"slices"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/issue"
	"github.com/depothq/depot/ports"
)

var uploadRefTests = map[string]func(t *testing.T, f *fixture){
	// Attachments of an issue and of a comment and release assets are all
	// references to the one blob store; another repository's are not its.
	"ReferencedAndOfRepo": func(t *testing.T, f *fixture) {
		is := is.New(t)
		alice := f.user("alice")
		r, other := f.repo(alice, "code"), f.repo(alice, "other")
		i := f.issue(r.ID, alice.ID, "i", "", 1)
		c := f.comment(i, alice.ID, issue.CommentPlain, "c", 2)
		att := func(uuid string, commentID int64) {
			t.Helper()
			is.NoErr(f.Attachments.Create(f.ctx, &issue.Attachment{UUID: uuid, RepoID: r.ID, IssueID: i.ID,
				CommentID: commentID, UploaderID: alice.ID, Name: "a.txt", Size: 1, CreatedAt: at(3)}))
		}
		att("00000000-0000-4000-8000-000000000001", 0)
		att("00000000-0000-4000-8000-000000000002", c.ID)
		asset := f.asset(f.release(r.ID, alice.ID, "v1", 4), alice.ID, "a.zip", 5)
		elsewhere := f.asset(f.release(other.ID, alice.ID, "v1", 6), alice.ID, "b.zip", 7)

		got, err := f.UploadRefs.Referenced(f.ctx, []string{"00000000-0000-4000-8000-000000000001",
			"00000000-0000-4000-8000-000000000002", asset.UUID, elsewhere.UUID, "00000000-0000-4000-8000-0000000000ff"})
		is.NoErr(err)
		is.Equal(got, map[string]bool{"00000000-0000-4000-8000-000000000001": true,
			"00000000-0000-4000-8000-000000000002": true, asset.UUID: true, elsewhere.UUID: true})
		none, err := f.UploadRefs.Referenced(f.ctx, nil)
		is.NoErr(err)
		is.Equal(len(none), 0)

		of, err := f.UploadRefs.OfRepo(f.ctx, r.ID)
		is.NoErr(err)
		slices.Sort(of)
		want := []string{"00000000-0000-4000-8000-000000000001", "00000000-0000-4000-8000-000000000002", asset.UUID}
		slices.Sort(want)
		is.Equal(of, want)
		of, err = f.UploadRefs.OfRepo(f.ctx, 9999)
		is.NoErr(err)
		is.Equal(len(of), 0)

		// An issue's are its own and every comment's, whatever its type.
		event := f.comment(i, alice.ID, issue.CommentClose, "", 8)
		att("00000000-0000-4000-8000-000000000003", event.ID)
		of, err = f.UploadRefs.OfIssue(f.ctx, i.ID)
		is.NoErr(err)
		slices.Sort(of)
		is.Equal(of, []string{"00000000-0000-4000-8000-000000000001", "00000000-0000-4000-8000-000000000002",
			"00000000-0000-4000-8000-000000000003"})
		of, err = f.UploadRefs.OfIssue(f.ctx, 9999)
		is.NoErr(err)
		is.Equal(len(of), 0)
		want = append(want, "00000000-0000-4000-8000-000000000003")

		// Inside the transaction that deletes the repository, its
		// references are read before the rows go.
		var inTx []string
		is.NoErr(f.tx.InTx(f.ctx, func(ctx context.Context, tx ports.Stores) error {
			var err error
			if inTx, err = tx.UploadRefs.OfRepo(ctx, r.ID); err != nil {
				return err
			}
			return tx.Repos.Delete(ctx, r.ID)
		}))
		is.Equal(len(inTx), 4)
		got, err = f.UploadRefs.Referenced(f.ctx, want)
		is.NoErr(err)
		is.Equal(len(got), 0) // the rows went with the repository
	},
}
