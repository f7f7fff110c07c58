package procmem

import (
	"strings"
	"testing"

	"github.com/matryer/is"
)

// smapsSample is /proc/self/smaps of a Go server cut to what codeMappings
// reads: the executable's segments (inode 4242 on fe:00), a library, the
// heap and an anonymous mapping.
const smapsSample = `00400000-0040b000 r--p 00000000 fe:00 4242                       /srv/depot
Rss:                  44 kB
Anonymous:             0 kB
0040b000-01891000 r-xp 0000b000 fe:00 4242                       /srv/depot
Size:              21016 kB
Rss:               21012 kB
Anonymous:             0 kB
01891000-0342c000 r--p 01491000 fe:00 4242                       /srv/depot
Rss:               24300 kB
Anonymous:             0 kB
0342c000-0342d000 r--p 0302b000 fe:00 4242                       /srv/depot
Rss:                   4 kB
Anonymous:             4 kB
0342d000-03524000 rw-p 0302c000 fe:00 4242                       /srv/depot
Rss:                 852 kB
Anonymous:           292 kB
03524000-03530000 r--p 03123000 fe:00 4242                       /srv/depot
Rss:                   0 kB
Anonymous:             0 kB
03530000-03540000 r--s 00000000 fe:00 4242                       /srv/depot
Rss:                  16 kB
Anonymous:             0 kB
0b718000-0b7bd000 rw-p 00000000 00:00 0                          [heap]
Rss:                 572 kB
Anonymous:           572 kB
7f933a6c5000-7f933a942000 r-xp 000c5000 fe:00 9999                       /usr/lib/x86_64-linux-gnu/libcrypto.so.3
Rss:                1416 kB
Anonymous:             0 kB
7f933a942000-7f933a950000 r-xp 000c5000 fe:01 4242                       /mnt/other/depot
Rss:                  56 kB
Anonymous:             0 kB
7ffd1c5f4000-7ffd1c5f6000 r-xp 00000000 00:00 0                          [vdso]
Rss:                   8 kB
Anonymous:             0 kB
`

// TestCodeMappingsAreTheExecutablesCleanReadOnlyPages: of the sample, only
// the executable's read-only private mappings with resident pages and none
// of their own are dropped — not the relocated read-only page, the data
// segment, a shared mapping, an empty one, a library, a file with the same
// inode on another device, or the vDSO.
func TestCodeMappingsAreTheExecutablesCleanReadOnlyPages(t *testing.T) {
	is := is.New(t)
	got, err := codeMappings(strings.NewReader(smapsSample), fileID{dev: "fe:00", inode: 4242})
	is.NoErr(err)
	is.Equal(got, []codeMapping{
		{start: 0x400000, end: 0x40b000, rss: 44 << 10},
		{start: 0x40b000, end: 0x1891000, rss: 21012 << 10},
		{start: 0x1891000, end: 0x342c000, rss: 24300 << 10},
	})

	got, err = codeMappings(strings.NewReader(smapsSample), fileID{dev: "fe:00", inode: 1})
	is.NoErr(err)
	is.Equal(len(got), 0) // another executable: nothing
}

// TestCodeMappingsKeepsAMappingItCannotRead: an Anonymous line that does
// not parse counts as pages of the mapping's own, and a header that does not
// parse starts no mapping.
func TestCodeMappingsKeepsAMappingItCannotRead(t *testing.T) {
	is := is.New(t)
	const sample = `00400000-0040b000 r-xp 00000000 fe:00 4242 /srv/depot
Rss: 44 kB
Anonymous: many kB
zz-0040c000 r-xp 00000000 fe:00 4242 /srv/depot
Rss: 4 kB
Anonymous: 0 kB
`
	got, err := codeMappings(strings.NewReader(sample), fileID{dev: "fe:00", inode: 4242})
	is.NoErr(err)
	is.Equal(len(got), 0)
}
