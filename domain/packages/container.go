package packages

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"github.com/depothq/depot/domain/errs"
)

// TypeContainer is the container registry's package type: one package per
// image, one version per tag (or per digest for a manifest pushed untagged).
const TypeContainer Type = "container"

// The manifest media types the container registry stores.
const (
	MediaTypeOCIManifest    = "application/vnd.oci.image.manifest.v1+json"
	MediaTypeOCIIndex       = "application/vnd.oci.image.index.v1+json"
	MediaTypeDockerManifest = "application/vnd.docker.distribution.manifest.v2+json"
	MediaTypeDockerList     = "application/vnd.docker.distribution.manifest.list.v2+json"
)

// MaxManifestBytes bounds a manifest (the distribution spec's advice).
const MaxManifestBytes = 4 << 20

// ValidImageName reports whether s is an image name below its owner: path
// components of lower-case letters and digits joined by one ".", "_" or
// "-", separated by "/" (Gitea's reading of the distribution spec's name
// grammar).
func ValidImageName(s string) bool {
	if s == "" || len(s) > maxNameLen {
		return false
	}
	for _, comp := range strings.Split(s, "/") {
		if !imageComponent(comp) {
			return false
		}
	}
	return true
}

// imageComponent reports whether c is [a-z0-9]+ joined by separators.
func imageComponent(c string) bool {
	if c == "" {
		return false
	}
	alnum := func(b byte) bool { return b >= 'a' && b <= 'z' || b >= '0' && b <= '9' }
	prevSep := true
	for i := 0; i < len(c); i++ {
		b := c[i]
		switch {
		case alnum(b):
			prevSep = false
		case b == '.' || b == '_' || b == '-':
			if prevSep {
				return false
			}
			prevSep = true
		default:
			return false
		}
	}
	return !prevSep
}

// ValidTag reports whether s is a tag: a word character, then up to 127
// word characters, dots and dashes.
func ValidTag(s string) bool {
	if s == "" || len(s) > 128 {
		return false
	}
	for i := 0; i < len(s); i++ {
		b := s[i]
		if !wordRune(rune(b)) && (i == 0 || b != '.' && b != '-') {
			return false
		}
	}
	return true
}

