//go:build ignore

// upstream_data_gen.go copies the .gitignore templates and licence texts this
// package embeds from the copy of the upstream data sets that Gitea 1.27
// ships in its Go module (options/gitignore is the github/gitignore
// collection, CC0; options/license is SPDX's license-list-data text/*.txt,
// the files renamed without ".txt"). Only data files are copied, never code.
// Taking them from that module, at the version pinned below, is what makes a
// repository's first commit here byte-identical to one Gitea 1.27 writes. The
// npm spdx-license-list package (SPDX list 3.28.0) holds the same licences
// only as the JSON "licenseText", whose lines have lost the trailing spaces
// of text/*.txt and whose end has lost its newline (and whose Unlicense is
// another revision), so its LICENSE files would differ from Gitea's; no
// other package reachable here ships github/gitignore's templates as files.
//
// Run it with `go generate ./adapters/templates` (it needs the Go module
// proxy once); the copied files are committed, so building needs no network.
// To move to a newer data set, change sourceVersion and run it again.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
)

// sourceModule and sourceVersion name the module the data is copied from.
const (
	sourceModule  = "code.gitea.io/gitea"
	sourceVersion = "v1.27.3"
)

// gitignores are the github/gitignore templates shipped, by their name in
// the collection without ".gitignore" (Global/ ones by their base name).
var gitignores = []string{
	"Archives", "C", "C++", "Emacs", "Go", "Java", "JetBrains", "Kotlin", "Linux", "Node", "Python", "Ruby",
	"Rust", "Swift", "Terraform", "Vim", "VisualStudioCode", "Windows", "macOS",
}

// licenses are the SPDX texts shipped, by the file names Gitea 1.27 gives
// them: its whole selection, the licences a new repository is most often
// given. Other SPDX ids keep licenseclassifier's text (see licenses.go).
var licenses = []string{
	"0BSD", "AGPL-3.0", "Apache-2.0", "BSD-2-Clause", "BSD-3-Clause", "BSD-3-Clause-Clear", "BSL-1.0",
	"CC-BY-4.0", "CC-BY-SA-4.0", "CC0-1.0", "EPL-1.0", "EPL-2.0", "EUPL-1.2", "GPL-2.0", "GPL-3.0", "ISC",
	"LGPL-2.1", "LGPL-3.0", "MIT", "MIT-0", "MPL-2.0", "MulanPSL-2.0", "OFL-1.1", "OSL-3.0", "UPL-1.0",
	"Unlicense", "WTFPL", "Zlib",
}

func main() {
	dir, err := moduleDir()
	if err != nil {
		fail(err)
	}
	for _, set := range []struct {
		from, to string
		names    []string
	}{
		{"options/gitignore", "gitignore", gitignores},
		{"options/license", "licenses", licenses},
	} {
		if err := copySet(filepath.Join(dir, set.from), set.to, set.names); err != nil {
			fail(err)
		}
	}
}

// moduleDir downloads the source module into the module cache and returns
// where it was unpacked.
func moduleDir() (string, error) {
	var stderr bytes.Buffer
	cmd := exec.Command("go", "mod", "download", "-json", sourceModule+"@"+sourceVersion)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go mod download %s@%s: %w: %s", sourceModule, sourceVersion, err, stderr.Bytes())
	}
	var info struct{ Dir, Error string }
	if err := json.Unmarshal(out, &info); err != nil {
		return "", fmt.Errorf("go mod download: %w", err)
	}
	if info.Error != "" || info.Dir == "" {
		return "", fmt.Errorf("go mod download %s@%s: %s", sourceModule, sourceVersion, info.Error)
	}
	return info.Dir, nil
}

// copySet makes the folder to hold exactly names, each copied byte for byte
// from the folder from.
func copySet(from, to string, names []string) error {
	if err := os.MkdirAll(to, 0o755); err != nil {
		return err
	}
	entries, err := os.ReadDir(to)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if !slices.Contains(names, e.Name()) {
			if err := os.Remove(filepath.Join(to, e.Name())); err != nil {
				return err
			}
		}
	}
	for _, name := range names {
		b, err := os.ReadFile(filepath.Join(from, name))
		if err != nil {
			return fmt.Errorf("%s@%s has no %s/%s: %w", sourceModule, sourceVersion, filepath.Base(from), name, err)
		}
		if err := os.WriteFile(filepath.Join(to, name), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "upstream_data_gen:", err)
	os.Exit(1)
}
