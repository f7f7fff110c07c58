package ports

// GitRefs is the part of GitContent for branches and tags: list, get, create, rename, delete; refs and annotated tags.
type GitRefs interface {
}
