package security_test

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/adapters/security"
)

func TestSecretBoxRoundTrip(t *testing.T) {
	is := is.New(t)
	key, err := security.OpenSiteKey(filepath.Join(t.TempDir(), "site.key"))
	is.NoErr(err)
	box, err := security.NewSecretBox(key)
	is.NoErr(err)

	sealed, err := box.Seal([]byte("hunter2"), "mirror:7")
	is.NoErr(err)
	is.True(strings.HasPrefix(sealed, "v1:"))
	is.True(!strings.Contains(sealed, "hunter2"))
	again, err := box.Seal([]byte("hunter2"), "mirror:7")
	is.NoErr(err)
	is.True(sealed != again) // a fresh nonce every time

	plain, err := box.Open(sealed, "mirror:7")
	is.NoErr(err)
	is.Equal(string(plain), "hunter2")

	_, err = box.Open(sealed, "mirror:8") // bound to its label
	is.True(err != nil)
	_, err = box.Open(sealed[:len(sealed)-4]+"AAAA", "mirror:7") // tampered
	is.True(err != nil)
	_, err = box.Open("hunter2", "mirror:7") // not sealed at all
	is.True(err != nil)

	other, err := security.NewSecretBox(make([]byte, 32))
	is.NoErr(err)
	_, err = other.Open(sealed, "mirror:7") // another key
	is.True(err != nil)
}

func TestSiteKeyIsGeneratedOnceAndKept(t *testing.T) {
	is := is.New(t)
	path := filepath.Join(t.TempDir(), "sub", "site.key")
	// Processes starting together on one data directory agree on one key.
	keys := make([][]byte, 8)
	var wg sync.WaitGroup
	for i := range keys {
		wg.Go(func() {
			k, err := security.OpenSiteKey(path)
			if err != nil {
				t.Errorf("open site key: %v", err)
			}
			keys[i] = k
		})
	}
	wg.Wait()
	for _, k := range keys {
		is.Equal(k, keys[0])
	}
	is.Equal(len(keys[0]), 32)
	st, err := os.Stat(path)
	is.NoErr(err)
	is.Equal(st.Mode().Perm(), os.FileMode(0o600))
	again, err := security.OpenSiteKey(path)
	is.NoErr(err)
	is.Equal(again, keys[0])

	is.NoErr(os.WriteFile(path, []byte("short\n"), 0o600))
	_, err = security.OpenSiteKey(path) // a damaged key is an error, never replaced
	is.True(err != nil)
	_, err = security.NewSecretBox([]byte("short"))
	is.True(err != nil)
}
