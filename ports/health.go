package ports

import "context"

// DatabaseProbe answers whether the database takes queries, for the health
// check a load balancer polls.
type DatabaseProbe interface {
	// Ping runs the cheapest query there is; an error says what is wrong.
	Ping(ctx context.Context) error
}

// VolumeProbe answers whether the volume the repositories live on is there
// and writable.
type VolumeProbe interface {
	CheckVolume(ctx context.Context) error
}
