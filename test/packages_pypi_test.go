package test

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/md5" //nolint:gosec // the digest twine sends, checked by the index
	"crypto/sha256"
	"encoding/hex"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"code.gitea.io/sdk/gitea"
	"github.com/depothq/depot/domain/site"
	"github.com/depothq/depot/test/testserver"
	"github.com/matryer/is"
)

// TestPackagesPypi uploads a wheel and an sdist with the real twine
// client, reads them back with pip through the simple index, and checks
// the index's refusals (a file uploaded twice, bad names and versions,
// digests that do not match, anonymous and outsider uploads, a private
// owner's index) and the management API's view, on both backends.
func TestPackagesPypi(t *testing.T) {
	if _, err := exec.LookPath("twine"); err != nil {
		t.Fatal("twine is not installed (.ci/run installs Debian's twine)")
	}
	t.Parallel()
	backends(t, testPackagesPypi)
}

// pypiWheel builds a minimal wheel of name and version: a zip with a
// module and the .dist-info twine reads the metadata from.
func pypiWheel(t *testing.T, dir, name, version string) string {
	t.Helper()
	dist := pypiDistName(name)
	p := filepath.Join(dir, dist+"-"+version+"-py3-none-any.whl")
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	info := dist + "-" + version + ".dist-info/"
	for _, f := range []struct{ name, body string }{
		{"depot_hello/__init__.py", "def hello():\n    return 'hello from depot'\n"},
		{info + "METADATA", "Metadata-Version: 2.1\nName: " + name + "\nVersion: " + version +
			"\nSummary: says hello\nAuthor: Alice\nLicense: MIT\nRequires-Python: >=3.8\n\nA long description.\n"},
		{info + "WHEEL", "Wheel-Version: 1.0\nGenerator: depot-test\nRoot-Is-Purelib: true\nTag: py3-none-any\n"},
		{info + "RECORD", ""},
	} {
		w, err := zw.Create(f.name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.WriteString(w, f.body); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// pypiDistName is name as distribution file names spell it: lower case,
// runs of "-", "_" and "." one "_".
func pypiDistName(name string) string {
	return strings.ToLower(regexp.MustCompile(`[-_.]+`).ReplaceAllString(name, "_"))
}

// pypiSdist builds a minimal source distribution: a tar.gz whose PKG-INFO
// twine reads.
func pypiSdist(t *testing.T, dir, name, version string) string {
	t.Helper()
	base := pypiDistName(name) + "-" + version
	p := filepath.Join(dir, base+".tar.gz")
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, f := range []struct{ name, body string }{
		{base + "/PKG-INFO", "Metadata-Version: 2.1\nName: " + name + "\nVersion: " + version + "\nSummary: says hello\n"},
		{base + "/depot_hello/__init__.py", "def hello():\n    return 'hello'\n"},
	} {
		if err := tw.WriteHeader(&tar.Header{Name: f.name, Mode: 0o644, Size: int64(len(f.body)), ModTime: time.Now()}); err != nil {
			t.Fatal(err)
		}
		if _, err := io.WriteString(tw, f.body); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// pythonTool runs a Python client (twine, pip) with a private HOME and no
// user configuration, and returns its combined output and error.
func pythonTool(t *testing.T, home string, name string, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = home
	cmd.Env = append(os.Environ(), "HOME="+home, "PIP_CONFIG_FILE="+os.DevNull, "PIP_NO_INPUT=1",
		"PYTHON_KEYRING_BACKEND=keyring.backends.null.Keyring", "TWINE_NON_INTERACTIVE=1", "NO_COLOR=1",
		"TWINE_USERNAME=", "TWINE_PASSWORD=", "TWINE_REPOSITORY_URL=")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// pypiPost sends an upload form as twine does: fields, then the file.
func pypiPost(t *testing.T, target string, fields map[string]string, filename string, content []byte, header ...string) testserver.Response {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for k, v := range fields {
		if err := mw.WriteField(k, v); err != nil {
			t.Fatal(err)
		}
	}
	if filename != "" {
		w, err := mw.CreateFormFile("content", filename)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = w.Write(content)
	}
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequest(http.MethodPost, target, &body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return testserver.Response{Status: resp.StatusCode, Header: resp.Header, Body: data}
}

// pypiFields are an upload's form fields for content.
func pypiFields(name, version string, content []byte) map[string]string {
	s := sha256.Sum256(content)
	m := md5.Sum(content) //nolint:gosec // as twine sends it
	return map[string]string{":action": "file_upload", "protocol_version": "1", "name": name, "version": version,
		"sha256_digest": hex.EncodeToString(s[:]), "md5_digest": hex.EncodeToString(m[:])}
}

func testPackagesPypi(t *testing.T, opts ...testserver.Option) {
	srv := testserver.Start(t, opts...)
	socialAccounts(t, srv, "alice", "bob")
	newAccount(t, srv, "hermit", gitea.VisibleTypePrivate)
	is := is.New(t)
	tok := srv.CreateToken("alice", userPassword, "write:package")
	registry := srv.URL + "/api/packages/alice/pypi"
	home := t.TempDir()
	dists := filepath.Join(home, "dist")
	is.NoErr(os.MkdirAll(dists, 0o755))
	wheel := pypiWheel(t, dists, "Depot.Hello", "1.0.0")
	sdist := pypiSdist(t, dists, "Depot.Hello", "1.0.0")

	twine := func(user, password string, files ...string) (string, error) {
		return pythonTool(t, home, "twine", append([]string{"upload", "--disable-progress-bar", "--non-interactive",
			"--repository-url", registry, "-u", user, "-p", password}, files...)...)
	}
	out, err := twine("alice", tok, wheel, sdist)
	if err != nil {
		t.Fatalf("twine upload: %v\n%s", err, out)
	}
	// The same file again is a conflict; an outsider may not upload.
	out, err = twine("alice", tok, wheel)
	is.True(err != nil)
	if !strings.Contains(out, "409") {
		t.Fatalf("second upload: want 409, got\n%s", out)
	}
	out, err = twine("bob", userPassword, pypiWheel(t, t.TempDir(), "Depot.Hello", "1.0.1"))
	is.True(err != nil)
	is.True(strings.Contains(out, "403"))

	// The simple index, by any spelling of the name (PEP 503).
	wheelBytes, err := os.ReadFile(wheel)
	is.NoErr(err)
	sum := sha256.Sum256(wheelBytes)
	for _, name := range []string{"depot-hello", "Depot_Hello", "depot.hello/"} {
		r := srv.Do("GET", registry+"/simple/"+name, nil)
		is.Equal(r.Status, http.StatusOK)
		is.True(strings.HasPrefix(r.Header.Get("Content-Type"), "text/html"))
		page := string(r.Body)
		is.True(strings.Contains(page, registry+"/files/depot-hello/1.0.0/depot_hello-1.0.0-py3-none-any.whl#sha256="+hex.EncodeToString(sum[:])))
		is.True(strings.Contains(page, `data-requires-python="&gt;=3.8"`))
		is.True(strings.Contains(page, "depot_hello-1.0.0.tar.gz"))
	}
	is.Equal(srv.Do("GET", registry+"/simple/absent", nil).Status, http.StatusNotFound)

	// pip reads it back through the index, with credentials in its URL.
	u, err := url.Parse(registry + "/simple")
	is.NoErr(err)
	u.User = url.UserPassword("alice", tok)
	got := filepath.Join(home, "got")
	out, err = pythonTool(t, home, "python3", "-m", "pip", "download", "--no-deps", "--no-cache-dir",
		"--disable-pip-version-check", "--only-binary", ":all:", "--index-url", u.String(), "depot.hello==1.0.0", "-d", got)
	if err != nil {
		t.Fatalf("pip download: %v\n%s", err, out)
	}
	downloaded, err := os.ReadFile(filepath.Join(got, filepath.Base(wheel)))
	is.NoErr(err)
	is.Equal(downloaded, wheelBytes)
	r := srv.Do("GET", registry+"/files/Depot_Hello/1.0.0/depot_hello-1.0.0-py3-none-any.whl", nil)
	is.Equal(r.Status, http.StatusOK)
	is.Equal(r.Body, wheelBytes)
	is.Equal(srv.Do("GET", registry+"/files/depot-hello/1.0.0/absent.whl", nil).Status, http.StatusNotFound)

	// The upload's metadata is kept, and the management API sees the version.
	files, _, err := userClient(srv, "bob").ListPackageFiles("alice", "pypi", "depot-hello", "1.0.0")
	is.NoErr(err)
	is.Equal(len(files), 2)
	list, _, err := userClient(srv, "bob").ListPackages("alice", gitea.ListPackagesOptions{Type: "pypi"})
	is.NoErr(err)
	is.Equal(len(list), 1)
	is.Equal(list[0].Name, "depot-hello")
	is.Equal(list[0].Version, "1.0.0")
	is.Equal(list[0].Type, "pypi")

	// Refusals over raw HTTP, in plain text.
	content := []byte("not really a wheel")
	auth := []string{"Authorization", "token " + tok}
	r = pypiPost(t, registry, pypiFields("depot-hello", "1.0.1", content), "depot_hello-1.0.1.tar.gz", content)
	is.Equal(r.Status, http.StatusUnauthorized)
	is.Equal(r.Header.Get("WWW-Authenticate"), `Basic realm="Gitea Package API"`)
	r = pypiPost(t, registry, pypiFields("depot-hello", "1.0.1", content), "depot_hello-1.0.1.tar.gz", content, basicAs("bob")...)
	is.Equal(r.Status, http.StatusForbidden)
	for _, c := range []struct{ name, version string }{{"bad name", "1.0"}, {"-lead", "1.0"}, {"ok", "1.0/2"}, {"ok", "one"}, {"", "1"}} {
		r = pypiPost(t, registry, pypiFields(c.name, c.version, content), "ok-1.tar.gz", content, auth...)
		is.Equal(r.Status, http.StatusBadRequest)
	}
	bad := pypiFields("depot-hello", "1.0.1", content)
	bad["sha256_digest"] = strings.Repeat("0", 64)
	r = pypiPost(t, registry, bad, "depot_hello-1.0.1.tar.gz", content, auth...)
	is.Equal(r.Status, http.StatusBadRequest)
	is.Equal(strings.TrimSpace(string(r.Body)), "hash mismatch")
	r = pypiPost(t, registry, pypiFields("depot-hello", "1.0.1", content), "", nil, auth...)
	is.Equal(r.Status, http.StatusBadRequest)
	r = srv.Do("POST", registry, "{}", auth...)
	is.Equal(r.Status, http.StatusBadRequest)
	// A later version with a PEP 440 spelling pip accepts, over HTTP.
	r = pypiPost(t, registry+"/", pypiFields("depot_hello", "1.1.0rc1", content), "depot_hello-1.1.0rc1.tar.gz", content, auth...)
	is.Equal(r.Status, http.StatusCreated)
	r = srv.Do("GET", registry+"/simple/depot-hello/", nil)
	is.True(strings.Contains(string(r.Body), "/files/depot-hello/1.1.0rc1/depot_hello-1.1.0rc1.tar.gz#sha256="))

	// A private owner's index is hidden from others.
	hermitTok := srv.CreateToken("hermit", userPassword, "write:package")
	r = pypiPost(t, srv.URL+"/api/packages/hermit/pypi", pypiFields("secret", "1.0", content), "secret-1.0.tar.gz", content,
		"Authorization", "token "+hermitTok)
	is.Equal(r.Status, http.StatusCreated)
	is.Equal(srv.Do("GET", srv.URL+"/api/packages/hermit/pypi/simple/secret", nil).Status, http.StatusNotFound)
	is.Equal(srv.Do("GET", srv.URL+"/api/packages/hermit/pypi/simple/secret", nil, basicAs("bob")...).Status, http.StatusNotFound)
	is.Equal(srv.Do("GET", srv.URL+"/api/packages/hermit/pypi/simple/secret", nil, "Authorization", "token "+hermitTok).Status, http.StatusOK)
}

// TestPackagesPypiSizeLimit refuses a file over site.package_max_bytes
// with 413 naming the limit, on both backends.
func TestPackagesPypiSizeLimit(t *testing.T) {
	t.Parallel()
	backendsWith(t, func(t *testing.T, opts ...testserver.Option) {
		is := is.New(t)
		srv := testserver.Start(t, opts...)
		socialAccounts(t, srv, "alice")
		registry := srv.URL + "/api/packages/alice/pypi"
		big := []byte("01234567890")
		r := pypiPost(t, registry, pypiFields("tool", "1.0", big), "tool-1.0.tar.gz", big, basicAs("alice")...)
		is.Equal(r.Status, http.StatusRequestEntityTooLarge)
		is.True(strings.Contains(string(r.Body), "10"))
		is.Equal(countPackageBlobs(t, srv), 0)
		small := []byte("0123456789")
		r = pypiPost(t, registry, pypiFields("tool", "1.0", small), "tool-1.0.tar.gz", small, basicAs("alice")...)
		is.Equal(r.Status, http.StatusCreated)
	}, testserver.WithSettings(func(s *site.Settings) { s.PackageMaxBytes = 10 }))
}
