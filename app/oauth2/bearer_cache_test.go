package oauth2

import (
	"testing"
	"time"

	"github.com/depothq/depot/domain/user"
)

func TestBearerCacheExpiresAndForgets(t *testing.T) {
	var c bearerCache
	now := time.Now()
	u := &user.User{ID: 1}
	c.put(10, bearerEntry{appID: 1, user: u, expires: now.Add(bearerTTL)})
	c.put(11, bearerEntry{appID: 1, user: u, expires: now.Add(bearerTTL)})
	c.put(20, bearerEntry{appID: 2, user: u, expires: now.Add(bearerTTL)})
	if _, ok := c.get(10, now); !ok {
		t.Fatal("fresh entry missed")
	}
	if _, ok := c.get(10, now.Add(bearerTTL)); ok {
		t.Fatal("expired entry served")
	}
	c.forgetApp(1)
	if _, ok := c.get(11, now); ok {
		t.Fatal("entry of a deleted application served")
	}
	if _, ok := c.get(20, now); !ok {
		t.Fatal("another application's entry dropped")
	}
	c.forgetGrant(20)
	if _, ok := c.get(20, now); ok {
		t.Fatal("revoked grant served")
	}
}
