package http

// PLACEHOLDER: written by a helper.

// issueRoutes lists this area's routes (see routes.go).
func (s *Server) issueRoutes() []route { return nil }
