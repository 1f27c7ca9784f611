// SPDX-License-Identifier: GPL-2.0
/*
 * frag_ref_leak.c - the fill takes a niov reference per frag (get_netmem)
 * but releasing a frag puts nothing back: every sent frag leaks a niov and
 * a binding reference.
 */
#define NIOV_PLUGIN_NAME	"frag_ref_leak"
#define NIOV_PLUGIN_DESC	"frag release does not put the niov reference the fill took"
#define NIOV_PLUGIN_MUST_CATCH	"res.refs_balanced"

#include "devmem_common.h"

static void frag_release_nothing(void *binding, const struct niov_frag *frag)
{
	(void)binding;
	(void)frag;
}

#define DEVMEM_FRAG_RELEASE_OP	frag_release_nothing

#include "../kernel/tx_autosize.c"
