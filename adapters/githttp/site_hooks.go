package githttp

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/depothq/depot/ports"
)

// SiteHooks are the push hook scripts of a hooks directory, for `depot
// doctor` (ports.SiteHooks). The server installs them at each start; the
// doctor finds them changed or gone while it runs.
type SiteHooks struct{ dir string }

var _ ports.SiteHooks = (*SiteHooks)(nil)

// NewSiteHooks checks the scripts in dir.
func NewSiteHooks(dir string) *SiteHooks { return &SiteHooks{dir: dir} }

// Check lists the hook scripts that are missing, not executable, or not
// what this version installs.
func (h *SiteHooks) Check() ([]string, error) {
	var bad []string
	for _, name := range hookNames {
		p := filepath.Join(h.dir, name)
		have, err := os.ReadFile(p)
		if errors.Is(err, fs.ErrNotExist) {
			bad = append(bad, name+" is missing")
			continue
		}
		if err != nil {
			return nil, err
		}
		if !bytes.Equal(have, []byte(hookScript(name))) {
			bad = append(bad, name+" is not the script Depot installs")
			continue
		}
		if err := checkExecutable(p); err != nil {
			bad = append(bad, name+" is not executable")
		}
	}
	return bad, nil
}

// Install writes the scripts that are not right.
func (h *SiteHooks) Install() error { return (&Runner{hooksDir: h.dir}).installHooks() }
