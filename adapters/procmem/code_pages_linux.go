package procmem

import (
	"fmt"
	"os"
	"sync"

	"golang.org/x/sys/unix"
)

// dropMu keeps two drops (start-up's and an idle tick's) from reading the
// same smaps at once.
var dropMu sync.Mutex

// DropCodePages unmaps the resident pages of the process's executable that
// are clean copies of its file (see codeMappings), evicting them from the
// page cache too when evict is set, and returns how many bytes were resident
// in those mappings.
func DropCodePages(evict bool) (int64, error) {
	dropMu.Lock()
	defer dropMu.Unlock()
	var st unix.Stat_t
	if err := unix.Stat("/proc/self/exe", &st); err != nil {
		return 0, err
	}
	exe := fileID{dev: fmt.Sprintf("%02x:%02x", unix.Major(st.Dev), unix.Minor(st.Dev)), inode: st.Ino}
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return 0, err
	}
	maps, err := codeMappings(f, exe)
	f.Close()
	if err != nil {
		return 0, err
	}
	var dropped int64
	for _, m := range maps {
		// The range is one mapping of this process, read a moment ago.
		// MADV_DONTNEED on a private clean file mapping only unmaps.
		// To evict, MADV_RANDOM first makes the pages read back from the
		// file one at a time, as they are touched, instead of in
		// read-around windows; then MADV_PAGEOUT (Linux 5.4) reclaims
		// those no other process maps. Pages another process maps too
		// (another depot started from the same file) stay in the page
		// cache, so the range is unmapped in any case.
		if evict {
			_, _, _ = unix.Syscall(unix.SYS_MADVISE, m.start, m.end-m.start, unix.MADV_RANDOM)
			_, _, errno := unix.Syscall(unix.SYS_MADVISE, m.start, m.end-m.start, unix.MADV_PAGEOUT)
			if errno != 0 && errno != unix.EINVAL {
				return dropped, errno
			}
		}
		if _, _, errno := unix.Syscall(unix.SYS_MADVISE, m.start, m.end-m.start, unix.MADV_DONTNEED); errno != 0 {
			return dropped, errno
		}
		dropped += m.rss
	}
	return dropped, nil
}
