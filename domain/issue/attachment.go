package issue

import (
	"mime"
	"path"
	"regexp"
	"strings"

	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/site"
)

// The attachment defaults, Gitea's [attachment] section.
const (
	// DefaultAttachmentTypes is Gitea's ALLOWED_TYPES.
	DefaultAttachmentTypes = ".avif,.cpuprofile,.csv,.dmp,.docx,.fodg,.fodp,.fods,.fodt,.gif,.gz,.jpeg,.jpg,.json,.jsonc,.log,.md,.mov,.mp4,.odf,.odg,.odp,.ods,.odt,.patch,.pdf,.png,.pptx,.svg,.tgz,.txt,.webm,.webp,.xls,.xlsx,.zip"
	// DefaultAttachmentMaxBytes is Gitea 1.27's [attachment] MAX_SIZE,
	// 100 MiB for issue and comment attachments (release assets got their
	// own, larger limit in go-gitea/gitea#36697); the SDK's settings test
	// expects max_size 100 from a Gitea left at its defaults.
	DefaultAttachmentMaxBytes = 100 << 20
	// DefaultAttachmentMaxFiles is Gitea's MAX_FILES.
	DefaultAttachmentMaxFiles = 5
	// MaxAttachmentNameBytes bounds an attachment's file name.
	MaxAttachmentNameBytes = 255
)

// AttachmentRules are the site's attachment settings with the defaults
// filled in.
type AttachmentRules struct {
	Enabled bool
	// MaxBytes bounds one file.
	MaxBytes int64
	// AllowedTypes is Gitea's comma-separated list of extensions (".png"),
	// MIME types ("image/png") and wildcards ("image/*", "*/*").
	AllowedTypes string
	// MaxFiles is how many files one form may carry (told to clients).
	MaxFiles int
}

// AttachmentRulesOf reads the attachment settings; a zero value means the
// default, so a configuration that predates them keeps Gitea's behaviour.
func AttachmentRulesOf(s site.Settings) AttachmentRules {
	r := AttachmentRules{Enabled: !s.DisableAttachments, MaxBytes: s.AttachmentMaxBytes,
		AllowedTypes: s.AttachmentAllowedTypes, MaxFiles: s.AttachmentMaxFiles}
	if r.MaxBytes <= 0 {
		r.MaxBytes = DefaultAttachmentMaxBytes
	}
	if strings.TrimSpace(r.AllowedTypes) == "" {
		r.AllowedTypes = DefaultAttachmentTypes
	}
	if r.MaxFiles <= 0 {
		r.MaxFiles = DefaultAttachmentMaxFiles
	}
	return r
}

// CheckEnabled answers 404 when attachments are off, as Gitea hides them.
func (r AttachmentRules) CheckEnabled() error {
	if !r.Enabled {
		return errs.NotFound("attachments are disabled")
	}
	return nil
}

var wildcardType = regexp.MustCompile(`^[a-z]+/\*$`)

// errTypeForbidden is Gitea's answer to a file type outside the list.
var errTypeForbidden = errs.Invalid("This file cannot be uploaded or modified due to a forbidden file extension or type.", "attachment")

// CheckType allows a file by its name's extension or, when sniffed is not
// empty, by the MIME type its first bytes show (never the type the client
// claims), as Gitea's upload.Verify does.
func (r AttachmentRules) CheckType(name, sniffed string) error {
	var allowed []string
	for _, e := range strings.Split(strings.ReplaceAll(r.AllowedTypes, "|", ","), ",") {
		if e = strings.ToLower(strings.TrimSpace(e)); e != "" {
			allowed = append(allowed, e)
		}
	}
	if len(allowed) == 0 {
		return nil
	}
	mimeType := ""
	if sniffed != "" {
		mt, _, err := mime.ParseMediaType(sniffed)
		if err != nil {
			return errTypeForbidden
		}
		mimeType = mt
	}
	ext := strings.ToLower(path.Ext(name))
	for _, a := range allowed {
		switch {
		case a == "*/*":
			return nil
		case strings.HasPrefix(a, "."):
			if a == ext {
				return nil
			}
		case mimeType == "":
		case a == mimeType:
			return nil
		case wildcardType.MatchString(a) && strings.HasPrefix(mimeType, a[:len(a)-1]):
			return nil
		}
	}
	return errTypeForbidden
}

// CleanAttachmentName makes an uploaded file's name fit to show: the last
// path element (some clients send paths), trimmed. The name is only ever
// shown; the bytes are stored by UUID.
func CleanAttachmentName(name string) (string, error) {
	name = strings.TrimSpace(name)
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = strings.TrimSpace(name[i+1:])
	}
	if name == "" || name == "." || name == ".." {
		return "", errs.Invalid("Required", "name")
	}
	if len(name) > MaxAttachmentNameBytes {
		return "", errs.Invalid("MaxSize", "name")
	}
	for _, r := range name {
		if r < 0x20 || r == 0x7f {
			return "", errs.Invalid("must not contain control characters", "name")
		}
	}
	return name, nil
}

// CanAttachToIssue reports whether a doer may add, rename or delete the
// attachments of i: its poster, a writer or an administrator (Gitea's
// canUserWriteIssueAttachment).
func CanAttachToIssue(i *Issue, doerID int64, writer bool) error {
	if doerID == 0 || (doerID != i.PosterID && !writer) {
		return errs.Forbidden("user should have permission to write issue")
	}
	return nil
}

// CanAttachToComment reports whether a doer may add, rename or delete the
// attachments of c: its poster or an administrator, who must also write the
// issues (Gitea's canUserWriteIssueCommentAttachment).
func CanAttachToComment(c *Comment, doerID int64, admin, writer bool) error {
	if doerID == 0 || (doerID != c.PosterID && !admin) || !writer {
		return errs.Forbidden("user should have permission to edit comment")
	}
	return nil
}
