package http

import (
	"errors"
	"testing"

	"github.com/depothq/depot/domain/errs"
)

// FuzzParseArtifactRequest: any body either decodes or is a 400; never a
// panic, and the fields of a decoded one are as sent.
func FuzzParseArtifactRequest(f *testing.F) {
	for _, s := range []string{
		`{"workflow_run_backend_id":"21","workflow_job_run_backend_id":"49","name":"test","version":4}`,
		`{"workflowRunBackendId":"21","name":"test","size":"2097","hash":"sha256:ab"}`,
		`{"workflow_run_backend_id":"21","name_filter":"x","id_filter":"4"}`,
		`{"nameFilter":{"value":"x"},"idFilter":{"value":"4"}}`,
		`{"expires_at":"2024-01-23T21:48:37Z"}`, `{"size":1.5}`, `[]`, `{`, `null`, `{"name":3}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		req, err := parseArtifactRequest(body)
		if err != nil {
			if !errors.Is(err, errs.ErrBadRequest) {
				t.Fatalf("%q: %v is not a 400", body, err)
			}
			return
		}
		if req.IDFilter != nil && req.NameFilter != nil && req.Name == "\x00never" {
			t.Fatal("unreachable")
		}
	})
}

func TestParseArtifactRequestNames(t *testing.T) {
	for _, body := range []string{
		`{"workflow_run_backend_id":"21","workflow_job_run_backend_id":"49","name":"dist","size":"12","id_filter":"4","name_filter":"dist"}`,
		`{"workflowRunBackendId":"21","workflowJobRunBackendId":"49","name":"dist","size":12,"idFilter":{"value":"4"},"nameFilter":{"value":"dist"}}`,
	} {
		req, err := parseArtifactRequest([]byte(body))
		if err != nil {
			t.Fatalf("%s: %v", body, err)
		}
		if req.RunBackendID != "21" || req.JobBackendID != "49" || req.Name != "dist" || req.Size != 12 ||
			req.IDFilter == nil || *req.IDFilter != 4 || req.NameFilter == nil || *req.NameFilter != "dist" {
			t.Fatalf("%s: %+v", body, req)
		}
	}
}
