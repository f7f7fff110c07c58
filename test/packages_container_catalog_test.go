package test

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/google/go-containerregistry/pkg/authn"
	"github.com/google/go-containerregistry/pkg/crane"
	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/v1/random"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// TestPackagesContainerCatalog reads /v2/_catalog with go-containerregistry's
// catalog calls: anonymous callers see public owners' images, signed-in
// users also their own and their organisations' (a private user's and a
// private organisation's images stay hidden from others), site
// administrators everything; pages of n follow the Link header in name
// order without repeats, and a malformed n is 400 in the registry's error
// format, on both backends.
func TestPackagesContainerCatalog(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		srv := testserver.Start(t, opts...)
		socialAccounts(t, srv, "alice", "bob")
		newAccount(t, srv, "hermit", gitea.VisibleTypePrivate)
		orgCreate(t, userClient(srv, "alice"), "hidden", gitea.VisibleTypePrivate)
		u, err := url.Parse(srv.URL)
		is.NoErr(err)
		host := u.Host
		as := func(user, pass string) authn.Authenticator { return &authn.Basic{Username: user, Password: pass} }
		img, err := random.Image(64, 1)
		is.NoErr(err)
		for _, p := range []struct{ user, image string }{
			{"alice", "alice/app"}, {"alice", "alice/tools/cli"}, {"bob", "bob/web"},
			{"hermit", "hermit/secret"}, {"alice", "hidden/core"},
		} {
			is.NoErr(crane.Push(img, host+"/"+p.image+":v1", crane.WithAuth(as(p.user, userPassword))))
		}
		reg, err := name.NewRegistry(host)
		is.NoErr(err)
		ctx := context.Background()
		catalog := func(a authn.Authenticator, pageSize int) []string {
			t.Helper()
			got, err := remote.Catalog(ctx, reg, remote.WithAuth(a), remote.WithPageSize(pageSize))
			if err != nil {
				t.Fatalf("catalog: %v", err)
			}
			return got
		}
		public := []string{"alice/app", "alice/tools/cli", "bob/web"}
		is.Equal(catalog(authn.Anonymous, 100), public)
		is.Equal(catalog(authn.Anonymous, 1), public) // three pages by the Link header
		is.Equal(catalog(as("bob", userPassword), 2), public)
		is.Equal(catalog(as("alice", userPassword), 2), []string{"alice/app", "alice/tools/cli", "bob/web", "hidden/core"})
		is.Equal(catalog(as("hermit", userPassword), 2), []string{"alice/app", "alice/tools/cli", "bob/web", "hermit/secret"})
		all := catalog(as("admin", srv.AdminPassword), 2)
		is.Equal(all, []string{"alice/app", "alice/tools/cli", "bob/web", "hermit/secret", "hidden/core"})
		is.True(slices.IsSorted(all))

		// One page after a name, and its link to the next.
		page, err := remote.CatalogPage(reg, "alice/tools/cli", 1, remote.WithAuth(as("alice", userPassword)))
		is.NoErr(err)
		is.Equal(page, []string{"bob/web"})
		authz := []string{"Authorization", "Bearer " + bearerFor(t, srv, "alice")}
		r := srv.Do("GET", srv.URL+"/v2/_catalog?n=2", nil, authz...)
		is.Equal(r.Status, http.StatusOK)
		is.Equal(r.Header.Get("Link"), `</v2/_catalog?last=alice%2Ftools%2Fcli&n=2>; rel="next"`)
		r = srv.Do("GET", srv.URL+"/v2/_catalog?n=2&last=bob/web", nil, authz...)
		is.Equal(r.Status, http.StatusOK)
		is.Equal(r.Header.Get("Link"), "") // the last page
		var body struct{ Repositories []string }
		r.Decode(t, &body)
		is.Equal(body.Repositories, []string{"hidden/core"})

		for _, n := range []string{"x", "-1", "1.5"} {
			r := srv.Do("GET", srv.URL+"/v2/_catalog?n="+n, nil, authz...)
			is.Equal(r.Status, http.StatusBadRequest)
			is.Equal(ociErrorCode(t, r), "PAGINATION_NUMBER_INVALID")
		}
		r = srv.Do("DELETE", srv.URL+"/v2/_catalog", nil, authz...)
		is.Equal(r.Status, http.StatusMethodNotAllowed)
		is.Equal(ociErrorCode(t, r), "UNSUPPORTED")
	})
}
