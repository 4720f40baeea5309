// Package snapshot writes a graph of Go values to bytes and reads it back:
// structs (unexported fields included), pointers (an object reached twice
// is written once and read back as one object, cycles included), slices,
// arrays, maps, strings, numbers and interfaces over a closed list of
// concrete types. It exists so that a model compiled when ptxmm is built
// is read when it runs instead of compiled again (internal/loader).
//
// What it writes starts with a fingerprint of the types it holds (every
// struct's fields, names and types, reachable from the root's type and the
// interface types' concrete types): bytes written by a build whose types
// differ are refused, not misread. A slice is written as its elements, so
// two slices sharing an array are read back as two arrays, and a pointer
// into the middle of an object as an object of its own: the graphs it is
// meant for are not changed after they are built, where that makes no
// difference. Functions, channels and unsafe pointers are refused.
//
// EncodeImage writes the same graph as an image: the arrays Decode cuts
// its values from, byte for byte, with the pointers listed apart.
// DecodeImage copies the arrays and writes the pointers back, without
// decoding a field: about a fifth of the instructions of Decode on the
// compiled spec.dl. An image also records the types' layout (sizes and
// field offsets) and a checksum, and holds no values an interface boxes
// (only pointers). DecodeBuiltInImage reads an image built into the
// program without computing its checksum (CheckImage, in its tests), and
// uses its strings and its arrays without pointers where they lie in the
// image's bytes (each array is aligned in the image for that) instead of
// copying them: those bytes and those parts of the graph are never
// changed. BuiltIn reads such an image once per process, with its arrays
// with pointers outside the Go heap (in huge pages where granted) and
// read-only: no fresh heap pages for them, and every load shares the
// graph.
package snapshot
