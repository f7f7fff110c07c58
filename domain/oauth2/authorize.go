package oauth2

import (
	"net/url"
	"regexp"
)

// AuthorizeRequest is an authorization request (RFC 6749 4.1.1, RFC 7636 4.3).
type AuthorizeRequest struct {
	ResponseType        string
	ClientID            string
	RedirectURI         string
	State               string
	Scope               string
	Nonce               string
	CodeChallenge       string
	CodeChallengeMethod string
}

// AuthorizeError is an error of the authorization endpoint, with its
// RFC 6749 4.1.2.1 code. Redirect says whether it may be sent to the
// client's redirect URI: errors found before the client and its redirect
// URI are known are shown to the user instead.
type AuthorizeError struct {
	Code, Description string
	Redirect          bool
}

func (e *AuthorizeError) Error() string { return e.Code + ": " + e.Description }

// The error codes of RFC 6749 4.1.2.1 and 5.2 that Depot answers.
const (
	ErrInvalidRequest          = "invalid_request"
	ErrUnauthorizedClient      = "unauthorized_client"
	ErrUnsupportedResponseType = "unsupported_response_type"
	ErrInvalidGrant            = "invalid_grant"
	ErrInvalidClient           = "invalid_client"
	ErrUnsupportedGrantType    = "unsupported_grant_type"
	ErrAccessDenied            = "access_denied"
)

// codeChallengePattern is RFC 7636 4.2's code_challenge (and 4.1's verifier):
// 43 to 128 unreserved characters.
var codeChallengePattern = regexp.MustCompile(`^[A-Za-z0-9._~-]{43,128}$`)

// ValidCodeVerifier reports whether v has RFC 7636 4.1's shape.
func ValidCodeVerifier(v string) bool { return codeChallengePattern.MatchString(v) }

// ParseAuthorizeRequest reads an authorization request from its query. It
// checks only what needs no application: the client id and redirect URI
// are present, the parameters appear once, and the PKCE parameters have
// their shape. Whether the client may use them is CheckClient's.
func ParseAuthorizeRequest(q url.Values) (AuthorizeRequest, error) {
	for _, k := range []string{"response_type", "client_id", "redirect_uri", "state", "scope", "nonce",
		"code_challenge", "code_challenge_method"} {
		if len(q[k]) > 1 {
			return AuthorizeRequest{}, &AuthorizeError{Code: ErrInvalidRequest, Description: "parameter " + k + " repeated"}
		}
	}
	r := AuthorizeRequest{
		ResponseType: q.Get("response_type"), ClientID: q.Get("client_id"), RedirectURI: q.Get("redirect_uri"),
		State: q.Get("state"), Scope: q.Get("scope"), Nonce: q.Get("nonce"),
		CodeChallenge: q.Get("code_challenge"), CodeChallengeMethod: q.Get("code_challenge_method"),
	}
	if r.ClientID == "" {
		return r, &AuthorizeError{Code: ErrInvalidRequest, Description: "client_id is required"}
	}
	if r.RedirectURI == "" {
		return r, &AuthorizeError{Code: ErrInvalidRequest, Description: "redirect_uri is required"}
	}
	if len(r.State) > 1024 || len(r.Scope) > 1024 || len(r.Nonce) > 1024 {
		return r, &AuthorizeError{Code: ErrInvalidRequest, Description: "parameter too long"}
	}
	return r, nil
}

// CheckClient checks the request against the application it names: the
// redirect URI must be registered (else the error is shown, never sent to
// it), the response type must be "code", and a public client must use PKCE.
func (r AuthorizeRequest) CheckClient(app *Application) error {
	if !app.HasRedirectURI(r.RedirectURI) {
		return &AuthorizeError{Code: ErrInvalidRequest, Description: "Unregistered Redirect URI"}
	}
	if r.ResponseType != "code" {
		return &AuthorizeError{Code: ErrUnsupportedResponseType, Description: "Only code response type is supported.", Redirect: true}
	}
	switch r.CodeChallengeMethod {
	case "":
		if r.CodeChallenge != "" {
			// RFC 7636 4.3: a challenge without a method is plain.
			break
		}
		if !app.Confidential {
			return &AuthorizeError{Code: ErrInvalidRequest, Description: "PKCE is required for public clients", Redirect: true}
		}
	case PKCES256, PKCEPlain:
		if r.CodeChallenge == "" {
			return &AuthorizeError{Code: ErrInvalidRequest, Description: "code_challenge is required", Redirect: true}
		}
	default:
		return &AuthorizeError{Code: ErrInvalidRequest, Description: "unsupported code challenge method", Redirect: true}
	}
	if r.CodeChallenge != "" && !codeChallengePattern.MatchString(r.CodeChallenge) {
		return &AuthorizeError{Code: ErrInvalidRequest, Description: "invalid code_challenge", Redirect: true}
	}
	return nil
}

// Method returns the PKCE method in force, plain when a challenge came alone.
func (r AuthorizeRequest) Method() string {
	if r.CodeChallenge != "" && r.CodeChallengeMethod == "" {
		return PKCEPlain
	}
	return r.CodeChallengeMethod
}
