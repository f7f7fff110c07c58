package libgit2

import (
	"fmt"

	git "github.com/libgit2/git2go/v34"

	"github.com/depothq/depot/ports"
)

// SignCommitsWith makes every commit the storage writes itself — first
// commits, contents API writes, merges, squashes and rebases — carry an
// OpenPGP signature by signer; nil signs none. Call it before serving.
func (s *Storage) SignCommitsWith(signer ports.CommitSigner) { s.signer = signer }

// commitWriter writes the storage's commit objects, signed when it signs.
type commitWriter struct {
	signer ports.CommitSigner
}

// commits is the storage's commit writer.
func (s *Storage) commits() commitWriter { return commitWriter{signer: s.signer} }

// write writes a commit of tree with parents and, when ref is not "",
// moves ref to it only if ref still points at the first parent (or is
// absent when there is none) — GIT_EMODIFIED otherwise, as
// CreateCommitFromIds answers.
func (w commitWriter) write(repo *git.Repository, ref string, author, committer *git.Signature, msg string,
	treeID *git.Oid, parents ...*git.Oid) (*git.Oid, error) {
	if w.signer == nil {
		return repo.CreateCommitFromIds(ref, author, committer, msg, treeID, parents...)
	}
	tree, err := repo.LookupTree(treeID)
	if err != nil {
		return nil, fmt.Errorf("libgit2: look up tree %s: %w", treeID, err)
	}
	defer tree.Free()
	commits := make([]*git.Commit, 0, len(parents))
	defer func() {
		for _, c := range commits {
			c.Free()
		}
	}()
	for _, id := range parents {
		c, err := repo.LookupCommit(id)
		if err != nil {
			return nil, fmt.Errorf("libgit2: look up parent %s: %w", id, err)
		}
		commits = append(commits, c)
	}
	content, err := repo.CreateCommitBuffer(author, committer, git.MessageEncodingUTF8, msg, tree, commits...)
	if err != nil {
		return nil, fmt.Errorf("libgit2: commit content: %w", err)
	}
	sig, err := w.signer.SignCommit(content)
	if err != nil {
		return nil, err
	}
	id, err := repo.CreateCommitWithSignature(string(content), sig, "")
	if err != nil {
		return nil, fmt.Errorf("libgit2: write signed commit: %w", err)
	}
	if ref == "" {
		return id, nil
	}
	var from *git.Oid
	if len(parents) > 0 {
		from = parents[0]
	}
	return id, moveRefFrom(repo, ref, id, from, msg)
}

// moveRefFrom points ref at id if it still points at from (or is absent
// when from is nil), checked under the ref's lock.
func moveRefFrom(repo *git.Repository, ref string, id, from *git.Oid, msg string) error {
	moved := &git.GitError{Code: git.ErrorCodeModified, Message: "ref " + ref + " moved"}
	if from == nil {
		r, err := repo.References.Create(ref, id, false, msg)
		if err != nil {
			if git.IsErrorCode(err, git.ErrorCodeExists) {
				return moved
			}
			return err
		}
		r.Free()
		return nil
	}
	cur, err := repo.References.Lookup(ref)
	if err != nil {
		if git.IsErrorCode(err, git.ErrorCodeNotFound) {
			return moved
		}
		return err
	}
	defer cur.Free()
	direct, err := cur.Resolve()
	if err != nil {
		return err
	}
	defer direct.Free()
	if !direct.Target().Equal(from) {
		return moved
	}
	next, err := direct.SetTarget(id, msg)
	if err != nil {
		return err
	}
	next.Free()
	return nil
}
