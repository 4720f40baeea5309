package main

import (
	"bufio"
	"fmt"
	"os"
	"sort"
	"strings"
)

// result is what one log says about one test.
type result struct {
	states      []string // normalised, sorted
	verdict     string   // Ok or No
	observation string   // Never, Sometimes or Always
	counts      string   // "Positive: p Negative: n"
}

// readLog reads the tests of a herd7-style log. renames maps a test's
// register names to the port's (ptxmm's log of the PTX originals).
func readLog(path string, renames map[string]map[string]string) (map[string]*result, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]*result{}
	var cur *result
	var name string
	inStates := false
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		fields := strings.Fields(line)
		switch {
		case len(fields) >= 2 && fields[0] == "Test":
			name, cur, inStates = fields[1], &result{}, false
			out[name] = cur
		case cur == nil:
		case len(fields) == 2 && fields[0] == "States":
			inStates = true
		case inStates && (line == "Ok" || line == "No"):
			inStates, cur.verdict = false, line
		case inStates:
			cur.states = append(cur.states, normState(line, renames[name]))
		case strings.HasPrefix(line, "Positive:"):
			cur.counts = line
		case len(fields) >= 3 && fields[0] == "Observation":
			cur.observation = fields[2]
		}
	}
	for _, r := range out {
		sort.Strings(r.states)
	}
	return out, sc.Err()
}

// normState writes a state line with its bindings sorted, a location
// "[x]" as "x", and registers renamed.
func normState(line string, renames map[string]string) string {
	var parts []string
	for _, b := range strings.Split(line, ";") {
		b = strings.TrimSpace(b)
		if b == "" {
			continue
		}
		k, v, _ := strings.Cut(b, "=")
		k = strings.TrimSuffix(strings.TrimPrefix(k, "["), "]")
		if r, ok := renames[k]; ok {
			k = r
		}
		parts = append(parts, k+"="+v)
	}
	sort.Strings(parts)
	return strings.Join(parts, "; ")
}

// readPorts reads ports.tsv: the register renames of each test, by name.
func readPorts(path string) (map[string]map[string]string, []string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	renames := map[string]map[string]string{}
	var names []string
	for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		cols := strings.Split(line, "\t")
		if len(cols) != 3 {
			return nil, nil, fmt.Errorf("%s: bad line %q", path, line)
		}
		name := strings.TrimSuffix(cols[0][strings.LastIndex(cols[0], "/")+1:], ".litmus")
		m := map[string]string{}
		for _, kv := range strings.Split(cols[2], ",") {
			if k, v, ok := strings.Cut(kv, "="); ok {
				m[k] = v
			}
		}
		renames[name] = m
		names = append(names, name)
	}
	return renames, names, nil
}

// compare prints each test whose state set, verdict or observation
// differs between herd7's log and ptxmm's, then the figures.
func compare(portsPath, herdLog, ptxmmLog string) (bool, error) {
	renames, names, err := readPorts(portsPath)
	if err != nil {
		return false, err
	}
	herd, err := readLog(herdLog, nil)
	if err != nil {
		return false, err
	}
	ours, err := readLog(ptxmmLog, renames)
	if err != nil {
		return false, err
	}
	var nStates, nVerdicts, nCounts, missing int
	for _, n := range names {
		h, o := herd[n], ours[n]
		if h == nil || o == nil {
			fmt.Printf("%s: missing from the %s log\n", n, map[bool]string{true: "herd7", false: "ptxmm"}[h == nil])
			missing++
			continue
		}
		same := strings.Join(h.states, "\n") == strings.Join(o.states, "\n")
		if same {
			nStates++
		} else {
			fmt.Printf("%s: states differ\n  herd7: %s\n  ptxmm: %s\n", n, strings.Join(h.states, " | "), strings.Join(o.states, " | "))
		}
		if h.verdict == o.verdict && h.observation == o.observation {
			nVerdicts++
		} else {
			fmt.Printf("%s: herd7 says %s %s, ptxmm %s %s\n", n, h.verdict, h.observation, o.verdict, o.observation)
		}
		if h.counts == o.counts {
			nCounts++
		}
	}
	fmt.Printf("%d tests: %d state sets equal, %d verdicts equal, %d Positive/Negative counts equal, %d missing\n",
		len(names), nStates, nVerdicts, nCounts, missing)
	return nStates == len(names) && nVerdicts == len(names), nil
}
