package http

// archiveRoutes lists this group's rows of the route table (catalogue 4.5).
func (s *Server) archiveRoutes() []route {
	return nil
}
