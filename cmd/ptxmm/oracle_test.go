package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOracleProcess runs ptxmm oracle as a host would: requests on its
// standard input, one answer per line; a bad request is answered and the
// process goes on; it ends, with status 0, when its input does.
func TestOracleProcess(t *testing.T) {
	bin := ptxmmBinary(t)
	mp, err := os.ReadFile(filepath.Join("..", "..", "examples", "MP.litmus"))
	require.NoError(t, err)
	check, err := json.Marshal(map[string]string{"litmus": string(mp), "name": "MP.litmus"})
	require.NoError(t, err)
	in := strings.Join([]string{
		`{"id":1,"op":"model"}`,
		`this is not json`,
		`{"id":2,"execution":{"events":["a"],"sets":{},"relations":{}}}`,
		string(check),
		`{"id":3,"build":{"events":[{"name":"w","sets":["IW","W","GEN"],"location":"x"},{"name":"r","sets":["R","GEN"],"location":"x","thread":"P0","gpu":"0","cta":"0"}],"relations":{"rf":[[0,1]]}}}`,
	}, "\n") + "\n"
	cmd := exec.Command(bin, "oracle", "-variant", "ptx-v6.0")
	cmd.Stdin = strings.NewReader(in)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Run(), "%s", stderr.String())
	lines := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
	require.Len(t, lines, 5, stdout.String())
	assert.Contains(t, lines[0], `{"id":1,"model":{"name":"spec.dl+ptx-v6.0","inputs":[`)
	assert.Contains(t, lines[1], `{"error":"bad request: not JSON: invalid character 'h' in literal true`)
	assert.Contains(t, lines[2], `{"id":2,"error":"execution: the model reads`)
	assert.Contains(t, lines[3], `{"results":[{"file":"MP.litmus","instance":0,"name":"MP","verdict":"No"`)
	assert.Contains(t, lines[4], `{"id":3,"consistent":true,`)

	// Flags are refused as by every command.
	out, err := exec.Command(bin, "oracle", "-max-request", "0").CombinedOutput()
	require.Error(t, err)
	assert.Contains(t, string(out), "-max-request must be at least 1 byte")
	out, err = exec.Command(bin, "oracle", "extra").CombinedOutput()
	require.Error(t, err)
	assert.Contains(t, string(out), `unexpected argument "extra" (requests come on standard input)`)
}
