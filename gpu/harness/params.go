package harness

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// Params are the knobs of a run: how many launches, how many instances
// each, how they are placed, and how memory is stressed (docs/hardware.md
// says what each does). A preset sets them all; flags then change some.
type Params struct {
	Preset string
	// Seed makes the run's random choices (placement, permutations, grid
	// sizes, stress patterns); the same seed makes the same choices.
	Seed uint64
	// Iterations is the number of launches.
	Iterations int
	// CTAs is the most testing CTAs of a launch, Groups the instance
	// groups of each (32 instances per group, one per lane).
	CTAs, Groups int
	// RandomGrid draws each launch's testing CTAs between half and all of
	// CTAs.
	RandomGrid bool
	// Shuffle permutes the grid's clusters: which CTA ids test and which
	// stress, and which test CTA each plays.
	Shuffle bool
	// PermuteThreads places an instance's CTAs in different rows and its
	// threads in different lanes, by permutations with random co-prime
	// factors; PermuteLocations scatters the instances' locations the same
	// way.
	PermuteThreads, PermuteLocations bool
	// MemStride is the distance between location slots, in slots of the
	// test's largest location (at least 16 bytes).
	MemStride int
	// Barrier makes every test thread of a launch wait for all the others
	// before it starts; BarrierBound bounds the wait.
	Barrier      bool
	BarrierBound int
	// StressCTAs run no test but stress memory for StressIterations
	// iterations of Pattern (st-st, st-ld, ld-st, ld-ld, or random per
	// launch) on Lines scratch lines LineBytes apart; PreStress is the
	// iterations each test thread stresses before the start barrier.
	StressCTAs, StressIterations, PreStress int
	Pattern                                 string
	Lines, LineBytes                        int
	// SpinBound is the loop iterations a test thread may take.
	SpinBound int
	// Timeout bounds one launch.
	Timeout time.Duration
}

// Presets names the parameter sets.
var Presets = map[string]string{
	"plain":  "many instances per launch, placed in order: no permutations, start barrier, shuffle or stress",
	"pte":    "parallel testing environment: randomised grid, shuffled CTAs, permuted threads and locations, a start barrier (the default)",
	"stress": "pte with memory stress by CTAs that run no test, and pre-stress by the test threads",
}

// PresetNames lists the presets, sorted.
func PresetNames() []string {
	var names []string
	for n := range Presets {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Preset returns the parameters of a preset for a device with sms
// multiprocessors.
func Preset(name string, sms int) (Params, error) {
	sms = max(sms, 1)
	p := Params{Preset: name, Iterations: 100, CTAs: 2 * sms, Groups: 2, MemStride: 1, BarrierBound: 1 << 16,
		Pattern: "random", Lines: 64, LineBytes: 128, SpinBound: 1 << 14, Timeout: 10 * time.Second}
	switch name {
	case "plain":
	case "pte":
		p.RandomGrid, p.Shuffle, p.PermuteThreads, p.PermuteLocations, p.Barrier = true, true, true, true, true
		p.MemStride = 2
	case "stress":
		p.RandomGrid, p.Shuffle, p.PermuteThreads, p.PermuteLocations, p.Barrier = true, true, true, true, true
		p.MemStride = 2
		p.CTAs = sms
		p.StressCTAs, p.StressIterations, p.PreStress = sms, 1024, 64
	default:
		return Params{}, fmt.Errorf("unknown preset %q: expected %s", name, strings.Join(PresetNames(), ", "))
	}
	return p, nil
}

// patterns are the stress patterns by name, in the kernel's numbering.
var patterns = []string{"st-st", "st-ld", "ld-st", "ld-ld"}

// Validate checks the parameters, naming the flag of a bad one.
func (p Params) Validate() error {
	switch {
	case p.Iterations < 1:
		return fmt.Errorf("-iterations must be at least 1, not %d", p.Iterations)
	case p.CTAs < 1:
		return fmt.Errorf("-ctas must be at least 1, not %d", p.CTAs)
	case p.Groups < 1 || p.Groups > 32:
		return fmt.Errorf("-groups must be 1 to 32, not %d", p.Groups)
	case p.MemStride < 1:
		return fmt.Errorf("-mem-stride must be at least 1, not %d", p.MemStride)
	case p.StressCTAs < 0 || p.StressIterations < 0 || p.PreStress < 0:
		return fmt.Errorf("-stress-ctas, -stress-iterations and -pre-stress cannot be negative")
	case p.Lines < 1 || p.LineBytes < 128 || p.LineBytes%128 != 0:
		return fmt.Errorf("-stress-lines must be at least 1 and -stress-line-bytes a multiple of 128 (a lane per 4 bytes)")
	case p.SpinBound < 1 || p.BarrierBound < 1:
		return fmt.Errorf("-spin-bound and -barrier-bound must be at least 1")
	case p.Timeout <= 0:
		return fmt.Errorf("-launch-timeout must be positive")
	}
	if p.Pattern != "random" && patternIndex(p.Pattern) < 0 {
		return fmt.Errorf("-stress-pattern %q: expected random, %s", p.Pattern, strings.Join(patterns, ", "))
	}
	return nil
}

func patternIndex(name string) int {
	for i, n := range patterns {
		if n == name {
			return i
		}
	}
	return -1
}

// String prints the parameters as the flags that reproduce them.
func (p Params) String() string {
	return fmt.Sprintf("-preset %s -seed %d -iterations %d -ctas %d -groups %d -random-grid=%t -shuffle=%t -permute-threads=%t -permute-locations=%t -mem-stride %d -barrier=%t -stress-ctas %d -stress-iterations %d -pre-stress %d -stress-pattern %s -stress-lines %d -stress-line-bytes %d -spin-bound %d",
		p.Preset, p.Seed, p.Iterations, p.CTAs, p.Groups, p.RandomGrid, p.Shuffle, p.PermuteThreads, p.PermuteLocations, p.MemStride,
		p.Barrier, p.StressCTAs, p.StressIterations, p.PreStress, p.Pattern, p.Lines, p.LineBytes, p.SpinBound)
}
