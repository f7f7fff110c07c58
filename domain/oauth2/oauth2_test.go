package oauth2

import (
	"net/url"
	"testing"
	"time"
)

func TestAuthCodePKCE(t *testing.T) {
	// RFC 7636 appendix B.
	verifier := "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
	s256 := &AuthCode{CodeChallenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", CodeChallengeMethod: PKCES256}
	plain := &AuthCode{CodeChallenge: verifier, CodeChallengeMethod: PKCEPlain}
	cases := []struct {
		name     string
		code     *AuthCode
		verifier string
		want     bool
	}{
		{"S256 matches", s256, verifier, true},
		{"S256 wrong verifier", s256, verifier + "x", false},
		{"S256 empty verifier", s256, "", false},
		{"plain matches", plain, verifier, true},
		{"plain wrong", plain, "other", false},
		{"no challenge", &AuthCode{}, "", true},
		{"unknown method", &AuthCode{CodeChallenge: "x", CodeChallengeMethod: "S512"}, "x", false},
	}
	for _, c := range cases {
		if got := c.code.VerifyPKCE(c.verifier); got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
}

func TestAuthCodeExpired(t *testing.T) {
	now := time.Now()
	c := &AuthCode{ValidUntil: now.Add(CodeLifetime)}
	if c.Expired(now) || !c.Expired(now.Add(CodeLifetime)) {
		t.Fatal("expiry wrong")
	}
}

func TestAuthorizeRequestCheckClient(t *testing.T) {
	public := &Application{RedirectURIs: []string{"https://a.example/cb"}}
	confidential := &Application{RedirectURIs: []string{"https://a.example/cb"}, Confidential: true}
	challenge := "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
	cases := []struct {
		name         string
		app          *Application
		query        string
		wantCode     string
		wantRedirect bool
	}{
		{"public with S256", public, "response_type=code&redirect_uri=https://a.example/cb&code_challenge_method=S256&code_challenge=" + challenge, "", false},
		{"public without PKCE", public, "response_type=code&redirect_uri=https://a.example/cb", ErrInvalidRequest, true},
		{"confidential without PKCE", confidential, "response_type=code&redirect_uri=https://a.example/cb", "", false},
		{"unregistered redirect", confidential, "response_type=code&redirect_uri=https://evil.example/cb", ErrInvalidRequest, false},
		{"token response type", confidential, "response_type=token&redirect_uri=https://a.example/cb", ErrUnsupportedResponseType, true},
		{"unknown method", public, "response_type=code&redirect_uri=https://a.example/cb&code_challenge_method=S512&code_challenge=" + challenge, ErrInvalidRequest, true},
		{"short challenge", public, "response_type=code&redirect_uri=https://a.example/cb&code_challenge_method=S256&code_challenge=abc", ErrInvalidRequest, true},
	}
	for _, c := range cases {
		q, _ := url.ParseQuery(c.query + "&client_id=x")
		r, err := ParseAuthorizeRequest(q)
		if err != nil {
			t.Fatalf("%s: parse: %v", c.name, err)
		}
		err = r.CheckClient(c.app)
		if c.wantCode == "" {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
			continue
		}
		ae, ok := err.(*AuthorizeError)
		if !ok || ae.Code != c.wantCode || ae.Redirect != c.wantRedirect {
			t.Errorf("%s: got %#v, want %s redirect=%v", c.name, err, c.wantCode, c.wantRedirect)
		}
	}
}

func TestValidateApplication(t *testing.T) {
	if err := ValidateApplication("app", []string{"https://a.example/cb", "com.example.app:/cb"}); err != nil {
		t.Fatal(err)
	}
	for _, uris := range [][]string{nil, {"relative/path"}, {"https://a.example/cb#frag"}, {"http:///nohost"}} {
		if ValidateApplication("app", uris) == nil {
			t.Errorf("accepted %q", uris)
		}
	}
	if ValidateApplication(" ", []string{"https://a.example"}) == nil {
		t.Error("accepted an empty name")
	}
}

func TestAPIScopes(t *testing.T) {
	if got := APIScopes("openid profile").String(); got != "all" {
		t.Errorf("no API scope: %s", got)
	}
	if got := APIScopes("openid read:user write:repository").String(); got != "write:repository,read:user" {
		t.Errorf("named scopes: %s", got)
	}
}

func TestSameScope(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"", "", true},
		{"openid profile", "profile openid", true},
		{"openid  profile", "openid profile profile", true},
		{"openid", "openid profile", false},
		{"read:user", "write:user", false},
	} {
		if got := SameScope(c.a, c.b); got != c.want {
			t.Errorf("SameScope(%q, %q) = %v", c.a, c.b, got)
		}
	}
}
