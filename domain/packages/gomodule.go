package packages

import (
	"strings"

	"github.com/depothq/depot/domain/errs"
	"golang.org/x/mod/module"
)

// TypeGo is the Go module proxy's type.
const TypeGo Type = "go"

// CheckGoModule validates a module path and version as the go command
// does (module.Check: the path's syntax, a semantic version and a major
// version suffix agreeing with it) and the version canonical, as a proxy
// serves it: errs.BadRequest.
func CheckGoModule(path, version string) error {
	if len(path) > maxNameLen || len(version) > maxNameLen {
		return errs.BadRequest("module path or version is too long")
	}
	if err := module.Check(path, version); err != nil {
		return errs.BadRequest("invalid module: " + err.Error())
	}
	if module.CanonicalVersion(version) != version {
		return errs.BadRequest("invalid module: version " + version + " is not canonical")
	}
	return nil
}

// GoZipEntry splits the name of a file in a module zip ("path@version/
// file") into the module path, version and the file's path within the
// module (a module path has no "@"); ok is false for a name without
// "@", or without a file after the version.
func GoZipEntry(name string) (path, version, file string, ok bool) {
	at := strings.IndexByte(name, '@')
	if at <= 0 {
		return "", "", "", false
	}
	path = name[:at]
	version, file, ok = strings.Cut(name[at+1:], "/")
	if !ok || version == "" || file == "" {
		return "", "", "", false
	}
	return path, version, file, true
}
