// Package netpolicy decides which hosts the service may contact on its own
// initiative (webhook deliveries, migrations, mirrors). The administrator
// writes one allow list, allowed_hosts, in Gitea's vocabulary; the outbound
// adapter asks Allows for every address it is about to connect to, so the
// answer holds for the address actually dialled and DNS tricks cannot steer a
// request into the private network.
package netpolicy

import (
	"errors"
	"fmt"
	"net/netip"
	"path"
	"strings"
)

// The builtin words of the allow list.
const (
	// External allows global unicast addresses outside the private and
	// reserved ranges: hosts on the public internet. It is the default.
	External = "external"
	// Loopback allows 127.0.0.0/8 and ::1 (so "localhost" too).
	Loopback = "loopback"
	// Private allows RFC 1918, RFC 4193 (fc00::/7) and the reserved
	// special-purpose ranges (CGNAT, NAT64, documentation, benchmarking, the
	// Azure metadata address, …).
	Private = "private"
	// Any allows every host and address.
	Any = "*"
)

// Class is what kind of address an IP is, as far as the allow list cares.
type Class int

// The classes, from most to least public.
const (
	// ClassExternal is a global unicast address on the public internet.
	ClassExternal Class = iota
	// ClassPrivate is RFC 1918, ULA or a reserved special-purpose range.
	ClassPrivate
	// ClassLoopback is 127.0.0.0/8 or ::1.
	ClassLoopback
	// ClassLinkLocal is 169.254.0.0/16 (where cloud metadata services
	// answer) or fe80::/10; only "*" or a CIDR allows it.
	ClassLinkLocal
	// ClassOther is everything no word allows: unspecified (0.0.0.0, ::),
	// multicast, broadcast, the invalid address.
	ClassOther
)

// String names the class for refusal messages.
func (c Class) String() string {
	switch c {
	case ClassExternal:
		return "external"
	case ClassPrivate:
		return "private"
	case ClassLoopback:
		return "loopback"
	case ClassLinkLocal:
		return "link-local"
	default:
		return "non-routable"
	}
}

// reserved are special-purpose ranges that netip's IsPrivate leaves out but
// that are no public destination (the list Gitea's hostmatcher keeps, plus
// "this network", the class E block and deprecated IPv6 forms). They count
// as private.
var reserved = mustPrefixes(
	// IPv4
	"0.0.0.0/8",        // RFC 1122 "this network" (0.0.0.0 itself is unspecified)
	"100.64.0.0/10",    // RFC 6598 carrier-grade NAT (Alibaba's metadata answers here)
	"168.63.129.16/32", // Azure WireServer metadata
	"192.0.0.0/24",     // RFC 6890 IETF protocol assignments
	"192.0.2.0/24",     // RFC 5737 TEST-NET-1
	"192.88.99.0/24",   // RFC 7526 6to4 relay anycast
	"198.18.0.0/15",    // RFC 2544 benchmarking
	"198.51.100.0/24",  // RFC 5737 TEST-NET-2
	"203.0.113.0/24",   // RFC 5737 TEST-NET-3
	"240.0.0.0/4",      // RFC 1112 reserved for future use
	// IPv6
	"::/96",          // deprecated IPv4-compatible addresses (embed IPv4)
	"100::/64",       // RFC 6666 discard-only
	"64:ff9b::/96",   // RFC 6052 NAT64 (embeds IPv4, e.g. 169.254.169.254)
	"64:ff9b:1::/48", // RFC 8215 local-use NAT64
	"2001::/32",      // RFC 4380 Teredo (embeds IPv4)
	"2001:10::/28",   // RFC 4843 ORCHID
	"2001:20::/28",   // RFC 7343 ORCHIDv2
	"2001:db8::/32",  // RFC 3849 documentation
	"2002::/16",      // RFC 3056 6to4 (embeds IPv4)
	"fec0::/10",      // RFC 3879 deprecated site-local
)

// broadcast is the IPv4 limited broadcast address, inside 240.0.0.0/4 but
// no host at all.
var broadcast = netip.AddrFrom4([4]byte{255, 255, 255, 255})

func mustPrefixes(ss ...string) []netip.Prefix {
	out := make([]netip.Prefix, len(ss))
	for i, s := range ss {
		out[i] = netip.MustParsePrefix(s)
	}
	return out
}

// Classify says what kind of address ip is. IPv4-mapped IPv6 addresses
// (::ffff:a.b.c.d) are judged as the IPv4 address they carry, since that is
// where a connection to them goes; zones are ignored.
func Classify(ip netip.Addr) Class {
	ip = ip.Unmap().WithZone("")
	switch {
	case !ip.IsValid() || ip.IsUnspecified() || ip.IsMulticast() || ip == broadcast:
		return ClassOther
	case ip.IsLoopback():
		return ClassLoopback
	case ip.IsLinkLocalUnicast():
		return ClassLinkLocal
	case ip.IsPrivate() || inAny(reserved, ip):
		return ClassPrivate
	case ip.IsGlobalUnicast():
		return ClassExternal
	default:
		// 255.255.255.255 and whatever else netip does not call unicast.
		return ClassOther
	}
}

