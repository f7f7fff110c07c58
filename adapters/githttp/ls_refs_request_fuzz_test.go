package githttp

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzLsRefsRequest fuzzes the ls-refs request reader: it never reads past
// its bound, what it reports as read is the start of the input, and a
// request it takes is read to its flush and holds only arguments it knows.
func FuzzLsRefsRequest(f *testing.F) {
	for _, s := range []string{
		lsRefsPlain("peel", "symrefs", "unborn", "ref-prefix HEAD", "ref-prefix refs/heads/"),
		pkt("command=ls-refs\n") + "0000",
		pkt("command=fetch\n") + "0001" + pkt("done\n") + "0000",
		pkt("command=ls-refs\n") + "0001" + pkt("peel\x00") + "0000",
		"0002", "zzzz", "0001", "ffff", "0004",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		req, consumed, ok := readLsRefs(bytes.NewReader(body))
		if len(consumed) > lsRefsMaxBytes || !bytes.HasPrefix(body, consumed) {
			t.Fatalf("read %d bytes that are not the input's start", len(consumed))
		}
		if !ok {
			return
		}
		if !bytes.HasSuffix(consumed, []byte("0000")) {
			t.Fatalf("took a request not read to its flush: %q", consumed)
		}
		for _, c := range req.capabilities {
			if strings.HasPrefix(c, "command=") || strings.ContainsAny(c, "\x00") {
				t.Fatalf("capability %q", c)
			}
		}
		for _, p := range req.prefixes {
			if strings.ContainsAny(p, "\x00") {
				t.Fatalf("prefix %q", p)
			}
		}
		// The answer to any request taken is well framed.
		var frames pktFrames
		frames.feed(lsRefsAnswer(&req, nil, nil))
		if !frames.whole() {
			t.Fatal("answer not whole")
		}
	})
}
