package test

import (
	"net/http"
	"net/url"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/google/go-containerregistry/pkg/authn"
	"github.com/google/go-containerregistry/pkg/crane"
	"github.com/google/go-containerregistry/pkg/v1/random"
	"github.com/matryer/is"

	"github.com/depothq/depot/test/testserver"
)

// hookevPackage is Gitea's PackagePayload as a receiver decodes it.
type hookevPackage struct {
	Action       string            `json:"action"`
	Repository   *gitea.Repository `json:"repository"`
	Package      *gitea.Package    `json:"package"`
	Organization *gitea.User       `json:"organization"`
	Sender       *gitea.User       `json:"sender"`
}

// TestHookEventsPackage: publishing a new version through a registry is a
// package event "created" (a second file of the version is none),
// deleting a version through the management API or its last file through
// the registry is "deleted". As in Gitea, the owner's hooks (organisation
// or user), the system hooks and the linked repository's hooks hear them,
// the payload's package shows the linked repository, and its repository
// and organisation are null; hooks without the package event hear nothing.
// A container image pushed with crane is "created" once per new tag, and
// its tag's deletion "deleted".
func TestHookEventsPackage(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, opts ...testserver.Option) {
		srv, alice, _ := hookOrgSetup(t, opts...)
		is := is.New(t)
		rec := deliveryNewReceiver(t, nil)
		orgOpt := hookevOpt(rec.URL+"/org", "package")
		orgOpt.Config["secret"] = "pkg-secret"
		_, _, err := alice.CreateOrgHook("acme", orgOpt)
		is.NoErr(err)
		_, _, err = alice.CreateOrgHook("acme", hookevOpt(rec.URL+"/push", "push", "repository"))
		is.NoErr(err)
		hookevMyHook(t, alice, hookevOpt(rec.URL+"/user", "package"))
		sysOpt := hookevOpt(rec.URL+"/system", "package")
		r := srv.Do("POST", "/admin/hooks", map[string]any{"type": "gitea", "is_system_webhook": true,
			"active": true, "events": sysOpt.Events, "config": sysOpt.Config}, adminHeader(srv)...)
		is.Equal(r.Status, http.StatusCreated)
		_, _, err = alice.CreateOrgRepo("acme", gitea.CreateRepoOption{Name: "tools"})
		is.NoErr(err)
		_, _, err = alice.CreateRepoHook("acme", "tools", hookevOpt(rec.URL+"/repo", "package"))
		is.NoErr(err)
		reg := func(path string) string { return srv.URL + "/api/packages" + path }

		r = srv.Do("PUT", reg("/acme/generic/tool/1.0.0/tool.sh"), "one", basicAs("alice")...)
		is.Equal(r.Status, http.StatusCreated)
		r = srv.Do("PUT", reg("/acme/generic/tool/1.0.0/more.sh"), "more", basicAs("alice")...)
		is.Equal(r.Status, http.StatusCreated) // a file added to the version: no event
		r = srv.Do("PUT", reg("/alice/generic/mine/0.1/a.txt"), "a", basicAs("alice")...)
		is.Equal(r.Status, http.StatusCreated)
		r = srv.Do("POST", "/packages/acme/generic/tool/-/link/tools", nil, basicAs("alice")...)
		is.Equal(r.Status, http.StatusCreated)
		r = srv.Do("PUT", reg("/acme/generic/tool/1.1.0/tool.sh"), "two", basicAs("alice")...)
		is.Equal(r.Status, http.StatusCreated)
		r = srv.Do("DELETE", "/packages/acme/generic/tool/1.0.0", nil, basicAs("alice")...)
		is.Equal(r.Status, http.StatusNoContent)
		r = srv.Do("DELETE", reg("/acme/generic/tool/1.1.0/tool.sh"), nil, basicAs("alice")...)
		is.Equal(r.Status, http.StatusNoContent)

		type want struct{ action, owner, name, version string }
		orgWant := []want{{"created", "acme", "tool", "1.0.0"}, {"created", "acme", "tool", "1.1.0"},
			{"deleted", "acme", "tool", "1.0.0"}, {"deleted", "acme", "tool", "1.1.0"}}
		sysWant := []want{orgWant[0], {"created", "alice", "mine", "0.1"}, orgWant[1], orgWant[2], orgWant[3]}
		check := func(path string, ws []want) []hookevPackage {
			got := rec.wait(t, path, len(ws))
			is.Equal(len(got), len(ws))
			out := make([]hookevPackage, len(ws))
			for i, w := range ws {
				secret := ""
				if path == "/org" {
					secret = "pkg-secret"
				}
				hookevHeaders(t, got[i], "package", secret)
				p := deliveryDecode[hookevPackage](t, got[i].Body)
				is.Equal(p.Action, w.action)
				is.Equal(p.Package.Owner.UserName, w.owner)
				is.Equal(p.Package.Type, "generic")
				is.Equal(p.Package.Name, w.name)
				is.Equal(p.Package.Version, w.version)
				is.Equal(p.Package.Creator.UserName, "alice")
				is.Equal(p.Package.HTMLURL, srv.URL+"/"+w.owner+"/-/packages/generic/"+w.name+"/"+w.version)
				is.Equal(p.Sender.UserName, "alice")
				is.True(p.Repository == nil)
				is.True(p.Organization == nil)
				out[i] = p
			}
			return out
		}
		org := check("/org", orgWant)
		is.True(org[0].Package.Repository == nil) // not linked yet
		is.True(org[1].Package.Repository != nil)
		is.Equal(org[1].Package.Repository.FullName, "acme/tools")
		is.True(org[1].Package.Repository.Permissions.Admin) // the sender's access
		check("/system", sysWant)
		check("/user", []want{sysWant[1]})
		check("/repo", []want{orgWant[1], orgWant[2], orgWant[3]})
		// Every delivery was queued with its change: nothing arrives late.
		is.Equal(len(rec.requests("/push")), 1) // the repository's creation only
		is.Equal(len(rec.requests("/org")), 4)
		is.Equal(len(rec.requests("/user")), 1)

		// A container image pushed with crane, then its tag deleted.
		u, err := url.Parse(srv.URL)
		is.NoErr(err)
		img, err := random.Image(64, 1)
		is.NoErr(err)
		auth := crane.WithAuth(&authn.Basic{Username: "alice", Password: userPassword})
		is.NoErr(crane.Push(img, u.Host+"/acme/app:v1", auth))
		is.NoErr(crane.Push(img, u.Host+"/acme/app:v1", auth)) // the tag again: no new version
		is.NoErr(crane.Delete(u.Host+"/acme/app:v1", auth))
		got := rec.wait(t, "/org", 6)
		is.Equal(len(got), 6)
		for i, action := range []string{"created", "deleted"} {
			p := deliveryDecode[hookevPackage](t, got[4+i].Body)
			is.Equal(p.Action, action)
			is.Equal(p.Package.Type, "container")
			is.Equal(p.Package.Name, "app")
			is.Equal(p.Package.Version, "v1")
			is.Equal(p.Sender.UserName, "alice")
		}
	})
}
