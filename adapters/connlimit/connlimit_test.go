package connlimit

import (
	"testing"

	"github.com/matryer/is"
)

func TestPerAddress(t *testing.T) {
	is := is.New(t)
	exempt, err := ParseExempt([]string{"127.0.0.1", "::1", "10.0.0.0/8"})
	is.NoErr(err)
	p := New(2, exempt)
	is.True(p.Acquire("192.0.2.1"))
	is.True(p.Acquire("192.0.2.1"))
	is.True(!p.Acquire("192.0.2.1")) // the third from one address
	is.True(p.Acquire("192.0.2.2"))  // another address has its own count
	for range 5 {
		is.True(p.Acquire("127.0.0.1")) // exempt: never refused, never counted
		is.True(p.Acquire("10.1.2.3"))
		is.True(p.Acquire("::ffff:127.0.0.1")) // an IPv4-mapped address is its IPv4 one
	}
	is.Equal(p.Open(), 3)
	p.Release("127.0.0.1") // releasing an exempt one changes nothing
	p.Release("192.0.2.1")
	is.True(p.Acquire("192.0.2.1")) // a slot came back
	is.Equal(p.Open(), 3)

	unbounded := New(0, nil)
	for range 100 {
		is.True(unbounded.Acquire("192.0.2.1"))
	}

	_, err = ParseExempt([]string{"localhost"})
	is.True(err != nil) // names are not addresses
}