func inAny(ps []netip.Prefix, ip netip.Addr) bool {
	for _, p := range ps {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

// Policy is a parsed allow list. The zero Policy allows nothing; Parse("")
// gives the default, external.
type Policy struct {
	external, private, loopback, any bool
	// nets match addresses.
	nets []netip.Prefix
	// globs match host names and the text form of addresses (path.Match
	// syntax, lower case).
	globs []string
}

// ErrInvalidList is the category of allow-list parse errors.
var ErrInvalidList = errors.New("invalid entry")

// Parse reads a comma-separated allow list: the words external, loopback,
// private and *, CIDRs (10.0.0.0/8, fd00::/8) and host globs (*.corp.example,
// git.example.org). Blank entries are skipped and case does not matter; an
// empty list means external. An entry that is none of these (a URL, a
// malformed CIDR or glob) is an error rather than a glob that never matches,
// so a typo does not silently lock webhooks out or let them in.
func Parse(list string) (Policy, error) {
	var p Policy
	var bad []string
	empty := true
	for entry := range strings.SplitSeq(list, ",") {
		e := strings.ToLower(strings.TrimSpace(entry))
		if e == "" {
			continue
		}
		empty = false
		switch e {
		case External:
			p.external = true
			continue
		case Private:
			p.private = true
			continue
		case Loopback:
			p.loopback = true
			continue
		case Any:
			p.any = true
			continue
		}
		if a, err := netip.ParseAddr(strings.TrimSuffix(strings.TrimPrefix(e, "["), "]")); err == nil {
			// An address literal is a one-address CIDR, not a glob whose
			// brackets would read as a character class.
			a = a.Unmap().WithZone("")
			p.nets = append(p.nets, netip.PrefixFrom(a, a.BitLen()))
			continue
		}
		if strings.Contains(e, "/") {
			pre, err := netip.ParsePrefix(e)
			if err != nil {
				bad = append(bad, fmt.Sprintf("%q is not a CIDR", e))
				continue
			}
			if a := pre.Addr(); a.Is4In6() && pre.Bits() >= 96 {
				// Addresses are judged unmapped, so the range must be too.
				pre = netip.PrefixFrom(a.Unmap(), pre.Bits()-96)
			}
			p.nets = append(p.nets, pre.Masked())
			continue
		}
		if !validGlob(e) {
			bad = append(bad, fmt.Sprintf("%q is not external, loopback, private, *, a CIDR or a host glob", e))
			continue
		}
		p.globs = append(p.globs, e)
	}
	if len(bad) > 0 {
		return Policy{}, fmt.Errorf("%w: %s", ErrInvalidList, strings.Join(bad, "; "))
	}
	if empty {
		p.external = true
	}
	return p, nil
}

// validGlob accepts host-name and address characters plus the glob
// operators, and a pattern path.Match can use.
func validGlob(g string) bool {
	for _, r := range g {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || strings.ContainsRune(".-_:*?[]!^", r)) {
			return false
		}
	}
	_, err := path.Match(g, "")
	return err == nil
}

// Allows reports whether the service may connect to ip on behalf of a
// request for host (the name in the URL, or "" when there is none). A glob
// that matches host allows whatever it resolves to, as the administrator
// named that host; otherwise the decision is the address's.
func (p Policy) Allows(host string, ip netip.Addr) bool {
	if p.any {
		return true
	}
	if h := normalHost(host); h != "" && p.matchGlob(h) {
		return true
	}
	ip = ip.Unmap().WithZone("")
	if !ip.IsValid() {
		return false
	}
	if p.matchGlob(ip.String()) {
		return true
	}
	switch Classify(ip) {
	case ClassExternal:
		if p.external {
			return true
		}
	case ClassPrivate:
		if p.private {
			return true
		}
	case ClassLoopback:
		if p.loopback {
			return true
		}
	}
	return inAny(p.nets, ip)
}

// AllowsName reports whether host is allowed by name alone (a glob or "*"),
// whatever it resolves to; callers that get false must check the addresses.
func (p Policy) AllowsName(host string) bool {
	if p.any {
		return true
	}
	h := normalHost(host)
	return h != "" && p.matchGlob(h)
}

func (p Policy) matchGlob(s string) bool {
	for _, g := range p.globs {
		if ok, _ := path.Match(g, s); ok {
			return true
		}
	}
	return false
}

// normalHost lower-cases host and drops a trailing dot and IPv6 brackets, so
// "Git.Example.org." matches the glob "git.example.org".
func normalHost(host string) string {
	h := strings.ToLower(strings.TrimSpace(host))
	h = strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")
	return strings.TrimSuffix(h, ".")
}

// ErrRefused is the category of every refusal by the allow list; callers
// test for it with errors.Is.
var ErrRefused = errors.New("refused by allowed_hosts")

// RefusedError says which host and address the allow list refused and why.
// It carries no URL, so it can never echo credentials.
type RefusedError struct {
	// Host is the name the request was for ("" for an address literal).
	Host string
	// Addr is the refused address.
	Addr netip.Addr
}

// Refusal returns the error for a refused connection to ip for host.
func Refusal(host string, ip netip.Addr) *RefusedError {
	return &RefusedError{Host: normalHost(host), Addr: ip.Unmap().WithZone("")}
}

// Error names the host, the address and its class.
func (e *RefusedError) Error() string {
	addr := e.Addr.String()
	if !e.Addr.IsValid() {
		addr = "no address"
	}
	who := addr
	if e.Host != "" && e.Host != addr {
		who = e.Host + " (" + addr + ")"
	}
	class := Classify(e.Addr).String()
	article := "a"
	if strings.ContainsRune("aeiou", rune(class[0])) {
		article = "an"
	}
	return fmt.Sprintf("%s is %s %s address, which allowed_hosts does not allow", who, article, class)
}

// Is makes errors.Is(err, ErrRefused) hold.
func (e *RefusedError) Is(target error) bool { return target == ErrRefused }
