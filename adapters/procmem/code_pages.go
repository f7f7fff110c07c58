package procmem

import (
	"bufio"
	"io"
	"strconv"
	"strings"
)

// Why program pages: a Go server's executable is mapped from its file, and
// every page of it the process touches is counted in its resident size
// (RssFile). The kernel maps pages around each one touched (fault-around,
// and whole large folios where the file system keeps them), so start-up —
// the init functions of every package, the route table, the migrations —
// left almost all of a 68 MB binary's code and read-only data resident:
// about 45 MB of a 69–75 MB idle process, for code that mostly ran once.
//
// Those pages are clean copies of the file. Unmapping them
// (madvise(MADV_DONTNEED)) loses nothing: the file's pages stay in the
// kernel's page cache, and a page the process touches again comes back on
// a minor fault, with no disk read while the cache holds it. Unmapped, they
// are ordinary page cache, which the kernel reclaims before the mapped code
// it protects; the process's resident size is again what it uses.
//
// Only the executable's own mappings are dropped, and of those only one
// that is private and not writable, with no page of its own (Anonymous: 0 —
// no page the dynamic linker wrote, such as relocations of read-only data):
// for such a mapping the file is the only content there is. Shared
// libraries are left alone: a library the process loads later (the C
// resolver's) is mapped and relocated in steps, and a range read as clean
// a moment earlier could hold relocations by the time it is dropped. The
// executable is mapped once, before main.

// codeMapping is one range of the address space that DropCodePages unmaps.
type codeMapping struct {
	start, end uintptr
	rss        int64 // resident bytes when read
}

// fileID names a mapped file as smaps does: its device ("fd:01", major and
// minor in hex) and inode.
type fileID struct {
	dev   string
	inode uint64
}

// codeMappings reads /proc/<pid>/smaps and returns the mappings of the file
// exe whose pages are clean copies of it: private, not writable, with
// resident pages and none of their own.
func codeMappings(smaps io.Reader, exe fileID) ([]codeMapping, error) {
	var (
		out  []codeMapping
		cur  codeMapping
		ok   bool // cur is a candidate
		anon int64
	)
	flush := func() {
		if ok && cur.rss > 0 && anon == 0 {
			out = append(out, cur)
		}
		ok, anon, cur = false, 0, codeMapping{}
	}
	sc := bufio.NewScanner(smaps)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if m, isHeader := mappingHeader(line, exe); isHeader {
			flush()
			cur, ok = m.codeMapping, m.candidate
			continue
		}
		if !ok {
			continue
		}
		key, value, found := strings.Cut(line, ":")
		if !found {
			continue
		}
		switch key {
		case "Rss":
			cur.rss = kilobytes(value)
		case "Anonymous":
			anon = kilobytes(value)
			if anon < 0 {
				anon = 1 // unreadable: keep the mapping
			}
		}
	}
	flush()
	return out, sc.Err()
}

// header is a mapping's first line in smaps, and whether its pages are
// candidates (exe's, private, not writable).
type header struct {
	codeMapping
	candidate bool
}

// mappingHeader parses "start-end perms offset dev inode [path]"; isHeader
// is false for the lines of fields ("Rss:   12 kB"). A header it cannot
// parse starts a mapping that is no candidate.
func mappingHeader(line string, exe fileID) (h header, isHeader bool) {
	fields := strings.Fields(line)
	if len(fields) == 0 || strings.HasSuffix(fields[0], ":") {
		return header{}, false
	}
	if len(fields) < 5 {
		return header{}, true
	}
	lo, hi, _ := strings.Cut(fields[0], "-")
	start, err1 := strconv.ParseUint(lo, 16, 64)
	end, err2 := strconv.ParseUint(hi, 16, 64)
	inode, err3 := strconv.ParseUint(fields[4], 10, 64)
	if err1 != nil || err2 != nil || err3 != nil || end <= start {
		return header{}, true
	}
	perms := fields[1]
	h.codeMapping = codeMapping{start: uintptr(start), end: uintptr(end)}
	h.candidate = inode != 0 && inode == exe.inode && fields[3] == exe.dev &&
		len(perms) == 4 && perms[1] == '-' && perms[3] == 'p'
	return h, true
}

// kilobytes parses "   12 kB"; -1 when it cannot.
func kilobytes(value string) int64 {
	n, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(value), "kB")), 10, 64)
	if err != nil {
		return -1
	}
	return n << 10
}
