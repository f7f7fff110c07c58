package metrics

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/depothq/depot/ports"
)

// TestStatementsAndCachesCounted records statements and cache lookups and
// reads them off the page.
func TestStatementsAndCachesCounted(t *testing.T) {
	is := is.New(t)
	r, err := New(Options{Enabled: true})
	is.NoErr(err)
	r.StatementDone(ports.StatementSelect, "users", time.Millisecond, false)
	r.StatementDone(ports.StatementInsert, "users", time.Millisecond, true)
	tokens := ports.NewCacheStats("tokens", true)
	tokens.Hit()
	tokens.Hit()
	tokens.Miss()
	tokens.Evicted(3)
	tokens.SetEntries(5)
	r.ObserveCaches(tokens, nil)

	rec := httptest.NewRecorder()
	r.ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	is.Equal(rec.Code, http.StatusOK)
	body := rec.Body.String()
	for _, want := range []string{
		`depot_db_statement_duration_seconds_count{operation="select",table="users"} 1`,
		`depot_db_statement_duration_seconds_count{operation="insert",table="users"} 1`,
		`depot_db_statement_errors_total{operation="insert",table="users"} 1`,
		`depot_cache_requests_total{cache="tokens",result="hit"} 2`,
		`depot_cache_requests_total{cache="tokens",result="miss"} 1`,
		`depot_cache_evictions_total{cache="tokens"} 3`,
		`depot_cache_entries{cache="tokens"} 5`,
	} {
		is.True(strings.Contains(body, want)) // want is on the page
	}
}

// BenchmarkStatementDone is what recording one statement costs.
func BenchmarkStatementDone(b *testing.B) {
	r, err := New(Options{Enabled: true})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for range b.N {
		r.StatementDone(ports.StatementSelect, "users", time.Millisecond, false)
	}
}

// BenchmarkCacheLookup is what counting one cache lookup costs.
func BenchmarkCacheLookup(b *testing.B) {
	s := ports.NewCacheStats("tokens", true)
	b.ReportAllocs()
	for range b.N {
		s.Hit()
	}
}
