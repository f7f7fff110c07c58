package sqlstore

import "time"

// now is the creation time of rows whose port methods take none (stars,
// watches, collaborations), at the precision both backends keep.
func now() time.Time { return dbTime(time.Now()) }
