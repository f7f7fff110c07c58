package user

// Viewer is who looks at an account: the facts visibility rules need.
type Viewer struct {
	ID      int64 // 0 when anonymous
	IsAdmin bool
	// PublicOnly is set for tokens limited to public resources.
	PublicOnly bool
}

// Signed reports whether the viewer is signed in.
func (v Viewer) Signed() bool { return v.ID != 0 }

// CanSee reports whether v may know that u exists: a private account only to
// itself and admins, a limited one to signed-in viewers, a public one to all.
func CanSee(v Viewer, u *User) bool {
	if v.IsAdmin || (v.ID != 0 && v.ID == u.ID) {
		return true
	}
	switch u.Visibility {
	case VisibilityPublic:
		return true
	case VisibilityLimited:
		return v.Signed() && !v.PublicOnly
	default:
		return false
	}
}

// VisibleKinds returns the visibilities a listing may include for v; nil means all.
func VisibleKinds(v Viewer) []Visibility {
	switch {
	case v.PublicOnly || !v.Signed():
		return []Visibility{VisibilityPublic}
	case v.IsAdmin:
		return nil
	default:
		return []Visibility{VisibilityPublic, VisibilityLimited}
	}
}

// ShownEmail is the address v may read on u's record: none for anonymous
// viewers, a placeholder when u hides it from others, the address otherwise.
func ShownEmail(v Viewer, u *User, noReplyDomain string) string {
	switch {
	case !v.Signed():
		return ""
	case u.HideEmail && !v.IsAdmin && v.ID != u.ID:
		return u.LowerName + "@" + noReplyDomain
	default:
		return u.Email
	}
}
