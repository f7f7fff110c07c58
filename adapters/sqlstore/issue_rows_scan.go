package sqlstore

import (
	"database/sql"
	"errors"
	"strings"
	"time"
)

// issueListColumns are the columns of the default listing's prepared
// statement on SQLite, in the order scanIssueRows reads them. The times
// are read as text: the driver otherwise parses every DATETIME column by
// trying time.Parse layouts in turn (two parses per value at best), the
// largest share of reading a page after SQLite's own work; parseDBTime
// reads the layouts the driver and bun write without that search.
var issueListColumns = []string{
	"issues.id", "issues.repo_id", "issues.issue_index", "issues.poster_id", "issues.original_author",
	"issues.original_author_id", "issues.title", "issues.body",
	"issues.ref", "issues.is_pull", "issues.is_closed", "issues.is_locked", "issues.pin_order",
	"issues.milestone_id", "CAST(issues.deadline AS TEXT)", "issues.num_comments",
	"CAST(issues.created_at AS TEXT)", "CAST(issues.updated_at AS TEXT)", "CAST(issues.closed_at AS TEXT)",
}

// issueListSelect is the column list of issueListColumns.
var issueListSelect = strings.Join(issueListColumns, ", ")

// scanIssueRows reads the rows of a statement selecting issueListColumns,
// with database/sql's Scan straight into the row's fields rather than
// bun's reflection, and closes them.
func scanIssueRows(rows *sql.Rows) (_ []issueRow, err error) {
	defer func() {
		if cerr := rows.Close(); err == nil {
			err = cerr
		}
	}()
	out := make([]issueRow, 0, 16)
	var deadline, created, updated, closed sql.RawBytes
	for rows.Next() {
		out = append(out, issueRow{})
		r := &out[len(out)-1]
		if err := rows.Scan(&r.ID, &r.RepoID, &r.Index, &r.PosterID, &r.OrigAuthor, &r.OrigAuthID, &r.Title, &r.Body, &r.Ref, &r.IsPull,
			&r.IsClosed, &r.IsLocked, &r.PinOrder, &r.MilestoneID, &deadline, &r.NumComments,
			&created, &updated, &closed); err != nil {
			return nil, err
		}
		if r.CreatedAt, err = parseDBTime(created); err != nil {
			return nil, err
		}
		if r.UpdatedAt, err = parseDBTime(updated); err != nil {
			return nil, err
		}
		if r.Deadline, err = parseDBTimePtr(deadline); err != nil {
			return nil, err
		}
		if r.ClosedAt, err = parseDBTimePtr(closed); err != nil {
			return nil, err
		}
	}
	return out, rows.Err()
}

func parseDBTimePtr(b sql.RawBytes) (*time.Time, error) {
	if b == nil {
		return nil, nil
	}
	t, err := parseDBTime(b)
	if err != nil {
		return nil, err
	}
	return &t, nil
}

// sqliteTimeLayouts are the layouts the SQLite driver reads, tried in its
// order when parseDBTime's fast path does not apply.
var sqliteTimeLayouts = []string{
	"2006-01-02 15:04:05.999999999 -0700 MST",
	"2006-01-02 15:04:05.999999999-07:00",
	"2006-01-02T15:04:05.999999999-07:00",
	"2006-01-02 15:04:05.999999999",
	"2006-01-02T15:04:05.999999999",
	"2006-01-02 15:04",
	"2006-01-02T15:04",
	"2006-01-02",
}

var errDBTime = errors.New("sqlstore: unreadable time")

// parseDBTime reads a time as SQLite stores it, in UTC: the driver writes
// time.Time.String ("2006-01-02 15:04:05.999999999 -0700 MST"), bun writes
// "2006-01-02 15:04:05.999999-07:00" when it inlines a value. Other forms
// take the driver's layouts in turn. Empty text is the zero time.
func parseDBTime(b []byte) (time.Time, error) {
	if len(b) == 0 {
		return time.Time{}, nil
	}
	if t, ok := parseDBTimeFast(b); ok {
		return t, nil
	}
	s := string(b)
	if x := strings.Index(s, " m="); x > 0 {
		s = s[:x] // a monotonic clock reading that String appended
	}
	s = strings.TrimSuffix(strings.TrimSpace(s), "Z")
	for _, layout := range sqliteTimeLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, errDBTime
}

// parseDBTimeFast reads "YYYY-MM-DD HH:MM:SS[.fraction]" followed by "",
// "Z", "±HH:MM" or " ±HHMM NAME"; ok is false for anything else.
func parseDBTimeFast(b []byte) (time.Time, bool) {
	if len(b) < 19 || b[4] != '-' || b[7] != '-' || (b[10] != ' ' && b[10] != 'T') || b[13] != ':' || b[16] != ':' {
		return time.Time{}, false
	}
	num := func(s []byte) (int, bool) {
		n := 0
		for _, c := range s {
			if c < '0' || c > '9' {
				return 0, false
			}
			n = n*10 + int(c-'0')
		}
		return n, true
	}
	year, ok1 := num(b[0:4])
	month, ok2 := num(b[5:7])
	day, ok3 := num(b[8:10])
	hour, ok4 := num(b[11:13])
	minute, ok5 := num(b[14:16])
	sec, ok6 := num(b[17:19])
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) || month < 1 || month > 12 || day < 1 || day > 31 ||
		hour > 23 || minute > 59 || sec > 59 {
		return time.Time{}, false
	}
	rest := b[19:]
	nsec := 0
	if len(rest) > 0 && rest[0] == '.' {
		k := 1
		scale := 100000000
		for ; k < len(rest) && rest[k] >= '0' && rest[k] <= '9'; k++ {
			if k > 9 {
				return time.Time{}, false
			}
			nsec += int(rest[k]-'0') * scale
			scale /= 10
		}
		if k == 1 {
			return time.Time{}, false
		}
		rest = rest[k:]
	}
	offset := 0
	switch {
	case len(rest) == 0, len(rest) == 1 && rest[0] == 'Z':
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':':
		h, okh := num(rest[1:3])
		m, okm := num(rest[4:6])
		if !okh || !okm {
			return time.Time{}, false
		}
		offset = h*3600 + m*60
		if rest[0] == '-' {
			offset = -offset
		}
	case len(rest) >= 7 && rest[0] == ' ' && (rest[1] == '+' || rest[1] == '-') && rest[6] == ' ':
		h, okh := num(rest[2:4])
		m, okm := num(rest[4:6])
		if !okh || !okm {
			return time.Time{}, false
		}
		offset = h*3600 + m*60
		if rest[1] == '-' {
			offset = -offset
		}
	default:
		return time.Time{}, false
	}
	t := time.Date(year, time.Month(month), day, hour, minute, sec, nsec, time.UTC)
	if t.Day() != day { // 31 February and the like
		return time.Time{}, false
	}
	return t.Add(-time.Duration(offset) * time.Second), true
}
