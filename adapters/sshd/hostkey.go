package sshd

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/crypto/ssh"
)

// HostKeyFile is the host key's file name under <data>/ssh.
const HostKeyFile = "host_ed25519_key"

// LoadHostKey reads the host key in dir, creating an ed25519 key there
// (mode 0600, in a 0700 directory) the first time, so that clients see the
// same host key across restarts. A key file readable by others is made
// private again.
func LoadHostKey(dir string) (ssh.Signer, error) {
	path := filepath.Join(dir, HostKeyFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		if data, err = createHostKey(dir, path); err != nil {
			return nil, err
		}
	} else if err != nil {
		return nil, fmt.Errorf("sshd: reading the host key: %w", err)
	} else if fi, err := os.Stat(path); err == nil && fi.Mode().Perm()&0o077 != 0 {
		if err := os.Chmod(path, 0o600); err != nil {
			return nil, fmt.Errorf("sshd: making the host key private: %w", err)
		}
	}
	signer, err := ssh.ParsePrivateKey(data)
	if err != nil {
		return nil, fmt.Errorf("sshd: host key %s: %w", path, err)
	}
	return signer, nil
}

// createHostKey writes a new key next to its final name and links it in
// place, so that two starts racing keep one key and a crash leaves none
// half-written.
func createHostKey(dir, path string) ([]byte, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("sshd: host key directory: %w", err)
	}
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, err
	}
	block, err := ssh.MarshalPrivateKey(priv, "depot host key")
	if err != nil {
		return nil, err
	}
	data := pem.EncodeToMemory(block)
	tmp, err := os.CreateTemp(dir, "."+HostKeyFile+"-*")
	if err != nil {
		return nil, fmt.Errorf("sshd: writing the host key: %w", err)
	}
	defer os.Remove(tmp.Name())
	_, werr := tmp.Write(data)
	serr := tmp.Sync()
	cerr := tmp.Close()
	if err := errors.Join(werr, serr, cerr, os.Chmod(tmp.Name(), 0o600)); err != nil {
		return nil, fmt.Errorf("sshd: writing the host key: %w", err)
	}
	if err := os.Link(tmp.Name(), path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			// Another start made one first: use that.
			return os.ReadFile(path)
		}
		// A file system without hard links: a plain rename will do.
		if err := os.Rename(tmp.Name(), path); err != nil {
			return nil, fmt.Errorf("sshd: installing the host key: %w", err)
		}
	}
	pub, err := ssh.NewPublicKey(priv.Public())
	if err != nil {
		return nil, err
	}
	// The public half, for administrators to publish the fingerprint.
	_ = os.WriteFile(path+".pub", ssh.MarshalAuthorizedKey(pub), 0o644)
	return data, nil
}
