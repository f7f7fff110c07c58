package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/depothq/depot/app/users"
	"github.com/depothq/depot/ports"
)

// adminUsage lists the account commands, for `depot admin --help` and for
// a command line that names none.
const adminUsage = `usage: depot admin user <command> [flags]
       depot admin badge <create|list|delete> [flags]

commands:
  create            create an account (--username --password --email [--admin] [--must-change-password])
  list              list accounts
  change-password   set an account's password (--username --password); also the way back in
                    when the first administrator's password is lost
  totp enable USER  enrol two-factor sign-in and print the otpauth URI
  totp disable USER remove two-factor sign-in

'depot admin user <command> --help' lists a command's flags.
`

// adminCommands says, for each account command, what it does; its flags are
// registered by cmdAdmin.
var adminCommands = map[string]commandHelp{
	"create": {name: "admin user create",
		about: "Creates an account. Any non-empty password is accepted (the API enforces the password policy)."},
	"list": {name: "admin user list", about: "Lists every account."},
	"change-password": {name: "admin user change-password",
		about: "Sets an account's password, also while the server runs (the old password stops working at once).\n" +
			"This is how to get back in when the first administrator's password was lost."},
	"totp enable":  {name: "admin user totp enable", args: "USERNAME", about: "Enrols two-factor sign-in for an account and prints its otpauth:// URI."},
	"totp disable": {name: "admin user totp disable", args: "USERNAME", about: "Removes an account's two-factor sign-in."},
}

// isHelp reports whether arg asks for help.
func isHelp(arg string) bool {
	return arg == "-h" || arg == "-help" || arg == "--help" || arg == "help"
}

// cmdAdmin runs `depot admin user …`. The admin CLI works on the database
// directly, also while a server is running on it; it accepts any non-empty
// password (the API enforces the password policy).
func cmdAdmin(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "badge" {
		return cmdAdminBadge(ctx, args[1:], getenv, stdout, stderr)
	}
	if len(args) == 1 && isHelp(args[0]) || len(args) == 2 && args[0] == "user" && isHelp(args[1]) {
		fmt.Fprint(stdout, adminUsage)
		return flag.ErrHelp
	}
	if len(args) < 2 || args[0] != "user" {
		fmt.Fprint(stderr, adminUsage)
		return errors.New("usage: depot admin user <create|list|change-password|totp>")
	}
	sub, rest := args[1], args[2:]
	var totpUser string
	if sub == "totp" {
		// depot admin user totp enable|disable USER [flags]
		if len(rest) == 0 || isHelp(rest[0]) {
			fmt.Fprint(stdout, adminUsage)
			return flag.ErrHelp
		}
		sub += " " + rest[0]
		rest = rest[1:]
		if len(rest) > 0 && !strings.HasPrefix(rest[0], "-") {
			totpUser, rest = rest[0], rest[1:]
		}
	}
	h, ok := adminCommands[sub]
	if !ok {
		fmt.Fprint(stderr, adminUsage)
		return fmt.Errorf("unknown admin user command %q", sub)
	}
	fs := flag.NewFlagSet(h.name, flag.ContinueOnError)
	var username, password, email *string
	var admin, mustChg *bool
	switch sub {
	case "create":
		username = fs.String("username", "", "account name (required)")
		password = fs.String("password", "", "password, any non-empty value (required)")
		email = fs.String("email", "", "primary e-mail address (required)")
		admin = fs.Bool("admin", false, "make the account a site administrator")
		mustChg = fs.Bool("must-change-password", false, "ask for a new password at first sign-in")
	case "change-password":
		username = fs.String("username", "", "account name (required)")
		password = fs.String("password", "", "the new password, any non-empty value (required)")
	}
	cfg, err := loadConfig(fs, h, rest, getenv, stdout)
	if err != nil {
		return err
	}
	if strings.HasPrefix(sub, "totp ") && totpUser == "" {
		return fmt.Errorf("usage: depot %s USERNAME [flags]", h.name)
	}
	app, cleanup, err := openApp(ctx, cfg, newLogger(cfg, stderr))
	if err != nil {
		return err
	}
	defer cleanup()
	svc := app.Users

	switch sub {
	case "create":
		if *username == "" || *password == "" || *email == "" {
			return errors.New("--username, --password and --email are required")
		}
		u, err := svc.Admin().Create(ctx, users.CreateInput{Name: *username, Email: *email, Password: *password,
			IsAdmin: *admin, MustChangePassword: mustChg, SkipPasswordPolicy: true})
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "created user %s (id %d)\n", u.Name, u.ID)
		return nil
	case "list":
		return listUsers(ctx, svc, stdout)
	case "change-password":
		if *username == "" || *password == "" {
			return errors.New("--username and --password are required")
		}
		if _, err := svc.Admin().Edit(ctx, *username, users.EditInput{Password: password, SkipPasswordPolicy: true}); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "password of %s changed\n", *username)
		return nil
	case "totp enable":
		uri, err := svc.EnableTOTP(ctx, totpUser)
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, uri)
		return nil
	case "totp disable":
		if err := svc.DisableTOTP(ctx, totpUser); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "two-factor sign-in disabled for %s\n", totpUser)
		return nil
	}
	return fmt.Errorf("unknown admin user command %q", sub)
}

// listUsers prints every account, a page at a time from the store.
func listUsers(ctx context.Context, svc *users.Service, stdout io.Writer) error {
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tUsername\tEmail\tIsActive\tIsAdmin\t2FA")
	for page := 1; ; page++ {
		list, total, err := svc.Admin().List(ctx, users.AdminListQuery{ListOptions: ports.ListOptions{Page: page, Limit: 100}})
		if err != nil {
			return err
		}
		for _, u := range list {
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\n", u.ID, u.Name, u.Email,
				strconv.FormatBool(u.IsActive), strconv.FormatBool(u.IsAdmin), strconv.FormatBool(u.HasTwoFactor()))
		}
		if int64(page*100) >= total || len(list) == 0 {
			break
		}
	}
	return tw.Flush()
}
