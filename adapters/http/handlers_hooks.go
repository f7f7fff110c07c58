package http

// hookRoutes are the repository, user, organisation, admin and Git hook routes.
func (s *Server) hookRoutes() []route {
	return nil
}
