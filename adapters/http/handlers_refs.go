package http

// refRoutes lists this group's rows of the route table (catalogue 4.5).
func (s *Server) refRoutes() []route {
	return nil
}
