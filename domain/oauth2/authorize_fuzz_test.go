package oauth2

import (
	"net/url"
	"testing"
)

// FuzzParseAuthorizeRequest feeds arbitrary queries to the authorization
// request parser and the client check: they must never panic, and an
// accepted request has its client id and redirect URI.
func FuzzParseAuthorizeRequest(f *testing.F) {
	f.Add("response_type=code&client_id=abc&redirect_uri=https%3A%2F%2Fa.example%2Fcb&state=x&code_challenge_method=S256&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
	f.Add("client_id=&redirect_uri=")
	f.Add("client_id=a&client_id=b&redirect_uri=x")
	f.Add("%zz=1&;;")
	app := &Application{RedirectURIs: []string{"https://a.example/cb"}}
	f.Fuzz(func(t *testing.T, raw string) {
		q, _ := url.ParseQuery(raw)
		r, err := ParseAuthorizeRequest(q)
		if err != nil {
			return
		}
		if r.ClientID == "" || r.RedirectURI == "" {
			t.Fatalf("accepted without client id or redirect uri: %q", raw)
		}
		if err := r.CheckClient(app); err == nil && (r.RedirectURI != "https://a.example/cb" || r.CodeChallenge == "") {
			t.Fatalf("public client accepted without PKCE or with another redirect: %q", raw)
		}
	})
}
