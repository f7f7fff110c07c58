package metrics

import (
	"strconv"
	"time"

	"github.com/depothq/depot/ports"
)

var _ ports.GitSessionMetrics = (*Registry)(nil)

// SSHConnectionOpened counts an open SSH connection.
func (r *Registry) SSHConnectionOpened() func() {
	if !r.enabled {
		return func() {}
	}
	r.sshConns.Inc()
	return r.sshConns.Dec
}

// GitSessionStarted times one git command over SSH.
func (r *Registry) GitSessionStarted(service string) func(exit uint32, in, out int64) {
	if !r.enabled {
		return func(uint32, int64, int64) {}
	}
	start := time.Now()
	return func(exit uint32, in, out int64) {
		r.gitSSH.WithLabelValues(service, strconv.FormatUint(uint64(exit), 10)).Observe(time.Since(start).Seconds())
		r.gitSSHBytes.WithLabelValues(service, "in").Add(float64(in))
		r.gitSSHBytes.WithLabelValues(service, "out").Add(float64(out))
	}
}
