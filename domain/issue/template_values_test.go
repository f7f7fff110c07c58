package issue

import (
	"encoding/json"
	"testing"

	"github.com/matryer/is"
)

// TestParseTemplateNonFiniteNumbers: a form whose attributes hold YAML's
// .inf or .nan still encodes as JSON, with those values as YAML spells
// them (found by FuzzParseTemplate: the listing failed to encode).
func TestParseTemplateNonFiniteNumbers(t *testing.T) {
	is := is.New(t)
	tpl, err := ParseTemplate("form.yaml", []byte("name: n\nabout: a\nbody:\n- type: dropdown\n"+
		"  attributes: {label: L, options: [.inf, -.inf, .nan, 1.5, {2: .inf}]}\n"))
	is.NoErr(err)
	b, err := json.Marshal(tpl.Fields[0].Attributes)
	is.NoErr(err)
	is.Equal(string(b), `{"label":"L","options":[".inf","-.inf",".nan",1.5,{"2":".inf"}]}`)
}
