package test

import (
	"net/http"
	"testing"

	"code.gitea.io/sdk/gitea"
	"github.com/matryer/is"
)

// TestIssueTemplatesNonFiniteNumbers: a form template whose attributes hold
// YAML's .inf or .nan is listed, those values written as YAML spells them
// (found by FuzzParseTemplate; before, the listing failed to encode: 500).
func TestIssueTemplatesNonFiniteNumbers(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv, alice := httpGitSetup(t)
	createRepo(t, alice, gitea.CreateRepoOption{Name: "tpl", AutoInit: true})
	putFile(t, alice, "alice", "tpl", ".gitea/ISSUE_TEMPLATE/form.yaml",
		"name: Form\nabout: a\nbody:\n- type: dropdown\n  id: pick\n  attributes:\n    label: Pick\n    options: [.inf, -.inf, .nan, 2]\n")
	r := srv.Do("GET", "/repos/alice/tpl/issue_templates", nil, basicAs("alice")...)
	is.Equal(r.Status, http.StatusOK)
	var list []struct {
		Body []struct {
			Attributes map[string]any `json:"attributes"`
		} `json:"body"`
	}
	r.Decode(t, &list)
	is.Equal(len(list), 1)
	is.Equal(list[0].Body[0].Attributes["options"], []any{".inf", "-.inf", ".nan", float64(2)})
}
