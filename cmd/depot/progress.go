package main

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// progressPrinter shows a phase's progress on stderr, at most every half
// second, and each phase's last figure.
type progressPrinter struct {
	mu    sync.Mutex
	w     io.Writer
	quiet bool
	extra func() string
	phase string
	line  string
	// shown is the last line printed.
	shown string
	last  time.Time
}

func newProgressPrinter(w io.Writer, quiet bool, extra func() string) *progressPrinter {
	return &progressPrinter{w: w, quiet: quiet, extra: extra}
}

func (p *progressPrinter) report(phase string, done, total int) {
	if p.quiet {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	line := fmt.Sprintf("%s: %d", phase, done)
	if total > 0 {
		line += fmt.Sprintf("/%d", total)
	}
	if p.extra != nil {
		line += p.extra()
	}
	if phase != p.phase && p.line != "" {
		p.show(p.line) // the previous phase's last figure
	} else if time.Since(p.last) > 500*time.Millisecond {
		p.show(line)
	}
	p.phase, p.line = phase, line
}

// show prints line unless it was the last one printed.
func (p *progressPrinter) show(line string) {
	if line != p.shown {
		fmt.Fprintln(p.w, line)
		p.shown = line
	}
	p.last = time.Now()
}

func (p *progressPrinter) done() {
	if p.quiet || p.line == "" {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.show(p.line)
}

// byteSize prints n bytes for people.
func byteSize(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
