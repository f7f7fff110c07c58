package hooks

import (
	"context"
	"crypto/hmac"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"maps"
	"net/url"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/depothq/depot/app/jobs"
	"github.com/depothq/depot/domain/errs"
	"github.com/depothq/depot/domain/hook"
	"github.com/depothq/depot/domain/netpolicy"
	"github.com/depothq/depot/ports"
)

// userAgent names Depot to receivers.
const userAgent = "Depot-Webhook/1"

// maxRetryDelay caps the exponential backoff between attempts.
const maxRetryDelay = time.Hour

// deliveryConcurrency bounds the deliveries one process sends at once.
// Each hook's deliveries go one at a time (its queue), so this is also how
// many hooks are served at once: enough that a backlog spread over many
// hooks drains at well over a thousand a second on one SQLite writer
// (whose commits the workers share), few enough to stay cheap, since a
// worker waiting on a slow receiver is an idle goroutine and a connection.
const deliveryConcurrency = 32

// deliveryBatch is how many of one hook's deliveries a worker leases at
// once (jobs.KindOptions.Batch): a backlog to one hook, which must go one
// at a time, then costs one claim and one settling commit per batch
// instead of two commits per delivery, around the attempt each records.
const deliveryBatch = 64

// The answers that say "later" rather than "no".
const (
	statusRequestTimeout  = 408
	statusTooManyRequests = 429
)

// kindOptions are the job runner's settings for deliveries: the site's
// attempt limit, a lease well beyond one attempt's timeout, and an
// exponential backoff from the site's first retry delay.
func (d *Dispatcher) kindOptions() jobs.KindOptions {
	first := d.settings.WebhookRetryDelay
	if first <= 0 {
		first = 10 * time.Second
	}
	return jobs.KindOptions{
		MaxAttempts: max(d.settings.WebhookMaxAttempts, 1),
		Concurrency: deliveryConcurrency,
		Batch:       deliveryBatch,
		Settling:    d.records.wait,
		Lease:       2*d.timeout() + time.Minute,
		Backoff: func(attempt int) time.Duration {
			delay := first
			for i := 1; i < attempt && delay < maxRetryDelay; i++ {
				delay *= 2
			}
			return min(delay, maxRetryDelay)
		},
	}
}

// timeout bounds one attempt.
func (d *Dispatcher) timeout() time.Duration {
	if d.settings.WebhookTimeout <= 0 {
		return 5 * time.Second
	}
	return d.settings.WebhookTimeout
}

// deliver is the job handler: it sends one delivery and records the
// attempt. A 2xx answer completes it; a network error, a 5xx, 408 or 429
// answer is retried; any other answer (a redirect is never followed), a
// destination the allow list refuses, or a hook that cannot send is a
// permanent failure.
func (d *Dispatcher) deliver(ctx context.Context, j *ports.Job) error {
	var in deliverJob
	if err := json.Unmarshal(j.Payload, &in); err != nil {
		return jobs.Permanent(fmt.Errorf("hooks: malformed delivery job %d: %w", j.ID, err))
	}
	del, err := d.stores.HookDeliveries.Get(ctx, in.Delivery)
	if errors.Is(err, errs.ErrNotFound) {
		return nil // the hook was deleted, and its deliveries with it
	}
	if err != nil {
		return err
	}
	h, err := d.stores.Hooks.Get(ctx, in.scope(), in.Hook)
	if errors.Is(err, errs.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	now := d.clock.Now()
	switch {
	case !d.settings.EnableWebhooks:
		return d.giveUp(ctx, del, now, "webhooks are disabled by the administrator")
	case !h.Active:
		return d.giveUp(ctx, del, now, "the hook is not active")
	}
	if h, err = d.seal.open(h); err != nil {
		return d.giveUp(ctx, del, now, err.Error())
	}
	req, err := d.request(h, del)
	if err != nil {
		return d.giveUp(ctx, del, now, err.Error())
	}
	a := hook.Attempt{RequestURL: req.URL, RequestMethod: req.Method, RequestHeaders: maps.Clone(req.Headers),
		Delivered: now}
	if h.AuthorizationHeader != "" {
		req.Headers["Authorization"] = h.AuthorizationHeader
		a.RequestHeaders["Authorization"] = "******"
	}
	resp, err := d.sender.Send(ctx, req, hook.MaxResponseBody)
	if resp.Status == 0 {
		if err == nil {
			err = errors.New("no answer")
		}
		a.ResponseBody = storable("Delivery: " + err.Error())
		d.record(ctx, del, a)
		if errors.Is(err, netpolicy.ErrRefused) || errors.Is(err, errs.ErrBadRequest) {
			return jobs.Permanent(err)
		}
		return err
	}
	a.ResponseStatus, a.ResponseBody = resp.Status, storable(resp.Body)
	a.ResponseHeaders = make(map[string]string, len(resp.Headers))
	for k, v := range resp.Headers {
		a.ResponseHeaders[k] = storable(v)
	}
	a.Success = resp.Status/100 == 2 && err == nil
	d.record(ctx, del, a)
	switch code := resp.Status; {
	case a.Success:
		return nil
	case err != nil:
		return fmt.Errorf("hooks: delivery %s: reading the answer: %w", del.UUID, err)
	case code >= 500, code == statusRequestTimeout, code == statusTooManyRequests:
		return fmt.Errorf("hooks: delivery %s: the receiver answered %d", del.UUID, code)
	default:
		return jobs.Permanent(fmt.Errorf("hooks: delivery %s: the receiver answered %d", del.UUID, code))
	}
}

// giveUp records why a delivery cannot be sent and fails it for good.
func (d *Dispatcher) giveUp(ctx context.Context, del *hook.Delivery, now time.Time, why string) error {
	d.record(ctx, del, hook.Attempt{ResponseBody: why, Delivered: now})
	return jobs.Permanent(errors.New("hooks: delivery " + del.UUID + ": " + why))
}

// record stores an attempt. A failure to record is only logged: the
// attempt happened either way, and retrying it for the record's sake would
// send a successful delivery twice.
//
// The write goes on while the worker sends the next delivery of its batch,
// so that one hook's backlog does not wait for a commit per delivery (the
// writes of several attempts then share commits); the job runner waits for
// it before it records the job's outcome (KindOptions.Settling), so an
// attempt is never missing from a delivery whose job is done.
func (d *Dispatcher) record(ctx context.Context, del *hook.Delivery, a hook.Attempt) {
	done := d.records.start()
	go func() {
		defer done()
		// The record outlives the worker's context (shutdown must not lose
		// it) but not forever: a writer held elsewhere makes it fail with
		// its cause instead of holding the batch's settling indefinitely.
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), recordAttemptWait)
		defer cancel()
		if err := d.stores.HookDeliveries.RecordAttempt(rctx, del.ID, a); err != nil &&
			!errors.Is(err, errs.ErrNotFound) {
			d.log.Error("recording a webhook delivery attempt", "delivery", del.UUID, "err", err)
		}
	}()
}

