package githttp

import (
	"fmt"
	"strings"
	"testing"

	"github.com/depothq/depot/ports"
	"github.com/matryer/is"
)

// pkt frames s as one pkt-line, for the tests.
func pkt(s string) string { return fmt.Sprintf("%04x%s", len(s)+4, s) }

// v2Plain is a protocol-v2 request for command with args as its
// arguments, as git's client sends it.
func v2Plain(command string, args ...string) string {
	b := pkt("command="+command+"\n") + pkt("agent=git/2.39.5\n") + pkt("object-format=sha1\n") + "0001"
	for _, a := range args {
		b += pkt(a + "\n")
	}
	return b + "0000"
}

// lsRefsPlain is an ls-refs request as git's client sends it.
func lsRefsPlain(args ...string) string { return v2Plain("ls-refs", args...) }

func TestLsRefsRequestParse(t *testing.T) {
	cases := []struct {
		name string
		body string
		ok   bool
		want lsRefsRequest
	}{
		{"clone", lsRefsPlain("peel", "symrefs", "unborn", "ref-prefix HEAD", "ref-prefix refs/heads/"), true,
			lsRefsRequest{capabilities: []string{"agent=git/2.39.5", "object-format=sha1"}, peel: true, symrefs: true,
				unborn: true, prefixes: []string{"HEAD", "refs/heads/"}}},
		{"no arguments", pkt("command=ls-refs\n") + "0000", true, lsRefsRequest{}},
		{"empty arguments", pkt("command=ls-refs") + "0001" + "0000", true, lsRefsRequest{}},
		{"lines without newlines", pkt("command=ls-refs") + "0001" + pkt("peel") + pkt("ref-prefix refs/") + "0000", true,
			lsRefsRequest{peel: true, prefixes: []string{"refs/"}}},
		{"empty prefix", lsRefsPlain("ref-prefix "), true,
			lsRefsRequest{capabilities: []string{"agent=git/2.39.5", "object-format=sha1"}, prefixes: []string{""}}},
		{"capability after the command", pkt("agent=x\n") + pkt("command=ls-refs\n") + "0000", true,
			lsRefsRequest{capabilities: []string{"agent=x"}}},
		{"fetch", pkt("command=fetch\n") + "0001" + pkt("done\n") + "0000", false, lsRefsRequest{}},
		{"two commands", pkt("command=ls-refs\n") + pkt("command=ls-refs\n") + "0000", false, lsRefsRequest{}},
		{"no command", pkt("agent=x\n") + "0001" + "0000", false, lsRefsRequest{}},
		{"only a flush", "0000", false, lsRefsRequest{}},
		{"unknown argument", lsRefsPlain("bogus"), false, lsRefsRequest{}},
		{"prefix without its space", lsRefsPlain("ref-prefix"), false, lsRefsRequest{}},
		{"no flush", pkt("command=ls-refs\n") + "0001" + pkt("peel\n"), false, lsRefsRequest{}},
		{"second delimiter", pkt("command=ls-refs\n") + "0001" + "0001" + "0000", false, lsRefsRequest{}},
		{"response end", pkt("command=ls-refs\n") + "0002", false, lsRefsRequest{}},
		{"empty line", pkt("command=ls-refs\n") + "0004" + "0000", false, lsRefsRequest{}},
		{"bad length", "zzzz", false, lsRefsRequest{}},
		{"length 3", "0003", false, lsRefsRequest{}},
		{"too long a line", "fff5" + strings.Repeat("x", 0xfff5-4), false, lsRefsRequest{}},
		{"truncated line", "0020command=ls", false, lsRefsRequest{}},
		{"NUL in a line", pkt("command=ls-refs\n") + "0001" + pkt("peel\x00x") + "0000", false, lsRefsRequest{}},
		{"empty body", "", false, lsRefsRequest{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			req, consumed, ok := readLsRefs(strings.NewReader(tc.body))
			is.Equal(ok, tc.ok)
			is.True(strings.HasPrefix(tc.body, string(consumed))) // what was read, to give git
			if ok {
				is.Equal(req, tc.want)
				is.Equal(string(consumed), tc.body)
			}
		})
	}
}

