package libgit2

import (
	"context"
	"fmt"
	"maps"
	"path"
	"regexp"
	"strings"

	git "github.com/libgit2/git2go/v34"

	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/ports"
)

// Limits of the language detection, as Gitea's: files up to bigFileSize are
// read, and only their first sniffSize bytes are looked at; bigger files are
// judged by name.
const (
	languageSniffSize = 16 << 10
	languageBigFile   = 1 << 20
)

// Languages returns the bytes per language of ref's tree, computed once per
// commit (ports.GitArchives).
func (s *Storage) Languages(ctx context.Context, p ports.RepoPath, ref string) (map[string]int64, error) {
	return cachedByCommit(ctx, s, p, ref, &s.analyses.languages, maps.Clone,
		func(repo *git.Repository, tree *git.Tree, odb *git.Odb) (map[string]int64, error) {
			st := &languageStats{ctx: ctx, repo: repo, odb: odb, sizes: map[string]int64{}, included: map[string]bool{}}
			if err := st.walk(tree, ""); err != nil {
				return nil, err
			}
			return st.result(), nil
		})
}

// languageStats adds up file sizes by language the way Gitea does: only
// programming and markup languages count, unless the tree holds nothing else,
// in which case the first other language found is the answer.
type languageStats struct {
	ctx      context.Context
	repo     *git.Repository
	odb      *git.Odb
	sizes    map[string]int64
	included map[string]bool
	// firstOther and firstOtherSize are the fallback language and its bytes.
	firstOther     string
	firstOtherSize int64
	// attrs are the .gitattributes rules of the directories being walked:
	// linguist-vendored, linguist-generated and linguist-language (or
	// gitlab-language) override the detection, as in Gitea.
	attrs repository.Attributes
}

func (st *languageStats) result() map[string]int64 {
	if len(st.sizes) == 0 && st.firstOther != "" {
		st.sizes[st.firstOther] = st.firstOtherSize
	}
	return st.sizes
}

func (st *languageStats) walk(tree *git.Tree, base string) error {
	mark := st.attrs.Len()
	defer st.attrs.Truncate(mark)
	if e := tree.EntryByName(".gitattributes"); e != nil && e.Filemode == git.FilemodeBlob {
		obj, err := st.odb.Read(e.Id)
		if err != nil {
			return fmt.Errorf("libgit2: read %s.gitattributes: %w", base, err)
		}
		st.attrs.Add(base, obj.Data())
		obj.Free()
	}
	n := tree.EntryCount()
	for i := uint64(0); i < n; i++ {
		if err := st.ctx.Err(); err != nil {
			return err
		}
		e := tree.EntryByIndex(i)
		if e == nil {
			return fmt.Errorf("libgit2: tree %s has no entry %d", tree.Id(), i)
		}
		p := base + e.Name
		switch e.Filemode {
		case git.FilemodeTree:
			// A vendored directory is skipped whole, unread, unless
			// attributes may say otherwise of what it holds.
			if st.attrs.Empty() && isVendored(p+"/") {
				continue
			}
			sub, err := st.repo.LookupTree(e.Id)
			if err != nil {
				return fmt.Errorf("libgit2: read tree %s: %w", p, err)
			}
			err = st.walk(sub, p+"/")
			sub.Free()
			if err != nil {
				return err
			}
		case git.FilemodeBlob, git.FilemodeBlobExecutable:
			if err := st.file(p, e.Id); err != nil {
				return err
			}
		}
		// Symbolic links and submodules hold no code of this repository.
	}
	return nil
}

// file counts one blob.
func (st *languageStats) file(p string, id *git.Oid) error {
	var notVendored, notGenerated bool
	if !st.attrs.Empty() {
		vendored := st.attrs.Lookup(p, false, "linguist-vendored")
		generated := st.attrs.Lookup(p, false, "linguist-generated")
		if vendored.IsTrue() || generated.IsTrue() {
			return nil
		}
		notVendored, notGenerated = vendored.IsFalse(), generated.IsFalse()
		if lang := st.attrLanguage(p); lang != "" {
			// A language named by the attributes always counts.
			size, _, err := st.odb.ReadHeader(id)
			if err != nil {
				return fmt.Errorf("libgit2: read blob %s: %w", p, err)
			}
			if size > 0 {
				st.sizes[lang] += int64(size)
			}
			return nil
		}
	}
	if (!notVendored && isVendored(p)) || isDotFile(p) || isDocumentation(p) || isConfiguration(p) {
		return nil
	}
	size, _, err := st.odb.ReadHeader(id)
	if err != nil {
		return fmt.Errorf("libgit2: read blob %s: %w", p, err)
	}
	if size == 0 {
		return nil
	}
	var lang string
	if size <= languageBigFile {
		obj, err := st.odb.Read(id)
		if err != nil {
			return fmt.Errorf("libgit2: read blob %s: %w", p, err)
		}
		content := obj.Data()
		if len(content) > languageSniffSize {
			content = content[:languageSniffSize]
		}
		lang = detectLanguage(p, content, notGenerated)
		obj.Free()
	} else {
		lang = detectLanguage(p, nil, notGenerated)
	}
	if lang == "" {
		return nil
	}
	if group := languageGroup(lang); group != "" {
		lang = group
	}
	inc, seen := st.included[lang]
	if !seen {
		inc = countsAsCode(lang)
		st.included[lang] = inc
	}
	switch {
	case inc:
		st.sizes[lang] += int64(size)
	case len(st.sizes) == 0 && (st.firstOther == "" || st.firstOther == lang):
		st.firstOther = lang
		st.firstOtherSize += int64(size)
	}
	return nil
}

// attrLanguage is the language p's attributes name (linguist-language,
// else gitlab-language without its "?…" options), grouped as the detection
// groups; "" when none.
func (st *languageStats) attrLanguage(p string) string {
	lang := ""
	if a := st.attrs.Lookup(p, false, "linguist-language"); a.State == repository.AttrValue {
		lang = a.Value
	} else if a := st.attrs.Lookup(p, false, "gitlab-language"); a.State == repository.AttrValue {
		lang, _, _ = strings.Cut(a.Value, "?")
	}
	if lang == "" {
		return ""
	}
	if group := languageGroup(lang); group != "" {
		return group
	}
	return lang
}

// detectLanguage names p's language, or "" for generated (unless
// notGenerated), binary and unrecognised files. content is the start of the
// file, nil when unread.
func detectLanguage(p string, content []byte, notGenerated bool) string {
	if isBinary(content) || (!notGenerated && isGenerated(p, content)) {
		return ""
	}
	if lang, ok := languageByExtension(p); ok {
		return lang
	}
	if lang, ok := languageByFilename(p); ok {
		return lang
	}
	if len(content) == 0 {
		return ""
	}
	return guessLanguage(p, content)
}

// notVendored are paths enry calls vendored that are the repository's own
// (Gitea's exception): its CI and forge configuration.
var notVendored = regexp.MustCompile(`^\.(git(hub|ea)|forgejo)/`)

// isVendored reports whether p (a directory when it ends with "/") is
// third-party code.
func isVendored(p string) bool {
	if !isVendor(p) {
		return false
	}
	switch path.Base(strings.TrimSuffix(p, "/")) {
	case ".gitignore", ".gitattributes", ".gitmodules":
		return false
	}
	return !notVendored.MatchString(p)
}
