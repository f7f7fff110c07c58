package netpolicy_test

import (
	"errors"
	"net/netip"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/netpolicy"
)

func TestClassify(t *testing.T) {
	cases := map[string]netpolicy.Class{
		"8.8.8.8":                netpolicy.ClassExternal,
		"2606:4700:4700::1111":   netpolicy.ClassExternal,
		"::ffff:8.8.8.8":         netpolicy.ClassExternal,
		"127.0.0.1":              netpolicy.ClassLoopback,
		"127.255.0.9":            netpolicy.ClassLoopback,
		"::1":                    netpolicy.ClassLoopback,
		"::ffff:127.0.0.1":       netpolicy.ClassLoopback, // IPv4-mapped loopback is loopback
		"10.1.2.3":               netpolicy.ClassPrivate,
		"172.16.0.1":             netpolicy.ClassPrivate,
		"172.31.255.255":         netpolicy.ClassPrivate,
		"192.168.1.1":            netpolicy.ClassPrivate,
		"::ffff:192.168.1.1":     netpolicy.ClassPrivate,
		"fc00::1":                netpolicy.ClassPrivate,
		"fd00:ec2::254":          netpolicy.ClassPrivate, // AWS metadata over IPv6
		"100.64.0.1":             netpolicy.ClassPrivate, // CGNAT
		"100.127.255.254":        netpolicy.ClassPrivate,
		"100.100.100.200":        netpolicy.ClassPrivate, // Alibaba metadata (CGNAT)
		"168.63.129.16":          netpolicy.ClassPrivate, // Azure WireServer
		"192.0.2.10":             netpolicy.ClassPrivate,
		"198.18.0.1":             netpolicy.ClassPrivate,
		"0.1.2.3":                netpolicy.ClassPrivate,
		"240.0.0.1":              netpolicy.ClassPrivate,
		"64:ff9b::a9fe:a9fe":     netpolicy.ClassPrivate, // NAT64 of 169.254.169.254
		"2002:a9fe:a9fe::1":      netpolicy.ClassPrivate, // 6to4
		"2001:db8::1":            netpolicy.ClassPrivate,
		"::7f00:1":               netpolicy.ClassPrivate, // IPv4-compatible 127.0.0.1
		"169.254.169.254":        netpolicy.ClassLinkLocal,
		"::ffff:169.254.169.254": netpolicy.ClassLinkLocal,
		"fe80::1":                netpolicy.ClassLinkLocal,
		"fe80::1%eth0":           netpolicy.ClassLinkLocal,
		"0.0.0.0":                netpolicy.ClassOther,
		"::":                     netpolicy.ClassOther,
		"224.0.0.1":              netpolicy.ClassOther,
		"ff02::1":                netpolicy.ClassOther,
		"255.255.255.255":        netpolicy.ClassOther,
	}
	for addr, want := range cases {
		t.Run(addr, func(t *testing.T) {
			is := is.New(t)
			is.Equal(netpolicy.Classify(netip.MustParseAddr(addr)), want)
		})
	}
	is.New(t).Equal(netpolicy.Classify(netip.Addr{}), netpolicy.ClassOther)
}

