package pull

// LineOrigin is what blame says of one line of a file at one commit: the
// commit that last changed it, or Missing when the file or the line is not
// there.
type LineOrigin struct {
	CommitID string
	Missing  bool
}

// IsOutdated decides whether a code comment has become outdated (Gitea's
// invalidated) once its pull request's head moved: then is the origin of
// the commented line at the commit the comment was written on, now the
// origin of the line with the same number at the new head. The comment is
// outdated when the line is gone or was last changed by another commit, as
// Gitea's checkInvalidation compares the line's blame with the comment's
// commit. Line numbers are compared as they are: lines added above the
// commented one make it outdated too, as in Gitea.
func IsOutdated(then, now LineOrigin) bool {
	if now.Missing || then.Missing {
		return now.Missing != then.Missing
	}
	return then.CommitID != now.CommitID
}

// UnsignedLine is the line number of a stored code comment line (Gitea
// stores old-side lines negated).
func UnsignedLine(line int64) int64 {
	if line < 0 {
		return -line
	}
	return line
}
