package mirrors

import (
	"errors"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/depothq/depot/domain/errs"
)

// FuzzRemoteCredentials fuzzes a mirror's remote address and the
// credentials given apart: a refusal is a 422 that does not repeat the
// address; an accepted address is kept without user info, and a message
// that quotes the address or the secret, as git's do, is stored scrubbed
// of the secret.
func FuzzRemoteCredentials(f *testing.F) {
	f.Add("https://bob:s3cretToken@git.example.com/o/r.git", "", "", "fatal: unable to access '%s': 403")
	f.Add("https://git.example.com/o/r", "bob", "p@ss/w?rd", "fatal: Authentication failed for '%s'")
	f.Add("ssh://tok3nOnly@h/x", "", "", "%s")
	f.Add("https://u:p%2Fss@h", "", "", "remote: %s p/ss p%2Fss")
	f.Add("not a url", "", "", "")
	f.Add("//h/p", "u", "", "")
	f.Fuzz(func(t *testing.T, raw, username, password, msgFormat string) {
		clean, r, err := remoteAddress{Raw: raw, Username: username, Password: password}.split("CloneAddr")
		if err != nil {
			var e *errs.Error
			if !errors.As(err, &e) || !errors.Is(err, errs.ErrInvalid) || !slices.Equal(e.Fields, []string{"CloneAddr"}) {
				t.Fatalf("split refused with %v (%T)", err, err)
			}
			if trimmed := strings.TrimSpace(raw); len(trimmed) > 8 && strings.Contains(e.Msg, trimmed) {
				t.Fatalf("message %q repeats the address", e.Msg)
			}
			return
		}
		u, err := url.Parse(clean)
		if err != nil || u.User != nil || clean != r.URL {
			t.Fatalf("kept address %q (%v)", clean, err)
		}
		if username != "" || password != "" {
			if r.Username != username || r.Password != password {
				t.Fatalf("credentials given apart became %q, %q", r.Username, r.Password)
			}
		}
		secret := r.Password
		if secret == "" {
			secret = r.Username
		}
		msg := strings.ReplaceAll(msgFormat, "%s", raw)
		got := scrub(msg+" "+secret, r)
		// "<credentials>" itself, or text beside it, could spell a short
		// or bracketed secret again; real secrets are neither.
		if len(secret) >= 4 && !strings.ContainsAny(secret, "<>") && !strings.Contains("<credentials>", secret) &&
			strings.Contains(got, secret) {
			t.Fatalf("scrubbed message %q still holds %q", got, secret)
		}
		if strings.Contains(got, "://") && userInfo.MatchString(got) {
			t.Fatalf("scrubbed message %q still holds a URL's user info", got)
		}
	})
}
