package outbound_test

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/depothq/depot/adapters/outbound"
	"github.com/depothq/depot/domain/netpolicy"
)

// outboundViaProxy is an HTTP client that goes through proxyURL.
func outboundViaProxy(proxyURL string, tlsConfig *tls.Config) *http.Client {
	u, _ := url.Parse(proxyURL)
	return &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(u), TLSClientConfig: tlsConfig}}
}

func TestOutboundProxyWantsTheSessionCredential(t *testing.T) {
	is := is.New(t)
	srv, hits := outboundServer(t, outboundOK)
	g := outboundGuard(t, "loopback", nil)
	proxyURL, _, release, err := outbound.OpenProxySession(context.Background(), g)
	is.NoErr(err)
	u, _ := url.Parse(proxyURL)
	is.Equal(u.Hostname(), "127.0.0.1") // loopback only

	// With the session's credential the request is forwarded.
	resp, err := outboundViaProxy(proxyURL, nil).Get(srv.URL)
	is.NoErr(err)
	_ = resp.Body.Close()
	is.Equal(resp.StatusCode, http.StatusOK)
	is.Equal(hits.Load(), int64(1))

	// Without it, or with another, or once released, it is not: the proxy
	// is no open relay for other local processes.
	pass, _ := u.User.Password()
	for name, pu := range map[string]string{
		"none":         "http://" + u.Host,
		"wrong secret": "http://" + u.User.Username() + ":" + strings.Repeat("0", len(pass)) + "@" + u.Host,
		"wrong id":     "http://someone:" + pass + "@" + u.Host,
	} {
		t.Run(name, func(t *testing.T) {
			is := is.New(t)
			resp, err := outboundViaProxy(pu, nil).Get(srv.URL)
			is.NoErr(err)
			_ = resp.Body.Close()
			is.Equal(resp.StatusCode, http.StatusProxyAuthRequired)
			is.Equal(resp.Header.Get("Proxy-Authenticate"), `Basic realm="depot-outbound"`)
		})
	}
	release()
	resp, err = outboundViaProxy(proxyURL, nil).Get(srv.URL)
	is.NoErr(err)
	_ = resp.Body.Close()
	is.Equal(resp.StatusCode, http.StatusProxyAuthRequired)
	is.Equal(hits.Load(), int64(1))
}

func TestOutboundProxyRefusesAndRecords(t *testing.T) {
	is := is.New(t)
	srv, hits := outboundServer(t, outboundOK)
	tlsSrv := httptest.NewTLSServer(http.HandlerFunc(outboundOK))
	t.Cleanup(tlsSrv.Close)
	g := outboundGuard(t, "", nil)

	// Plain HTTP: the forward is refused with 403 and the reason.
	proxyURL, refusal, release, err := outbound.OpenProxySession(context.Background(), g)
	is.NoErr(err)
	defer release()
	resp, err := outboundViaProxy(proxyURL, nil).Get(srv.URL)
	is.NoErr(err)
	_ = resp.Body.Close()
	is.Equal(resp.StatusCode, http.StatusForbidden)
	is.True(errors.Is(refusal(), netpolicy.ErrRefused))
	is.True(strings.Contains(refusal().Error(), "127.0.0.1 is a loopback address"))
	is.Equal(hits.Load(), int64(0))

	// CONNECT: the tunnel is refused.
	proxyURL, refusal, release2, err := outbound.OpenProxySession(context.Background(), g)
	is.NoErr(err)
	defer release2()
	_, err = outboundViaProxy(proxyURL, tlsSrv.Client().Transport.(*http.Transport).TLSClientConfig).Get(tlsSrv.URL)
	is.True(err != nil)
	is.True(errors.Is(refusal(), netpolicy.ErrRefused))
}

func TestOutboundProxyTunnels(t *testing.T) {
	is := is.New(t)
	tlsSrv := httptest.NewTLSServer(http.HandlerFunc(outboundOK))
	t.Cleanup(tlsSrv.Close)
	g := outboundGuard(t, "loopback", nil)
	proxyURL, refusal, release, err := outbound.OpenProxySession(context.Background(), g)
	is.NoErr(err)
	defer release()
	c := outboundViaProxy(proxyURL, tlsSrv.Client().Transport.(*http.Transport).TLSClientConfig)
	for range 2 {
		resp, err := c.Get(tlsSrv.URL)
		is.NoErr(err)
		_ = resp.Body.Close()
		is.Equal(resp.StatusCode, http.StatusOK)
	}
	is.NoErr(refusal())
}

func TestOutboundClosedGuard(t *testing.T) {
	is := is.New(t)
	g := outboundGuard(t, "loopback", nil)
	proxyURL, _, release, err := outbound.OpenProxySession(context.Background(), g)
	is.NoErr(err)
	defer release()
	is.NoErr(g.Close())
	srv, _ := outboundServer(t, outboundOK)
	_, err = outboundViaProxy(proxyURL, nil).Get(srv.URL)
	is.True(err != nil) // the proxy is gone
	_, _, _, err = outbound.OpenProxySession(context.Background(), g)
	is.True(err != nil)
}

// TestOutboundProxyForwardsBodyAfterEarlyAnswer plays git's smart HTTP: the
// server starts its answer before it has read the whole request body (as
// upload-pack does in full duplex), and the proxy must keep forwarding the
// body meanwhile instead of cutting the exchange off.
func TestOutboundProxyForwardsBodyAfterEarlyAnswer(t *testing.T) {
	is := is.New(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = http.NewResponseController(w).EnableFullDuplex()
		w.WriteHeader(http.StatusOK)
		_, _ = io.WriteString(w, "begin\n")
		_ = http.NewResponseController(w).Flush()
		n, err := io.Copy(io.Discard, r.Body)
		if err != nil {
			_, _ = io.WriteString(w, "read failed\n")
			return
		}
		_, _ = fmt.Fprintf(w, "read %d\n", n)
	}))
	t.Cleanup(srv.Close)
	g := outboundGuard(t, "loopback", nil)
	proxyURL, _, release, err := outbound.OpenProxySession(context.Background(), g)
	is.NoErr(err)
	defer release()

	// The body arrives in pieces, the last ones after the answer began.
	pr, pw := io.Pipe()
	go func() {
		chunk := bytes.Repeat([]byte("0032want 0123456789abcdef0123456789abcdef01234567\n"), 1000)
		for range 20 {
			if _, err := pw.Write(chunk); err != nil {
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
		_ = pw.Close()
	}()
	resp, err := outboundViaProxy(proxyURL, nil).Post(srv.URL, "application/x-git-upload-pack-request", pr)
	is.NoErr(err)
	defer resp.Body.Close()
	got, err := io.ReadAll(resp.Body)
	is.NoErr(err)
	is.Equal(string(got), fmt.Sprintf("begin\nread %d\n", 20*1000*50))
}
