package http

// PLACEHOLDER: written by a helper.

// commentRoutes lists this area's routes (see routes.go).
func (s *Server) commentRoutes() []route { return nil }
