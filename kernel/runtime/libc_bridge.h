/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libc_bridge.h - the few things kernel code built with -nostdinc gets from
 * libc: memory, stderr, and a way out of a BUG().  Plain C types only, so
 * both sides (the shim's -nostdinc world and libc_bridge.c, compiled
 * normally) can include it.
 */
#ifndef NIOV_LIBC_BRIDGE_H
#define NIOV_LIBC_BRIDGE_H

void *niov_libc_malloc(unsigned long size);
void niov_libc_free(void *p);
void niov_libc_memzero(void *p, unsigned long size);

/* qsort(3), for tables the adapters keep in order. */
void niov_libc_sort(void *base, unsigned long n, unsigned long size, int (*cmp)(const void *, const void *));

/*
 * A WARN the code hit at @file:@line.  Every hit is a line in the file
 * $NIOV_KERNEL_WARN_LOG names (with what the run was doing: the first line
 * of the file $NIOV_KERNEL_WARN_CONTEXT names), so a run can count them
 * per site; stderr gets each site once per process, not a stream of the
 * same line.  Without the log every hit goes to stderr.
 */
void niov_libc_warn(const char *file, int line, const char *what);

/* One line to stderr, printf style. */
void niov_libc_report(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * A sanitizer-style report to stderr, its first line after "==PID==" as
 * the sanitizers print it (no "niov-kernel: "), then abort(): the process
 * is not fit to go on.
 */
void niov_libc_die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/*
 * Run @fn(@arg) so that a BUG() inside it returns here: the result is
 * fn's, or @on_bug when kernel code hit BUG().  Nested calls are fine.
 */
long niov_libc_guarded(long (*fn)(void *arg), void *arg, long on_bug);

/*
 * BUG(): back to the innermost niov_libc_guarded(), or, outside one, abort
 * the process after saying where (there is nothing sane to return to).
 */
void niov_libc_bug(const char *file, int line, const char *what) __attribute__((noreturn));

#endif /* NIOV_LIBC_BRIDGE_H */
