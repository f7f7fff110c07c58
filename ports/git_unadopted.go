package ports

import "context"

// GitUnadopted finds what is on disk under the repository root, for the
// admin's unadopted repositories (repositories without a record).
type GitUnadopted interface {
	// RepoDirs lists the <owner>/<name>.git directories under the root, as
	// lower-case owner and name, sorted; dot-directories (the trash) and
	// names that could not address a repository are left out.
	RepoDirs(ctx context.Context) ([]RepoPath, error)
	// HeadBranch is the branch HEAD points at, or, when that branch does not
	// exist but others do, the first of them by name (adoption makes it the
	// default branch, as Gitea does); "" when HEAD names no branch and there
	// is none.
	HeadBranch(ctx context.Context, p RepoPath) (string, error)
}
