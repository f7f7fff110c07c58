package libgit2

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	git "github.com/libgit2/git2go/v34"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

const tagsPrefix = "refs/tags/"

// errNoTag is the answer to a tag that does not exist.
func errNoTag(name string) error { return errs.NotFound("tag " + name + " does not exist") }

// tagSortKey is what Gitea's listing (git for-each-ref --sort=-*creatordate)
// orders a tag by: the date of the object an annotated tag points at;
// lightweight tags have none and come last.
type tagSortKey struct {
	name    string
	id      *git.Oid
	dated   bool
	created time.Time
}

// ListTags returns one page of tags in Gitea's order (ports.GitRefs).
func (s *Storage) ListTags(ctx context.Context, p ports.RepoPath, opts ports.ListOptions) ([]ports.GitTag, int64, error) {
	var (
		out   []ports.GitTag
		total int64
	)
	err := s.withRepo(ctx, p, func(repo *git.Repository) error {
		var err error
		out, total, err = listTags(repo, opts)
		return err
	})
	if err != nil {
		return nil, 0, err
	}
	return out, total, nil
}

// listTags implements ListTags on an open repository.
func listTags(repo *git.Repository, opts ports.ListOptions) ([]ports.GitTag, int64, error) {
	names, err := refNamesUnder(repo, tagsPrefix)
	if err != nil {
		return nil, 0, err
	}
	odb, err := repo.Odb()
	if err != nil {
		return nil, 0, fmt.Errorf("libgit2: open object database: %w", err)
	}
	defer odb.Free()
	keys := make([]tagSortKey, 0, len(names))
	for _, full := range names {
		id, ok, err := refTargetID(repo, full)
		if err != nil {
			return nil, 0, err
		}
		if !ok {
			continue
		}
		k := tagSortKey{name: strings.TrimPrefix(full, tagsPrefix), id: id}
		// Only annotated tags have a sort date, so lightweight ones cost a
		// header read and nothing more.
		if _, typ, err := odb.ReadHeader(id); err == nil && typ == git.ObjectTag {
			k.created, k.dated = tagTargetDate(repo, id)
		}
		keys = append(keys, k)
	}
	sort.SliceStable(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if a.dated != b.dated {
			return a.dated
		}
		if a.dated && !a.created.Equal(b.created) {
			return a.created.After(b.created)
		}
		return a.name < b.name
	})
	page := refPage(keys, opts)
	out := make([]ports.GitTag, 0, len(page))
	for _, k := range page {
		t, err := tagInfo(repo, k.name, k.id)
		if err != nil {
			return nil, 0, err
		}
		out = append(out, t)
	}
	return out, int64(len(keys)), nil
}

// tagTargetDate is for-each-ref's *creatordate of a tag object: the
// committer date of a tagged commit, the tagger date of a tagged tag.
func tagTargetDate(repo *git.Repository, tagID *git.Oid) (time.Time, bool) {
	tag, err := repo.LookupTag(tagID)
	if err != nil {
		return time.Time{}, false
	}
	defer tag.Free()
	switch tag.TargetType() {
	case git.ObjectCommit:
		c, err := repo.LookupCommit(tag.TargetId())
		if err != nil {
			return time.Time{}, false
		}
		defer c.Free()
		return c.Committer().When, true
	case git.ObjectTag:
		inner, err := repo.LookupTag(tag.TargetId())
		if err != nil {
			return time.Time{}, false
		}
		defer inner.Free()
		if sig := inner.Tagger(); sig != nil {
			return sig.When, true
		}
	}
	return time.Time{}, false
}

