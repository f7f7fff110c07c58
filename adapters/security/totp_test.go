package security_test

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/pquerna/otp/totp"

	"github.com/depothq/depot/adapters/security"
)

type fixedClock struct{ t time.Time }

func (c *fixedClock) Now() time.Time { return c.t }

func TestTOTPNewSecret(t *testing.T) {
	is := is.New(t)
	o := security.NewTOTP(nil)
	secret, uri, err := o.NewSecret("Depot", "alice")
	is.NoErr(err)
	is.Equal(len(secret), 32) // 20 bytes in unpadded base32

	u, err := url.Parse(uri)
	is.NoErr(err)
	is.Equal(u.Scheme, "otpauth")
	is.Equal(u.Host, "totp")
	is.Equal(u.Path, "/Depot:alice")
	q := u.Query()
	is.Equal(q.Get("secret"), secret)
	is.Equal(q.Get("issuer"), "Depot")
	is.Equal(q.Get("digits"), "6")
	is.Equal(q.Get("period"), "30")
	is.Equal(q.Get("algorithm"), "SHA1")

	other, _, err := o.NewSecret("Depot", "alice")
	is.NoErr(err)
	is.True(other != secret)

	_, _, err = o.NewSecret("", "alice")
	is.True(err != nil)
}

func TestTOTPValidate(t *testing.T) {
	is := is.New(t)
	clock := &fixedClock{t: time.Date(2025, 3, 1, 12, 0, 10, 0, time.UTC)}
	o := security.NewTOTP(clock)
	secret, _, err := o.NewSecret("Depot", "alice")
	is.NoErr(err)

	code := func(at time.Time) string {
		c, err := totp.GenerateCode(secret, at)
		is.NoErr(err)
		return c
	}
	now := clock.Now()

	is.True(o.Validate(secret, code(now)))
	is.True(o.Validate(secret, " "+code(now)+" "))              // pasted with spaces
	is.True(o.Validate(secret, code(now.Add(-30*time.Second)))) // skew 1 behind
	is.True(o.Validate(secret, code(now.Add(30*time.Second))))  // skew 1 ahead
	is.True(!o.Validate(secret, code(now.Add(-90*time.Second))))
	is.True(!o.Validate(secret, code(now.Add(90*time.Second))))

	// A wrong code: change the last digit.
	c := code(now)
	wrong := c[:5] + string(rune('0'+(c[5]-'0'+1)%10))
	is.True(!o.Validate(secret, wrong))

	is.True(!o.Validate(secret, ""))
	is.True(!o.Validate(secret, "12345"))
	is.True(!o.Validate(secret, "abcdef"))
	is.True(!o.Validate("not base32!", c))

	// Lower-case secrets, as some apps show them, still work.
	is.True(o.Validate(strings.ToLower(secret), c))
}

func TestSystemClockIsUTC(t *testing.T) {
	is := is.New(t)
	now := security.SystemClock{}.Now()
	is.Equal(now.Location(), time.UTC)
	is.True(time.Since(now) < time.Minute)
}
