package http

// statusRoutes lists this group's rows of the route table (catalogue 4.5).
func (s *Server) statusRoutes() []route {
	return nil
}
