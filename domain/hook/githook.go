package hook

import (
	"slices"
	"strings"

	"github.com/depothq/depot/domain/errs"
)

// GitHookNames are the server-side Git hooks a repository may carry a script
// for, in the order Gitea lists them. Each runs after Depot's own logic for
// that hook.
var GitHookNames = []string{"pre-receive", "update", "post-receive"}

// GitHook is one of a repository's Git hook scripts: Active when the
// repository has a script for it, Content the script.
type GitHook struct {
	Name    string
	Active  bool
	Content string
}

// ErrGitHookNotFound answers a Git hook name outside GitHookNames.
var ErrGitHookNotFound = errs.NotFound("git hook does not exist")

// errGitHooksDenied is the refusal of the Git hook routes.
var errGitHooksDenied = errs.Forbidden("must be allowed to edit Git hooks")

// CheckGitHookName refuses a name that is not one of GitHookNames.
func CheckGitHookName(name string) error {
	if !slices.Contains(GitHookNames, name) {
		return ErrGitHookNotFound
	}
	return nil
}

// CanEditGitHooks is Gitea's rule for the Git hook routes: the site must
// allow Git hooks, and the account must be a site admin or allowed to edit
// them; otherwise 403 "must be allowed to edit Git hooks".
func CanEditGitHooks(siteEnabled, isAdmin, allowGitHook bool) error {
	if !siteEnabled || !(isAdmin || allowGitHook) {
		return errGitHooksDenied
	}
	return nil
}

// NormalizeScript prepares a script for disk as Gitea does: line endings
// become "\n". A blank script means "no script" (ok is false): saving one
// removes the hook's script.
func NormalizeScript(content string) (script string, ok bool) {
	script = strings.ReplaceAll(content, "\r\n", "\n")
	script = strings.ReplaceAll(script, "\r", "\n")
	return script, strings.TrimSpace(script) != ""
}
