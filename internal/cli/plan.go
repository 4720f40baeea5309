package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"strconv"
	"time"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/herdlog"
	"github.com/ptxmm/ptxmm/litmus"
	"github.com/ptxmm/ptxmm/report"
)

// unit is one test of a run, in the run's order: a test of a file, or a
// file that could not be read (one unit, whatever it holds).
type unit struct {
	file string
	// test is nil when the file could not be read (err) or was not read
	// here: another shard's .litmus file.
	test  *litmus.Test
	err   error
	shard int // the shard that checks it
	// parsed is the time parsing its file took, which counts against
	// the test's -timeout.
	parsed time.Duration
}

// runPlan is the run's tests in order, each read as far as this shard
// needs it.
type runPlan struct {
	units []*unit
	// listed is the list of tests a digest identifies (digest): a file
	// per line, and a template's row after "#".
	listed []byte
}

// planRun lists the run's tests. A .test file is read by every shard (its
// template's rows are tests, and their number decides which shard checks
// which test); any other file is one test (or one unreadable file), read
// only by the shard that checks it, unless all is set. The files' warnings
// are printed by the shard that checks the file's first test. Each file is
// parsed within lim. A selection (herd7's -names, -kinds, ...) keeps and
// rewrites tests by name, so every shard reads every file then.
func planRun(files []string, shard Shard, all bool, lim litmus.ParseLimits, sel *Selection, stderr io.Writer) *runPlan {
	p := &runPlan{}
	all = all || sel.active()
	for _, f := range files {
		k := len(p.units)
		format, ferr := litmus.FormatForPath(f)
		if ferr == nil && format == litmus.FormatHerd && !all && !shard.owns(k) {
			p.units = append(p.units, &unit{file: f})
			p.list(f)
			continue
		}
		start := time.Now()
		tests, err := litmus.ParseFileLimits(f, lim)
		parsed := time.Since(start)
		if err != nil {
			p.units = append(p.units, &unit{file: f, err: err})
			p.list(f)
			continue
		}
		if shard.owns(k) {
			printWarnings(stderr, tests)
		}
		for _, t := range tests {
			if sel.active() {
				keep, err := sel.apply(t)
				if !keep {
					continue
				}
				if err != nil {
					p.units = append(p.units, &unit{file: f, err: err})
					p.list(f)
					continue
				}
			}
			p.units = append(p.units, &unit{file: f, test: t, parsed: parsed})
			if t.Format == litmus.FormatNV {
				p.listed = append(p.listed, f...)
				p.listed = append(p.listed, '#')
				p.listed = strconv.AppendInt(p.listed, int64(t.Instance), 10)
				p.listed = append(p.listed, '\n')
			} else {
				p.list(f)
			}
		}
	}
	for k, u := range p.units {
		u.shard = k
		if shard.Enabled() {
			u.shard = k % shard.Count
		}
	}
	return p
}

// list adds file to the list of tests the digest identifies.
func (p *runPlan) list(file string) {
	p.listed = append(p.listed, file...)
	p.listed = append(p.listed, '\n')
}

// digest identifies the list of tests, so that a merge tells the shards of
// one run from those of another. Only a shard's header needs it: a run
// that is not sharded does not compute it.
func (p *runPlan) digest() string {
	sum := sha256.Sum256(p.listed)
	return hex.EncodeToString(sum[:])[:16]
}

// items are the tests this shard checks, in order.
func (p *runPlan) items(shard Shard) []*item {
	var out []*item
	for _, u := range p.units {
		if u.shard == shard.Index || !shard.Enabled() {
			out = append(out, &item{file: u.file, test: u.test, err: u.err, parsed: u.parsed})
		}
	}
	return out
}

// header is the shard's header in its herd log (herdlog.Shard).
func (p *runPlan) header(shard Shard, items []*item) herdlog.Shard {
	logged := 0
	for _, it := range items {
		if it.test != nil {
			logged++
		}
	}
	return herdlog.Shard{Index: shard.Index, Count: shard.Count, Plan: p.digest(),
		Taken: len(items), Total: len(p.units), Logged: logged}
}

// limitExpected makes a shard's -expect comparison report, of the rows no
// test it checked matches, only those that are its own, so that the
// shards together report what one run would: a row belongs to the shard
// that checks the first test matching it (whether its file can be read or
// not), and the rows no test of the run matches belong to shard 0.
func (p *runPlan) limitExpected(e *report.Expected, shard Shard) {
	owner := map[string]int{}
	for _, u := range p.units {
		if key, ok := e.Claim(u.file, u.test); ok {
			if _, seen := owner[key]; !seen {
				owner[key] = u.shard
			}
		}
	}
	e.ReportOnly(func(key string) bool {
		o, ok := owner[key]
		if !ok {
			return shard.Index == 0
		}
		return o == shard.Index
	})
}

// limitMissingKinds keeps, of the -kinds names no test of this shard has,
// those no test of the run has, and only on shard 0: the others are
// other shards' tests (every test was read for their names).
func (p *runPlan) limitMissingKinds(missing []string, shard Shard) []string {
	if !shard.Enabled() {
		return missing
	}
	if shard.Index != 0 {
		return nil
	}
	names := map[string]bool{}
	for _, u := range p.units {
		if u.test != nil {
			names[report.LogName(u.test)] = true
		}
	}
	var out []string
	for _, n := range missing {
		if !names[n] {
			out = append(out, n)
		}
	}
	return out
}

// parseLimits are the limits a test file is parsed within: the test's own
// time and memory limits.
func parseLimits(o checker.Options) litmus.ParseLimits {
	return litmus.ParseLimits{Timeout: o.Timeout, MaxMemory: o.MaxMemory}
}
