package http

// changeRoutes lists this group's rows of the route table (catalogue 4.5).
func (s *Server) changeRoutes() []route {
	return nil
}
