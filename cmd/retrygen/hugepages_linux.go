package main

import "syscall"

// adviseHugePages asks Linux to back b by transparent huge pages; an error
// (a kernel without them) leaves b as it is.
func adviseHugePages(b []byte) {
	_ = syscall.Madvise(b, syscall.MADV_HUGEPAGE)
}
