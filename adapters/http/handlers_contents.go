package http

// contentRoutes lists this group's rows of the route table (catalogue 4.5).
func (s *Server) contentRoutes() []route {
	return nil
}
