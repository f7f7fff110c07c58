package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"

	"github.com/depothq/depot/app/users"
	"github.com/depothq/depot/ports"
)

// cmdAdmin runs `depot admin user …`. The admin CLI works on the database
// directly, also while a server is running on it; it accepts any non-empty
// password (the API enforces the password policy).
func cmdAdmin(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) < 2 || args[0] != "user" {
		fmt.Fprint(stderr, usage)
		return errors.New("usage: depot admin user <create|list|change-password|totp>")
	}
	sub, rest := args[1], args[2:]
	fs := flag.NewFlagSet("admin user "+sub, flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		username = fs.String("username", "", "account name")
		password = fs.String("password", "", "password (any non-empty value)")
		email    = fs.String("email", "", "primary e-mail address")
		admin    = fs.Bool("admin", false, "make the account a site administrator")
		mustChg  = fs.Bool("must-change-password", false, "ask for a new password at first sign-in")
	)
	var totpAction, totpUser string
	if sub == "totp" {
		// depot admin user totp enable|disable USER [flags]
		if len(rest) < 2 {
			return errors.New("usage: depot admin user totp enable|disable USERNAME [flags]")
		}
		totpAction, totpUser, rest = rest[0], rest[1], rest[2:]
	}
	cfg, err := loadConfig(fs, rest, getenv)
	if err != nil {
		return err
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
		u, err := svc.Create(ctx, users.CreateInput{Name: *username, Email: *email, Password: *password,
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
		if _, err := svc.Edit(ctx, *username, users.EditInput{Password: password, SkipPasswordPolicy: true}); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "password of %s changed\n", *username)
		return nil
	case "totp":
		switch totpAction {
		case "enable":
			uri, err := svc.EnableTOTP(ctx, totpUser)
			if err != nil {
				return err
			}
			fmt.Fprintln(stdout, uri)
			return nil
		case "disable":
			if err := svc.DisableTOTP(ctx, totpUser); err != nil {
				return err
			}
			fmt.Fprintf(stdout, "two-factor sign-in disabled for %s\n", totpUser)
			return nil
		}
		return fmt.Errorf("unknown totp action %q: want enable or disable", totpAction)
	}
	return fmt.Errorf("unknown admin user command %q", sub)
}

// listUsers prints every account, a page at a time from the store.
func listUsers(ctx context.Context, svc *users.Service, stdout io.Writer) error {
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tUsername\tEmail\tIsActive\tIsAdmin\t2FA")
	for page := 1; ; page++ {
		list, total, err := svc.List(ctx, users.AdminListQuery{ListOptions: ports.ListOptions{Page: page, Limit: 100}})
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
