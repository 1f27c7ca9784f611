// SPDX-License-Identifier: GPL-2.0
/*
 * no_symbol.c - a shared object that is not a niovcheck plugin: it exports
 * no niov_impl_get.  The loader must refuse it with one line (exit 2).
 */
__attribute__((visibility("default"))) int niov_not_a_plugin(void);

__attribute__((visibility("default"))) int niov_not_a_plugin(void)
{
	return 0;
}
