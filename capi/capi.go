//go:build cgo

package main

/*
#include <stdint.h>
#include <stdlib.h>
*/
import "C"

import (
	"context"
	"encoding/json"
	"sync"
	"unsafe"

	"github.com/ptxmm/ptxmm/internal/oracle"
)

// models holds the open models by handle. A handle is a number, not a
// pointer, so that a stale or made-up one is answered with an error
// instead of crashing the host.
var models = struct {
	sync.Mutex
	next uintptr
	open map[uintptr]*oracle.Oracle
}{open: map[uintptr]*oracle.Oracle{}}

//export ptxmm_open
func ptxmm_open(config *C.char, errOut **C.char) C.uintptr_t {
	var text []byte
	if config != nil {
		text = []byte(C.GoString(config))
	}
	c, err := oracle.ParseConfig(text)
	var o *oracle.Oracle
	if err == nil {
		o, err = oracle.Open(c)
	}
	if err != nil {
		if errOut != nil {
			*errOut = C.CString(err.Error())
		}
		return 0
	}
	models.Lock()
	defer models.Unlock()
	models.next++
	models.open[models.next] = o
	return C.uintptr_t(models.next)
}

//export ptxmm_request
func ptxmm_request(model C.uintptr_t, request *C.char) *C.char {
	models.Lock()
	o := models.open[uintptr(model)]
	models.Unlock()
	var answer []byte
	switch {
	case o == nil:
		answer, _ = json.Marshal(oracle.Answer{Error: "no such model: the handle is not one ptxmm_open returned, or it was closed"})
	case request == nil:
		answer, _ = json.Marshal(oracle.Answer{Error: "bad request: NULL"})
	default:
		answer = o.Answer(context.Background(), []byte(C.GoString(request)))
	}
	return C.CString(string(answer))
}

//export ptxmm_free
func ptxmm_free(s *C.char) {
	C.free(unsafe.Pointer(s))
}

//export ptxmm_close
func ptxmm_close(model C.uintptr_t) {
	models.Lock()
	delete(models.open, uintptr(model))
	models.Unlock()
}

func main() {}
