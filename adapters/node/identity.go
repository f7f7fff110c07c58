// Package node names a server process's node: an id kept in its data
// directory, the same across restarts, and a lock on that directory that
// proves no other live process runs under the same name. The job runner
// names its leases after the node, so a restarted node can take back at
// once the leases its earlier instances held when they died.
package node

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/gofrs/flock"
)

// File names inside the data directory.
const (
	// IDFile holds the node id, written once.
	IDFile = "node-id"
	// LockFile is locked by the process that runs as the node. The kernel
	// drops the lock when its holder dies (kill -9 included), so a crash
	// never keeps the name from the next start.
	LockFile = "node.lock"
)

// Lock is the node lock of one data directory; it takes nothing until
// Acquire, so assembling the service (the admin commands do, beside a
// running server) never contends for it.
type Lock struct {
	dir string

	mu   sync.Mutex
	held *flock.Flock
}

// NewLock returns the node lock of dataDir.
func NewLock(dataDir string) *Lock { return &Lock{dir: dataDir} }

// Acquire takes the node lock without waiting and returns the node's name,
// reading the node id or making one on the first start. It returns an
// empty name when another live process on the same data directory holds
// the lock (two servers sharing one directory): this one then runs
// anonymously and takes back no one's leases. The id lives in the data
// directory rather than being derived from the host name, which changes
// with every container started from the same volume.
func (l *Lock) Acquire() (string, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := os.MkdirAll(l.dir, 0o700); err != nil {
		return "", fmt.Errorf("node: create data directory: %w", err)
	}
	lock := l.held
	if lock == nil {
		lock = flock.New(filepath.Join(l.dir, LockFile), flock.SetPermissions(0o600))
		ok, err := lock.TryLock()
		if err != nil {
			return "", fmt.Errorf("node: lock %s: %w", lock.Path(), err)
		}
		if !ok {
			_ = lock.Close()
			return "", nil
		}
	}
	// Read and written under the lock, so two first starts cannot write
	// two different ids.
	id, err := readOrCreateID(filepath.Join(l.dir, IDFile))
	if err != nil {
		_ = lock.Unlock()
		l.held = nil
		return "", err
	}
	l.held = lock
	return "node-" + id, nil
}

// Release gives the name up; another process on the data directory may
// then acquire it.
func (l *Lock) Release() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.held != nil {
		_ = l.held.Unlock()
		l.held = nil
	}
}

func readOrCreateID(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err == nil {
		id := strings.TrimSpace(string(b))
		if id == "" || strings.ContainsAny(id, "/ \t") {
			return "", fmt.Errorf("node: %s holds no usable id", path)
		}
		return id, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("node: read %s: %w", path, err)
	}
	raw := make([]byte, 8)
	if _, err := rand.Read(raw); err != nil {
		return "", fmt.Errorf("node: make an id: %w", err)
	}
	id := hex.EncodeToString(raw)
	// Written aside and renamed, so a crash never leaves a half-written id.
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(id+"\n"), 0o600); err != nil {
		return "", fmt.Errorf("node: write %s: %w", tmp, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return "", fmt.Errorf("node: write %s: %w", path, err)
	}
	return id, nil
}
