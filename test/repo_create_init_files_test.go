package test

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/test/testserver"
	"github.com/matryer/is"
)

// TestRepoCreateInitialFilesBytes checks the exact bytes auto_init writes for
// gitignores "C,C++", license "MIT" and readme "Default": the templates are
// the ones Gitea 1.27.3 ships (github/gitignore's C and C++, SPDX's MIT
// text, Gitea's Default README), pinned by their SHA-256, and the files are
// built from them by the rules of Gitea's prepareRepoCommit
// (services/repository/create.go), so the first commit adds Gitea's 109
// lines.
func TestRepoCreateInitialFilesBytes(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		srv := testserver.Start(t, opts...)
		_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
		createRepo(t, alice, gitea.CreateRepoOption{Name: "cproj", Description: "A C project", AutoInit: true,
			Gitignores: "C,C++", License: "MIT", Readme: "Default"})
		work := cloneRepo(t, srv, "alice", "cproj")
		readIn := func(dir, name string) string {
			b, err := os.ReadFile(filepath.Join(dir, name))
			is.NoErr(err)
			return string(b)
		}
		read := func(name string) string { return readIn(work, name) }
		sum := func(s string) string {
			h := sha256.Sum256([]byte(s))
			return hex.EncodeToString(h[:])
		}

		// README: the Default template is "# {Name}\n\n{Description}" with no
		// final newline; Gitea expands the variables and adds nothing.
		is.Equal(read("README.md"), "# cproj\n\nA C project")

		// The templates the API serves are Gitea 1.27.3's options/gitignore/C,
		// options/gitignore/C++ and options/license/MIT, byte for byte.
		c, _, err := alice.GetGitignoreTemplateInfo("C")
		is.NoErr(err)
		cpp, _, err := alice.GetGitignoreTemplateInfo("C++")
		is.NoErr(err)
		mit, _, err := alice.GetLicenseTemplateInfo("MIT")
		is.NoErr(err)
		is.Equal(sum(c.Source), "29a3db423bf9d10e68f8950af557ddb891f407d262a8286511fb22df48ef458f")
		is.Equal(sum(cpp.Source), "3ba2020da55f76620d61950cb88f0d6cc0d5852eae7b2c03f8487a64c87da959")
		is.Equal(sum(mit.Body), "6d7c9e9d7d12c8d3753bdb24417b84819ba4d6c2f025c37948113d86dc81eef9")

		// .gitignore: for each name in the order given, Gitea writes
		// "# ---> " + name + "\n", the template's bytes, then "\n".
		gitignore := read(".gitignore")
		is.Equal(gitignore, "# ---> C\n"+c.Source+"\n"+"# ---> C++\n"+cpp.Source+"\n")
		is.Equal(sum(gitignore), "62d05957e5f0195d0674f0bcd98c6a34ff50c8ababae9ae2f4410b6cfb423691")

		// LICENSE: SPDX's MIT text starts "MIT License", a blank line and the
		// notice "Copyright (c) <year> <copyright holders>"; Gitea replaces
		// <year> by the current year and <copyright holders> by the owner's
		// name, line by line, ending each line with "\n".
		year := strconv.Itoa(time.Now().Year())
		license := read("LICENSE")
		is.Equal(license, strings.Replace(mit.Body, "<year> <copyright holders>", year+" alice", 1))
		is.True(strings.HasPrefix(license, "MIT License\n\nCopyright (c) "+year+" alice\n\nPermission is hereby granted"))

		// One commit adding the three files: README 3 lines, .gitignore 88
		// (C's 52, C++'s 32, a header and a blank line each), LICENSE 18.
		added := map[string]int{}
		for _, row := range strings.Split(strings.TrimSpace(gitRun(t, work, "show", "--numstat", "--format=", "HEAD")), "\n") {
			f := strings.Fields(row)
			n, err := strconv.Atoi(f[0])
			is.NoErr(err)
			added[f[2]] = n
		}
		is.Equal(added, map[string]int{"README.md": 3, ".gitignore": 88, "LICENSE": 18})
		is.Equal(added["README.md"]+added[".gitignore"]+added["LICENSE"], 109)
		is.Equal(strings.TrimSpace(gitRun(t, work, "rev-list", "--count", "HEAD")), "1")

		// Gitea makes the description's CRLF and CR line ends LF in the README.
		createRepo(t, alice, gitea.CreateRepoOption{Name: "crlf", Description: "line one\r\nline two\rline three",
			AutoInit: true, Readme: "Default"})
		is.Equal(readIn(cloneRepo(t, srv, "alice", "crlf"), "README.md"), "# crlf\n\nline one\nline two\nline three")
	})
}
