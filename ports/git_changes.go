package ports

// GitChanges is the part of GitContent for writing file changes and patches as commits.
type GitChanges interface {
}
