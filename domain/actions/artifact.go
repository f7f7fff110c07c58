package actions

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/xml"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/depothq/depot/domain/errs"
)

// The states of an artifact: pending while its task uploads it, confirmed
// once the task finalized it (only confirmed artifacts are listed and
// downloaded).
const (
	ArtifactPending   = "pending"
	ArtifactConfirmed = "confirmed"
)

// Artifact limits and lifetimes.
const (
	// ArtifactRetention is how long an artifact is kept when its upload
	// asks for no shorter time (Gitea's ARTIFACT_RETENTION_DAYS default).
	ArtifactRetention = 90 * 24 * time.Hour
	// ArtifactURLLifetime is how long a signed upload or download URL
	// works (spec section 8: an hour).
	ArtifactURLLifetime = time.Hour
	// MaxArtifactSize bounds one artifact's bytes.
	MaxArtifactSize int64 = 10 << 30
	// MaxArtifactBlocks bounds the blocks of one upload (Azure's limit).
	MaxArtifactBlocks = 50000
	// MaxBlockIDLength bounds one block id (Azure's ids are at most 64
	// bytes before base64).
	MaxBlockIDLength = 128
	// MaxBlockListSize bounds a block list's XML.
	MaxBlockListSize = MaxArtifactBlocks * (MaxBlockIDLength + 32)
)

// Artifact is a file (a zip) a workflow run uploaded.
type Artifact struct {
	ID     int64
	RepoID int64
	RunID  int64
	// JobID and TaskID are the job and task that uploaded it.
	JobID, TaskID int64
	Name          string
	Size          int64
	// SHA256 is the hex digest of its bytes, set when finalized.
	SHA256           string
	Status           string
	Created, Updated time.Time
	Expires          time.Time
	// RunCommitSHA is the commit its run ran at (read, never written).
	RunCommitSHA string
}

// Expired says whether the artifact is past its expiry at now.
func (a *Artifact) Expired(now time.Time) bool { return !a.Expires.After(now) }

// ValidateArtifactName checks an artifact's name as actions/toolkit does:
// not empty, at most 255 bytes, none of the characters it refuses
// (" : < > | * ? \ /, carriage return and line feed) nor other control
// characters.
func ValidateArtifactName(name string) error {
	if strings.TrimSpace(name) == "" || len(name) > 255 || !utf8.ValidString(name) {
		return errs.Invalid("artifact name must be 1 to 255 bytes of UTF-8", "name")
	}
	for _, r := range name {
		if r < 0x20 || r == 0x7f || strings.ContainsRune(`":<>|*?\/`, r) {
			return errs.Invalid("artifact name must not contain "+strconv.QuoteRune(r), "name")
		}
	}
	return nil
}

// ArtifactExpiry is when an artifact created at now expires: at asked
// when the uploader asks for a time within the retention, else after the
// retention.
func ArtifactExpiry(now, asked time.Time) time.Time {
	limit := now.Add(ArtifactRetention)
	if asked.IsZero() || !asked.After(now) || asked.After(limit) {
		return limit
	}
	return asked
}

// blockList is the Azure "Put Block List" body the artifact client sends:
// the ids of the uploaded blocks in the order they make the blob.
type blockList struct {
	Latest      []string `xml:"Latest"`
	Committed   []string `xml:"Committed"`
	Uncommitted []string `xml:"Uncommitted"`
}

// ParseBlockList reads a block list's ids in order. An empty list, a
// malformed document, too many ids or an id empty or too long is
// errs.ErrBadRequest.
func ParseBlockList(doc []byte) ([]string, error) {
	if len(doc) > MaxBlockListSize {
		return nil, errs.TooLarge("block list too large")
	}
	var bl blockList
	if err := xml.Unmarshal(doc, &bl); err != nil {
		return nil, errs.BadRequest("malformed block list")
	}
	ids := append(append(append([]string(nil), bl.Committed...), bl.Uncommitted...), bl.Latest...)
	if len(ids) == 0 {
		return nil, errs.BadRequest("empty block list")
	}
	if len(ids) > MaxArtifactBlocks {
		return nil, errs.BadRequest("too many blocks")
	}
	for _, id := range ids {
		if err := ValidateBlockID(id); err != nil {
			return nil, err
		}
	}
	return ids, nil
}

// ValidateBlockID checks a block id: not empty, at most MaxBlockIDLength
// bytes.
func ValidateBlockID(id string) error {
	if id == "" || len(id) > MaxBlockIDLength {
		return errs.BadRequest("block id must be 1 to " + strconv.Itoa(MaxBlockIDLength) + " bytes")
	}
	return nil
}

// RuntimeClaims are what an ACTIONS_RUNTIME_TOKEN names: the task that
// holds it, its job and its run.
type RuntimeClaims struct {
	TaskID, JobID, RunID int64
}

// The endpoints an artifact URL may be signed for.
const (
	ArtifactUploadEndpoint   = "UploadArtifact"
	ArtifactDownloadEndpoint = "DownloadArtifact"
	ArtifactRawEndpoint      = "raw"
)

// SignedArtifactURL is what a signed artifact URL carries besides its
// path: the artifact, the task it was signed for (0 for the API's raw
// download), when it expires and the signature.
type SignedArtifactURL struct {
	ArtifactID, TaskID int64
	Expires            time.Time
	Sig                string
}

// Message is what the signature covers for endpoint: the endpoint, the
// artifact, the task and the expiry, so that a signature fits one
// endpoint of one artifact until one instant.
func (u SignedArtifactURL) Message(endpoint string) string {
	return "artifact:" + endpoint + ":" + strconv.FormatInt(u.ArtifactID, 10) + ":" +
		strconv.FormatInt(u.TaskID, 10) + ":" + strconv.FormatInt(u.Expires.Unix(), 10)
}

// ParseSignedArtifactURL reads a signed URL's query parameters through get:
// sig, expires (Unix seconds), artifactID and, unless raw, taskID. Missing
// or malformed ones are errs.ErrUnauthenticated: the URL is the credential.
func ParseSignedArtifactURL(get func(string) string, raw bool) (SignedArtifactURL, error) {
	bad := errs.Unauthenticated("invalid signature")
	var u SignedArtifactURL
	u.Sig = get("sig")
	if u.Sig == "" || len(u.Sig) > 128 {
		return u, bad
	}
	exp, err := strconv.ParseInt(get("expires"), 10, 64)
	if err != nil || exp <= 0 || exp > 1<<40 {
		return u, bad
	}
	u.Expires = time.Unix(exp, 0)
	if !raw {
		if u.ArtifactID, err = strconv.ParseInt(get("artifactID"), 10, 64); err != nil || u.ArtifactID <= 0 {
			return u, bad
		}
		if u.TaskID, err = strconv.ParseInt(get("taskID"), 10, 64); err != nil || u.TaskID <= 0 {
			return u, bad
		}
	}
	return u, nil
}

// RuntimeTokenLifetime bounds a runtime token; it works only while its
// task runs in any case.
const RuntimeTokenLifetime = 24 * time.Hour

// TaskTokenHash is what is stored of a task's token: the hex SHA-256 of
// its secret (40 random hex characters, too many to guess, so no salt).
func TaskTokenHash(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}
