package sqlstore

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/depothq/depot/domain/hook"
	"github.com/depothq/depot/ports"
)

var _ ports.HookDeliveryStore = (*HookDeliveryStore)(nil)

var hookDeliveryMapping = mapping{op: "hook delivery", notFound: "hook delivery does not exist",
	conflict: "hook delivery already exists", missingRef: "hook does not exist"}

// hookDeliveryRow is the query model of hook_deliveries (migration 000009).
// Headers are stored as JSON objects.
type hookDeliveryRow struct {
	bun.BaseModel `bun:"table:hook_deliveries,alias:hd"`

	ID              int64     `bun:"id,pk,autoincrement"`
	UUID            string    `bun:"uuid"`
	HookID          int64     `bun:"hook_id"`
	RepoID          int64     `bun:"repo_id"`
	Event           string    `bun:"event"`
	EventType       string    `bun:"event_type"`
	Payload         string    `bun:"payload"`
	Attempts        int       `bun:"attempts"`
	RequestURL      string    `bun:"request_url"`
	RequestMethod   string    `bun:"request_method"`
	RequestHeaders  string    `bun:"request_headers"`
	ResponseStatus  int       `bun:"response_status"`
	ResponseHeaders string    `bun:"response_headers"`
	ResponseBody    string    `bun:"response_body"`
	Success         bool      `bun:"success"`
	Delivered       time.Time `bun:"delivered,nullzero"`
	Created         time.Time `bun:"created,nullzero"`
}

func (r *hookDeliveryRow) toDomain() (*hook.Delivery, error) {
	d := &hook.Delivery{
		ID: r.ID, UUID: r.UUID, HookID: r.HookID, RepoID: r.RepoID, Event: r.Event, EventType: r.EventType,
		Payload: []byte(r.Payload), Attempts: r.Attempts, Created: domainTime(r.Created),
		Last: hook.Attempt{
			RequestURL: r.RequestURL, RequestMethod: r.RequestMethod, ResponseStatus: r.ResponseStatus,
			ResponseBody: r.ResponseBody, Success: r.Success, Delivered: domainTime(r.Delivered),
		},
	}
	var err error
	if d.Last.RequestHeaders, err = decodeHeaders(r.RequestHeaders); err != nil {
		return nil, err
	}
	if d.Last.ResponseHeaders, err = decodeHeaders(r.ResponseHeaders); err != nil {
		return nil, err
	}
	return d, nil
}

func encodeHeaders(h map[string]string) (string, error) {
	if len(h) == 0 {
		return "", nil
	}
	b, err := json.Marshal(h)
	if err != nil {
		return "", fmt.Errorf("sqlstore: encode headers: %w", err)
	}
	return string(b), nil
}

func decodeHeaders(s string) (map[string]string, error) {
	if s == "" {
		return nil, nil
	}
	var h map[string]string
	if err := json.Unmarshal([]byte(s), &h); err != nil {
		return nil, fmt.Errorf("sqlstore: decode headers: %w", err)
	}
	return h, nil
}

// HookDeliveryStore is the SQL implementation of ports.HookDeliveryStore.
type HookDeliveryStore struct{ c conn }

// Create inserts a queued delivery.
func (s *HookDeliveryStore) Create(ctx context.Context, d *hook.Delivery) error {
	row := &hookDeliveryRow{
		UUID: d.UUID, HookID: d.HookID, RepoID: d.RepoID, Event: d.Event, EventType: d.EventType,
		Payload: string(d.Payload), Created: dbTime(d.Created),
	}
	if _, err := s.c.w(ctx).NewInsert().Model(row).ExcludeColumn("id").Returning("id").Exec(ctx); err != nil {
		return hookDeliveryMapping.mapErr(err)
	}
	d.ID, d.Created = row.ID, domainTime(row.Created)
	return nil
}

// Get reads one delivery.
func (s *HookDeliveryStore) Get(ctx context.Context, id int64) (*hook.Delivery, error) {
	var row hookDeliveryRow
	if err := s.c.r(ctx).NewSelect().Model(&row).Where("hd.id = ?", id).Scan(ctx); err != nil {
		return nil, hookDeliveryMapping.mapErr(err)
	}
	return row.toDomain()
}

// RecordAttempt overwrites the last attempt and counts it in one statement.
func (s *HookDeliveryStore) RecordAttempt(ctx context.Context, id int64, a hook.Attempt) error {
	reqHeaders, err := encodeHeaders(a.RequestHeaders)
	if err != nil {
		return err
	}
	respHeaders, err := encodeHeaders(a.ResponseHeaders)
	if err != nil {
		return err
	}
	var delivered any // NULL for a zero time, as nullzero columns hold it
	if !a.Delivered.IsZero() {
		delivered = dbTime(a.Delivered)
	}
	// Delivery workers record attempts side by side: on SQLite they share
	// commits (conn.grouped).
	return s.c.grouped(ctx, func(ctx context.Context, db bun.IDB) error {
		res, err := db.NewUpdate().Model((*hookDeliveryRow)(nil)).
			Set("attempts = attempts + 1").
			Set("request_url = ?", a.RequestURL).Set("request_method = ?", a.RequestMethod).
			Set("request_headers = ?", reqHeaders).Set("response_status = ?", a.ResponseStatus).
			Set("response_headers = ?", respHeaders).Set("response_body = ?", a.ResponseBody).
			Set("success = ?", a.Success).Set("delivered = ?", delivered).
			Where("id = ?", id).Exec(ctx)
		return hookDeliveryMapping.affected(res, err)
	})
}

// ListByHook reads one page of a hook's deliveries, newest first.
func (s *HookDeliveryStore) ListByHook(ctx context.Context, hookID int64, opts ports.ListOptions) ([]*hook.Delivery, int64, error) {
	var rows []hookDeliveryRow
	total, err := page(s.c.r(ctx).NewSelect().Model(&rows).Where("hd.hook_id = ?", hookID).OrderExpr("hd.id DESC"), opts).
		ScanAndCount(ctx)
	if err != nil {
		return nil, 0, hookDeliveryMapping.mapErr(err)
	}
	out := make([]*hook.Delivery, 0, len(rows))
	for i := range rows {
		d, err := rows[i].toDomain()
		if err != nil {
			return nil, 0, err
		}
		out = append(out, d)
	}
	return out, total, nil
}

// DeleteDeliveredBefore removes the deliveries last attempted before t in
// one statement.
func (s *HookDeliveryStore) DeleteDeliveredBefore(ctx context.Context, t time.Time) (int64, error) {
	res, err := s.c.w(ctx).NewDelete().Model((*hookDeliveryRow)(nil)).
		Where("delivered IS NOT NULL").Where("delivered < ?", dbTime(t)).Exec(ctx)
	if err != nil {
		return 0, hookDeliveryMapping.mapErr(err)
	}
	n, err := res.RowsAffected()
	return n, hookDeliveryMapping.mapErr(err)
}