func TestLsRefsRequestStopsAtAnotherCommand(t *testing.T) {
	is := is.New(t)
	// A fetch is told at its command line: nothing of the rest is read.
	body := pkt("command=fetch\n") + pkt("agent=git/2.39.5\n") + "0001" + pkt("want "+strings.Repeat("a", 40)+"\n") + "0000"
	_, consumed, ok := readLsRefs(strings.NewReader(body))
	is.True(!ok)
	is.Equal(string(consumed), pkt("command=fetch\n"))
}

func TestLsRefsRequestBounds(t *testing.T) {
	is := is.New(t)
	var b strings.Builder
	b.WriteString(pkt("command=ls-refs\n") + "0001")
	for i := 0; b.Len() <= lsRefsMaxBytes; i++ {
		b.WriteString(pkt(fmt.Sprintf("ref-prefix refs/heads/%d\n", i)))
	}
	b.WriteString("0000")
	_, consumed, ok := readLsRefs(strings.NewReader(b.String()))
	is.True(!ok)                             // too long: git's to answer
	is.True(len(consumed) <= lsRefsMaxBytes) // and read no further than the bound
	is.True(strings.HasPrefix(b.String(), string(consumed)))
}

func TestLsRefsRequestAcceptedBy(t *testing.T) {
	facts := &v2Facts{lsRefs: true, objectFormat: "sha1",
		clientKeys: map[string]bool{"agent": true, "object-format": true, "server-option": true}}
	cases := []struct {
		name  string
		caps  []string
		facts *v2Facts
		ok    bool
	}{
		{"git's client", []string{"agent=git/2.39.5", "object-format=sha1"}, facts, true},
		{"nothing", nil, facts, true},
		{"server option", []string{"server-option=x"}, facts, true},
		{"session id not advertised", []string{"session-id=x"}, facts, false},
		{"other format", []string{"object-format=sha256"}, facts, false},
		{"bare key", []string{"agent"}, facts, false},
		{"unknown key", []string{"frobnicate=1"}, facts, false},
		{"hidden refs", nil, &v2Facts{objectFormat: "sha1", clientKeys: facts.clientKeys}, false},
		{"no format named on a SHA-256 repository", nil,
			&v2Facts{lsRefs: true, objectFormat: "sha256", clientKeys: facts.clientKeys}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req := lsRefsRequest{capabilities: tc.caps}
			is.New(t).Equal(req.acceptedBy(tc.facts), tc.ok)
		})
	}
}

func TestLsRefsAnswer(t *testing.T) {
	const a, b, c = "1111111111111111111111111111111111111111", "2222222222222222222222222222222222222222",
		"3333333333333333333333333333333333333333"
	head := &ports.GitWireRef{Name: "HEAD", ObjectID: a, SymrefTarget: "refs/heads/main"}
	unborn := &ports.GitWireRef{Name: "HEAD", SymrefTarget: "refs/heads/main"}
	detached := &ports.GitWireRef{Name: "HEAD", ObjectID: b}
	refs := []ports.GitWireRef{{Name: "refs/heads/main", ObjectID: a}, {Name: "refs/tags/v1", ObjectID: b, PeeledID: c}}
	cases := []struct {
		name string
		req  lsRefsRequest
		head *ports.GitWireRef
		refs []ports.GitWireRef
		want string
	}{
		{"plain", lsRefsRequest{}, head, refs,
			pkt(a+" HEAD\n") + pkt(a+" refs/heads/main\n") + pkt(b+" refs/tags/v1\n") + "0000"},
		{"symrefs and peel", lsRefsRequest{symrefs: true, peel: true}, head, refs,
			pkt(a+" HEAD symref-target:refs/heads/main\n") + pkt(a+" refs/heads/main\n") +
				pkt(b+" refs/tags/v1 peeled:"+c+"\n") + "0000"},
		{"unborn HEAD", lsRefsRequest{symrefs: true, unborn: true}, unborn, nil,
			pkt("unborn HEAD symref-target:refs/heads/main\n") + "0000"},
		{"unborn without symrefs", lsRefsRequest{unborn: true}, unborn, nil, "0000"},
		{"unborn not asked for", lsRefsRequest{symrefs: true}, unborn, nil, "0000"},
		{"detached", lsRefsRequest{symrefs: true}, detached, nil, pkt(b+" HEAD\n") + "0000"},
		{"no HEAD", lsRefsRequest{}, nil, nil, "0000"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			is.New(t).Equal(string(lsRefsAnswer(&tc.req, tc.head, tc.refs)), tc.want)
		})
	}
}

