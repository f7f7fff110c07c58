package actions

import (
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/actions"
)

// TestJobStatusWorkflowName checks the workflow part of a job status's
// context: the run's workflow name:, and the file's name for a run made
// before runs kept it.
func TestJobStatusWorkflowName(t *testing.T) {
	is := is.New(t)
	is.Equal(workflowName(&actions.Run{WorkflowID: "ci.yml", WorkflowName: "CI"}), "CI")
	is.Equal(workflowName(&actions.Run{WorkflowID: "ci.yml"}), "ci.yml")
	is.Equal(workflowName(&actions.Run{WorkflowID: "nested/ci.yml"}), "ci.yml")
}
