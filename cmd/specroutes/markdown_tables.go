package main

import (
	"strings"
)

// table is one markdown table with the prose that precedes it.
type table struct {
	section, context string
	header           []string
	rows             [][]string
}

// tables splits a document's "## 4." part into tables; context is the
// heading of the table's ### section and the prose between that heading,
// or the previous table, and this one.
func tables(doc string) []table {
	var (
		out              []table
		in4              bool
		heading, section string
		prose            []string
		cur              *table
	)
	for _, line := range strings.Split(doc, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "## "):
			in4 = strings.HasPrefix(line, "## 4.")
			cur = nil
		case !in4:
		case strings.HasPrefix(line, "### "):
			heading = strings.TrimPrefix(line, "### ")
			section = strings.Fields(heading)[0]
			prose, cur = nil, nil
		case strings.HasPrefix(line, "|"):
			cells := splitCells(line)
			if cur == nil {
				out = append(out, table{section: section, context: heading + "\n" + strings.Join(prose, "\n"), header: cells})
				cur = &out[len(out)-1]
				prose = nil
				continue
			}
			if strings.Trim(strings.Join(cells, ""), "-: ") == "" {
				continue // the separator row
			}
			cur.rows = append(cur.rows, cells)
		case line != "":
			prose = append(prose, line)
			cur = nil
		default:
			cur = nil
		}
	}
	return out
}

func splitCells(line string) []string {
	parts := strings.Split(strings.Trim(line, "|"), "|")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}
