package http

// PLACEHOLDER: written by a helper.

// issueExtraRoutes lists this area's routes (see routes.go).
func (s *Server) issueExtraRoutes() []route { return nil }
