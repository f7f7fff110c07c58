package procmem

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"testing"

	"github.com/matryer/is"
	"golang.org/x/sys/unix"
)

// written lives in the executable's data segment, a private mapping of the
// file that this process has written to: a drop must not give it back its
// value from the file.
var written = 1

// TestDropCodePagesUnmapsTheExecutablesCleanPages runs on this test binary:
// after the drop, the executable's clean mappings hold less than they held
// (what the test touches since comes back at once), the program runs on
// (its pages come back as it touches them), and what it wrote to its data
// segment is still there; alike whether the pages are only unmapped or
// evicted from the page cache as well.
func TestDropCodePagesUnmapsTheExecutablesCleanPages(t *testing.T) {
	for _, evict := range []bool{false, true} {
		t.Run(fmt.Sprintf("evict=%v", evict), func(t *testing.T) { dropCodePages(t, evict) })
	}
}

func dropCodePages(t *testing.T, evict bool) {
	is := is.New(t)
	written = 42
	// Touch much of the binary: what the packages of a test binary run.
	_, _ = json.Marshal(map[string]any{"a": []int{1, 2}})
	_ = regexp.MustCompile(`^a+b*$`).MatchString("aab")
	before := exeCleanRSS(t)

	dropped, err := DropCodePages(evict)
	is.NoErr(err)
	after := exeCleanRSS(t)
	t.Logf("executable's clean pages: %d kB resident before, %d kB dropped, %d kB right after",
		before>>10, dropped>>10, after>>10)
	is.True(dropped >= before/2) // most of what was resident
	is.True(after < before)      // and it stays out until used
	is.Equal(written, 42)        // the data segment kept what was written

	// The program runs on: code and read-only data come back from the file.
	b, err := json.Marshal(map[string]any{"a": []int{1, 2}})
	is.NoErr(err)
	is.Equal(string(b), `{"a":[1,2]}`)
	is.True(regexp.MustCompile(`^a+b*$`).MatchString("aab"))
	is.Equal(fmt.Sprintf("%x", 255), "ff")
}

// exeCleanRSS is the resident size of the mappings DropCodePages drops.
func exeCleanRSS(t *testing.T) int64 {
	t.Helper()
	var st unix.Stat_t
	if err := unix.Stat("/proc/self/exe", &st); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	maps, err := codeMappings(f, fileID{dev: fmt.Sprintf("%02x:%02x", unix.Major(st.Dev), unix.Minor(st.Dev)), inode: st.Ino})
	if err != nil {
		t.Fatal(err)
	}
	var n int64
	for _, m := range maps {
		n += m.rss
	}
	return n
}
