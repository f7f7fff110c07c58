package contract

import (
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
)

// repoEmptyTests is the contract of RepoStore.SetEmpty.
var repoEmptyTests = map[string]func(t *testing.T, f *fixture){
	"SetEmpty": testRepoSetEmpty,
}

func testRepoSetEmpty(t *testing.T, f *fixture) {
	is := is.New(t)
	owner := f.user("owner")
	r := f.repo(owner, "repo") // newRepo starts empty
	other := f.repo(owner, "other")
	is.True(f.getRepo(r.ID).Empty)

	is.NoErr(f.Repos.SetEmpty(f.ctx, r.ID, false))
	got := f.getRepo(r.ID)
	is.True(!got.Empty)
	want := f.getRepo(other.ID)
	is.True(want.Empty) // only that repository changed
	got.Empty = true
	got.ID, got.Name, got.LowerName = want.ID, want.Name, want.LowerName
	got.Description, got.Website, got.OriginalURL, got.ExternalWikiURL, got.Avatar = want.Description, want.Website, want.OriginalURL, want.ExternalWikiURL, want.Avatar
	is.Equal(got, want) // and nothing else of it

	is.NoErr(f.Repos.SetEmpty(f.ctx, r.ID, false)) // idempotent
	is.NoErr(f.Repos.SetEmpty(f.ctx, r.ID, true))
	is.True(f.getRepo(r.ID).Empty)
	isCategory(is, f.Repos.SetEmpty(f.ctx, 424242, false), errs.ErrNotFound, "repository does not exist")
}
