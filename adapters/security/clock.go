package security

import (
	"time"

	"github.com/depothq/depot/ports"
)

var _ ports.Clock = SystemClock{}

// SystemClock implements ports.Clock with the machine's wall clock, in UTC so
// that stored times never depend on the server's time zone.
type SystemClock struct{}

// Now returns the current time in UTC.
func (SystemClock) Now() time.Time { return time.Now().UTC() }
