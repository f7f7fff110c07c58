package test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/depothq/depot/test/testserver"
)

// chromiumPath finds Debian's Chromium. Without it the test is skipped,
// except in CI, whose .ci/run installs it.
func chromiumPath(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("chromium is not installed (.ci/run installs it)")
	}
	t.Skip("chromium is not installed")
	return ""
}

// TestAPIPageInBrowser opens /api/swagger in Debian's headless Chromium: the
// page renders Swagger UI with the operations of the document and logs no
// console error. Without Chromium it is skipped, except in CI, whose
// .ci/run installs it.
func TestAPIPageInBrowser(t *testing.T) {
	t.Parallel()
	browser := chromiumPath(t)
	srv := testserver.Start(t)
	profile := t.TempDir()

	// Swagger UI fetches the document after the page has loaded and renders
	// its operations a few at a time; give each try a longer time before
	// the DOM is read, until the first tag's operations are there.
	deadline := time.Now().Add(90 * time.Second)
	var dom, logs string
	for budget := 4000; ; budget *= 2 {
		ctx, cancel := context.WithDeadline(context.Background(), deadline)
		cmd := exec.CommandContext(ctx, browser, "--headless", "--no-sandbox", "--disable-gpu",
			"--disable-dev-shm-usage", "--no-first-run", "--user-data-dir="+profile,
			"--enable-logging=stderr", "--v=0", "--virtual-time-budget="+strconv.Itoa(budget),
			"--dump-dom", srv.URL+"/api/swagger")
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		cancel()
		dom, logs = out.String(), errOut.String()
		if err == nil && strings.Count(dom, "opblock-summary-path") >= 5 {
			break
		}
		if time.Now().After(deadline) || budget > 40000 {
			t.Fatalf("the page did not render its operations (err %v)\nDOM: %.2000s\nlog: %.4000s", err, dom, logs)
		}
	}
	for _, want := range []string{
		`class="swagger-ui"`, "Depot API", "OAS 2.0", srv.URL + "/swagger.v1.json",
		`id="operations-tag-admin"`, `data-path="/admin/`, // the first tag's operations, whichever comes first
	} {
		if !strings.Contains(dom, want) {
			t.Errorf("the rendered page lacks %q (it shows %q)", want, regexp.MustCompile(`data-path="[^"]*"`).FindAllString(dom, 10))
		}
	}
	consoleError := regexp.MustCompile(`(?m)^.*(:ERROR:CONSOLE|Uncaught|Failed to load resource).*$`)
	if m := consoleError.FindAllString(logs, 5); len(m) > 0 {
		t.Errorf("console errors:\n%s", strings.Join(m, "\n"))
	}
}
