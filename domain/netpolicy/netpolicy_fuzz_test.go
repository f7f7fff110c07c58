package netpolicy

import (
	"errors"
	"net/netip"
	"strings"
	"testing"
)

// FuzzParse fuzzes the allowed_hosts list: refused as ErrInvalidList, or
// read to a policy whose answers only widen when entries are added.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"", "external", "loopback, private", "*", "10.0.0.0/8,fd00::/8", "*.corp.example,git.example.org",
		"[::1]", "::ffff:10.0.0.0/104", "http://x", "10.0.0.0/33", "a b", "[", "EXTERNAL,,"} {
		f.Add(s, "git.example.org", []byte{127, 0, 0, 1})
	}
	f.Fuzz(func(t *testing.T, list, host string, ipBytes []byte) {
		p, err := Parse(list)
		if err != nil {
			if !errors.Is(err, ErrInvalidList) {
				t.Fatalf("Parse(%q) = %v, not ErrInvalidList", list, err)
			}
			return
		}
		ip, ok := netip.AddrFromSlice(ipBytes)
		if !ok {
			ip = netip.MustParseAddr("8.8.8.8")
		}
		allowed := p.Allows(host, ip)
		_ = p.AllowsName(host)
		if blank(list) {
			list = External // what an empty list means, spelled out
		}
		wider, err := Parse(list + ",loopback")
		if err != nil {
			t.Fatalf("adding loopback to valid %q: %v", list, err)
		}
		if allowed && !wider.Allows(host, ip) {
			t.Fatalf("adding loopback to %q took %s (%q) away", list, ip, host)
		}
		if !wider.Allows("", netip.MustParseAddr("127.0.0.1")) {
			t.Fatalf("%q,loopback does not allow 127.0.0.1", list)
		}
		if any, _ := Parse(list + ",*"); !any.Allows(host, ip) {
			t.Fatalf("%q,* does not allow %s", list, ip)
		}
	})
}

// blank reports whether list has no entry but white space.
func blank(list string) bool {
	for _, e := range strings.Split(list, ",") {
		if strings.TrimSpace(e) != "" {
			return false
		}
	}
	return true
}
