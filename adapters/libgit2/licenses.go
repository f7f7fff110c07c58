package libgit2

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	licenseclassifier "github.com/google/licenseclassifier/v2"
	"github.com/google/licenseclassifier/v2/assets"
	git "github.com/libgit2/git2go/v34"

	"github.com/depothq/depot/ports"
)

// licenseFileMax bounds the licence files read: licence texts are a few
// kilobytes, and the classifier's cost grows with its input.
const licenseFileMax = 256 << 10

// licenseFilePrefixes start the names (lower-cased) of licence files.
var licenseFilePrefixes = []string{"license", "licence", "copying", "unlicense"}

// licenseAssetAliases maps the classifier's licence names that differ from
// their SPDX ids.
var licenseAssetAliases = map[string]string{
	"BSD-0-Clause": "0BSD",
	"cURL":         "curl",
}

// classifier is the licence classifier, loaded on first use: loading takes
// about half a second and some 80 MB, which a server never asked for
// licences should not pay. Its zero value is ready.
type classifier struct {
	once sync.Once
	c    *licenseclassifier.Classifier
	err  error
	// mu serialises matching, which the classifier does not document as
	// safe for concurrent use.
	mu sync.Mutex
}

// match returns the licences text holds.
func (cl *classifier) match(text []byte) ([]string, error) {
	cl.once.Do(func() { cl.c, cl.err = assets.DefaultClassifier() })
	if cl.err != nil {
		return nil, fmt.Errorf("libgit2: load licence classifier: %w", cl.err)
	}
	cl.mu.Lock()
	res := cl.c.Match(text)
	cl.mu.Unlock()
	var ids []string
	for _, m := range res.Matches {
		// Headers and supplements are notices, not licence texts.
		if m.MatchType != "License" {
			continue
		}
		id := m.Name
		if alias, ok := licenseAssetAliases[id]; ok {
			id = alias
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// isLicenseFile reports whether a root entry's name is a licence file's.
func isLicenseFile(name string) bool {
	lower := strings.ToLower(name)
	for _, p := range licenseFilePrefixes {
		if strings.HasPrefix(lower, p) {
			return true
		}
	}
	return false
}

// Licenses returns the SPDX ids found in the licence files at the root of
// ref's tree, computed once per commit (ports.GitArchives).
func (s *Storage) Licenses(ctx context.Context, p ports.RepoPath, ref string) ([]string, error) {
	return cachedByCommit(ctx, s, p, ref, &s.analyses.licenses, slices.Clone,
		func(_ *git.Repository, tree *git.Tree, odb *git.Odb) ([]string, error) {
			return s.detectLicenses(ctx, tree, odb)
		})
}

// detectLicenses classifies the licence files at the root of tree and
// returns their SPDX ids, sorted, each once.
func (s *Storage) detectLicenses(ctx context.Context, tree *git.Tree, odb *git.Odb) ([]string, error) {
	ids := []string{}
	n := tree.EntryCount()
	for i := uint64(0); i < n; i++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		e := tree.EntryByIndex(i)
		if e == nil || (e.Filemode != git.FilemodeBlob && e.Filemode != git.FilemodeBlobExecutable) ||
			!isLicenseFile(e.Name) {
			continue
		}
		size, _, err := odb.ReadHeader(e.Id)
		if err != nil {
			return nil, fmt.Errorf("libgit2: read blob %s: %w", e.Name, err)
		}
		if size == 0 || size > licenseFileMax {
			continue
		}
		obj, err := odb.Read(e.Id)
		if err != nil {
			return nil, fmt.Errorf("libgit2: read blob %s: %w", e.Name, err)
		}
		// A copy: the classifier is not libgit2's to be handed its memory.
		text := slices.Clone(obj.Data())
		obj.Free()
		found, err := s.analyses.classifier.match(text)
		if err != nil {
			return nil, err
		}
		ids = append(ids, found...)
	}
	slices.Sort(ids)
	return slices.Compact(ids), nil
}
