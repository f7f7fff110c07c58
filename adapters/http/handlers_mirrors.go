package http

// mirrorRoutes are the migration, pull and push mirror routes.
func (s *Server) mirrorRoutes() []route {
	return nil
}
