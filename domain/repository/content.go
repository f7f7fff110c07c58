package repository

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/user"
)

// FileOperation is what one change of a file write does to its path.
type FileOperation string

// The file operations of the contents API, as Gitea names them.
const (
	// FileCreate adds a file that must not exist yet.
	FileCreate FileOperation = "create"
	// FileUpdate replaces an existing file (named by its current blob SHA),
	// optionally moving it from FromPath.
	FileUpdate FileOperation = "update"
	// FileUpload writes a file whether or not it exists; a SHA, when given,
	// must match the existing file.
	FileUpload FileOperation = "upload"
	// FileRename moves FromPath to Path, keeping its content unless new
	// content is given.
	FileRename FileOperation = "rename"
	// FileDelete removes an existing file (named by its current blob SHA).
	FileDelete FileOperation = "delete"
)

// MaxTreePathLength bounds a path written through the API, in bytes.
const MaxTreePathLength = 4096

// maxSegmentLength bounds one path segment in bytes (most file systems' limit).
const maxSegmentLength = 255

// FileChange is one file of a write made as a single commit.
type FileChange struct {
	Operation FileOperation
	// Path is where the file ends up (or, for a delete, the file removed).
	Path string
	// FromPath is the file moved to Path by an update or a rename; empty
	// means Path itself.
	FromPath string
	// SHA is the current blob id of the file changed; required by update,
	// rename and delete, checked by upload when given.
	SHA string
	// Content is the new content. A rename with no content keeps the old one.
	Content []byte
}

// Source is the path whose current content a change reads: FromPath when
// set, else Path.
func (c FileChange) Source() string {
	if c.FromPath != "" {
		return c.FromPath
	}
	return c.Path
}

// Moves reports whether the change moves a file from another path.
func (c FileChange) Moves() bool { return c.FromPath != "" && c.FromPath != c.Path }

// Writes reports whether the change leaves a file at Path.
func (c FileChange) Writes() bool { return c.Operation != FileDelete }

// hfsIgnorable are the code points HFS+ ignores when comparing names, so that
// ".g\u200cit" names ".git" on a Mac (Git's own verify_path refuses them).
var hfsIgnorable = []rune{
	'\u200c', '\u200d', '\u200e', '\u200f', '\u202a', '\u202b', '\u202c', '\u202d', '\u202e',
	'\u206a', '\u206b', '\u206c', '\u206d', '\u206e', '\u206f', '\ufeff',
}

// isDotGit reports whether a path segment names the .git directory on some
// file system a clone may land on: any case, trailing dots or spaces
// (Windows), the 8.3 short name GIT~1, or HFS+ ignorable characters.
func isDotGit(seg string) bool {
	s := strings.Map(func(r rune) rune {
		for _, h := range hfsIgnorable {
			if r == h {
				return -1
			}
		}
		return r
	}, seg)
	s = strings.TrimRight(s, ". ")
	return strings.EqualFold(s, ".git") || strings.EqualFold(s, "git~1")
}

// CleanTreePath checks a path a user wants to write and returns it in its
// canonical form ("." segments dropped). It refuses, as a 422 naming field,
// paths that are empty, absolute, not UTF-8, or that contain a NUL, a
// backslash, an empty segment, a ".." segment or a .git component.
func CleanTreePath(field, p string) (string, error) {
	bad := func(why string) error {
		return errs.Invalid(fmt.Sprintf("path %s [path: %s]", why, printable(p)), field)
	}
	switch {
	case p == "":
		return "", errs.Invalid("Required", field)
	case !utf8.ValidString(p):
		return "", bad("is not valid UTF-8")
	case strings.IndexByte(p, 0) >= 0:
		return "", bad("contains a NUL character")
	case len(p) > MaxTreePathLength:
		return "", errs.Invalid("MaxSize", field)
	case strings.HasPrefix(p, "/"):
		return "", bad("is absolute")
	case strings.ContainsRune(p, '\\'):
		return "", bad("contains a backslash")
	}
	segs := strings.Split(p, "/")
	kept := segs[:0]
	for _, seg := range segs {
		switch {
		case seg == "":
			return "", bad("has an empty segment")
		case seg == ".":
			continue
		case seg == "..":
			return "", bad("has a '..' segment")
		case isDotGit(seg):
			return "", bad("has a .git component")
		case len(seg) > maxSegmentLength:
			return "", bad("has a segment longer than 255 bytes")
		}
		kept = append(kept, seg)
	}
	if len(kept) == 0 {
		return "", bad("names the root directory")
	}
	return strings.Join(kept, "/"), nil
}

