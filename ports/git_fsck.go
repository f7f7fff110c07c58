package ports

import "context"

// GitFsck checks repositories' integrity, for the repo_health_check task.
type GitFsck interface {
	// Fsck runs `git fsck` on p's repository. A repository git finds
	// broken (missing or corrupt objects, dangling references) is an error
	// carrying git's report; ctx bounds the check (its end kills git).
	Fsck(ctx context.Context, p RepoPath) error
}
