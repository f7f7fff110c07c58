package libgit2

import "github.com/depothq/depot/ports"

// Dir returns where p's bare repository lives, for the Git transport, which
// runs git's pack services on it. Names are checked as for every other call.
func (s *Storage) Dir(p ports.RepoPath) (string, error) { return s.repoDir(p) }
