package test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/test/testserver"
	"github.com/matryer/is"
)

// TestPackagesNpm publishes with the real npm client using a token in
// .npmrc, installs from Depot, moves dist-tags, and checks npm's refusals
// (a version published twice, an anonymous publish, bad names), on both
// backends. It is skipped only when npm is not installed.
func TestPackagesNpm(t *testing.T) {
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skip("npm is not installed")
	}
	t.Parallel()
	backends(t, testPackagesNpm)
}

// npmRun runs npm in dir with userconfig as its only configuration and
// returns its combined output and error.
func npmRun(t *testing.T, dir, userconfig string, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "npm", append(args, "--no-audit", "--no-fund", "--no-update-notifier")...)
	cmd.Dir = dir
	home := filepath.Join(filepath.Dir(userconfig), "home")
	cmd.Env = append(os.Environ(), "HOME="+home, "npm_config_userconfig="+userconfig,
		"npm_config_cache="+filepath.Join(home, "cache"), "npm_config_globalconfig="+filepath.Join(home, "global.npmrc"))
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func npmWriteFile(t *testing.T, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func testPackagesNpm(t *testing.T, opts ...testserver.Option) {
	srv := testserver.Start(t, opts...)
	socialAccounts(t, srv, "alice", "bob")
	is := is.New(t)
	tok := srv.CreateToken("alice", userPassword, "write:package")
	registry := srv.URL + "/api/packages/alice/npm/"
	u, err := url.Parse(registry)
	is.NoErr(err)
	root := t.TempDir()
	rc := filepath.Join(root, "npmrc")
	npmWriteFile(t, rc, "registry="+registry+"\n//"+u.Host+u.Path+":_authToken="+tok+"\n")
	anonRC := filepath.Join(root, "anon-npmrc")
	npmWriteFile(t, anonRC, "registry="+registry+"\n")

	pkg := filepath.Join(root, "hello")
	npmWriteFile(t, filepath.Join(pkg, "package.json"),
		`{"name":"@acme/hello-depot","version":"1.0.0","description":"says hello","main":"index.js","license":"MIT"}`)
	npmWriteFile(t, filepath.Join(pkg, "index.js"), "module.exports = () => 'hello from depot';\n")

	// Anonymous publishing is refused.
	out, err := npmRun(t, pkg, anonRC, "publish")
	is.True(err != nil)
	is.True(strings.Contains(out, "401") || strings.Contains(strings.ToLower(out), "auth"))

	out, err = npmRun(t, pkg, rc, "publish")
	if err != nil {
		t.Fatalf("npm publish: %v\n%s", err, out)
	}
	// The same version again: 409.
	out, err = npmRun(t, pkg, rc, "publish")
	is.True(err != nil)
	// npm refuses on its own once it sees the version in Depot's document;
	// the registry's own refusal is a 409.
	if !strings.Contains(out, "409") && !strings.Contains(out, "cannot publish over") {
		t.Fatalf("second publish: want a refusal, got\n%s", out)
	}
	r := srv.Do("PUT", registry+"@acme%2fhello-depot", `{"name":"@acme/hello-depot","versions":{"1.0.0":{}},`+
		`"_attachments":{"@acme/hello-depot-1.0.0.tgz":{"data":"eA=="}}}`, "Authorization", "Bearer "+tok)
	is.Equal(r.Status, http.StatusConflict)
	npmWriteFile(t, filepath.Join(pkg, "package.json"),
		`{"name":"@acme/hello-depot","version":"1.1.0-beta.1","main":"index.js"}`)
	out, err = npmRun(t, pkg, rc, "publish", "--tag", "beta")
	if err != nil {
		t.Fatalf("npm publish beta: %v\n%s", err, out)
	}

	// Install into another project, anonymously (alice is public).
	app := filepath.Join(root, "app")
	npmWriteFile(t, filepath.Join(app, "package.json"), `{"name":"app","version":"1.0.0","private":true}`)
	out, err = npmRun(t, app, anonRC, "install", "@acme/hello-depot")
	if err != nil {
		t.Fatalf("npm install: %v\n%s", err, out)
	}
	data, err := os.ReadFile(filepath.Join(app, "node_modules", "@acme", "hello-depot", "package.json"))
	is.NoErr(err)
	var installed struct{ Version string }
	is.NoErr(json.Unmarshal(data, &installed))
	is.Equal(installed.Version, "1.0.0") // latest, not beta
	_, err = os.Stat(filepath.Join(app, "node_modules", "@acme", "hello-depot", "index.js"))
	is.NoErr(err)
	lock, err := os.ReadFile(filepath.Join(app, "package-lock.json"))
	is.NoErr(err)
	is.True(strings.Contains(string(lock), "sha512-")) // integrity checked against Depot's

	// dist-tags with the CLI.
	out, err = npmRun(t, pkg, rc, "dist-tag", "add", "@acme/hello-depot@1.1.0-beta.1", "next")
	if err != nil {
		t.Fatalf("npm dist-tag add: %v\n%s", err, out)
	}
	out, err = npmRun(t, pkg, rc, "dist-tag", "ls", "@acme/hello-depot")
	if err != nil {
		t.Fatalf("npm dist-tag ls: %v\n%s", err, out)
	}
	is.True(strings.Contains(out, "next: 1.1.0-beta.1"))
	is.True(strings.Contains(out, "latest: 1.0.0"))
	out, err = npmRun(t, pkg, rc, "dist-tag", "rm", "@acme/hello-depot", "next")
	if err != nil {
		t.Fatalf("npm dist-tag rm: %v\n%s", err, out)
	}
	r = srv.Do("GET", registry+"-/package/@acme%2fhello-depot/dist-tags", nil)
	is.Equal(r.Status, http.StatusOK)
	is.Equal(strings.TrimSpace(string(r.Body)), `{"beta":"1.1.0-beta.1","latest":"1.0.0"}`)
	r = srv.Do("DELETE", registry+"-/package/@acme%2fhello-depot/dist-tags/latest", nil, "Authorization", "Bearer "+tok)
	is.Equal(r.Status, http.StatusBadRequest)

	// The management API sees what npm published.
	files, _, err := userClient(srv, "bob").ListPackageFiles("alice", "npm", "@acme/hello-depot", "1.0.0")
	is.NoErr(err)
	is.Equal(len(files), 1)
	is.Equal(files[0].Name, "hello-depot-1.0.0.tgz")
	list, _, err := userClient(srv, "bob").ListPackages("alice", gitea.ListPackagesOptions{Type: "npm"})
	is.NoErr(err)
	is.Equal(len(list), 2)

	// Bad input and access over raw HTTP, in npm's error format.
	r = srv.Do("PUT", registry+"Bad%20Name", `{}`, "Authorization", "Bearer "+tok)
	is.Equal(r.Status, http.StatusBadRequest)
	is.True(strings.Contains(string(r.Body), `"error"`))
	r = srv.Do("PUT", registry+"ok-name", `{"name":"ok-name","versions":{"x.y":{}},"_attachments":{"ok-name-x.y.tgz":{"data":""}}}`,
		"Authorization", "Bearer "+tok)
	is.Equal(r.Status, http.StatusBadRequest)
	r = srv.Do("PUT", registry+"ok-name", `{}`, basicAs("bob")...)
	is.Equal(r.Status, http.StatusForbidden)
	r = srv.Do("GET", registry+"absent", nil)
	is.Equal(r.Status, http.StatusNotFound)
	r = srv.Do("GET", srv.URL+"/api/packages/nobody/npm/absent", nil)
	is.Equal(r.Status, http.StatusNotFound)

	// Search finds the package.
	r = srv.Do("GET", registry+"-/v1/search?text=hello", nil)
	is.Equal(r.Status, http.StatusOK)
	is.True(strings.Contains(string(r.Body), "@acme/hello-depot"))

	// Deprecation with the CLI shows in the document npm reads.
	out, err = npmRun(t, pkg, rc, "deprecate", "@acme/hello-depot@1.0.0", "use 2")
	if err != nil {
		t.Fatalf("npm deprecate: %v\n%s", err, out)
	}
	r = srv.Do("GET", registry+"@acme%2fhello-depot", nil)
	is.Equal(r.Status, http.StatusOK)
	var doc struct {
		Versions map[string]struct {
			Deprecated string
			Dist       struct{ Tarball, Integrity string }
		}
	}
	is.NoErr(json.Unmarshal(r.Body, &doc))
	is.Equal(doc.Versions["1.0.0"].Deprecated, "use 2")
	is.True(strings.HasPrefix(doc.Versions["1.0.0"].Dist.Integrity, "sha512-"))

	// Unpublishing a version with the CLI removes it.
	out, err = npmRun(t, pkg, rc, "unpublish", "@acme/hello-depot@1.1.0-beta.1", "--force")
	if err != nil {
		t.Fatalf("npm unpublish: %v\n%s", err, out)
	}
	_, resp, err := userClient(srv, "bob").GetPackage("alice", "npm", "@acme/hello-depot", "1.1.0-beta.1")
	assertSDKStatus(t, resp, err, http.StatusNotFound)

	// Unpublishing a version through the registry removes it.
	r = srv.Do("DELETE", registry+"@acme%2fhello-depot/-/1.0.0/hello-depot-1.0.0.tgz/-rev/1", nil,
		"Authorization", "Bearer "+tok)
	is.Equal(r.Status, http.StatusOK)
	_, resp, err = userClient(srv, "bob").GetPackage("alice", "npm", "@acme/hello-depot", "1.0.0")
	assertSDKStatus(t, resp, err, http.StatusNotFound)
	is.Equal(srv.Do("GET", registry+"@acme%2fhello-depot", nil).Status, http.StatusNotFound) // its last version went
}
