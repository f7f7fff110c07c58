package http

// commitRoutes lists this group's rows of the route table (catalogue 4.5).
func (s *Server) commitRoutes() []route {
	return nil
}
