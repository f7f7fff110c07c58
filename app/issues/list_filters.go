package issues

import (
	"fmt"

	"github.com/depothq/depot/domain/errs"
)

// maxFilterNames bounds the distinct label or milestone names a listing
// filters by: each label name is a condition every issue listed is tested
// against, and each milestone name a lookup, so an unbounded list (a URL
// holds hundreds of thousands) made one request cost that many times over.
const maxFilterNames = 100

// filterNames reads the names of the listing filter param: blank and
// repeated names dropped, at most maxFilterNames distinct ones (400 past
// it, naming the parameter).
func filterNames(param string, names []string) ([]string, error) {
	out := nonEmpty(names)
	seen := make(map[string]bool, len(out))
	kept := out[:0]
	for _, n := range out {
		if !seen[n] {
			seen[n] = true
			kept = append(kept, n)
		}
	}
	if len(kept) > maxFilterNames {
		return nil, errs.BadRequest(fmt.Sprintf("%s: at most %d names may be given, got %d", param, maxFilterNames, len(kept)))
	}
	return kept, nil
}
