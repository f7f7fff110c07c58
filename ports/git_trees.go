package ports

// GitTrees is the part of GitContent for trees, blobs and path entries (contents, raw).
type GitTrees interface {
}
