package sshd

import (
	"errors"
	"strings"

	"github.com/depothq/depot/domain/repository"
	"github.com/depothq/depot/domain/user"
)

// maxCommandLength bounds an exec request's command line.
const maxCommandLength = 512

// gitCommand is a parsed exec request.
type gitCommand struct {
	service     repository.GitService
	owner, name string
	// wiki is set for the repository's wiki ("owner/name.wiki.git").
	wiki bool
}

// Reasons an exec request is refused; the client is shown them.
var (
	errNotGit  = errors.New("only git-upload-pack and git-receive-pack are served here, there is no shell access")
	errBadPath = errors.New("the repository path must be owner/name or owner/name.git")
)

// parseCommand reads the command line git sends over SSH:
//
//	git-upload-pack 'owner/repo.git'
//	git-receive-pack '/owner/repo.git'
//
// ("git upload-pack" with a space is taken too, and the quotes and the
// .git suffix are optional). Anything else is refused: other programs,
// options, more arguments, shell quoting beyond one plain single-quoted
// word, and paths that are not exactly an owner and a repository name.
// The path is never given to git; it only names the repository looked up.
func parseCommand(line string) (gitCommand, error) {
	var c gitCommand
	if len(line) > maxCommandLength {
		return c, errNotGit
	}
	for _, r := range line {
		if r < 0x20 || r == 0x7f {
			return c, errNotGit
		}
	}
	verb, arg, ok := strings.Cut(line, " ")
	if verb == "git" {
		var sub string
		sub, arg, ok = strings.Cut(arg, " ")
		verb = "git-" + sub
	}
	switch repository.GitService(verb) {
	case repository.ServiceUploadPack, repository.ServiceReceivePack:
		c.service = repository.GitService(verb)
	default:
		return c, errNotGit
	}
	if !ok {
		return c, errBadPath
	}
	if q, ok := strings.CutPrefix(arg, "'"); ok {
		if arg, ok = strings.CutSuffix(q, "'"); !ok {
			return c, errBadPath
		}
	}
	if strings.ContainsAny(arg, "'\"\\ !$`;&|<>*?[]{}()~") {
		return c, errBadPath
	}
	arg = strings.TrimPrefix(arg, "/")
	owner, name, ok := strings.Cut(arg, "/")
	if !ok || strings.Contains(name, "/") {
		return c, errBadPath
	}
	name = strings.TrimSuffix(name, ".git")
	if n, ok := strings.CutSuffix(name, ".wiki"); ok {
		// The wiki: repository names never end in ".wiki".
		name, c.wiki = n, true
	}
	if user.ValidateName("owner", owner) != nil || repository.ValidateName("name", name) != nil {
		return c, errBadPath
	}
	c.owner, c.name = owner, name
	return c, nil
}
