package content

import (
	"context"
	"errors"
	"strings"

	"github.com/depothq/depot/app/repos"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// Refs are the use cases of the Git data routes over references: the
// references themselves, annotated tag objects and commits' notes.
type Refs struct{ *Service }

// Refs returns the reference use cases.
func (s *Service) Refs() Refs { return Refs{s} }

// NoteView is a commit's note with the accounts of the notes commit's
// author and committer.
type NoteView struct {
	ports.GitNote
	Author, Committer *user.User
}

// refNameMaxLen is the longest branch or tag name Gitea's binding accepts.
const refNameMaxLen = 100

// refUnprocessable is a 422 whose message names no field, as Gitea words
// its refusals of a rename and of a note's ref.
func refUnprocessable(msg string) error { return &errs.Error{Kind: errs.ErrInvalid, Msg: msg} }

// refNameValid checks a new branch or tag name as Gitea's binding does
// (Required, GitRefName, MaxSize(100)).
func refNameValid(field, name string) error {
	if err := repository.ValidateBranchName(field, name); err != nil {
		return err
	}
	if len([]rune(name)) > refNameMaxLen {
		return errs.Invalid("MaxSize", field)
	}
	return nil
}

// AnnotatedTag returns a tag object by its id.
func (s Refs) AnnotatedTag(ctx context.Context, a *repos.Access, sha string) (ports.GitTag, error) {
	if sha == "" {
		return ports.GitTag{}, errs.BadRequest("SHA not provided")
	}
	return s.git.AnnotatedTag(ctx, pathOf(a.Repo), sha)
}

// List returns the references whose names start with "refs/"+filter (all
// when filter is empty); none is not found.
func (s Refs) List(ctx context.Context, a *repos.Access, filter string) ([]ports.GitRef, error) {
	prefix := ""
	if filter != "" {
		prefix = "refs/" + filter
	}
	refs, err := s.git.ListRefs(ctx, pathOf(a.Repo), prefix)
	if err != nil {
		return nil, err
	}
	if len(refs) == 0 {
		return nil, errs.NotFound("no reference matches")
	}
	return refs, nil
}

// Note returns the note of the commit ref names (a branch, tag or commit id).
func (s Refs) Note(ctx context.Context, a *repos.Access, ref string) (NoteView, error) {
	if refPatternFaults(ref)&(refMalformed|refLockComponent) != 0 {
		return NoteView{}, refUnprocessable("no valid ref or sha: " + ref)
	}
	p := pathOf(a.Repo)
	rev, err := s.git.Resolve(ctx, p, ref)
	if err != nil {
		return NoteView{}, err
	}
	n, err := s.git.Note(ctx, p, rev.CommitID)
	if err != nil {
		if errors.Is(err, errs.ErrNotFound) {
			return NoteView{}, errs.NotFound("no note for " + ref)
		}
		return NoteView{}, err
	}
	users, err := s.usersByEmails(ctx, []string{n.Commit.Author.Email, n.Commit.Committer.Email})
	if err != nil {
		return NoteView{}, err
	}
	return NoteView{GitNote: n, Author: users[strings.ToLower(n.Commit.Author.Email)],
		Committer: users[strings.ToLower(n.Commit.Committer.Email)]}, nil
}

// refFaults are what keeps a name from being a reference pattern, as
// Gitea's IsValidRefPattern judges it, in the parts in which the routes
// differ: the notes route refuses refMalformed and refLockComponent, the
// commit routes refMalformed and refTooLong (checkRefPattern), so that each
// keeps Gitea's status for a name the other refuses.
type refFaults uint8

const (
	// refMalformed is a name no route looks up: empty, with a leading or
	// trailing slash, a trailing dot, "..", "//" or "@{", "@" alone, a
	// control or special character, a component starting with a dot, or a
	// ".lock" ending.
	refMalformed refFaults = 1 << iota
	// refLockComponent is a component before the last ending in ".lock".
	refLockComponent
	// refTooLong is a name longer than 255 bytes.
	refTooLong
)

// refPatternFaults finds the faults of ref as a reference pattern (slashes
// allowed): none for a name Git could accept as a reference.
func refPatternFaults(ref string) refFaults {
	var f refFaults
	if len(ref) > 255 {
		f |= refTooLong
	}
	if ref == "" || strings.HasPrefix(ref, "/") || strings.HasSuffix(ref, "/") || strings.HasSuffix(ref, ".") ||
		strings.Contains(ref, "..") || strings.Contains(ref, "//") || strings.Contains(ref, "@{") || ref == "@" ||
		strings.HasSuffix(ref, ".lock") {
		f |= refMalformed
	}
	for _, r := range ref {
		if r < 0x20 || r == 0x7f || strings.ContainsRune(" ~^:?*[\\", r) {
			f |= refMalformed
			break
		}
	}
	parts := strings.Split(ref, "/")
	for i, part := range parts {
		if strings.HasPrefix(part, ".") {
			f |= refMalformed
		}
		if i < len(parts)-1 && strings.HasSuffix(part, ".lock") {
			f |= refLockComponent
		}
	}
	return f
}
