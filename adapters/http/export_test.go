package http

// DisableConditionalRequests answers GETs without ETags or 304s, for the
// benchmarks that weigh what conditional requests cost.
func DisableConditionalRequests(s *Server) { s.unconditional = true }
