package contract

import (
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/user"
)

var emailBatchTests = map[string]func(t *testing.T, f *fixture){
	"UsersByEmails": func(t *testing.T, f *fixture) {
		is := is.New(t)
		ann := f.user("ann")
		bob := f.user("bob")
		f.email(ann.ID, "Ann@Example.com", true)
		f.email(ann.ID, "ann@work.example", false)
		f.email(bob.ID, "bob@example.com", true)
		pending := &user.Email{UserID: bob.ID, Email: "pending@example.com", LowerEmail: "pending@example.com"}
		is.NoErr(f.Emails.Add(f.ctx, pending))

		got, err := f.Emails.UsersByEmails(f.ctx, []string{
			"ANN@example.com", "ann@work.example", "ann@example.com", "bob@EXAMPLE.com",
			"pending@example.com", "nobody@example.com", "",
		})
		is.NoErr(err)
		is.Equal(len(got), 3) // activated and known addresses only, each once
		is.Equal(got["ann@example.com"].ID, ann.ID)
		is.Equal(got["ann@work.example"].ID, ann.ID)
		is.Equal(got["bob@example.com"].ID, bob.ID)
		is.Equal(got["pending@example.com"], nil) // not activated
		is.Equal(*got["bob@example.com"], *bob)   // every field of the user
	},
	"UsersByEmailsEmpty": func(t *testing.T, f *fixture) {
		is := is.New(t)
		got, err := f.Emails.UsersByEmails(f.ctx, nil)
		is.NoErr(err)
		is.Equal(len(got), 0)
	},
}
