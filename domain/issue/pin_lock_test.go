package issue

import (
	"errors"
	"testing"

	"github.com/matryer/is"

	"github.com/depothq/depot/domain/errs"
)

func TestPinsAndLocks(t *testing.T) {
	is := is.New(t)
	is.NoErr(CheckNewPin(MaxPinned - 1))
	is.True(errors.Is(CheckNewPin(MaxPinned), errs.ErrBadRequest))
	p, err := PinPosition(5, 3)
	is.NoErr(err)
	is.Equal(p, 3)
	p, err = PinPosition(2, 3)
	is.NoErr(err)
	is.Equal(p, 2)
	_, err = PinPosition(0, 3)
	is.True(errors.Is(err, errs.ErrInvalid))
	is.NoErr(CheckLockReason(""))
	is.NoErr(CheckLockReason("Spam"))
	is.True(errors.Is(CheckLockReason("spam!"), errs.ErrBadRequest))
}
