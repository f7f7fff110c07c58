package ports

import (
	"context"
	"time"
)

// HookRequest is one webhook delivery attempt, ready to send.
type HookRequest struct {
	Method, URL string
	// Headers are sent with the names as written (GitHub's X-GitHub-Event
	// keeps its spelling).
	Headers map[string]string
	// Body is nil for a GET.
	Body []byte
	// Timeout bounds the whole exchange, the answer's body included.
	Timeout time.Duration
}

// HookResponse is a receiver's answer.
type HookResponse struct {
	// Status is 0 when no answer came.
	Status int
	// Headers joins each header's values with commas.
	Headers map[string]string
	// Body is at most the first maxBody bytes of the answer (see Send).
	Body string
}

// HookSender sends webhook deliveries through the outbound guard: the
// allow list judges every connection (a refusal is netpolicy.ErrRefused),
// and a redirect is answered, never followed. A request that cannot be
// built (a malformed URL) is errs.ErrBadRequest.
type HookSender interface {
	// Send makes one attempt and reads at most maxBody bytes of the answer.
	// With an answer whose body could not be read, it returns both.
	Send(ctx context.Context, r HookRequest, maxBody int64) (HookResponse, error)
}
