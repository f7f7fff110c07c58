package test

import (
	"bufio"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// testCLIServeHandsBackExecutablePages starts the real binary (built a
// moment ago, as after a deploy) and checks that at its first quiet moment
// the server hands back the pages of its executable that start-up mapped:
// their resident size falls to under half of what it was at the first
// answer, and the server answers on, reading back what it uses. A second
// server from the same file runs beside it, as another node or a dump
// would: the pages both map cannot be evicted, and are unmapped all the same.
func testCLIServeHandsBackExecutablePages(t *testing.T, bin string) {
	dir := t.TempDir()
	addrs := cliFreeAddrs(t, 2)
	addr := addrs[0]
	p := cliStart(t, bin, nil, "serve", "--data-dir", filepath.Join(dir, "data"), "--listen", addr)
	p.waitReady(t)
	other := cliStart(t, bin, nil, "serve", "--data-dir", filepath.Join(dir, "other"), "--listen", addrs[1])
	other.waitReady(t)
	pid := p.cmd.Process.Pid
	before := executableResident(t, pid, bin)
	if before == 0 {
		t.Fatal("no resident page of the executable at the first answer")
	}
	// The release comes 5-10 s after start-up (httpkit.IdleMemoryEvery),
	// once no request is in flight; give it twice that.
	deadline := time.Now().Add(20 * time.Second)
	after := before
	for after >= before/2 && time.Now().Before(deadline) {
		time.Sleep(500 * time.Millisecond)
		after = executableResident(t, pid, bin)
	}
	t.Logf("executable's resident clean pages: %d kB at the first answer, %d kB once quiet; process: %s",
		before>>10, after>>10, processMemory(t, pid))
	if after >= before/2 {
		t.Fatalf("the executable's resident pages went from %d kB to %d kB; want under half", before>>10, after>>10)
	}
	for _, path := range []string{"/api/v1/version", "/api/v1/users/admin", "/api/v1/repos/search"} {
		if code, body := cliGet(t, "http://"+addr+path); code != http.StatusOK {
			t.Fatalf("GET %s after the release: %d %s", path, code, body)
		}
	}
}

// executableResident sums the resident size of the private, read-only
// mappings of the file bin in process pid (/proc/<pid>/smaps).
func executableResident(t *testing.T, pid int, bin string) int64 {
	t.Helper()
	f, err := os.Open(fmt.Sprintf("/proc/%d/smaps", pid))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var total int64
	counting := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 6 && !strings.HasSuffix(fields[0], ":") {
			perms := fields[1]
			counting = fields[5] == bin && len(perms) == 4 && perms[1] == '-' && perms[3] == 'p'
			continue
		}
		if counting && len(fields) == 3 && fields[0] == "Rss:" {
			kb, err := strconv.ParseInt(fields[1], 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			total += kb << 10
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return total
}

// processMemory is VmRSS, RssAnon and RssFile of process pid, for the log.
func processMemory(t *testing.T, pid int) string {
	t.Helper()
	var parts []string
	for _, field := range []string{"VmRSS", "RssAnon", "RssFile"} {
		n, err := procStatusBytes(pid, field)
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, fmt.Sprintf("%s %d kB", field, n>>10))
	}
	return strings.Join(parts, ", ")
}
