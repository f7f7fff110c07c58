package libgit2_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/licenseclassifier/v2/assets"
	"github.com/matryer/is"
)

// licenseText reads a licence text the classifier ships.
func licenseText(t *testing.T, path string) string {
	t.Helper()
	b, err := assets.ReadLicenseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestAnalysisLicenses(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	ctx := context.Background()
	s, p, bare, work := analysisRepo(t)

	archiveWrite(t, work, "main.go", "package main\n", 0o644)
	analysisCommit(t, work, bare, "no licence")
	ids, err := s.Licenses(ctx, p, "main")
	is.NoErr(err)
	is.Equal(ids, []string{})

	mit := strings.Replace(licenseText(t, "License/MIT/pristine.txt"), "<year> <copyright holders>", "2024 Alice", 1)
	archiveWrite(t, work, "LICENSE", mit, 0o644)
	// Licence texts elsewhere than the root are not the repository's.
	archiveWrite(t, work, "third_party/COPYING", licenseText(t, "License/GPL-3.0/license.txt"), 0o644)
	// Neither is a file whose name is not a licence file's.
	archiveWrite(t, work, "NOTICE", licenseText(t, "License/BSD-3-Clause/pristine.txt"), 0o644)
	analysisCommit(t, work, bare, "MIT")
	ids, err = s.Licenses(ctx, p, "main")
	is.NoErr(err)
	is.Equal(ids, []string{"MIT"})

	// Two licence files: both licences, sorted and once each.
	archiveWrite(t, work, "LICENSE-APACHE.txt", licenseText(t, "License/Apache-2.0/pristine.txt"), 0o644)
	archiveWrite(t, work, "licence.mit.md", mit, 0o644)
	analysisCommit(t, work, bare, "dual")
	ids, err = s.Licenses(ctx, p, "main")
	is.NoErr(err)
	is.Equal(ids, []string{"Apache-2.0", "MIT"})

	// The answer of an older commit is still its own.
	older := strings.TrimSpace(string(archiveGit(t, bare, "rev-parse", "main~1")))
	ids, err = s.Licenses(ctx, p, older)
	is.NoErr(err)
	is.Equal(ids, []string{"MIT"})
}