// printable quotes what cannot be shown raw in a message (NUL, invalid UTF-8).
func printable(p string) string {
	if utf8.ValidString(p) && strings.IndexByte(p, 0) < 0 {
		return p
	}
	q := fmt.Sprintf("%q", p)
	return q[1 : len(q)-1]
}

// IsHex reports whether s is made of hex digits only (either case); the
// empty string is not.
func IsHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return s != ""
}

// isHexSHA reports whether s is a 40-digit hex object id.
func isHexSHA(s string) bool { return len(s) == 40 && IsHex(s) }

// CheckFileChanges validates a write's changes and returns them with their
// paths cleaned and SHAs lower-cased. Every operation is known; update,
// rename and delete name the current blob (SHA); rename names FromPath; no
// path is touched twice. Field names are Gitea's (Files, Operation,
// TreePath, FromPath, SHA).
func CheckFileChanges(changes []FileChange) ([]FileChange, error) {
	if len(changes) == 0 {
		return nil, errs.Invalid("Required", "Files")
	}
	out := make([]FileChange, 0, len(changes))
	touched := make(map[string]bool, len(changes))
	touch := func(p string) error {
		// Case matters to Git; a case-insensitive clone is the client's problem.
		if touched[p] {
			return errs.Invalid("path is changed more than once [path: "+p+"]", "TreePath")
		}
		touched[p] = true
		return nil
	}
	for _, c := range changes {
		switch c.Operation {
		case FileCreate, FileUpdate, FileUpload, FileRename, FileDelete:
		default:
			return nil, errs.Invalid(fmt.Sprintf("invalid file operation %q: supported operations are create, update, upload, rename and delete", printable(string(c.Operation))), "Operation")
		}
		var err error
		if c.Path, err = CleanTreePath("TreePath", c.Path); err != nil {
			return nil, err
		}
		if c.FromPath != "" {
			if c.Operation == FileCreate || c.Operation == FileDelete || c.Operation == FileUpload {
				return nil, errs.Invalid("from_path is only allowed with update and rename", "FromPath")
			}
			if c.FromPath, err = CleanTreePath("FromPath", c.FromPath); err != nil {
				return nil, err
			}
		}
		if c.Operation == FileRename && !c.Moves() {
			return nil, errs.Invalid("a rename needs a from_path other than the path", "FromPath")
		}
		if c.Operation == FileDelete && len(c.Content) > 0 {
			return nil, errs.Invalid("a delete takes no content", "Content")
		}
		c.SHA = strings.ToLower(strings.TrimSpace(c.SHA))
		switch {
		case c.SHA == "" && (c.Operation == FileUpdate || c.Operation == FileRename || c.Operation == FileDelete):
			return nil, errs.Invalid("the SHA of the current file must be given to "+string(c.Operation)+" it [path: "+c.Source()+"]", "SHA")
		case c.SHA != "" && c.Operation == FileCreate:
			return nil, errs.Invalid("a new file has no SHA", "SHA")
		case c.SHA != "" && !isHexSHA(c.SHA):
			return nil, errs.Invalid("sha must be a 40-digit hex object id", "SHA")
		}
		if err := touch(c.Path); err != nil {
			return nil, err
		}
		if c.Moves() {
			if err := touch(c.FromPath); err != nil {
				return nil, err
			}
		}
		out = append(out, c)
	}
	if err := checkChangeDirectories(out); err != nil {
		return nil, err
	}
	return out, nil
}

// Bounds of a default change message line: Gitea names every path, which
// makes the message of a write of n files grow with n (and an answer that
// repeated it per file grow with n squared). Depot names the first paths
// and counts the rest.
const (
	// defaultMessagePaths is the most paths one line names.
	defaultMessagePaths = 10
	// defaultMessageLineBytes is the length past which a line names no
	// further path (the first path is always named, whatever its length).
	defaultMessageLineBytes = 200
)

// DefaultChangeMessage is Gitea's commit message for a write that gave none:
// "Add a, b", "Update c" and "Delete d" lines, in that order (upload and
// rename count as updates). A line names at most defaultMessagePaths paths
// and stops early past defaultMessageLineBytes; the paths left out are
// counted ("Add a, b and 1998 more files"), so the message's length does
// not grow with the number of files.
func DefaultChangeMessage(changes []FileChange) string {
	var add, update, del []string
	for _, c := range changes {
		switch c.Operation {
		case FileCreate:
			add = append(add, c.Path)
		case FileDelete:
			del = append(del, c.Path)
		default:
			update = append(update, c.Path)
		}
	}
	var lines []string
	if len(add) > 0 {
		lines = append(lines, changeMessageLine("Add", add))
	}
	if len(update) > 0 {
		lines = append(lines, changeMessageLine("Update", update))
	}
	if len(del) > 0 {
		lines = append(lines, changeMessageLine("Delete", del))
	}
	return strings.Join(lines, "\n")
}

