package repository

import (
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/depothq/depot/domain/errs"
)

// GitService is a service of Git's wire protocol a client asks for by name.
type GitService string

// The services Depot serves. git-upload-archive is not offered.
const (
	ServiceUploadPack  GitService = "git-upload-pack"
	ServiceReceivePack GitService = "git-receive-pack"
)

// ParseGitService checks a service name from a request. Unknown names are
// forbidden, with git http-backend's words.
func ParseGitService(name string) (GitService, error) {
	switch s := GitService(name); s {
	case ServiceUploadPack, ServiceReceivePack:
		return s, nil
	}
	return "", errs.Forbidden("Unsupported service: '" + shownRef(name) + "'")
}

// Writes reports whether the service changes the repository (a push).
func (s GitService) Writes() bool { return s == ServiceReceivePack }

// Command is the git subcommand that implements the service.
func (s GitService) Command() string { return strings.TrimPrefix(string(s), "git-") }

// maxGitProtocolLength bounds the Git-Protocol header passed on to git.
const maxGitProtocolLength = 256

// ValidGitProtocol reports whether a Git-Protocol header may be handed to git
// as GIT_PROTOCOL: colon-separated parameters, each a key or key=value
// (gitprotocol-pack's "extra parameters"), made of letters, digits and a few
// punctuation marks only, so nothing a shell, a config parser or git's own
// parser could read as more than a parameter.
func ValidGitProtocol(v string) bool {
	if v == "" || len(v) > maxGitProtocolLength {
		return false
	}
	for _, p := range strings.Split(v, ":") {
		key, value, hasValue := strings.Cut(p, "=")
		if !protocolToken(key, false) || (hasValue && !protocolToken(value, true)) {
			return false
		}
	}
	return true
}

func protocolToken(s string, value bool) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case c == '-' && i > 0:
		case value && (c == '.' || c == '_'):
		default:
			return false
		}
	}
	return true
}

// GitProtocolVersion returns the protocol version a valid Git-Protocol value
// asks for: the highest version=N among its parameters, 0 when none does
// (git's determine_protocol_version_server).
func GitProtocolVersion(v string) int {
	best := 0
	for _, p := range strings.Split(v, ":") {
		if n, ok := strings.CutPrefix(p, "version="); ok {
			if x, err := strconv.Atoi(n); err == nil && x > best {
				best = x
			}
		}
	}
	return best
}

// The reference namespaces a push may write.
const (
	BranchPrefix = "refs/heads/"
	TagPrefix    = "refs/tags/"
)

// RefChange is one reference update of a push, as git hands it to hooks:
// the old and new object ids (all zeros for none) and the full ref name.
type RefChange struct {
	OldID, NewID string
	Ref          string
}

// ParseRefChange reads one line of a hook's standard input, "<old> <new> <ref>".
// A ref name that is not valid UTF-8 is refused too: the hook hands the
// update on as JSON, which would turn its bytes into other characters, so
// the checks would judge a name other than the one git writes.
func ParseRefChange(line string) (RefChange, error) {
	parts := strings.SplitN(line, " ", 3)
	if len(parts) != 3 || !isObjectID(parts[0]) || !isObjectID(parts[1]) || len(parts[0]) != len(parts[1]) ||
		parts[2] == "" || !utf8.ValidString(parts[2]) {
		return RefChange{}, errs.BadRequest("malformed ref update: " + shownRef(line))
	}
	return RefChange{OldID: parts[0], NewID: parts[1], Ref: parts[2]}, nil
}

