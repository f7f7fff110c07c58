package repos

import (
	"testing"

	"github.com/matryer/is"
)

func TestFillLicensePlaceholders(t *testing.T) {
	is := is.New(t)
	// The common placeholders, the program's among them, on every line.
	gpl := "    <one line to give the program's name and a brief idea of what it does.>\n" +
		"    Copyright (C) <year>  <name of author>\n\n" +
		"    <program>  Copyright (C) <year>  <name of author>\n"
	is.Equal(fillLicense("GPL-3.0-or-later", gpl, "alice", "alice@example.com", "tool", 2026),
		"    tool\n    Copyright (C) 2026  alice\n\n    tool  Copyright (C) 2026  alice\n")

	// 0BSD's bare-word placeholders are filled on its notice line only:
	// "AUTHOR" elsewhere is a word of the licence.
	bsd0 := "Copyright (C) YEAR by AUTHOR EMAIL\n\nIN NO EVENT SHALL THE AUTHOR BE LIABLE\n"
	is.Equal(fillLicense("0BSD", bsd0, "alice", "alice@example.com", "tool", 2026),
		"Copyright (C) 2026 by alice alice@example.com\n\nIN NO EVENT SHALL THE AUTHOR BE LIABLE\n")

	// Trailing blank lines go; trailing spaces inside the text stay.
	is.Equal(fillLicense("MIT", "MIT License\n\nCopyright (c) <year> <copyright holders>\n\nwrapped \nline\n\n\n", "bob", "", "r", 2025),
		"MIT License\n\nCopyright (c) 2025 bob\n\nwrapped \nline\n")
}
