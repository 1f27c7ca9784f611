// SPDX-License-Identifier: GPL-2.0
/*
 * libc_bridge.c - the libc side of the kernel runtime (see libc_bridge.h).
 * The only file of a kernel plugin compiled with the normal headers.
 */
#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libc_bridge.h"

#if defined(__SANITIZE_ADDRESS__)
#define NIOV_KEEP_BIG_BLOCK 0	/* ASan's quarantine must see every free */
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NIOV_KEEP_BIG_BLOCK 0
#endif
#endif
#ifndef NIOV_KEEP_BIG_BLOCK
#define NIOV_KEEP_BIG_BLOCK 1
#endif

/*
 * A bind of a segment near 4 GiB allocates a niov array of tens of MiB,
 * past what glibc serves from the heap: every such bind paid a page fault
 * per 4 KiB writing its fresh pages, and every unbind the munmap (most of
 * a property's time against the 6.12 code, where one case in ~40 draws
 * such a segment).  The last big block freed is kept and handed to the
 * next request it fits (at most twice its size): its pages stay mapped.
 * Its bytes are the last user's, as a kmalloc()ed block's are in the
 * kernel; __GFP_ZERO still zeroes it.  Not under ASan, whose quarantine
 * finds a use after free only when every free reaches it.
 */
#define BIG_BLOCK (16ul << 20)

static pthread_mutex_t kept_lock = PTHREAD_MUTEX_INITIALIZER;
static void *kept_block;
static size_t kept_size;

void *niov_libc_malloc(unsigned long size)
{
	void *p = NULL;

	if (NIOV_KEEP_BIG_BLOCK && size >= BIG_BLOCK) {
		pthread_mutex_lock(&kept_lock);
		if (kept_block && kept_size >= size && kept_size / 2 <= size) {
			p = kept_block;
			kept_block = NULL;
		}
		pthread_mutex_unlock(&kept_lock);
	}
	return p ? p : malloc(size);
}

void niov_libc_free(void *p)
{
	size_t size;
	void *old = p;

	if (NIOV_KEEP_BIG_BLOCK && p && (size = malloc_usable_size(p)) >= BIG_BLOCK) {
		pthread_mutex_lock(&kept_lock);
		old = kept_block;
		kept_block = p;
		kept_size = size;
		pthread_mutex_unlock(&kept_lock);
	}
	free(old);
}

void niov_libc_memzero(void *p, unsigned long size)
{
	memset(p, 0, size);
}

void niov_libc_sort(void *base, unsigned long n, unsigned long size, int (*cmp)(const void *, const void *))
{
	qsort(base, n, size, cmp);
}

/*
 * The code's niov tables are allocated and freed once per case, most of
 * them past glibc's mmap threshold: each bind then paid for fresh zeroed
 * pages and each unbind for the munmap (a third of a small case's time).
 * Blocks up to 16 MiB come from the heap and are reused instead.
 */
static void __attribute__((constructor)) niov_libc_keep_blocks(void)
{
	mallopt(M_MMAP_THRESHOLD, 16 << 20);	/* glibc takes at most 32 MiB */
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
}

void niov_libc_report(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("niov-kernel: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

#define WARN_SITES 64

static int warn_log_fd = -2;	/* -2: not opened yet, -1: none */

static bool warn_site_first(const char *file, int line)
{
	static struct { const char *file; int line; } seen[WARN_SITES];
	static int n;
	int i;

	for (i = 0; i < n; i++)
		if (seen[i].file == file && seen[i].line == line)
			return false;
	if (n < WARN_SITES) {
		seen[n].file = file;
		seen[n].line = line;
		n++;
	}
	return true;
}

void niov_libc_warn(const char *file, int line, const char *what)
{
	char context[256] = "", buf[1024];
	const char *path;
	int len;

	if (warn_log_fd == -2) {
		path = getenv("NIOV_KERNEL_WARN_LOG");
		warn_log_fd = path && *path ? open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644) : -1;
	}
	if (warn_log_fd < 0) {
		niov_libc_report("WARNING at %s:%d: %s", file, line, what);
		return;
	}
	path = getenv("NIOV_KERNEL_WARN_CONTEXT");
	if (path && *path) {
		FILE *f = fopen(path, "re");

		if (f) {
			if (!fgets(context, sizeof(context), f))
				context[0] = 0;
			fclose(f);
			context[strcspn(context, "\n")] = 0;
		}
	}
	/* one write per line: O_APPEND keeps lines whole across processes */
	len = snprintf(buf, sizeof(buf), "%s:%d\t%s\t%s\n", file, line, what, context);
	if (len > 0)
		(void)!write(warn_log_fd, buf, (size_t)len < sizeof(buf) ? (size_t)len : sizeof(buf) - 1);
	if (warn_site_first(file, line))
		niov_libc_report("WARNING at %s:%d: %s (each hit: %s)", file, line, what,
				 getenv("NIOV_KERNEL_WARN_LOG"));
}

void niov_libc_die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "==%d==", (int)getpid());
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	fflush(stderr);
	abort();
}

/* The innermost guarded call's way back (per thread: the engines may run threads). */
static _Thread_local jmp_buf *bug_return;

long niov_libc_guarded(long (*fn)(void *arg), void *arg, long on_bug)
{
	jmp_buf here;
	jmp_buf *outer = bug_return;
	long ret;

	if (setjmp(here)) {
		bug_return = outer;
		return on_bug;
	}
	bug_return = &here;
	ret = fn(arg);
	bug_return = outer;
	return ret;
}

void niov_libc_bug(const char *file, int line, const char *what)
{
	niov_libc_report("kernel BUG at %s:%d: %s", file, line, what);
	if (bug_return)
		longjmp(*bug_return, 1);
	niov_libc_report("BUG outside a guarded call: aborting");
	abort();
}
