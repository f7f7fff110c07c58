package test

import (
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/depothq/depot/test/testserver"
	"github.com/matryer/is"
)

// A start whose HTTP or SSH address is taken fails before the first
// administrator is created, so the password printed once is never spent on
// a server that did not come up: the next start, on free addresses, creates
// the account and prints its password. A lost password is reset with
// `depot admin user change-password`.
func TestServeTakenPortCreatesNoAdmin(t *testing.T) {
	is := is.New(t)
	bin := cliBuildDepot(t)
	dir := t.TempDir()

	taken, err := net.Listen("tcp", "127.0.0.1:0")
	is.NoErr(err)
	defer taken.Close()
	addr := taken.Addr().String()

	r := cliRun(t, bin, nil, "serve", "--data-dir", dir, "--listen", addr)
	is.True(r.code != 0)                                          // the start fails
	is.True(strings.Contains(r.stderr, addr))                     // naming the address
	is.True(!strings.Contains(r.stderr, "administrator account")) // before any account exists

	r = cliRun(t, bin, nil, "serve", "--data-dir", dir, "--listen", cliFreeAddr(t), "--ssh-listen", addr)
	is.True(r.code != 0) // a taken SSH address fails the start too
	is.True(strings.Contains(r.stderr, addr))
	is.True(!strings.Contains(r.stderr, "administrator account"))
	r = cliRun(t, bin, nil, "admin", "user", "list", "--data-dir", dir)
	is.Equal(r.code, 0)
	is.Equal(len(strings.Split(strings.TrimSpace(r.stdout), "\n")), 1) // the list has its header and no account

	srv := cliStart(t, bin, nil, "serve", "--data-dir", dir, "--listen", cliFreeAddr(t))
	srv.waitReady(t)
	pw := srv.adminPassword(t) // the first start that comes up creates the administrator
	st, body := cliGet(t, srv.url+"/api/v1/user", "Authorization", testserver.Basic("admin", pw))
	is.Equal(st, http.StatusOK)
	u := cliDecodeUser(t, body)
	is.Equal(u.Login, "admin")
	is.True(u.IsAdmin)
	is.True(strings.Contains(srv.stderrText(t), "depot admin user change-password")) // the banner says how to reset it

	// The way back in when that password is lost.
	r = cliRun(t, bin, nil, "admin", "user", "change-password", "--username", "admin", "--password", "a-new-secret", "--data-dir", dir)
	is.Equal(r.code, 0)
	st, _ = cliGet(t, srv.url+"/api/v1/user", "Authorization", testserver.Basic("admin", "a-new-secret"))
	is.Equal(st, http.StatusOK)
	st, _ = cliGet(t, srv.url+"/api/v1/user", "Authorization", testserver.Basic("admin", pw))
	is.Equal(st, http.StatusUnauthorized)
	is.Equal(srv.stop(t), 0)
}