// recordAttemptWait bounds the write of one attempt record.
const recordAttemptWait = 30 * time.Second

// inflightRecords tracks the attempt records being written. Its zero value
// is ready.
type inflightRecords struct {
	mu      sync.Mutex
	next    uint64
	pending map[uint64]chan struct{}
}

// start counts one more write; done ends it.
func (f *inflightRecords) start() (done func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.pending == nil {
		f.pending = map[uint64]chan struct{}{}
	}
	f.next++
	id, ch := f.next, make(chan struct{})
	f.pending[id] = ch
	return func() {
		f.mu.Lock()
		delete(f.pending, id)
		f.mu.Unlock()
		close(ch)
	}
}

// wait returns once the writes started before it are done; writes started
// meanwhile (other workers') are not waited for, so a busy dispatcher
// cannot keep it waiting.
func (f *inflightRecords) wait() {
	f.mu.Lock()
	chs := make([]chan struct{}, 0, len(f.pending))
	for _, ch := range f.pending {
		chs = append(chs, ch)
	}
	f.mu.Unlock()
	for _, ch := range chs {
		<-ch
	}
}

// request builds the HTTP request of a delivery: the payload as JSON, or
// for a form hook as the payload field (in the query for GET), with
// Gitea's headers under the service's names and Gitea's, GitHub's and
// Gogs's. The signature is the HMAC of the payload itself, as Gitea signs
// it (also for form hooks); a hook without a secret sends none.
func (d *Dispatcher) request(h *hook.Hook, del *hook.Delivery) (ports.HookRequest, error) {
	payload := string(del.Payload)
	body, contentType := payload, "application/json"
	if (h.Kind == hook.KindService || h.Kind == hook.KindGitea) && h.ContentType == hook.ContentForm {
		body, contentType = url.Values{"payload": {payload}}.Encode(), "application/x-www-form-urlencoded"
	}
	req := ports.HookRequest{Method: strings.ToUpper(h.HTTPMethod), URL: h.URL, Timeout: d.timeout(),
		Headers: map[string]string{"User-Agent": userAgent}}
	switch req.Method {
	case "", hook.MethodPost, hook.MethodPut:
		if req.Method == "" {
			req.Method = hook.MethodPost
		}
		req.Body = []byte(body)
		req.Headers["Content-Type"] = contentType
	case hook.MethodGet:
		u, err := url.Parse(h.URL)
		if err != nil {
			return req, errors.New("the hook's URL is not valid")
		}
		q := u.Query()
		q.Set("payload", payload)
		u.RawQuery = q.Encode()
		req.URL = u.String()
	default:
		return req, fmt.Errorf("the hook's HTTP method %q is not supported", h.HTTPMethod)
	}
	hd := req.Headers
	for _, prefix := range []string{"X-Service-", "X-Gitea-", "X-Gogs-", "X-GitHub-"} {
		hd[prefix+"Delivery"] = del.UUID
		hd[prefix+"Event"] = del.Event
		hd[prefix+"Event-Type"] = del.EventType
	}
	if h.Secret != "" {
		sig256 := sign(sha256.New, h.Secret, del.Payload)
		for _, prefix := range []string{"X-Service-", "X-Gitea-", "X-Gogs-"} {
			hd[prefix+"Signature"] = sig256
		}
		hd["X-Hub-Signature"] = "sha1=" + sign(sha1.New, h.Secret, del.Payload)
		hd["X-Hub-Signature-256"] = "sha256=" + sig256
	}
	return req, nil
}

// sign is the hex HMAC of payload with secret.
func sign(h func() hash.Hash, secret string, payload []byte) string {
	m := hmac.New(h, []byte(secret))
	m.Write(payload)
	return hex.EncodeToString(m.Sum(nil))
}

// storable makes text from a receiver safe for any database column:
// valid UTF-8 without NUL bytes.
func storable(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	return strings.ReplaceAll(s, "\x00", "")
}
