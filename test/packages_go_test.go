package test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/test/testserver"
	"github.com/matryer/is"
	modmodule "golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"
)

// TestPackagesGo uploads module zips built with golang.org/x/mod/zip,
// then reads them with the real go command through GOPROXY (download,
// version list, case-encoded paths), and checks the proxy's refusals (a
// version uploaded twice, what is no module zip, a major version without
// its suffix, anonymous and outsider uploads, a private owner's modules)
// and the management API's view, on both backends.
func TestPackagesGo(t *testing.T) {
	t.Parallel()
	backends(t, testPackagesGo)
}

// goModuleZip builds the zip of module path at version from files.
func goModuleZip(t *testing.T, path, version string, files map[string]string) []byte {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := modzip.CreateFromDir(&buf, modmodule.Version{Path: path, Version: version}, dir); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// rawZip zips files as they are named, valid module zip or not.
func rawZip(t *testing.T, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, body := range files {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// goRun runs the go command in dir against proxy alone, with its own
// module cache and no checksum database, and returns its output.
func goRun(t *testing.T, dir, proxy string, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	home := filepath.Join(dir, ".home")
	cmd.Env = append(os.Environ(), "HOME="+home, "GOPATH="+filepath.Join(home, "go"),
		"GOMODCACHE="+filepath.Join(home, "modcache"), "GOPROXY="+proxy, "GOSUMDB=off", "GONOSUMDB=",
		"GOPRIVATE=", "GONOPROXY=", "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local", "GO111MODULE=on", "GOWORK=off")
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if err != nil {
		return out.String() + errOut.String(), err
	}
	return out.String(), nil
}

func testPackagesGo(t *testing.T, opts ...testserver.Option) {
	srv := testserver.Start(t, opts...)
	socialAccounts(t, srv, "alice", "bob")
	newAccount(t, srv, "hermit", gitea.VisibleTypePrivate)
	is := is.New(t)
	proxy := srv.URL + "/api/packages/alice/go"
	const mod = "example.com/Depot/hello"
	src := func(msg string) map[string]string {
		return map[string]string{"go.mod": "module " + mod + "\n\ngo 1.21\n",
			"hello.go": "package hello\n\nfunc Hello() string { return \"" + msg + "\" }\n"}
	}
	v1 := goModuleZip(t, mod, "v1.0.0", src("hello"))
	auth := []string{"Authorization", testserver.Basic("alice", userPassword)}
	r := srv.Do("PUT", proxy+"/upload", v1, auth...)
	is.Equal(r.Status, http.StatusCreated)
	r = srv.Do("PUT", proxy+"/upload", v1, auth...)
	is.Equal(r.Status, http.StatusConflict)
	r = srv.Do("PUT", proxy+"/upload", goModuleZip(t, mod, "v1.1.0", src("hello again")), auth...)
	is.Equal(r.Status, http.StatusCreated)
	// A module without go.mod gets "module <path>".
	r = srv.Do("PUT", proxy+"/upload", goModuleZip(t, "example.com/bare", "v0.1.0",
		map[string]string{"bare.go": "package bare\n"}), auth...)
	is.Equal(r.Status, http.StatusCreated)

	// The go command downloads a version and lists them.
	work := t.TempDir()
	out, err := goRun(t, work, proxy, "mod", "download", "-json", mod+"@v1.0.0")
	if err != nil {
		t.Fatalf("go mod download: %v\n%s", err, out)
	}
	var dl struct{ Path, Version, Zip, GoMod, Dir, Error string }
	is.NoErr(json.Unmarshal([]byte(out), &dl))
	is.Equal(dl.Error, "")
	is.Equal(dl.Version, "v1.0.0")
	zipped, err := os.ReadFile(dl.Zip)
	is.NoErr(err)
	is.Equal(zipped, v1)
	hello, err := os.ReadFile(filepath.Join(dl.Dir, "hello.go"))
	is.NoErr(err)
	is.True(strings.Contains(string(hello), `"hello"`))
	is.NoErr(os.WriteFile(filepath.Join(work, "go.mod"), []byte("module app\n\ngo 1.21\n"), 0o644))
	out, err = goRun(t, work, proxy, "list", "-m", "-versions", mod)
	if err != nil {
		t.Fatalf("go list -m -versions: %v\n%s", err, out)
	}
	is.Equal(strings.TrimSpace(out), mod+" v1.0.0 v1.1.0")
	out, err = goRun(t, work, proxy, "list", "-m", "-json", mod+"@latest")
	if err != nil {
		t.Fatalf("go list -m @latest: %v\n%s", err, out)
	}
	is.True(strings.Contains(out, `"Version": "v1.1.0"`))
	out, err = goRun(t, work, proxy, "mod", "download", "-json", "example.com/bare@v0.1.0")
	if err != nil {
		t.Fatalf("go mod download bare: %v\n%s", err, out)
	}

	// The protocol over raw HTTP: case-encoded paths and versions.
	esc := proxy + "/example.com/!depot/hello"
	r = srv.Do("GET", esc+"/@v/list", nil)
	is.Equal(r.Status, http.StatusOK)
	is.Equal(string(r.Body), "v1.0.0\nv1.1.0\n")
	r = srv.Do("GET", esc+"/@v/v1.0.0.info", nil)
	is.Equal(r.Status, http.StatusOK)
	var info struct {
		Version string
		Time    time.Time
	}
	is.NoErr(json.Unmarshal(r.Body, &info))
	is.Equal(info.Version, "v1.0.0")
	is.True(!info.Time.IsZero())
	r = srv.Do("GET", esc+"/@v/v1.0.0.mod", nil)
	is.Equal(r.Status, http.StatusOK)
	is.Equal(string(r.Body), "module "+mod+"\n\ngo 1.21\n")
	r = srv.Do("GET", proxy+"/example.com/bare/@v/v0.1.0.mod", nil)
	is.Equal(string(r.Body), "module example.com/bare\n")
	r = srv.Do("GET", esc+"/@latest", nil)
	is.Equal(r.Status, http.StatusOK)
	is.True(strings.Contains(string(r.Body), `"Version":"v1.1.0"`))
	is.Equal(srv.Do("GET", esc+"/@v/v9.9.9.zip", nil).Status, http.StatusNotFound)
	is.Equal(srv.Do("GET", proxy+"/example.com/absent/@v/list", nil).Status, http.StatusNotFound)
	is.Equal(srv.Do("GET", proxy+"/example.com/Upper/@v/list", nil).Status, http.StatusNotFound) // not case-encoded
	is.Equal(srv.Do("GET", proxy+"/sumdb/sum.golang.org/supported", nil).Status, http.StatusNotFound)

	// The management API sees the versions.
	list, _, err := userClient(srv, "bob").ListPackages("alice", gitea.ListPackagesOptions{Type: "go"})
	is.NoErr(err)
	is.Equal(len(list), 3)
	is.Equal(list[0].Type, "go")

	// Refusals.
	r = srv.Do("PUT", proxy+"/upload", goModuleZip(t, mod, "v1.2.0", src("x")))
	is.Equal(r.Status, http.StatusUnauthorized)
	is.Equal(r.Header.Get("WWW-Authenticate"), `Basic realm="Gitea Package API"`)
	r = srv.Do("PUT", proxy+"/upload", goModuleZip(t, mod, "v1.2.0", src("x")), basicAs("bob")...)
	is.Equal(r.Status, http.StatusForbidden)
	r = srv.Do("PUT", proxy+"/upload", "not a zip", auth...)
	is.Equal(r.Status, http.StatusBadRequest)
	for _, files := range []map[string]string{
		{"example.com/major@v2.0.0/go.mod": "module example.com/major\n"},  // v2 needs the /v2 suffix
		{"example.com/m@v1.0/go.mod": "module example.com/m\n"},            // not a canonical version
		{"example.com/m@v1.0.0/a.go": "", "example.com/n@v1.0.0/b.go": ""}, // two modules
		{"example.com/m@v1.0.0/sub/go.mod": "module example.com/m/sub\n"},  // a nested module
		{"no-version/go.mod": "module no-version\n"},
	} {
		r = srv.Do("PUT", proxy+"/upload", rawZip(t, files), auth...)
		if r.Status != http.StatusBadRequest {
			t.Fatalf("upload of %v: %d, want 400", files, r.Status)
		}
	}
	r = srv.Do("PUT", proxy+"/upload", goModuleZip(t, "example.com/major/v2", "v2.0.0",
		map[string]string{"go.mod": "module example.com/major/v2\n"}), auth...)
	is.Equal(r.Status, http.StatusCreated)
	is.Equal(countPackageBlobs(t, srv), 4) // the refused ones left nothing

	// A private owner's modules are hidden from others.
	r = srv.Do("PUT", srv.URL+"/api/packages/hermit/go/upload", goModuleZip(t, "example.com/secret", "v1.0.0",
		map[string]string{"go.mod": "module example.com/secret\n"}), basicAs("hermit")...)
	is.Equal(r.Status, http.StatusCreated)
	secret := srv.URL + "/api/packages/hermit/go/example.com/secret/@v/list"
	is.Equal(srv.Do("GET", secret, nil).Status, http.StatusNotFound)
	is.Equal(srv.Do("GET", secret, nil, basicAs("bob")...).Status, http.StatusNotFound)
	r = srv.Do("GET", secret, nil, basicAs("hermit")...)
	is.Equal(r.Status, http.StatusOK)
	is.Equal(string(r.Body), "v1.0.0\n")
}
