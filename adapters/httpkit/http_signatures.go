package httpkit

import (
	"context"
	"net/http"

	"github.com/depothq/depot/app/auth"
)

// SignatureVerifier checks requests signed with HTTP signatures (the second
// credential of the spec's order, after OAuth2 and access tokens).
type SignatureVerifier interface {
	// Applies reports whether r carries a signature the verifier checks.
	Applies(r *http.Request) bool
	// SignerID checks r's signature and names the account that made it.
	SignerID(ctx context.Context, r *http.Request) (int64, error)
}

// SignedCredentials adds r's HTTP signature to c when v checks it; the
// authenticator verifies it only if no credential before it in the order
// was given.
func SignedCredentials(c auth.Credentials, r *http.Request, v SignatureVerifier) auth.Credentials {
	if v != nil && v.Applies(r) {
		c.Signed = signedRequest{r: r, v: v}
	}
	return c
}

type signedRequest struct {
	r *http.Request
	v SignatureVerifier
}

func (s signedRequest) SignerID(ctx context.Context) (int64, error) { return s.v.SignerID(ctx, s.r) }
