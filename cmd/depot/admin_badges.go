package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/depothq/depot/domain/user"
)

// adminBadgeUsage lists the badge commands. Gitea has no API that defines
// a badge; administrators define them here and give them to users through
// /admin/users/{username}/badges.
const adminBadgeUsage = `usage: depot admin badge <command> [flags]

commands:
  create   define a badge (--slug [--description] [--image-url])
  list     list the badges
  delete   delete a badge, also from the users holding it (--slug)

'depot admin badge <command> --help' lists a command's flags.
`

// adminBadgeCommands says, for each badge command, what it does.
var adminBadgeCommands = map[string]commandHelp{
	"create": {name: "admin badge create", about: "Defines a badge administrators can give users."},
	"list":   {name: "admin badge list", about: "Lists every badge."},
	"delete": {name: "admin badge delete", about: "Deletes a badge; the users holding it lose it."},
}

// cmdAdminBadge runs `depot admin badge …` on the database directly.
func cmdAdminBadge(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) == 0 || isHelp(args[0]) {
		fmt.Fprint(stdout, adminBadgeUsage)
		return flag.ErrHelp
	}
	sub, rest := args[0], args[1:]
	h, ok := adminBadgeCommands[sub]
	if !ok {
		fmt.Fprint(stderr, adminBadgeUsage)
		return fmt.Errorf("unknown admin badge command %q", sub)
	}
	fs := flag.NewFlagSet(h.name, flag.ContinueOnError)
	var slug, description, imageURL *string
	switch sub {
	case "create":
		slug = fs.String("slug", "", "the badge's slug (required)")
		description = fs.String("description", "", "what the badge is for")
		imageURL = fs.String("image-url", "", "the badge's image")
	case "delete":
		slug = fs.String("slug", "", "the badge's slug (required)")
	}
	cfg, err := loadConfig(fs, h, rest, getenv, stdout)
	if err != nil {
		return err
	}
	if slug != nil && *slug == "" {
		return errors.New("--slug is required")
	}
	app, cleanup, err := openApp(ctx, cfg, newLogger(cfg, stderr))
	if err != nil {
		return err
	}
	defer cleanup()
	badges := app.Users.UserBadges()

	switch sub {
	case "create":
		b := &user.Badge{Slug: *slug, Description: *description, ImageURL: *imageURL}
		if err := badges.Define(ctx, b); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "created badge %s (id %d)\n", b.Slug, b.ID)
	case "list":
		list, err := badges.All(ctx)
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tSlug\tDescription\tImageURL")
		for _, b := range list {
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\n", b.ID, b.Slug, b.Description, b.ImageURL)
		}
		return tw.Flush()
	case "delete":
		if err := badges.Undefine(ctx, *slug); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "deleted badge %s\n", *slug)
	}
	return nil
}