// tagInfo describes the tag name whose reference points at id.
func tagInfo(repo *git.Repository, name string, id *git.Oid) (ports.GitTag, error) {
	obj, err := repo.Lookup(id)
	if err != nil {
		if refMissing(err) {
			return ports.GitTag{}, errNoTag(name)
		}
		return ports.GitTag{}, fmt.Errorf("libgit2: look up tag %s: %w", name, err)
	}
	defer obj.Free()
	t := ports.GitTag{Name: name, ID: id.String(), ObjectID: id.String(), ObjectType: refObjectTypeName(obj.Type())}
	switch obj.Type() {
	case git.ObjectTag:
		tag, err := obj.AsTag()
		if err != nil {
			return ports.GitTag{}, fmt.Errorf("libgit2: read tag %s: %w", name, err)
		}
		t.Annotated = true
		t.ObjectID, t.ObjectType = tag.TargetId().String(), refObjectTypeName(tag.TargetType())
		t.Message, t.Tagger = tag.Message(), signature(tag.Tagger())
	case git.ObjectCommit:
		c, err := obj.AsCommit()
		if err != nil {
			return ports.GitTag{}, fmt.Errorf("libgit2: read commit of tag %s: %w", name, err)
		}
		t.CommitID, t.Message, t.Tagger = c.Id().String(), c.Message(), signature(c.Committer())
		return t, nil
	}
	if peeled, err := obj.Peel(git.ObjectCommit); err == nil {
		t.CommitID = peeled.Id().String()
		if c, err := peeled.AsCommit(); err == nil && !t.Annotated {
			t.Message, t.Tagger = c.Message(), signature(c.Committer())
		}
		peeled.Free()
	}
	return t, nil
}

// Tag returns one tag by name (ports.GitRefs).
func (s *Storage) Tag(ctx context.Context, p ports.RepoPath, name string) (ports.GitTag, error) {
	full, err := refValidName(tagsPrefix, name, "tag")
	if err != nil {
		return ports.GitTag{}, errNoTag(name)
	}
	var out ports.GitTag
	err = s.withRepo(ctx, p, func(repo *git.Repository) error {
		id, ok, err := refTargetID(repo, full)
		if err != nil {
			return err
		}
		if !ok {
			return errNoTag(name)
		}
		out, err = tagInfo(repo, name, id)
		return err
	})
	return out, err
}

// CreateTag creates a lightweight or annotated tag (ports.GitRefs). The
// reference is written only if it is still absent under its lock, so of
// concurrent creations one wins and the others get a conflict.
func (s *Storage) CreateTag(ctx context.Context, p ports.RepoPath, nt ports.GitNewTag) (ports.GitTag, error) {
	if err := ctx.Err(); err != nil {
		return ports.GitTag{}, err
	}
	full, err := refValidName(tagsPrefix, nt.Name, "TagName")
	if err != nil {
		return ports.GitTag{}, err
	}
	var out ports.GitTag
	err = s.withRepo(ctx, p, func(repo *git.Repository) error {
		c, err := lookupCommit(repo, nt.CommitID)
		if err != nil {
			return err
		}
		defer c.Free()
		exists := func() error {
			return &ports.RefConflictError{Kind: ports.RefExists, Name: full,
				Err: errs.Conflict("tag already exists [name: " + nt.Name + "]")}
		}
		if ok, err := hasRef(repo, full); err != nil {
			return err
		} else if ok {
			return exists()
		}
		if clash, err := refClash(repo, full, ""); err != nil {
			return err
		} else if clash != "" {
			return &ports.RefConflictError{Kind: ports.RefNameClash, Name: clash,
				Err: errs.Conflict("tag " + nt.Name + " clashes with " + clash)}
		}
		id := c.Id()
		if nt.Message != "" {
			if id, err = tagWriteObject(repo, c.Id(), nt); err != nil {
				return err
			}
		}
		dir, err := s.repoDir(p)
		if err != nil {
			return err
		}
		if err := refCreateAbsent(dir, full, id, "tag: created "+nt.Name); err != nil {
			if errors.Is(err, errRefTaken) {
				return exists()
			}
			return err
		}
		out, err = tagInfo(repo, nt.Name, id)
		return err
	})
	return out, err
}

