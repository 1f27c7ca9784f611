/* SPDX-License-Identifier: GPL-2.0 */
/*
 * adapter.h - what every era's adapter shares, included by the adapter
 * after the tree's devmem.c (so the tree's types are known), one concept a
 * header: niov_maps.h (the binding, pointers and indices), binding.h (its
 * life), queue_step.h (bind-to-queue), bind_run.h (the bind and unbind ops
 * around the tree's calls), guards.h (inputs not given to the
 * code), netmem_refs.h (the TX eras' references), common_ops.h (the ops
 * every era fills the same way).
 */
#ifndef NIOV_K_ADAPTER_H
#define NIOV_K_ADAPTER_H

#include "runtime.h"
#include "libc_bridge.h"

/* An index no table has: what a pointer outside every niov array becomes. */
#define NIOV_K_FOREIGN_NIOV	(1ULL << 62)
/* The answer of an op that kernel code stopped with BUG(): no devmem errno. */
#define NIOV_K_EBUG		(-131)	/* ENOTRECOVERABLE */

#include "niov_maps.h"
#include "binding.h"
#include "queue_step.h"
#include "bind_run.h"
#include "guards.h"
#include "netmem_refs.h"
#include "common_ops.h"

#endif /* NIOV_K_ADAPTER_H */
