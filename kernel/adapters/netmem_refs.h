/* SPDX-License-Identifier: GPL-2.0 */
/*
 * netmem_refs.h - the TX eras' niov references (get_netmem and its 2026 names).
 */
#ifndef NIOV_K_NETMEM_REFS_H
#define NIOV_K_NETMEM_REFS_H

#ifdef NIOV_K_TX_ERA
/*
 * skbuff.c's references on a net_iov for the fill: on niovs the adapter
 * knows; anything else is counted but never dereferenced.  Trees with
 * get_netmem() inline over __get_netmem() (NIOV_K_NETMEM_OUTLINE_GET) call
 * the latter for net_iovs only.
 */
#ifdef NIOV_K_NETMEM_OUTLINE_GET
#define NIOV_K_GET_NETMEM	__get_netmem
#define NIOV_K_PUT_NETMEM	__put_netmem
#else
#define NIOV_K_GET_NETMEM	get_netmem
#define NIOV_K_PUT_NETMEM	put_netmem
#endif
void NIOV_K_GET_NETMEM(netmem_ref netmem)
{
	struct net_iov *niov;

	if (!netmem_is_net_iov(netmem))
		return;
	niov = niov_k_netmem_niov(netmem);
	niov_k_res.niov_refs++;
	if (niov_k_known(niov))
		net_devmem_get_net_iov(niov);
}

#ifdef NIOV_K_NEED_NETMEM_INC_REF
void netmem_inc_ref(netmem_ref netmem)
{
	get_netmem(netmem);
}
#endif

void NIOV_K_PUT_NETMEM(netmem_ref netmem)
{
	struct net_iov *niov;

	if (!netmem_is_net_iov(netmem))
		return;
	niov = niov_k_netmem_niov(netmem);
	niov_k_res.niov_refs--;
	if (niov_k_known(niov))
		net_devmem_put_net_iov(niov);
}
#endif

#endif /* NIOV_K_NETMEM_REFS_H */
