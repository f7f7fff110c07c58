package sqlstore

// MigrationCount is how many schema versions the package defines, for
// tests that check each was recorded once.
func MigrationCount() int { return len(migrations().Sorted()) }
