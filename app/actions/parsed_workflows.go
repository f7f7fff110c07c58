package actions

import (
	"errors"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/depothq/depot/domain/actions"
	"github.com/depothq/depot/domain/errs"
)

// parsedWorkflowsMax bounds the parsed workflow files kept.
const parsedWorkflowsMax = 2048

// parsedWorkflowKey names one workflow file's content in one repository: a
// blob id alone is content a user chose, so the repository is part of the
// key, and the file name too, which the parse takes as the default name.
type parsedWorkflowKey struct {
	repoID int64
	blobID string
	fileID string
}

// parsedWorkflow is a parse's outcome: the workflow, or the parser's
// refusal of the content (errs.ErrInvalid), which the same bytes always get.
type parsedWorkflow struct {
	wf  *actions.Workflow
	err error
}

// parsedWorkflows keeps the latest parsed workflow files, so that pushes
// that leave the workflows alone read and parse none of them again. A blob
// id names immutable content, so entries never go stale; the parsed
// workflows are shared and only read.
type parsedWorkflows struct {
	c *lru.Cache[parsedWorkflowKey, parsedWorkflow]
}

func newParsedWorkflows() *parsedWorkflows {
	c, err := lru.New[parsedWorkflowKey, parsedWorkflow](parsedWorkflowsMax)
	if err != nil { // only for a size below one
		panic(err)
	}
	return &parsedWorkflows{c: c}
}

func (p *parsedWorkflows) get(k parsedWorkflowKey) (parsedWorkflow, bool) { return p.c.Get(k) }

// put keeps a parse's outcome: a workflow, or an invalid content's error;
// other errors (reading the blob) are not the content's and are not kept.
func (p *parsedWorkflows) put(k parsedWorkflowKey, wf *actions.Workflow, err error) {
	if err != nil && !errors.Is(err, errs.ErrInvalid) {
		return
	}
	p.c.Add(k, parsedWorkflow{wf: wf, err: err})
}
