package ports

import (
	"context"
	"time"
)

// LicenseInfo names a licence template.
type LicenseInfo struct {
	Key, Name, URL string
}

// License is a licence template with its text.
type License struct {
	LicenseInfo
	Body string
}

// LabelTemplate is one label of a label set.
type LabelTemplate struct {
	Name        string
	Color       string // "#rrggbb"
	Description string
	Exclusive   bool
}

// Templates are the texts a new repository can start with. Unknown names are
// errs.ErrNotFound.
type Templates interface {
	Gitignores() []string
	Gitignore(name string) (string, error)
	Licenses() []LicenseInfo
	License(name string) (*License, error)
	LabelSets() []string
	LabelSet(name string) ([]LabelTemplate, error)
	// Readme returns the named README template ("Default") with {Name},
	// {Description} and {CloneURL...} left for the caller to fill.
	Readme(name string) (string, error)
}

// SSHKeys reads OpenSSH public keys.
type SSHKeys interface {
	// Parse reads an authorized_keys line and returns the key without its
	// comment ("ssh-ed25519 AAAA…") and its SHA256 fingerprint; a key it
	// cannot read is an errs.ErrInvalid naming field.
	Parse(field, line string) (content, fingerprint string, err error)
	// SignerOf returns the SHA256 fingerprint of the key among keys (each
	// "ssh-ed25519 AAAA…", as Parse returns them) that made the armored
	// SSH signature ("-----BEGIN SSH SIGNATURE-----", ssh-keygen -Y sign,
	// git's gpg.format=ssh) over message in namespace; a signature none of
	// them made, or one that cannot be read, is an error.
	SignerOf(keys []string, namespace, signature, message string) (string, error)
}

// Avatars stores avatar images, resized to a square.
type Avatars interface {
	// Put decodes, resizes and stores an image for its owner key ("repo-7")
	// and returns the name it is stored under (a hash of key and image); an
	// undecodable or oversized image is an errs.ErrInvalid naming field.
	Put(ctx context.Context, field, key string, image []byte) (hash string, err error)
	// Remove deletes a stored image; removing none is not an error.
	Remove(ctx context.Context, hash string) error
	// Open returns the stored PNG of a hash.
	Open(ctx context.Context, hash string) ([]byte, error)
	// Stored calls fn with the hashes of the stored images last written
	// before t, at most n at a time (for the doctor).
	Stored(ctx context.Context, t time.Time, n int, fn func(hashes []string) error) error
}
