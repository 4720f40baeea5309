//go:build !cgo

package main

import (
	"fmt"
	"os"
)

// main says what this package is when it is built without cgo, which the
// C library needs.
func main() {
	fmt.Fprintln(os.Stderr, "capi is ptxmm's C library: build it with cgo and a C compiler: go build -buildmode=c-shared -o libptxmm.so ./capi")
	os.Exit(2)
}
