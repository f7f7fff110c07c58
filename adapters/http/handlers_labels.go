package http

// PLACEHOLDER: written by a helper.

// labelRoutes lists this area's routes (see routes.go).
func (s *Server) labelRoutes() []route { return nil }
