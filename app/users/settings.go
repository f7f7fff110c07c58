package users

import (
	"context"
	"net/url"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/user"
	"github.com/depothq/depot/ports"
)

// Settings are the use cases of the caller's own profile settings.
type Settings struct{ *Service }

// Settings returns the profile settings use cases.
func (s *Service) Settings() Settings { return Settings{s} }

// SettingsInput changes the caller's own profile settings; nil fields stay.
type SettingsInput struct {
	FullName, Website, Description, Location, Language, Theme, DiffViewStyle *string
	HideEmail, HideActivity                                                  *bool
}

// diffViews are the diff styles the UI knows.
var diffViews = map[string]bool{"": true, "unified": true, "split": true}

// Update applies in to the user with id and returns the account.
func (s Settings) Update(ctx context.Context, id int64, in SettingsInput) (*user.User, error) {
	if err := validateSettings(in); err != nil {
		return nil, err
	}
	var out *user.User
	err := s.tx.InTx(ctx, func(ctx context.Context, tx ports.Stores) error {
		u, err := tx.Users.GetByID(ctx, id)
		if err != nil {
			return err
		}
		setString(&u.FullName, in.FullName)
		setString(&u.Website, in.Website)
		setString(&u.Description, in.Description)
		setString(&u.Location, in.Location)
		setString(&u.Language, in.Language)
		setString(&u.Theme, in.Theme)
		setString(&u.DiffView, in.DiffViewStyle)
		setBool(&u.HideEmail, in.HideEmail)
		setBool(&u.HideActivity, in.HideActivity)
		u.Updated = s.clock.Now()
		out = u
		return tx.Users.Update(ctx, u)
	})
	s.tokens.ForgetUser(id)
	return out, err
}

func validateSettings(in SettingsInput) error {
	limits := []struct {
		field string
		v     *string
		max   int
	}{
		{"FullName", in.FullName, 100}, {"Description", in.Description, 255}, {"Location", in.Location, 50},
		{"Language", in.Language, 20}, {"Theme", in.Theme, 30},
	}
	for _, l := range limits {
		if l.v != nil && len(*l.v) > l.max {
			return errs.Invalid("MaxSize", l.field)
		}
	}
	if in.Website != nil {
		if err := validateWebsite(*in.Website); err != nil {
			return err
		}
	}
	if in.DiffViewStyle != nil && !diffViews[*in.DiffViewStyle] {
		return errs.Invalid("must be unified or split", "DiffViewStyle")
	}
	return nil
}

// validateWebsite accepts an empty value or an absolute http(s) URL.
func validateWebsite(w string) error {
	if w == "" {
		return nil
	}
	u, err := url.Parse(w)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || len(w) > 255 {
		return errs.Invalid("ValidUrl", "Website")
	}
	return nil
}
