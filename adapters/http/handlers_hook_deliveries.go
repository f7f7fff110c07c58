package http

// hookDeliveryRoutes are the hook test delivery routes.
func (s *Server) hookDeliveryRoutes() []route {
	return nil
}
