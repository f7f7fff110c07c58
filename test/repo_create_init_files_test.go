package test

import (
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
// gitignores "C,C++", license "MIT" and readme "Default", each built here
// from the template the API serves and the rule Gitea's prepareRepoCommit
// (services/repository/create.go) follows.
func TestRepoCreateInitialFilesBytes(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := testserver.Start(t)
	_, alice := newAccount(t, srv, "alice", gitea.VisibleTypePublic)
	createRepo(t, alice, gitea.CreateRepoOption{Name: "cproj", Description: "A C project", AutoInit: true,
		Gitignores: "C,C++", License: "MIT", Readme: "Default"})
	work := cloneRepo(t, srv, "alice", "cproj")
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(work, name))
		is.NoErr(err)
		return string(b)
	}

	// README: the Default template is "# {Name}\n\n{Description}" with no
	// final newline; Gitea expands the variables and adds nothing.
	is.Equal(read("README.md"), "# cproj\n\nA C project")

	// .gitignore: for each name in the order given, Gitea writes
	// "# ---> " + name + "\n", the template's bytes, then "\n".
	c, _, err := alice.GetGitignoreTemplateInfo("C")
	is.NoErr(err)
	cpp, _, err := alice.GetGitignoreTemplateInfo("C++")
	is.NoErr(err)
	// The templates are github/gitignore's C.gitignore and C++.gitignore.
	is.True(strings.HasPrefix(c.Source, "# Prerequisites\n*.d\n\n# Object files\n"))
	is.True(strings.HasSuffix(c.Source, "# Kernel Module Compile Results\n*.mod*\n*.cmd\n.tmp_versions/\nmodules.order\nModule.symvers\nMkfile.old\ndkms.conf\n"))
	is.True(strings.HasPrefix(cpp.Source, "# Prerequisites\n*.d\n\n# Compiled Object files\n"))
	is.True(strings.HasSuffix(cpp.Source, "# debug information files\n*.dwo\n"))
	is.Equal(read(".gitignore"), "# ---> C\n"+c.Source+"\n"+"# ---> C++\n"+cpp.Source+"\n")

	// LICENSE: the SPDX MIT text starts "MIT License", a blank line, the
	// notice "Copyright (c) <year> <copyright holders>" and a blank line;
	// Gitea replaces <year> by the current year and <copyright holders> by
	// the owner's name, line by line, ending each line with "\n".
	mit, _, err := alice.GetLicenseTemplateInfo("MIT")
	is.NoErr(err)
	year := strconv.Itoa(time.Now().Year())
	wantLicense := "MIT License\n\nCopyright (c) " + year + " alice\n\n" + strings.TrimRight(mit.Body, "\n") + "\n"
	is.Equal(read("LICENSE"), wantLicense)

	// One commit adding the three files: the README's three lines, the
	// templates' lines plus a header and a blank line each, the licence's.
	lines := func(s string) int {
		return strings.Count(s, "\n") + map[bool]int{true: 0, false: 1}[strings.HasSuffix(s, "\n")]
	}
	wantAdded := 3 + lines(c.Source) + lines(cpp.Source) + 4 + lines(wantLicense)
	is.Equal(wantAdded, 3+52+41+4+21)
	added := 0
	for _, row := range strings.Split(strings.TrimSpace(gitRun(t, work, "show", "--numstat", "--format=", "HEAD")), "\n") {
		n, err := strconv.Atoi(strings.Fields(row)[0])
		is.NoErr(err)
		added += n
	}
	is.Equal(added, wantAdded)
	is.Equal(strings.TrimSpace(gitRun(t, work, "rev-list", "--count", "HEAD")), "1")
}
