package sqlstore

import "errors"

// errTodo is the placeholders' answer until the helpers' stores land.
var errTodo = errors.New("not built yet")
