package hook

import (
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/depothq/depot/domain/errs"
)

// Config keys a client sets in a hook's config object.
const (
	ConfigURL             = "url"
	ConfigContentType     = "content_type"
	ConfigSecret          = "secret"
	ConfigHTTPMethod      = "http_method"
	ConfigIsSystemWebhook = "is_system_webhook"
)

// metaKeys are the config keys each chat kind keeps (Gitea's Slack and
// Discord settings); other kinds keep none.
var metaKeys = map[Kind][]string{
	KindSlack:   {"channel", "username", "icon_url", "color"},
	KindDiscord: {"username", "icon_url"},
}

// MaxURLLength bounds a hook's URL.
const MaxURLLength = 2048

// CreateOptions is Gitea's CreateHookOption.
type CreateOptions struct {
	Type                string
	Config              map[string]string
	Events              []string
	BranchFilter        string
	AuthorizationHeader string
	Active              bool
}

// EditOptions is Gitea's EditHookOption. A nil field leaves the hook's
// value as it is; Events given but empty means the default, push.
type EditOptions struct {
	// Config's url, content_type, secret, http_method and the chat kinds'
	// settings replace the hook's when present.
	Config              map[string]string
	Events              []string
	BranchFilter        *string
	AuthorizationHeader *string
	Active              *bool
}

func invalid(text string, fields ...string) error { return errs.Invalid(text, fields...) }

// New validates o as the core reference's create-hook body (type one of the
// kinds, config.url and config.content_type required) and returns the hook
// for scope, inactive unless o says otherwise, listening to push unless o
// names events.
func New(scope Scope, o CreateOptions, now time.Time) (*Hook, error) {
	if o.Type == "" {
		return nil, invalid("Required", "Type")
	}
	kind, ok := ParseKind(o.Type)
	if !ok {
		return nil, invalid("Invalid hook type: "+o.Type, "Type")
	}
	if o.Config == nil {
		return nil, invalid("Required", "Config")
	}
	for _, key := range []string{ConfigURL, ConfigContentType} {
		if _, ok := o.Config[key]; !ok {
			return nil, invalid("Missing config option: "+key, "Config")
		}
	}
	h := &Hook{
		Scope: scope, Kind: kind, KindName: Kind(o.Type), HTTPMethod: MethodPost,
		Active: o.Active, Created: now, Updated: now,
	}
	if err := h.applyConfig(o.Config); err != nil {
		return nil, err
	}
	if err := h.setEvents(o.Events); err != nil {
		return nil, err
	}
	if err := h.setBranchFilter(o.BranchFilter); err != nil {
		return nil, err
	}
	if err := h.setAuthorization(o.AuthorizationHeader); err != nil {
		return nil, err
	}
	return h, nil
}

// Edit returns h changed by o, validated as New validates; h is left as it was.
func Edit(h *Hook, o EditOptions, now time.Time) (*Hook, error) {
	e := h.CopyTo(h.Scope, h.Created)
	e.ID, e.Updated = h.ID, now
	if err := e.applyConfig(o.Config); err != nil {
		return nil, err
	}
	if o.Events != nil {
		if err := e.setEvents(o.Events); err != nil {
			return nil, err
		}
	}
	if o.BranchFilter != nil {
		if err := e.setBranchFilter(*o.BranchFilter); err != nil {
			return nil, err
		}
	}
	if o.AuthorizationHeader != nil {
		if err := e.setAuthorization(*o.AuthorizationHeader); err != nil {
			return nil, err
		}
	}
	if o.Active != nil {
		e.Active = *o.Active
	}
	return e, nil
}

// SystemFlag reads the admin create option is_system_webhook, which Gitea
// takes from the body or, in newer releases, from config as a string:
// "true" makes a system hook, anything false (the default) a default hook.
func SystemFlag(body *bool, config map[string]string) (bool, error) {
	if v, ok := config[ConfigIsSystemWebhook]; ok && v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return false, invalid("Invalid is_system_webhook value", "Config")
		}
		return b, nil
	}
	return body != nil && *body, nil
}

// applyConfig takes the config keys present in c.
func (h *Hook) applyConfig(c map[string]string) error {
	if v, ok := c[ConfigURL]; ok {
		if err := ValidateURL(v); err != nil {
			return err
		}
		h.URL = v
	}
	if v, ok := c[ConfigContentType]; ok {
		ct := ContentType(v)
		if ct != ContentJSON && ct != ContentForm {
			return invalid("Invalid content type", "Config")
		}
		h.ContentType = ct
	}
	if v, ok := c[ConfigSecret]; ok {
		h.Secret = v
	}
	if v, ok := c[ConfigHTTPMethod]; ok {
		m := strings.ToUpper(strings.TrimSpace(v))
		switch m {
		case "":
			m = MethodPost
		case MethodPost, MethodGet, MethodPut:
		default:
			return invalid("http_method must be POST, GET or PUT", "Config")
		}
		h.HTTPMethod = m
	}
	for _, key := range metaKeys[h.Kind] {
		v, ok := c[key]
		if !ok {
			continue
		}
		v = strings.TrimSpace(v)
		if key == "channel" && v != "" && !validSlackChannel(v) {
			return invalid("Invalid slack channel name", "Config")
		}
		if h.Meta == nil {
			h.Meta = map[string]string{}
		}
		if v == "" {
			delete(h.Meta, key)
		} else {
			h.Meta[key] = v
		}
	}
	if len(h.Meta) == 0 {
		h.Meta = nil
	}
	return nil
}

// ValidateURL checks a delivery URL: present, absolute, http or https, with
// a host. Whether the host may be contacted is the outbound guard's call at
// delivery time.
func ValidateURL(raw string) error {
	if strings.TrimSpace(raw) == "" {
		return invalid("url is required", "Config")
	}
	if len(raw) > MaxURLLength {
		return invalid("url is too long", "Config")
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return invalid("url must be an absolute http or https URL", "Config")
	}
	return nil
}

// validSlackChannel is Gitea's rule: a name, optionally after '#' or '@'.
func validSlackChannel(s string) bool {
	s = strings.TrimLeft(s, "#@")
	return s != "" && !strings.ContainsAny(s, " \t\r\n")
}

func (h *Hook) setEvents(in []string) error {
	ev, err := NormalizeEvents(in)
	if err != nil {
		return err
	}
	h.Events = ev
	return nil
}

func (h *Hook) setBranchFilter(f string) error {
	if err := ValidateBranchFilter(f); err != nil {
		return err
	}
	h.BranchFilter = f
	return nil
}

// setAuthorization keeps the header value; a line break would let it add
// headers of its own to every delivery.
func (h *Hook) setAuthorization(v string) error {
	if strings.ContainsAny(v, "\r\n") {
		return invalid("must not contain line breaks", "AuthorizationHeader")
	}
	h.AuthorizationHeader = v
	return nil
}
