package test

import (
	"strings"
	"testing"

	"github.com/matryer/is"
)

// `--help` (and -h, and `depot help CMD`) on every command of the built
// binary exits 0 and prints the command's synopsis, its own flags and the
// configuration flags with their defaults, to stdout.
func TestCLIHelp(t *testing.T) {
	bin := cliBuildDepot(t)
	cases := []struct {
		args []string
		// want must be printed; wantNot must not (another command's flags).
		want, wantNot []string
	}{
		{args: []string{"serve", "--help"}, want: []string{"usage: depot serve [flags]",
			"--listen string", "(default 127.0.0.1:3000; env DEPOT_LISTEN)", "--data-dir string", "(default ./data;",
			"--ssh-listen", "--enable-stars", "(default true; env DEPOT_ENABLE_STARS)", "--config file",
			"depot admin user change-password"},
			wantNot: []string{"--username", "Usage of"}},
		{args: []string{"serve", "-h"}, want: []string{"usage: depot serve [flags]", "--listen string"}},
		{args: []string{"help", "serve"}, want: []string{"usage: depot serve [flags]", "--listen string"}},
		{args: []string{"migrate", "--help"}, want: []string{"usage: depot migrate [flags]", "--data-dir string", "--db string"},
			wantNot: []string{"--username"}},
		{args: []string{"admin", "user", "create", "--help"}, want: []string{"usage: depot admin user create [flags]",
			"--username string", "--password string", "--email string", "--admin", "--must-change-password",
			"(default false)", "--data-dir string"}},
		{args: []string{"admin", "user", "list", "--help"}, want: []string{"usage: depot admin user list [flags]",
			"--data-dir string", "--db string"},
			wantNot: []string{"--username", "--password", "--email", "--admin", "--must-change-password"}},
		{args: []string{"admin", "user", "change-password", "--help"}, want: []string{
			"usage: depot admin user change-password [flags]", "--username string", "--password string"},
			wantNot: []string{"--email", "--admin", "--must-change-password"}},
		{args: []string{"admin", "user", "totp", "enable", "--help"}, want: []string{
			"usage: depot admin user totp enable [flags] USERNAME"}, wantNot: []string{"--username", "--email"}},
		{args: []string{"admin", "user", "totp", "disable", "-h"}, want: []string{
			"usage: depot admin user totp disable [flags] USERNAME"}},
		{args: []string{"admin", "--help"}, want: []string{"usage: depot admin user <command>", "change-password"}},
		{args: []string{"admin", "user", "--help"}, want: []string{"usage: depot admin user <command>", "totp enable"}},
		{args: []string{"admin", "badge", "--help"}, want: []string{"usage: depot admin badge <command>", "create", "delete"}},
		{args: []string{"admin", "badge", "create", "--help"}, want: []string{"usage: depot admin badge create [flags]",
			"--slug string", "--description string", "--image-url string", "--data-dir string"}},
		{args: []string{"admin", "badge", "list", "-h"}, want: []string{"usage: depot admin badge list [flags]"},
			wantNot: []string{"--slug"}},
		{args: []string{"admin", "badge", "delete", "--help"}, want: []string{"usage: depot admin badge delete [flags]",
			"--slug string"}, wantNot: []string{"--image-url"}},
		{args: []string{"hook", "--help"}, want: []string{"usage: depot hook pre-receive|post-receive"}},
		{args: []string{"--help"}, want: []string{"usage: depot <command>", "depot <command> --help"}},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			r := cliRun(t, bin, nil, tc.args...)
			is.Equal(r.code, 0) // help is not an error
			is.Equal(r.stderr, "")
			for _, w := range tc.want {
				if !strings.Contains(r.stdout, w) {
					t.Errorf("%q missing from:\n%s", w, r.stdout)
				}
			}
			for _, w := range tc.wantNot {
				if strings.Contains(r.stdout, w) {
					t.Errorf("%q should not be in:\n%s", w, r.stdout)
				}
			}
		})
	}

	t.Run("UnknownFlag", func(t *testing.T) {
		t.Parallel()
		is := is.New(t)
		r := cliRun(t, bin, nil, "admin", "user", "list", "--email", "x@example.com")
		is.Equal(r.code, 2) // a flag of another command is a usage error
		is.True(strings.Contains(r.stderr, "flag provided but not defined: -email"))
		is.True(strings.Contains(r.stderr, "depot admin user list --help")) // and says where to look
		is.Equal(strings.Count(r.stderr, "-email"), 1)                      // said once, without a flag dump
	})
}
