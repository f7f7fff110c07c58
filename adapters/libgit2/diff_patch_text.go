package libgit2

/*
#cgo pkg-config: libgit2
#include <stdlib.h>
#include <string.h>
#include <git2.h>

// depot_patch_text formats delta idx of diff as patch text into out (left
// empty for a delta without a patch). It returns libgit2's error code and,
// on failure, a copy of its message in *msg.
static int depot_patch_text(git_diff *diff, size_t idx, git_buf *out, char **msg) {
	git_patch *patch = NULL;
	int err;
	*msg = NULL;
	err = git_patch_from_diff(&patch, diff, idx);
	if (err == 0 && patch != NULL)
		err = git_patch_to_buf(out, patch);
	if (err < 0) {
		const git_error *e = git_error_last();
		if (e != NULL && e->message != NULL)
			*msg = strdup(e->message);
	}
	git_patch_free(patch);
	return err;
}

// depot_diff_patchid computes diff's patch id (git patch-id --stable) into
// out. It returns libgit2's error code.
static int depot_diff_patchid(git_diff *diff, git_oid *out) {
	return git_diff_patchid(out, diff, NULL);
}
*/
import "C"

import (
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"unsafe"

	git "github.com/libgit2/git2go/v34"
)

// errNoDiffHandle says git2go's Diff no longer has the field patchText
// reads its libgit2 handle from (a git2go upgrade changed it).
var errNoDiffHandle = errors.New("libgit2: git2go's Diff has no libgit2 handle to read")

// diffHandle is the libgit2 git_diff behind a git2go Diff, which git2go
// does not export: the stream below needs it to hand patch text to Go
// without a copy. It is nil when the field is not there.
func diffHandle(diff *git.Diff) *C.git_diff {
	f := reflect.ValueOf(diff).Elem().FieldByName("ptr")
	if !f.IsValid() || f.Kind() != reflect.Pointer {
		return nil
	}
	return (*C.git_diff)(f.UnsafePointer())
}

// withPatchText runs fn with the patch text of delta i of diff, read in
// place from libgit2's buffer: text is valid during fn only, and fn must
// not keep it. Formatting a patch holds one file's contents and text in
// memory, and nothing of it is copied to the Go heap, so that streaming a
// diff of any size costs the memory of its largest file, without garbage
// for the Go collector to fall behind on.
func withPatchText(diff *git.Diff, i int, fn func(text []byte) error) error {
	h := diffHandle(diff)
	if h == nil {
		return errNoDiffHandle
	}
	var (
		buf C.git_buf
		msg *C.char
	)
	runtime.LockOSThread()
	code := C.depot_patch_text(h, C.size_t(i), &buf, &msg)
	runtime.UnlockOSThread()
	runtime.KeepAlive(diff)
	defer C.git_buf_dispose(&buf)
	if code < 0 {
		text := "unknown error"
		if msg != nil {
			text = C.GoString(msg)
			C.free(unsafe.Pointer(msg))
		}
		return fmt.Errorf("libgit2: patch text: %s (code %d)", text, int(code))
	}
	if buf.ptr == nil || buf.size == 0 {
		return fn(nil)
	}
	return fn(unsafe.Slice((*byte)(unsafe.Pointer(buf.ptr)), int(buf.size)))
}

// diffPatchID is the patch id of diff, as git patch-id --stable computes
// it: a hash of its changed lines, whitespace and line numbers aside, so
// that one change made on two branches has one id.
func diffPatchID(diff *git.Diff) ([20]byte, error) {
	var id [20]byte
	h := diffHandle(diff)
	if h == nil {
		return id, errNoDiffHandle
	}
	var out C.git_oid
	runtime.LockOSThread()
	code := C.depot_diff_patchid(h, &out)
	runtime.UnlockOSThread()
	runtime.KeepAlive(diff)
	if code < 0 {
		return id, fmt.Errorf("libgit2: patch id (code %d)", int(code))
	}
	C.memcpy(unsafe.Pointer(&id[0]), unsafe.Pointer(&out), C.size_t(len(id)))
	return id, nil
}
