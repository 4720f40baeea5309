package litmus

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestParseLimits: parsing honours the time and memory limits of the test
// it reads: a done context stops it with the context's cause, in both
// formats and in a template's rows, and a file whose parse would not fit
// in the memory limit is refused before it is read.
func TestParseLimits(t *testing.T) {
	var herdSrc strings.Builder
	herdSrc.WriteString("PTX Long\n{ x=0; }\n P0@cta 0,gpu 0 ;\n")
	for i := 0; i < 5000; i++ {
		herdSrc.WriteString(" st.weak x, 1 ;\n")
	}
	herdSrc.WriteString("exists (x == 1)\n")
	nvSrc := ".global x;\nd0.b0.t0 {\n" + strings.Repeat("  st [x], 1;\n", 5000) + "}\nassert (x == 1) as one;\n"
	tmplSrc := ".global x;\nd0.b0.t0 {\n  st.$0 [x], 1;\n}\nassert (x == 1) as one;\n$$\n" + strings.Repeat("relaxed.gpu\n", 5000)

	stop := errors.New("parsing took too long here")
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(stop)
	for _, c := range []struct {
		name, src string
		f         Format
	}{{"long.litmus", herdSrc.String(), FormatHerd}, {"long.test", nvSrc, FormatNV}, {"rows.test", tmplSrc, FormatNV}} {
		tests, err := Parse(c.name, []byte(c.src), c.f)
		require.NoError(t, err, c.name)
		require.NotEmpty(t, tests)
		_, err = ParseContext(ctx, c.name, []byte(c.src), c.f)
		require.ErrorIs(t, err, stop, c.name)
	}

	dir := t.TempDir()
	path := filepath.Join(dir, "long.litmus")
	require.NoError(t, os.WriteFile(path, []byte(herdSrc.String()), 0o644))
	_, err := ParseFileLimits(path, ParseLimits{MaxMemory: 1 << 20})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "long.litmus (78.2 KiB) would take about 19.5 MiB of memory, over the memory limit of 1.00 MiB; raise it with -max-memory")
	tests, err := ParseFileLimits(path, ParseLimits{MaxMemory: 64 << 20, Timeout: time.Minute})
	require.NoError(t, err)
	assert.Len(t, tests[0].Threads[0].Instrs, 5000)
	// A time limit that has passed stops the parse with the error that
	// names it and the flag that raises it.
	_, err = ParseFileLimits(path, ParseLimits{Timeout: time.Nanosecond})
	var timeout *ParseTimeoutError
	require.ErrorAs(t, err, &timeout)
	assert.Equal(t, "parsing took longer than the time limit of 1ns; raise it with -timeout", err.Error())
}