// ValidDigest reports whether s is a digest the registry addresses content
// by: "sha256:" and 64 lower-case hex digits.
func ValidDigest(s string) bool {
	hex, ok := strings.CutPrefix(s, "sha256:")
	if !ok || len(hex) != 64 {
		return false
	}
	for i := 0; i < len(hex); i++ {
		if c := hex[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// DigestHex is the hex part of a valid digest.
func DigestHex(digest string) string { return strings.TrimPrefix(digest, "sha256:") }

// Reference is what follows /manifests/: a tag or a digest.
type Reference struct {
	Tag    string
	Digest string
}

// ParseReference reads a manifest reference; ok is false for neither.
func ParseReference(s string) (Reference, bool) {
	switch {
	case ValidDigest(s):
		return Reference{Digest: s}, true
	case ValidTag(s):
		return Reference{Tag: s}, true
	}
	return Reference{}, false
}

// ParseContentRange reads a chunk's Content-Range ("start-end", both
// inclusive, as the distribution spec writes it; a "bytes " prefix and a
// "/total" suffix are tolerated): start and the chunk's length.
func ParseContentRange(s string) (start, length int64, ok bool) {
	s = strings.TrimPrefix(strings.TrimSpace(s), "bytes ")
	s, _, _ = strings.Cut(s, "/")
	a, b, found := strings.Cut(s, "-")
	if !found {
		return 0, 0, false
	}
	start, err1 := strconv.ParseInt(a, 10, 64)
	end, err2 := strconv.ParseInt(b, 10, 64)
	if err1 != nil || err2 != nil || start < 0 || end < start || end == math.MaxInt64 || a[0] == '+' || b[0] == '+' {
		return 0, 0, false
	}
	return start, end - start + 1, true
}

// Descriptor names content by digest, as manifests do.
type Descriptor struct {
	MediaType    string            `json:"mediaType"`
	Digest       string            `json:"digest"`
	Size         int64             `json:"size"`
	ArtifactType string            `json:"artifactType,omitempty"`
	Annotations  map[string]string `json:"annotations,omitempty"`
	Platform     json.RawMessage   `json:"platform,omitempty"`
}

// Manifest is what the registry reads of a pushed manifest or index.
type Manifest struct {
	SchemaVersion int               `json:"schemaVersion"`
	MediaType     string            `json:"mediaType"`
	ArtifactType  string            `json:"artifactType"`
	Config        *Descriptor       `json:"config"`
	Layers        []Descriptor      `json:"layers"`
	Manifests     []Descriptor      `json:"manifests"`
	Subject       *Descriptor       `json:"subject"`
	Annotations   map[string]string `json:"annotations"`
}

// IsIndex reports whether the manifest lists other manifests.
func (m Manifest) IsIndex() bool {
	return m.MediaType == MediaTypeOCIIndex || m.MediaType == MediaTypeDockerList
}

// Blobs are the digests an image manifest names (config, then layers).
func (m Manifest) Blobs() []Descriptor {
	var out []Descriptor
	if m.Config != nil {
		out = append(out, *m.Config)
	}
	return append(out, m.Layers...)
}

// errManifestInvalid is a manifest the registry cannot store.
func errManifestInvalid(msg string) error { return errs.BadRequest("manifest invalid: " + msg) }

// ParseManifest reads a manifest body sent with contentType (which wins
// over the body's own mediaType when the body names none) and checks what
// the registry relies on: schema version 2, a media type it knows, and
// valid digests in every descriptor.
func ParseManifest(body []byte, contentType string) (Manifest, error) {
	var m Manifest
	if err := json.Unmarshal(body, &m); err != nil {
		return m, errManifestInvalid("not JSON")
	}
	if m.SchemaVersion != 2 {
		return m, errManifestInvalid("schemaVersion must be 2")
	}
	ct, _, _ := strings.Cut(contentType, ";")
	ct = strings.TrimSpace(ct)
	switch {
	case m.MediaType == "" && ct != "":
		m.MediaType = ct
	case m.MediaType == "" && len(m.Manifests) > 0:
		m.MediaType = MediaTypeOCIIndex
	case m.MediaType == "":
		m.MediaType = MediaTypeOCIManifest
	case ct != "" && ct != m.MediaType:
		return m, errManifestInvalid("media type differs from Content-Type")
	}
	switch m.MediaType {
	case MediaTypeOCIManifest, MediaTypeDockerManifest:
		if m.Config == nil {
			return m, errManifestInvalid("config is missing")
		}
	case MediaTypeOCIIndex, MediaTypeDockerList:
	default:
		return m, errManifestInvalid("unsupported media type")
	}
	all := append(m.Blobs(), m.Manifests...)
	if m.Subject != nil {
		all = append(all, *m.Subject)
	}
	for _, d := range all {
		if !ValidDigest(d.Digest) || d.Size < 0 {
			return m, errManifestInvalid("bad descriptor")
		}
	}
	if m.ArtifactType == "" && m.Config != nil && m.Config.MediaType != "application/vnd.oci.image.config.v1+json" &&
		m.Subject != nil {
		m.ArtifactType = m.Config.MediaType
	}
	return m, nil
}

// ContainerManifest is the manifest of one image version (a tag, or a
// digest pushed untagged): what the registry answers for it, and what the
// referrers API lists of it.
type ContainerManifest struct {
	VersionID    int64
	Digest       string
	MediaType    string
	ArtifactType string
	// Subject is the digest of the manifest this one refers to, "" when none.
	Subject string
	Size    int64
	// BlobSHA256 names the stored bytes of the manifest.
	BlobSHA256  string
	Annotations map[string]string
}
