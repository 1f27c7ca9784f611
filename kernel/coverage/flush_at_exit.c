// SPDX-License-Identifier: MIT
/*
 * Preloaded (LD_PRELOAD) into a process that runs a kernel plugin built with
 * --coverage.  gcov writes a shared object's counters when the object is
 * unloaded or the process calls exit(); the suite's workers and engine
 * children end with _exit(), so without this every case they ran would be
 * lost.  This _exit() first has every loaded object that carries a gcov
 * runtime write its counters (each plugin has its own copy of libgcov, so
 * the process's own __gcov_dump would not reach them), then ends the
 * process as _exit() does.  GCOV_PREFIX and GCOV_PREFIX_STRIP say where the
 * counters go (cli/series_coverage.cpp).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stddef.h>
#include <sys/syscall.h>
#include <unistd.h>

static int dump_one(struct dl_phdr_info *info, size_t size, void *data)
{
	void *h;
	void (*dump)(void);

	(void)size;
	(void)data;
	if (!info->dlpi_name || !info->dlpi_name[0])
		return 0;
	h = dlopen(info->dlpi_name, RTLD_NOLOAD | RTLD_LAZY);
	if (!h)
		return 0;
	dump = (void (*)(void))dlsym(h, "__gcov_dump");
	if (dump)
		dump();
	dlclose(h);
	return 0;
}

void _exit(int status)
{
	dl_iterate_phdr(dump_one, NULL);
	syscall(SYS_exit_group, status);
	for (;;)
		;
}
