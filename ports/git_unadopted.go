package ports

import "context"

// GitUnadopted finds what is on disk under the repository root, for the
// admin's unadopted repositories (repositories without a record).
type GitUnadopted interface {
	// RepoDirs lists the <owner>/<name>.git directories under the root, as
	// lower-case owner and name, sorted; dot-directories (the trash) and
	// names that could not address a repository are left out.
	RepoDirs(ctx context.Context) ([]RepoPath, error)
	// HeadBranch is the branch HEAD points at ("" when HEAD is detached or
	// does not name a branch).
	HeadBranch(ctx context.Context, p RepoPath) (string, error)
}