// isObjectID reports whether s is a full SHA-1 or SHA-256 object id in lower-case hex.
func isObjectID(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// shownRef makes a client-given name safe to echo in a message: control
// characters and invalid UTF-8 are escaped, and it is cut at 200 bytes.
func shownRef(s string) string {
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	if utf8.ValidString(s) && strings.IndexFunc(s, unicode.IsControl) < 0 {
		return s
	}
	q := strconv.Quote(s)
	return q[1 : len(q)-1]
}

func isZeroID(s string) bool { return strings.Trim(s, "0") == "" }

// zeroID stands for a ref that does not exist, as git's hooks write it.
const zeroID = "0000000000000000000000000000000000000000"

// DiffRefs lists, ordered by ref name, how refs moved from before to after
// (full ref name to object id): created, updated and deleted refs, as a
// push's hooks would report them.
func DiffRefs(before, after map[string]string) []RefChange {
	var out []RefChange
	for ref, id := range after {
		if old, ok := before[ref]; !ok {
			out = append(out, RefChange{OldID: zeroID, NewID: id, Ref: ref})
		} else if old != id {
			out = append(out, RefChange{OldID: old, NewID: id, Ref: ref})
		}
	}
	for ref, id := range before {
		if _, ok := after[ref]; !ok {
			out = append(out, RefChange{OldID: id, NewID: zeroID, Ref: ref})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Ref < out[j].Ref })
	return out
}

// IsCreate reports whether the ref did not exist before the push.
func (c RefChange) IsCreate() bool { return isZeroID(c.OldID) && !isZeroID(c.NewID) }

// IsDelete reports whether the push removes the ref.
func (c RefChange) IsDelete() bool { return isZeroID(c.NewID) }

// IsBranch reports whether the ref is a branch.
func (c RefChange) IsBranch() bool { return strings.HasPrefix(c.Ref, BranchPrefix) }

// IsTag reports whether the ref is a tag.
func (c RefChange) IsTag() bool { return strings.HasPrefix(c.Ref, TagPrefix) }

// ShortName is the branch or tag name without its namespace.
func (c RefChange) ShortName() string {
	if c.IsBranch() {
		return strings.TrimPrefix(c.Ref, BranchPrefix)
	}
	return strings.TrimPrefix(c.Ref, TagPrefix)
}

// CheckPushedRef says whether a push may make this change: only branches
// and tags may be written (Gitea likewise refuses refs/pull/ and the like),
// and a created or moved ref needs a name that is safe everywhere, which is
// stricter than git's own check-ref-format: no leading "-" (it would read as
// an option), no "..", no control characters. Deleting a badly named
// branch or tag is allowed, so that it can be cleaned up.
func CheckPushedRef(c RefChange) error {
	if !c.IsBranch() && !c.IsTag() {
		return errs.Forbidden("refusing to update " + shownRef(c.Ref) +
			": only branches (refs/heads/) and tags (refs/tags/) may be pushed")
	}
	if c.IsDelete() {
		return nil
	}
	name := c.ShortName()
	if ValidateBranchName("ref", name) != nil || name == "HEAD" {
		return errs.Forbidden("refusing to create " + shownRef(c.Ref) + ": invalid reference name")
	}
	return nil
}

// CheckDefaultBranchKept refuses to delete the default branch of a
// repository that has commits, as Gitea's pre-receive hook does.
func CheckDefaultBranchKept(r *Repository, c RefChange) error {
	if !r.Empty && c.IsBranch() && c.IsDelete() && c.ShortName() == r.DefaultBranch {
		return errs.Forbidden("branch " + shownRef(r.DefaultBranch) + " is the default branch and cannot be deleted")
	}
	return nil
}

// DefaultBranchAfterFirstPush chooses the default branch of a repository
// that was empty before a push: the current default when the push created
// it, else the first branch the push created. ok is false when the push
// created no branch.
func DefaultBranchAfterFirstPush(current string, changes []RefChange) (branch string, ok bool) {
	for _, c := range changes {
		if c.IsBranch() && !c.IsDelete() && c.ShortName() == current {
			return current, true
		}
	}
	for _, c := range changes {
		if c.IsBranch() && !c.IsDelete() {
			return c.ShortName(), true
		}
	}
	return "", false
}
