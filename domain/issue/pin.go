package issue

import "github.com/depothq/depot/domain/errs"

// MaxPinned is how many issues, and separately how many pull requests, a
// repository may pin (Gitea's default of [repository.issue] MAX_PINNED).
const MaxPinned = 3

// ErrMaxPinReached answers a pin beyond MaxPinned (Gitea's 400).
var ErrMaxPinReached = errs.BadRequest("the max number of pinned issues has been reached")

// CheckNewPin returns nil when one more issue of a kind may be pinned while
// pinned of that kind already are.
func CheckNewPin(pinned int) error {
	if pinned >= MaxPinned {
		return ErrMaxPinReached
	}
	return nil
}

// PinPosition is where a move to position lands among n pinned issues:
// positions stay dense (1..n), so a position past the end is the end.
func PinPosition(position, n int) (int, error) {
	if position < 1 {
		return 0, errs.Invalid("must be at least 1", "position")
	}
	return min(position, max(n, 1)), nil
}
