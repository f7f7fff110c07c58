package ports

// GitArchives is the part of GitContent for archives and bundles, languages, licences and editorconfig.
type GitArchives interface {
}