func TestAllows(t *testing.T) {
	type probe struct {
		host, ip string
		want     bool
	}
	cases := []struct {
		list   string
		probes []probe
	}{
		{"", []probe{ // the default is external
			{"", "8.8.8.8", true},
			{"github.com", "140.82.121.3", true},
			{"", "2606:4700:4700::1111", true},
			{"", "127.0.0.1", false},
			{"localhost", "127.0.0.1", false},
			{"", "::1", false},
			{"", "::ffff:127.0.0.1", false},
			{"", "10.0.0.1", false},
			{"", "192.168.0.1", false},
			{"", "172.20.0.1", false},
			{"", "fc00::1", false},
			{"", "fd12:3456::1", false},
			{"", "100.64.0.1", false},
			{"metadata.google.internal", "169.254.169.254", false},
			{"", "::ffff:169.254.169.254", false},
			{"", "fe80::1", false},
			{"", "0.0.0.0", false},
			{"", "::", false},
			{"", "224.0.0.1", false},
			{"", "255.255.255.255", false},
			{"", "64:ff9b::a9fe:a9fe", false},
			{"example.com", "", false}, // no address, no glob: refused
		}},
		{" , ,", []probe{{"", "8.8.8.8", true}, {"", "127.0.0.1", false}}}, // blanks only: still the default
		{"external", []probe{{"", "8.8.8.8", true}, {"", "10.0.0.1", false}}},
		{"loopback", []probe{
			{"", "127.0.0.1", true},
			{"localhost", "127.0.0.1", true},
			{"", "127.8.9.10", true},
			{"", "::1", true},
			{"", "::ffff:127.0.0.1", true},
			{"", "8.8.8.8", false}, // naming a list replaces the default
			{"", "10.0.0.1", false},
			{"", "0.0.0.0", false},
			{"", "169.254.169.254", false},
		}},
		{"external,loopback", []probe{{"", "8.8.8.8", true}, {"", "127.0.0.1", true}, {"", "192.168.1.1", false}}},
		{"private", []probe{
			{"", "10.0.0.1", true},
			{"", "172.16.5.4", true},
			{"", "192.168.1.1", true},
			{"", "fc00::1", true},
			{"", "100.64.0.1", true},
			{"", "168.63.129.16", true},
			{"", "127.0.0.1", false},
			{"", "::1", false},
			{"", "169.254.169.254", false}, // link-local is not private
			{"", "8.8.8.8", false},
		}},
		{"*", []probe{
			{"", "127.0.0.1", true},
			{"", "169.254.169.254", true},
			{"", "0.0.0.0", true},
			{"anything", "", true},
		}},
		{"10.0.0.0/8, fd00::/8", []probe{
			{"", "10.200.0.1", true},
			{"", "::ffff:10.200.0.1", true},
			{"", "fd00::5", true},
			{"", "fc00::5", false},
			{"", "11.0.0.1", false},
			{"", "8.8.8.8", false}, // a CIDR alone does not keep external
		}},
		{"169.254.169.254/32", []probe{{"", "169.254.169.254", true}, {"", "169.254.169.253", false}}},
		{"::ffff:192.168.0.0/112", []probe{{"", "192.168.3.4", true}, {"", "192.169.0.1", false}}},
		{"192.168.1.77/24", []probe{{"", "192.168.1.5", true}}}, // host bits are masked off
		{"127.0.0.1", []probe{{"", "127.0.0.1", true}, {"", "127.0.0.2", false}}},
		{"[::1]", []probe{{"", "::1", true}, {"", "127.0.0.1", false}}},
		{"*.corp.example, git.example.org", []probe{
			{"git.corp.example", "10.1.1.1", true}, // a named host is allowed whatever it resolves to
			{"GIT.Corp.Example.", "10.1.1.1", true},
			{"git.example.org", "127.0.0.1", true},
			{"corp.example", "10.1.1.1", false},
			{"evil.example", "10.1.1.1", false},
			{"evil.example", "8.8.8.8", false},
		}},
		{"10.0.0.*", []probe{{"", "10.0.0.9", true}, {"", "10.0.1.9", false}}}, // globs match addresses' text too
		{"EXTERNAL , Loopback", []probe{{"", "8.8.8.8", true}, {"", "::1", true}}},
	}
	for _, tc := range cases {
		t.Run(tc.list, func(t *testing.T) {
			p, err := netpolicy.Parse(tc.list)
			is.New(t).NoErr(err)
			for _, pr := range tc.probes {
				t.Run(pr.host+"@"+pr.ip, func(t *testing.T) {
					is := is.New(t)
					var ip netip.Addr
					if pr.ip != "" {
						ip = netip.MustParseAddr(pr.ip)
					}
					is.Equal(p.Allows(pr.host, ip), pr.want)
				})
			}
		})
	}
}

func TestAllowsName(t *testing.T) {
	is := is.New(t)
	p, err := netpolicy.Parse("external,*.corp.example")
	is.NoErr(err)
	is.True(p.AllowsName("a.corp.example"))
	is.True(!p.AllowsName("example.com")) // external is about addresses
	is.True(!p.AllowsName(""))
	star, err := netpolicy.Parse("*")
	is.NoErr(err)
	is.True(star.AllowsName("whatever"))
	var zero netpolicy.Policy
	is.True(!zero.Allows("", netip.MustParseAddr("8.8.8.8"))) // the zero policy allows nothing
}

func TestParseErrors(t *testing.T) {
	cases := map[string]string{
		"10.0.0.0/33":                  "10.0.0.0/33",
		"external, http://git.example": "http://git.example",
		"host name":                    "host name",
		"a.example, [":                 "[",
		"user@host":                    "user@host",
		"example.com/path":             "example.com/path",
		"fd00::/129":                   "fd00::/129",
	}
	for list, named := range cases {
		t.Run(list, func(t *testing.T) {
			is := is.New(t)
			_, err := netpolicy.Parse(list)
			is.True(errors.Is(err, netpolicy.ErrInvalidList))
			is.True(strings.Contains(err.Error(), named))
		})
	}
}

func TestRefusal(t *testing.T) {
	is := is.New(t)
	err := error(netpolicy.Refusal("LocalHost.", netip.MustParseAddr("::ffff:127.0.0.1")))
	is.True(errors.Is(err, netpolicy.ErrRefused))
	is.Equal(err.Error(), "localhost (127.0.0.1) is a loopback address, which allowed_hosts does not allow")
	is.Equal(netpolicy.Refusal("", netip.MustParseAddr("169.254.169.254")).Error(),
		"169.254.169.254 is a link-local address, which allowed_hosts does not allow")
	is.Equal(netpolicy.Refusal("8.8.8.8", netip.MustParseAddr("8.8.8.8")).Error(),
		"8.8.8.8 is an external address, which allowed_hosts does not allow")
	var re *netpolicy.RefusedError
	is.True(errors.As(err, &re))
	is.Equal(re.Addr, netip.MustParseAddr("127.0.0.1"))
}
