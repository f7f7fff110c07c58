package libgit2

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/depothq/depot/ports"
)

// movesDir holds the journal of directory moves whose database change has
// not been settled yet (a name no owner can take: names begin with a letter
// or digit).
const movesDir = ".moves"

// journalEntry is one pending move on disk.
type journalEntry struct {
	RepoID   int64  `json:"repo_id,omitempty"`
	UserID   int64  `json:"user_id,omitempty"`
	Owner    bool   `json:"owner,omitempty"`
	FromUser string `json:"from_owner"`
	FromName string `json:"from_name,omitempty"`
	ToUser   string `json:"to_owner"`
	ToName   string `json:"to_name,omitempty"`
}

// JournalMove records m before its directory moves; the record is written
// and synced, so that after a crash PendingMoves finds it (ports.GitStorage).
func (s *Storage) JournalMove(ctx context.Context, m ports.DirMove) (ports.DirMove, error) {
	if err := ctx.Err(); err != nil {
		return m, err
	}
	dir := filepath.Join(s.root, movesDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return m, fmt.Errorf("libgit2: create move journal: %w", err)
	}
	kind, id := "repo", m.RepoID
	if m.Owner {
		kind, id = "owner", m.UserID
	}
	m.ID = kind + "-" + strconv.FormatInt(id, 10) + "-" + strconv.FormatInt(time.Now().UnixNano(), 10)
	data, err := json.Marshal(journalEntry{RepoID: m.RepoID, UserID: m.UserID, Owner: m.Owner,
		FromUser: m.From.Owner, FromName: m.From.Name, ToUser: m.To.Owner, ToName: m.To.Name})
	if err != nil {
		return m, err
	}
	path := filepath.Join(dir, m.ID+".json")
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return m, fmt.Errorf("libgit2: write move journal: %w", err)
	}
	_, werr := f.Write(data)
	serr := f.Sync()
	if cerr := f.Close(); werr == nil && serr == nil {
		werr = cerr
	}
	if werr != nil || serr != nil {
		_ = os.Remove(tmp)
		return m, fmt.Errorf("libgit2: write move journal: %w", errors.Join(werr, serr))
	}
	if err := os.Rename(tmp, path); err != nil {
		return m, fmt.Errorf("libgit2: write move journal: %w", err)
	}
	return m, syncDir(dir)
}

// SettleMove forgets a journalled move once the database agrees with the
// disk (ports.GitStorage).
func (s *Storage) SettleMove(ctx context.Context, m ports.DirMove) error {
	if m.ID == "" || strings.ContainsAny(m.ID, `/\`) || strings.HasPrefix(m.ID, ".") {
		return fmt.Errorf("libgit2: settle move: bad journal id %q", m.ID)
	}
	err := os.Remove(filepath.Join(s.root, movesDir, m.ID+".json"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// PendingMoves lists the journalled moves not settled, oldest first
// (ports.GitStorage). An unreadable record is reported in the error and
// left in place for an administrator.
func (s *Storage) PendingMoves(ctx context.Context) ([]ports.DirMove, error) {
	dir := filepath.Join(s.root, movesDir)
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("libgit2: read move journal: %w", err)
	}
	var out []ports.DirMove
	var bad error
	for _, e := range entries {
		name := e.Name()
		if strings.HasSuffix(name, ".tmp") {
			_ = os.Remove(filepath.Join(dir, name)) // never became a record: its move never began
			continue
		}
		id, ok := strings.CutSuffix(name, ".json")
		if !ok {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, name))
		var je journalEntry
		if err == nil {
			err = json.Unmarshal(data, &je)
		}
		if err != nil {
			bad = errors.Join(bad, fmt.Errorf("libgit2: move journal %s: %w", name, err))
			continue
		}
		out = append(out, ports.DirMove{ID: id, RepoID: je.RepoID, UserID: je.UserID, Owner: je.Owner,
			From: ports.RepoPath{Owner: je.FromUser, Name: je.FromName},
			To:   ports.RepoPath{Owner: je.ToUser, Name: je.ToName}})
	}
	sort.Slice(out, func(i, j int) bool { return journalTime(out[i].ID) < journalTime(out[j].ID) })
	return out, bad
}

// journalTime is the creation time a journal id ends with.
func journalTime(id string) int64 {
	n, _ := strconv.ParseInt(id[strings.LastIndexByte(id, '-')+1:], 10, 64)
	return n
}

// syncDir makes a directory's entries durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
