// Package procmem hands back to the system the memory a process holds but
// does not use at rest: the heap a burst freed, and the pages of its
// executable that start-up or a burst mapped in.
package procmem

import "runtime/debug"

// ReleaseAfterStart is Release for the first quiet moment after start-up:
// the executable's pages that only start-up ran (every package's init, the
// migrations, the route table) leave the page cache as well (those no other
// process maps), so that their memory goes back to the system. What the server uses afterwards is read
// back page by page as it is touched: where the binary was just written
// (built, copied, installed) the file system cached it in large folios,
// which a fault maps whole, and read-around would map 128 KiB windows; the
// working set stays about 10 MB then rather than 20–45 MB. The cost is
// once: the first requests after start-up read their code from the file
// (about 5–10 ms more for the first of each kind), and a later start of
// the binary reads what it needs from disk again.
func ReleaseAfterStart() {
	debug.FreeOSMemory()
	_, _ = DropCodePages(true)
}

// Release returns freed heap memory to the system (debug.FreeOSMemory)
// and unmaps the executable's pages, which stay in the page cache and come
// back on a minor fault as they are used (DropCodePages). It suits the
// moment a server falls idle after a burst.
func Release() {
	debug.FreeOSMemory()
	_, _ = DropCodePages(false)
}
