package main

// What the Git benchmarks read of processes from /proc and getrusage.

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// treeCPU is the user+system time of pid and of its children it waited for.
func treeCPU(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 15 {
		return 0
	}
	var ticks int64
	for _, k := range f[11:15] { // utime stime cutime cstime
		n, _ := strconv.ParseInt(k, 10, 64)
		ticks += n
	}
	return time.Duration(ticks) * time.Second / clockTicks
}

// childrenCPU is the user+system time of this process's finished children.
func childrenCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// procStatus reads the kB fields of /proc/<pid>/status, in bytes.
func procStatus(pid int) map[string]int64 {
	out := map[string]int64{}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return out
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		name, value, _ := strings.Cut(line, ":")
		if f := strings.Fields(value); len(f) == 2 && f[1] == "kB" {
			kb, _ := strconv.ParseInt(f[0], 10, 64)
			out[name] = kb * 1024
		}
	}
	return out
}

// childrenRSS is the summed VmRSS of pid's descendants, from /proc.
func childrenRSS(pid int) int64 {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	parent := map[int]int{}
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// The fields after the command name: state, ppid, …
		if i := strings.LastIndexByte(string(b), ')'); i >= 0 {
			if f := strings.Fields(string(b[i+1:])); len(f) > 1 {
				parent[p], _ = strconv.Atoi(f[1])
			}
		}
	}
	var total int64
	pageSize := int64(os.Getpagesize())
	for p := range parent {
		q, seen := p, 0
		for q != 0 && q != pid && seen < 64 {
			q, seen = parent[q], seen+1
		}
		if q != pid || p == pid {
			continue
		}
		b, err := os.ReadFile("/proc/" + strconv.Itoa(p) + "/statm")
		if err != nil {
			continue
		}
		if f := strings.Fields(string(b)); len(f) > 1 {
			pages, _ := strconv.ParseInt(f[1], 10, 64)
			total += pages * pageSize
		}
	}
	return total
}
