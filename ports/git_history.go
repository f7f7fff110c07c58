package ports

// GitHistory is the part of GitContent for commit listings, single commits, diffs and patches, compare.
type GitHistory interface {
}
