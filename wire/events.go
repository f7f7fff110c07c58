package wire

import (
	"context"
	"log/slog"

	"github.com/depothq/depot/ports"
)

// logEvents is the event port until webhooks consume it: it logs each push
// at debug level.
type logEvents struct{ log *slog.Logger }

// Pushed logs the push.
func (e logEvents) Pushed(ctx context.Context, ev ports.PushEvent) error {
	if e.log.Enabled(ctx, slog.LevelDebug) {
		for _, c := range ev.Changes {
			kind := "push"
			switch {
			case c.IsCreate():
				kind = "create"
			case c.IsDelete():
				kind = "delete"
			}
			e.log.Debug("repository event", "event", kind, "repo", ev.Owner+"/"+ev.Repo, "ref", c.Ref,
				"pusher", ev.PusherName, "old", c.OldID, "new", c.NewID)
		}
	}
	return nil
}

func provideEvents(log *slog.Logger) ports.Events { return logEvents{log: log} }