// tagWriteObject writes the tag object of an annotated tag of commit and
// returns its id. An unreferenced object left by a lost race is harmless:
// git gc collects it.
func tagWriteObject(repo *git.Repository, commit *git.Oid, nt ports.GitNewTag) (*git.Oid, error) {
	name, email := tagIdentity(nt.Tagger.Name), tagIdentity(nt.Tagger.Email)
	if name == "" {
		return nil, errs.Invalid("tagger name is required", "tagger")
	}
	when := nt.Tagger.When
	if when.IsZero() {
		when = time.Now()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "object %s\ntype commit\ntag %s\ntagger %s <%s> %d %s\n\n%s",
		commit, nt.Name, name, email, when.Unix(), when.Format("-0700"), tagMessage(nt.Message))
	odb, err := repo.Odb()
	if err != nil {
		return nil, fmt.Errorf("libgit2: open object database: %w", err)
	}
	defer odb.Free()
	id, err := odb.Write([]byte(b.String()), git.ObjectTag)
	if err != nil {
		return nil, fmt.Errorf("libgit2: write tag object: %w", err)
	}
	return id, nil
}

// tagIdentity removes what cannot stand in a Git signature (angle brackets,
// line breaks, NUL) and the spaces around it, as Git's own sanitising does.
func tagIdentity(s string) string {
	s = strings.Map(func(r rune) rune {
		switch r {
		case '<', '>', '\n', '\r', 0:
			return -1
		}
		return r
	}, s)
	return strings.TrimSpace(s)
}

// tagMessage cleans a message as git tag -m does by default for whitespace:
// trailing blanks on each line go, runs of blank lines become one, leading
// and trailing blank lines go, and the message ends with a newline.
func tagMessage(m string) string {
	lines := strings.Split(strings.ReplaceAll(m, "\r\n", "\n"), "\n")
	var b strings.Builder
	blank := false
	for _, l := range lines {
		l = strings.TrimRight(l, " \t\r")
		if l == "" {
			blank = b.Len() > 0
			continue
		}
		if blank {
			b.WriteByte('\n')
			blank = false
		}
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String()
}

// DeleteTag deletes a tag if it has not moved since it was read (ports.GitRefs).
func (s *Storage) DeleteTag(ctx context.Context, p ports.RepoPath, name string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	full, err := refValidName(tagsPrefix, name, "tag")
	if err != nil {
		return "", errNoTag(name)
	}
	var out string
	err = s.withRepo(ctx, p, func(repo *git.Repository) error {
		var err error
		out, err = refDelete(repo, full, errNoTag(name))
		return err
	})
	return out, err
}

// AnnotatedTag returns a tag object by its full id (ports.GitRefs).
func (s *Storage) AnnotatedTag(ctx context.Context, p ports.RepoPath, id string) (ports.GitTag, error) {
	if len(id) != 40 || !repository.IsHex(id) {
		return ports.GitTag{}, errs.BadRequest("sha " + id + " is not a full object id")
	}
	oid, err := git.NewOid(strings.ToLower(id))
	if err != nil {
		return ports.GitTag{}, errs.BadRequest("sha " + id + " is not a full object id")
	}
	var out ports.GitTag
	err = s.withRepo(ctx, p, func(repo *git.Repository) error {
		obj, err := repo.Lookup(oid)
		if err != nil {
			if refMissing(err) {
				return errs.NotFound("object " + id + " does not exist")
			}
			return fmt.Errorf("libgit2: look up %s: %w", id, err)
		}
		typ := obj.Type()
		obj.Free()
		if typ != git.ObjectTag {
			return errs.BadRequest("object " + id + " is a " + refObjectTypeName(typ) + ", not an annotated tag")
		}
		tag, err := repo.LookupTag(oid)
		if err != nil {
			return fmt.Errorf("libgit2: read tag %s: %w", id, err)
		}
		name := tag.Name()
		tag.Free()
		out, err = tagInfo(repo, name, oid)
		return err
	})
	return out, err
}
