package sqlstore

import (
	"context"
	"errors"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/uptrace/bun/driver/pgdriver"

	"github.com/depothq/depot/ports"
)

// cacheDropChannel is the Postgres notification channel of cache drops.
const cacheDropChannel = "depot_cache_drops"

// maxDropPayload keeps a notification's payload under Postgres's 8,000
// byte limit.
const maxDropPayload = 7000

// cacheDropPing is how long the listener waits in silence before it checks
// its connection with a notification of its own; one that does not come
// back within as long again means the connection is lost.
const cacheDropPing = 15 * time.Second

// CacheDropBus carries cache drops between the servers on one Postgres
// database through LISTEN/NOTIFY. Notifications reach every listening
// session, the publishing one's too; a session that was not listening
// misses them, so the listener reports a resync whenever it (re)connects.
type CacheDropBus struct{ d *DB }

var _ ports.CacheDropBus = CacheDropBus{}

// CacheDropBus returns the database's cache drop bus.
func (d *DB) CacheDropBus() CacheDropBus { return CacheDropBus{d} }

// Shared reports whether other servers can share the database: Postgres
// only.
func (b CacheDropBus) Shared() bool { return b.d.dialect == DialectPostgres }

// Publish sends drops as few notifications as their size allows.
func (b CacheDropBus) Publish(ctx context.Context, drops []ports.CacheDrop) error {
	if !b.Shared() {
		return nil
	}
	for _, payload := range encodeCacheDrops(drops) {
		if _, err := b.d.write.ExecContext(ctx, "SELECT pg_notify(?, ?)", cacheDropChannel, payload); err != nil {
			return err
		}
	}
	return nil
}

// Listen receives drops until ctx ends or the connection is lost.
func (b CacheDropBus) Listen(ctx context.Context, drop func(ports.CacheDrop), resync func()) error {
	if !b.Shared() {
		<-ctx.Done()
		return nil
	}
	ln := pgdriver.NewListener(b.d.write)
	defer func() { _ = ln.Close() }()
	// A wait for a notification reads the connection without looking at
	// ctx: closing the listener when ctx ends is what ends that read, so
	// that a stopping server does not wait out the ping interval.
	defer context.AfterFunc(ctx, func() { _ = ln.Close() })()
	if err := ln.Listen(ctx, cacheDropChannel); err != nil {
		return err
	}
	// Whatever was published before this session listened is unknown.
	resync()
	pinged := false
	for {
		_, payload, err := ln.ReceiveTimeout(ctx, cacheDropPing)
		if ctx.Err() != nil {
			return nil
		}
		var ne net.Error
		switch {
		case err == nil:
			pinged = false
			for _, d := range parseCacheDrops(payload) {
				drop(d)
			}
		case errors.As(err, &ne) && ne.Timeout() && !pinged:
			// Silence: check the connection with an empty notification.
			pinged = true
			if _, err := b.d.write.ExecContext(ctx, "SELECT pg_notify(?, '')", cacheDropChannel); err != nil {
				return err
			}
		case errors.As(err, &ne) && ne.Timeout():
			return errors.New("cache drops: the listening connection does not answer")
		default:
			return err
		}
	}
}

// encodeCacheDrops writes drops as payloads of "cache:id" words separated
// by spaces, each payload under maxDropPayload bytes.
func encodeCacheDrops(drops []ports.CacheDrop) []string {
	var out []string
	var sb strings.Builder
	for _, d := range drops {
		word := d.Cache + ":" + strconv.FormatInt(d.ID, 10)
		if sb.Len() > 0 && sb.Len()+1+len(word) > maxDropPayload {
			out = append(out, sb.String())
			sb.Reset()
		}
		if sb.Len() > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(word)
	}
	if sb.Len() > 0 {
		out = append(out, sb.String())
	}
	return out
}

// parseCacheDrops reads a payload of encodeCacheDrops; words it cannot read
// are skipped (an empty payload is the listener's own ping).
func parseCacheDrops(payload string) []ports.CacheDrop {
	var out []ports.CacheDrop
	for _, word := range strings.Fields(payload) {
		name, id, ok := strings.Cut(word, ":")
		if !ok || name == "" {
			continue
		}
		n, err := strconv.ParseInt(id, 10, 64)
		if err != nil {
			continue
		}
		out = append(out, ports.CacheDrop{Cache: name, ID: n})
	}
	return out
}
