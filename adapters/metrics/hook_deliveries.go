package metrics

import (
	"context"
	"time"

	"github.com/depothq/depot/ports"
)

// meteredHookSender counts each webhook delivery attempt by result.
type meteredHookSender struct {
	next ports.HookSender
	r    *Registry
}

// WrapHookSender counts and times the deliveries next makes, by result:
// success (a 2xx answer), failure (another answer) and error (no answer:
// refused by the outbound guard, unreachable, timed out). With metrics off
// it returns next itself.
func (r *Registry) WrapHookSender(next ports.HookSender) ports.HookSender {
	if !r.enabled {
		return next
	}
	return meteredHookSender{next: next, r: r}
}

func (s meteredHookSender) Send(ctx context.Context, req ports.HookRequest, maxBody int64) (ports.HookResponse, error) {
	start := time.Now()
	resp, err := s.next.Send(ctx, req, maxBody)
	result := "error"
	switch {
	case resp.Status >= 200 && resp.Status < 300:
		result = "success"
	case resp.Status != 0:
		result = "failure"
	}
	s.r.deliveries.WithLabelValues(result).Observe(time.Since(start).Seconds())
	return resp, err
}
