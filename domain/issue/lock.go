package issue

import "github.com/depothq/depot/domain/errs"

// LockReasons are the reasons an issue may be locked for (Gitea's default
// [repository.issue] LOCK_REASONS); an empty reason is allowed too.
var LockReasons = []string{"Too heated", "Off-topic", "Resolved", "Spam"}

// CheckLockReason returns nil for an empty or listed reason, else Gitea's
// 400.
func CheckLockReason(reason string) error {
	if reason == "" {
		return nil
	}
	for _, r := range LockReasons {
		if r == reason {
			return nil
		}
	}
	return errs.BadRequest("reason not valid")
}
