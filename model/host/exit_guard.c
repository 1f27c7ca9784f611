/*
 * exit_guard.c - exit(), _exit() and _Exit() exported by our executables.
 *
 * A plugin that calls exit(0) inside an operation would end a fuzz run or a
 * check as if it had finished.  An executable's exported symbols come first
 * in the dynamic linker's search, so a dlopen()ed plugin's calls bind to
 * these (the link exports them: niov_guard_exit() in CMake).  Inside a
 * plugin operation the hook reports the call and aborts; anywhere else the
 * call goes on to the C library unchanged.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

void niov_exit_hook(const char *name, int status);

typedef void (*exit_fn)(int);

static exit_fn next_exit(const char *name)
{
	return (exit_fn)dlsym(RTLD_NEXT, name);
}

static void __attribute__((noreturn)) exit_group(int status)
{
	for (;;)
		syscall(SYS_exit_group, status);
}

void exit(int status)
{
	niov_exit_hook("exit", status);
	exit_fn f = next_exit("exit");
	if (f)
		f(status);
	exit_group(status);
}

void _exit(int status)
{
	niov_exit_hook("_exit", status);
	exit_fn f = next_exit("_exit");
	if (f)
		f(status);
	exit_group(status);
}

void _Exit(int status)
{
	niov_exit_hook("_Exit", status);
	exit_fn f = next_exit("_Exit");
	if (f)
		f(status);
	exit_group(status);
}
