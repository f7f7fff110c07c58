package http

// versionRoutes is the row of GET /version (catalogue 4.1); its handler,
// getVersion, answers the kernel's constant version body.
func (s *kernel) versionRoutes() []route {
	return []route{
		{"GET", "/version", nil, "-", s.getVersion},
	}
}
