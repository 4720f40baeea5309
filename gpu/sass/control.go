package sass

import (
	"fmt"
	"strings"
)

// Control is the scheduling information the compiler puts in each
// instruction of Volta and later GPUs (sm_70 to sm_90): bits 105 to 125
// of the 128-bit encoding, bits 41 to 61 of its second 64-bit word. The
// hardware issues a warp's instructions in order; an instruction whose
// result comes back after a variable time (a memory access, an mbarrier
// test) names a scoreboard it releases when done (WriteBarrier), and a
// later instruction that must not start before that lists the scoreboard
// in its Wait mask. Nothing else makes an instruction wait for a
// variable-latency one: a memory access issued before the scoreboard of
// an earlier one is waited for may be performed first.
type Control struct {
	// Stall is the cycles the scheduler waits before issuing the next
	// instruction; Yield the yield bit as encoded.
	Stall int
	Yield bool
	// WriteBarrier is the scoreboard (0 to 5) released when the
	// instruction's result is written, ReadBarrier the one released when
	// its source registers have been read; -1 for none.
	WriteBarrier, ReadBarrier int
	// Wait is the mask of scoreboards (bit i for scoreboard i) that must
	// be released before the instruction issues.
	Wait uint8
	// Reuse is the operand reuse-cache mask.
	Reuse uint8
}

// decodeControl reads the control bits of an instruction from the second
// (high) 64-bit word of its encoding.
func decodeControl(hi uint64) Control {
	c := hi >> 41
	barrier := func(v uint64) int {
		if v == 7 {
			return -1
		}
		return int(v)
	}
	return Control{
		Stall:        int(c & 0xf),
		Yield:        c>>4&1 == 1,
		WriteBarrier: barrier(c >> 5 & 7),
		ReadBarrier:  barrier(c >> 8 & 7),
		Wait:         uint8(c >> 11 & 0x3f),
		Reuse:        uint8(c >> 17 & 0xf),
	}
}

// Waits reports whether the instruction waits for scoreboard sb.
func (c Control) Waits(sb int) bool { return sb >= 0 && sb < 6 && c.Wait>>sb&1 == 1 }

// String prints the control bits in the notation of the open-source
// Maxwell-and-later assemblers: the wait mask (B, one column per
// scoreboard), the read and write scoreboards (R, W), the yield bit (Y)
// and the stall count (S): "B--2---:R-:W1:Y:S04" waits for scoreboard 2,
// releases scoreboard 1 when its result is written, and stalls 4 cycles.
func (c Control) String() string {
	var b strings.Builder
	b.WriteByte('B')
	for i := 0; i < 6; i++ {
		if c.Waits(i) {
			b.WriteByte(byte('0' + i))
		} else {
			b.WriteByte('-')
		}
	}
	sb := func(v int) string {
		if v < 0 {
			return "-"
		}
		return fmt.Sprint(v)
	}
	y := "-"
	if c.Yield {
		y = "Y"
	}
	fmt.Fprintf(&b, ":R%s:W%s:%s:S%02d", sb(c.ReadBarrier), sb(c.WriteBarrier), y, c.Stall)
	return b.String()
}
