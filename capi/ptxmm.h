/* ptxmm: the PTX memory consistency model as a C library.
 *
 * Build the library with
 *     go build -buildmode=c-shared -o libptxmm.so ./capi
 * and link with -lptxmm. Requests and answers are JSON, as ptxmm oracle
 * reads and writes them (docs/embedding.md). Every function is safe to
 * call from several threads at once. */
#ifndef PTXMM_H
#define PTXMM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A model opened by ptxmm_open; 0 is no model. */
typedef uintptr_t ptxmm_model;

/* Opens a model. config is JSON ("" or NULL: the embedded PTX model):
 * {"model": "file.dl"} or {"library": "variants/ptx-v6.0.dl"}, with
 * optionally "variants", "include_dirs", "extra_rules", "unchecked",
 * "timeout_ms", "max_memory". On failure it returns 0 and, when error is
 * not NULL, sets *error to a message to free with ptxmm_free. */
ptxmm_model ptxmm_open(const char *config, char **error);

/* Answers one request (a JSON object: {"build": ...}, {"execution": ...},
 * {"litmus": ...} or {"op": "model"}) with one JSON object, never NULL:
 * {"error": "..."} when the request is bad. Free it with ptxmm_free. */
char *ptxmm_request(ptxmm_model model, const char *request);

/* Frees a string ptxmm returned. */
void ptxmm_free(char *s);

/* Releases a model; its handle is not valid afterwards. */
void ptxmm_close(ptxmm_model model);

#ifdef __cplusplus
}
#endif

#endif