// changeMessageLine is verb followed by the first paths and a count of the
// others.
func changeMessageLine(verb string, paths []string) string {
	var b strings.Builder
	b.WriteString(verb)
	named := 0
	for i, p := range paths {
		if i > 0 && (named == defaultMessagePaths || b.Len()+2+len(p) > defaultMessageLineBytes) {
			break
		}
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(" ")
		b.WriteString(p)
		named++
	}
	switch rest := len(paths) - named; rest {
	case 0:
	case 1:
		b.WriteString(" and 1 more file")
	default:
		fmt.Fprintf(&b, " and %d more files", rest)
	}
	return b.String()
}

// DefaultPatchMessage is Gitea's commit message for a diff patch that gave none.
const DefaultPatchMessage = "apply-patch"

// Identity is a Git author or committer as a request gives it.
type Identity struct {
	Name, Email string
}

// IsZero reports whether no address was given (Gitea ignores a name alone).
func (i Identity) IsZero() bool { return strings.TrimSpace(i.Email) == "" }

// String is the identity as a Signed-off-by trailer shows it.
func (i Identity) String() string { return i.Name + " <" + i.Email + ">" }

// validIdentity checks an identity Git can record: a name and an address
// without angle brackets, line breaks or NUL.
func validIdentity(field string, i Identity) error {
	if strings.TrimSpace(i.Name) == "" {
		return errs.Invalid("name is required with an email address", field)
	}
	if strings.ContainsAny(i.Name, "<>\n\r\x00") || !utf8.ValidString(i.Name) {
		return errs.Invalid("name must not contain angle brackets or line breaks", field)
	}
	if err := user.ValidateEmail(field, i.Email); err != nil {
		return err
	}
	return nil
}

// CommitIdentities decides a write's author and committer as Gitea does: an
// identity counts when it has an address; when only one is given it is used
// for both; when neither is, both are the doer. A given identity whose
// address is the doer's may leave the name out (the doer's is used).
func CommitIdentities(author, committer, doer Identity) (Identity, Identity, error) {
	fill := func(field string, i Identity) (Identity, error) {
		i.Name, i.Email = strings.TrimSpace(i.Name), strings.TrimSpace(i.Email)
		if i.Name == "" && strings.EqualFold(i.Email, doer.Email) {
			i.Name = doer.Name
		}
		return i, validIdentity(field, i)
	}
	var err error
	switch {
	case author.IsZero() && committer.IsZero():
		return doer, doer, nil
	case committer.IsZero():
		if author, err = fill("Author", author); err != nil {
			return Identity{}, Identity{}, err
		}
		return author, author, nil
	case author.IsZero():
		if committer, err = fill("Committer", committer); err != nil {
			return Identity{}, Identity{}, err
		}
		return committer, committer, nil
	}
	if author, err = fill("Author", author); err != nil {
		return Identity{}, Identity{}, err
	}
	if committer, err = fill("Committer", committer); err != nil {
		return Identity{}, Identity{}, err
	}
	return author, committer, nil
}

// CommitMessage is the message a write commits: msg trimmed (or fallback
// when empty), with a Signed-off-by trailer for the committer when signoff
// is asked for, as Gitea writes it.
func CommitMessage(msg, fallback string, signoff bool, committer Identity) string {
	msg = strings.TrimSpace(msg)
	if msg == "" {
		msg = fallback
	}
	if signoff {
		msg += "\n\nSigned-off-by: " + committer.String()
	}
	return msg + "\n"
}

// CheckFileCount refuses a write of more than max files, a 422 naming
// field (Files, or Content for a diff) as the API's other list bounds
// (assignees, addresses, topics) answer: every file costs the write
// something, and a batch answers one entry per file. max <= 0 means no
// limit.
func CheckFileCount(field string, n, max int) error {
	if max > 0 && n > max {
		return errs.Invalid(fmt.Sprintf("a write may change at most %d files, got %d", max, n), field)
	}
	return nil
}

// CheckFileSize refuses content over max bytes (413); max <= 0 means no limit.
func CheckFileSize(path string, size, max int64) error {
	if max > 0 && size > max {
		return errs.TooLarge(fmt.Sprintf("file %s is %d bytes, over the limit of %d bytes", path, size, max))
	}
	return nil
}