func TestLsRefsConfig(t *testing.T) {
	cases := []struct {
		name              string
		out               string
		inProcess, unborn bool
	}{
		{"nothing set", "", true, true},
		{"advertise", "lsrefs.unborn\nadvertise\x00", true, true},
		{"allow", "lsrefs.unborn\nallow\x00", true, true},
		{"ignore", "lsrefs.unborn\nignore\x00", true, false},
		{"last wins", "lsrefs.unborn\nignore\x00lsrefs.unborn\nallow\x00", true, true},
		{"a value git refuses", "lsrefs.unborn\nmaybe\x00", false, false},
		{"no value", "lsrefs.unborn\x00", false, false},
		{"hidden refs", "uploadpack.hiderefs\nrefs/pull\x00", false, false},
		{"transfer hidden refs", "transfer.hiderefs\n!refs/x\x00", false, false},
		{"ref storage", "extensions.refstorage\nreftable\x00", false, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			inProcess, unborn := lsRefsConfig([]byte(tc.out))
			is.Equal(inProcess, tc.inProcess)
			if inProcess {
				is.Equal(unborn, tc.unborn)
			}
		})
	}
}

func TestV2AdvertisementParse(t *testing.T) {
	is := is.New(t)
	adv := pkt("version 2\n") + pkt("agent=git/2.39.5\n") + pkt("ls-refs=unborn\n") + pkt("fetch=shallow wait-for-done filter\n") +
		pkt("server-option\n") + pkt("object-format=sha1\n") + pkt("object-info\n") + "0000"
	f, err := parseV2Advertisement([]byte(adv))
	is.NoErr(err)
	is.Equal(string(f.advertisement), adv)
	is.Equal(f.objectFormat, "sha1")
	is.True(f.lsRefsCommand && !f.sessionID)
	is.Equal(f.clientKeys, map[string]bool{"agent": true, "server-option": true, "object-format": true})
	for _, bad := range []string{
		"001e# service=git-upload-pack\n0000", // a version 0 answer
		pkt("version 2\n") + pkt("agent=x\n"), // no flush
		adv + "0000",                          // more after the flush
		pkt("version 2\n") + "0001" + "0000",
	} {
		_, err := parseV2Advertisement([]byte(bad))
		is.True(err != nil)
	}
}

func TestV2CacheBounded(t *testing.T) {
	is := is.New(t)
	c := newV2Cache(nil)
	key := func(i int) v2Key { return v2Key{dir: fmt.Sprintf("/data/repos/a/%d.git", i), protocol: "version=2"} }
	first := &v2Facts{advertisement: []byte("first")}
	c.put(key(0), first)
	for i := 1; i < v2CacheEntries+10; i++ {
		c.put(key(i), &v2Facts{})
		if i%100 == 0 {
			is.Equal(c.get(key(0)), first) // used recently: kept
		}
	}
	is.Equal(c.entries.Len(), v2CacheEntries)
	is.Equal(c.get(key(0)), first)
	is.Equal(c.get(key(1)), nil) // the least recently used went first
	is.True(c.get(key(v2CacheEntries+9)) != nil)
	// Another repository's directory, or a changed configuration, is another key.
	changed := key(0)
	changed.config = fileStamp{present: true, size: 1}
	is.Equal(c.get(changed), nil)
}
