package main

import (
	"context"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Machine describes where the numbers come from.
type Machine struct {
	CPUs     int
	CPUModel string
	MemTotal int64 // bytes
	Kernel   string
}

// clockTicks is USER_HZ, 100 on every Linux platform Go supports.
const clockTicks = 100

// selfCPU is the user+system time this process has used.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// OtherCPU is what processes other than the server and the load driver
// used (during a wrk run, that includes loadgen waiting for wrk: next to
// nothing).
func (r Run) OtherCPU() time.Duration {
	return max(r.MachineCPU-r.ServerCPU-r.DriverCPU, 0)
}

// machineCPU returns the busy and the stolen CPU time of the whole machine
// since boot, from the first line of /proc/stat.
func machineCPU() (busy, steal time.Duration) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, 0
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line)
	if len(f) < 9 || f[0] != "cpu" {
		return 0, 0
	}
	tick := func(i int) time.Duration {
		n, _ := strconv.ParseInt(f[i], 10, 64)
		return time.Duration(n) * time.Second / clockTicks
	}
	// user nice system idle iowait irq softirq steal
	busy = tick(1) + tick(2) + tick(3) + tick(6) + tick(7)
	return busy, tick(8)
}

// quietCores is how much CPU other processes may use for the machine to
// count as quiet.
const quietCores = 0.2

// waitQuiet samples the machine's CPU use a second at a time until it is
// below quietCores (the server is idle meanwhile, so the use is other
// processes'), or limit passes. It returns the last sample and whether the
// machine was quiet.
func waitQuiet(ctx context.Context, limit time.Duration) (float64, bool) {
	deadline := time.Now().Add(limit)
	for {
		b0, _ := machineCPU()
		select {
		case <-ctx.Done():
			return 0, false
		case <-time.After(time.Second):
		}
		b1, _ := machineCPU()
		used := cores(b1-b0, time.Second)
		if used < quietCores {
			return used, true
		}
		if time.Now().After(deadline) {
			return used, false
		}
	}
}

// readLoadAvg returns the 1, 5 and 15 minute load averages.
func readLoadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}

// readMachine reads the CPU count and model, memory and kernel.
func readMachine() Machine {
	m := Machine{CPUs: runtime.NumCPU()}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for line := range strings.SplitSeq(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				m.CPUModel = strings.TrimSpace(v)
				break
			}
		}
	}
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		for line := range strings.SplitSeq(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && k == "MemTotal" {
				if f := strings.Fields(v); len(f) > 0 {
					kb, _ := strconv.ParseInt(f[0], 10, 64)
					m.MemTotal = kb * 1024
				}
			}
		}
	}
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		m.Kernel = strings.TrimSpace(string(b))
	}
	return m
}

func cores(used, wall time.Duration) float64 {
	if wall <= 0 {
		return 0
	}
	return used.Seconds() / wall.Seconds()
}
