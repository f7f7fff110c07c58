package security

import (
	"errors"
	"net/http"
	"testing"

	"github.com/depothq/depot/domain/errs"
)

// FuzzParseSignature fuzzes the Signature header a request carries: refused
// as unauthenticated (401), or read to a keyId, base64 signature and at
// least one signed header; the same text as an Authorization header of the
// Signature scheme reads the same.
func FuzzParseSignature(f *testing.F) {
	for _, s := range []string{
		`keyId="SHA256:abc",algorithm="hs2019",headers="(request-target) (created) (expires)",created=1700000000,expires=1700000010,signature="c2ln"`,
		`keyId="https://remote.example/actors/bob#main-key",headers="(request-target) host date digest",signature="c2lnbmF0dXJl"`,
		`keyId="k",signature="c2ln"`, `keyId="k"`, `signature="c2ln"`, `keyId="k,signature="c2ln"`,
		`keyId="k", keyId="j", signature="c2ln"`, `created=abc,keyId="k",signature="c2ln"`, `=,=`, "", ",,,",
		`keyId="k",signature="not base64!"`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		sig, err := ParseSignature(in)
		if err != nil {
			if !errors.Is(err, errs.ErrUnauthenticated) {
				t.Fatalf("error %v is not a 401", err)
			}
			return
		}
		if sig.KeyID == "" || sig.Signature == "" || len(sig.Headers) == 0 || sig.Created < 0 || sig.Expires < 0 {
			t.Fatalf("ParseSignature(%q) = %+v", in, sig)
		}
		h := http.Header{}
		h.Set("Authorization", "Signature "+in)
		again, ok, err := SignatureOf(h)
		if !ok || err != nil || again.KeyID != sig.KeyID || again.Signature != sig.Signature {
			t.Fatalf("as Authorization %q reads %+v, %v, %v", in, again, ok, err)
		}
	})
}
