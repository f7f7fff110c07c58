package mirrors

import (
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/ports"
)

// remoteAddress is a remote as a request names it: the address (which may
// carry credentials in its user info) and credentials given apart.
type remoteAddress struct {
	Raw, Username, Password string
}

// split parses the address and returns it without credentials, and the
// remote to fetch from or push to. Credentials given apart win over those in
// the address, as in Gitea.
func (a remoteAddress) split(field string) (clean string, r ports.Remote, err error) {
	raw := strings.TrimSpace(a.Raw)
	if raw == "" {
		return "", r, errs.Invalid("Required", field)
	}
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" || u.Host == "" {
		// url.Parse's own message repeats the address, credentials included.
		return "", r, errs.Invalid("must be a URL with a scheme and a host", field)
	}
	if u.User != nil {
		r.Username = u.User.Username()
		r.Password, _ = u.User.Password()
		u.User = nil
	}
	if a.Username != "" || a.Password != "" {
		r.Username, r.Password = a.Username, a.Password
	}
	r.URL = u.String()
	return r.URL, r, nil
}

// check refuses an address the outbound guard would not contact, before
// anything is written.
func (s *Service) check(ctx context.Context, field, clean string, schemes ...string) error {
	return s.out.CheckURL(ctx, field, clean, schemes...)
}

// sealedCredentials is what a sealed credentials value holds.
type sealedCredentials struct {
	Username string `json:"u,omitempty"`
	Password string `json:"p,omitempty"`
}

// seal seals a remote's credentials under label ("" when it has none).
func (s *Service) seal(r ports.Remote, label string) (string, error) {
	if r.Username == "" && r.Password == "" {
		return "", nil
	}
	data, err := json.Marshal(sealedCredentials{Username: r.Username, Password: r.Password})
	if err != nil {
		return "", err
	}
	return s.box.Seal(data, label)
}

// remote is the stored address with its credentials opened.
func (s *Service) remote(addr, sealed, label string) (ports.Remote, error) {
	r := ports.Remote{URL: addr}
	if sealed == "" {
		return r, nil
	}
	data, err := s.box.Open(sealed, label)
	if err != nil {
		return r, errSealedCredentials
	}
	var c sealedCredentials
	if err := json.Unmarshal(data, &c); err != nil {
		return r, errSealedCredentials
	}
	r.Username, r.Password = c.Username, c.Password
	return r, nil
}

// errSealedCredentials is recorded when the stored credentials cannot be
// opened (the site key changed): the mirror needs them entered again.
var errSealedCredentials = errors.New("the stored credentials cannot be read; set them again")

// pullLabel and pushLabel bind sealed credentials to their row.
func pullLabel(repoID int64) string { return "mirror:" + strconv.FormatInt(repoID, 10) }

func pushLabel(repoID int64, remoteName string) string {
	return "push_mirror:" + strconv.FormatInt(repoID, 10) + ":" + remoteName
}

// userInfo matches the user info of URLs inside a message.
var userInfo = regexp.MustCompile(`(?i)([a-z][a-z0-9+.-]*://)[^/@\s]*@`)

// scrub takes every trace of r's credentials out of a message from git or
// the network, so what is stored and shown never carries them. A user name
// is no secret (it is often the owner in the path) unless it comes alone,
// as a token does.
func scrub(msg string, r ports.Remote) string {
	msg = userInfo.ReplaceAllString(msg, "$1")
	secrets := []string{r.Password}
	if r.Password == "" {
		secrets[0] = r.Username
	}
	for _, secret := range secrets {
		if secret == "" {
			continue
		}
		for _, form := range []string{secret, url.QueryEscape(secret), url.PathEscape(secret)} {
			msg = strings.ReplaceAll(msg, form, "<credentials>")
		}
	}
	return strings.TrimSpace(msg)
}

// syncMessage is what a failed sync records: the error without credentials.
func syncMessage(err error, r ports.Remote) string {
	if err == nil {
		return ""
	}
	msg := errs.Message(err)
	if msg == "" {
		msg = err.Error()
	}
	return scrub(msg, r)
}
