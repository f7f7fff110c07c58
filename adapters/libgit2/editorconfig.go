package libgit2

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/editorconfig/editorconfig-core-go/v2"
	git "github.com/libgit2/git2go/v34"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// editorconfigMax bounds the .editorconfig read; a bigger one is treated as
// absent.
const editorconfigMax = 1 << 20

// errNoEditorconfig answers a tree without a usable root .editorconfig.
func errNoEditorconfig() error { return errs.NotFound("the repository has no .editorconfig") }

// EditorConfig resolves the properties the root .editorconfig of ref's tree
// gives filename (ports.GitArchives). Gitea's four properties (charset,
// indent_style, indent_size, end_of_line) come normalised as Gitea gives
// them; every other property set for the file is included as written.
// Properties set to "unset" are left out.
func (s *Storage) EditorConfig(ctx context.Context, p ports.RepoPath, ref, filename string) (map[string]string, error) {
	var out map[string]string
	err := s.withRevision(ctx, p, ref, func(repo *git.Repository, rev ports.GitRevision) error {
		tree, err := commitTree(repo, rev.CommitID)
		if err != nil {
			return err
		}
		defer tree.Free()
		e := tree.EntryByName(editorconfig.ConfigNameDefault)
		if e == nil || (e.Filemode != git.FilemodeBlob && e.Filemode != git.FilemodeBlobExecutable) {
			return errNoEditorconfig()
		}
		blob, err := repo.LookupBlob(e.Id)
		if err != nil {
			return fmt.Errorf("libgit2: read .editorconfig: %w", err)
		}
		defer blob.Free()
		if blob.Size() > editorconfigMax {
			return errNoEditorconfig()
		}
		// Warnings (a property with a bad value) leave the rest usable.
		ec, _, err := editorconfig.ParseGraceful(bytes.NewReader(blob.Contents()))
		if err != nil {
			return errs.NotFound("the repository's .editorconfig cannot be parsed")
		}
		def, err := ec.GetDefinitionForFilename(strings.TrimPrefix(filename, "/"))
		if err != nil {
			// Only a section name that is not a valid glob gets here.
			return errs.NotFound("the repository's .editorconfig cannot be parsed")
		}
		props := map[string]string{}
		for k, v := range def.Raw {
			props[k] = v
		}
		for k, v := range map[string]string{
			"charset": def.Charset, "indent_style": def.IndentStyle, "indent_size": def.IndentSize,
			"end_of_line": def.EndOfLine,
		} {
			if v == "" {
				delete(props, k)
			} else {
				props[k] = v
			}
		}
		for k, v := range props {
			if strings.EqualFold(v, editorconfig.UnsetValue) {
				delete(props, k)
			}
		}
		out = props
		return nil
	})
	return out, err
}
