package release

import (
	"net/url"
	"path"
	"strings"

	"github.com/depothq/depot/domain/errs"
)

// MaxExternalURLBytes bounds the address of a link asset.
const MaxExternalURLBytes = 2048

// ParseExternalURL checks the address of a link asset as Forgejo's
// IsValidReleaseAssetURL does (an absolute http or https URL whose port,
// if any, is a number), and also wants a host and no credentials. It
// returns the address as Go writes it back. A bad address is invalid input
// naming external_url (422; Forgejo answers 400), and the answer never
// repeats it, credentials and all.
func ParseExternalURL(raw string) (*url.URL, error) {
	bad := errs.Invalid("invalid external URL: want an absolute http or https address with a host and no credentials", "external_url")
	if len(raw) > MaxExternalURLBytes {
		return nil, errs.Invalid("invalid external URL: longer than 2048 bytes", "external_url")
	}
	u, err := url.ParseRequestURI(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return nil, bad
	}
	if p := u.Port(); p != "" && strings.Trim(p, "0123456789") != "" {
		return nil, bad
	}
	if strings.HasSuffix(u.Host, ":") { // an empty port
		return nil, bad
	}
	return u, nil
}

// ExternalAssetName is the name a link asset gets when none is given, as
// Forgejo names it: the last element of the address's path, or its host
// when the path has none.
func ExternalAssetName(u *url.URL) string {
	name := path.Base(u.Path)
	if name == "." || name == "/" {
		return u.Host
	}
	return name
}
