// SPDX-License-Identifier: GPL-2.0
/*
 * rx_alloc.c - the page_pool memory provider's allocator of an RX binding:
 * net_devmem_alloc_dmabuf() / net_devmem_free_dmabuf().
 *
 * gen_pool eras: one chunk per sg entry of len >> niov_shift niovs, the
 * chunk of the last entry searched first (gen_pool_add_owner() puts each at
 * the head of the list), first fit inside a chunk.  gen_pool answers with
 * the niov's DMA address and 0 means "none": a niov at DMA address 0 is
 * taken and never handed out, and the pool cannot be destroyed at unbind.
 * A niov's dmabuf offset is its chunk's (the sum of the sg lengths before
 * it) plus its index in the chunk times the niov size.
 *
 * The freelist bind: a stack of the niov indices the bind reached, pushed
 * in order, popped from the top; the offset is the index times the size.
 */
#include "devmem_common.h"

/* Chunk @c: its first table index and niov count, DMA address and offset. */
struct rx_chunk {
	size_t first, count;
	dma_addr_t dma;
	size_t virt;
};

static struct rx_chunk rx_chunk_at(const struct net_devmem_dmabuf_binding *binding,
				   unsigned int c)
{
	const struct scatterlist *sg;
	struct rx_chunk ch = { 0, 0, 0, 0 };
	unsigned int i;

	for_each_sgtable_dma_sg(binding->sgt, sg, i) {
		size_t n = sg_dma_len(sg) >> binding->niov_shift;

		if (i == c) {
			ch.dma = sg_dma_address(sg);
			ch.count = ch.first < binding->niovs_init ?
				   min_t(size_t, n, binding->niovs_init - ch.first) : 0;
			return ch;
		}
		ch.first += n;
		ch.virt += sg_dma_len(sg);
	}
	return ch;
}

int net_devmem_rx_init(struct net_devmem_dmabuf_binding *binding)
{
	size_t i;

	if (binding->rx_genpool) {
		binding->rx_taken = kvcalloc(binding->niovs_init, sizeof(u8), GFP_KERNEL);
		binding->rx_next = kvcalloc(binding->sgt->nents, sizeof(size_t), GFP_KERNEL);
		if (!binding->rx_taken || !binding->rx_next)
			goto err;
		return 0;
	}
	binding->freelist = kvmalloc_array(binding->niovs_init, sizeof(u32), GFP_KERNEL);
	if (!binding->freelist)
		goto err;
	for (i = 0; i < binding->niovs_init; i++)
		binding->freelist[binding->free_count++] = (u32)i;
	return 0;
err:
	kvfree(binding->rx_taken);
	kvfree(binding->rx_next);
	binding->rx_taken = NULL;
	binding->rx_next = NULL;
	return -ENOMEM;
}

bool net_devmem_rx_release(struct net_devmem_dmabuf_binding *binding)
{
	size_t i;

	if (binding->rx_genpool && binding->rx_taken) {
		for (i = 0; i < binding->niovs_init; i++)
			if (binding->rx_taken[i])
				return false;	/* size != avail: the pool stays */
	}
	if (binding->freelist)
		WARN(binding->free_count != binding->niovs_init,
		     "destroying dmabuf binding with outstanding net_iovs");
	kvfree(binding->rx_taken);
	kvfree(binding->rx_next);
	kvfree(binding->freelist);
	binding->rx_taken = NULL;
	binding->rx_next = NULL;
	binding->freelist = NULL;
	return true;
}

static u64 rx_virt(const struct net_devmem_dmabuf_binding *binding, const struct rx_chunk *ch,
		   size_t j)
{
	if (binding->rx_genpool)
		return ch->virt + ((u64)j << binding->niov_shift);
	return (u64)(ch->first + j) << binding->niov_shift;
}

static int rx_answer(const struct net_devmem_dmabuf_binding *binding, const struct rx_chunk *ch,
		     size_t j, u64 *idx, u64 *virt, u64 *dma)
{
	*idx = ch->first + j;
	*virt = rx_virt(binding, ch, j);
	*dma = binding->area.niovs[ch->first + j].dma_addr;
	return 0;
}

static unsigned int rx_chunk_of(const struct net_devmem_dmabuf_binding *binding, size_t idx,
				struct rx_chunk *ch)
{
	unsigned int c;

	for (c = 0; c < binding->sgt->nents; c++) {
		*ch = rx_chunk_at(binding, c);
		if (idx >= ch->first && idx - ch->first < ch->count)
			return c;
	}
	return binding->sgt->nents;
}

int devmem_op_rx_alloc(void *priv, u64 *idx, u64 *virt, u64 *dma)
{
	struct net_devmem_dmabuf_binding *binding = priv;
	struct rx_chunk ch;
	unsigned int c;
	size_t j;

	niov_shim_configure(&binding->cfg);
	if (!binding->rx_genpool) {
		if (!binding->freelist || !binding->free_count)
			return -ENOMEM;
		j = binding->freelist[--binding->free_count];
		rx_chunk_of(binding, j, &ch);
		return rx_answer(binding, &ch, j - ch.first, idx, virt, dma);
	}
	if (!binding->rx_taken)
		return -ENOMEM;
	for (c = binding->sgt->nents; c-- > 0;) {
		ch = rx_chunk_at(binding, c);
		for (j = binding->rx_next[c]; j < ch.count && binding->rx_taken[ch.first + j]; j++)
			;
		binding->rx_next[c] = j + 1;
		if (j >= ch.count)
			continue;
		binding->rx_taken[ch.first + j] = 1;
		/* gen_pool_alloc_owner() returned 0: "no memory" */
		if (ch.dma + ((dma_addr_t)j << binding->niov_shift) == 0)
			return -ENOMEM;
		return rx_answer(binding, &ch, j, idx, virt, dma);
	}
	return -ENOMEM;
}

void devmem_op_rx_free(void *priv, u64 idx)
{
	struct net_devmem_dmabuf_binding *binding = priv;
	struct rx_chunk ch;
	unsigned int c;

	niov_shim_configure(&binding->cfg);
	if (!binding->rx_genpool) {
		if (WARN_ON(!binding->freelist || binding->free_count >= binding->niovs_init))
			return;
		binding->freelist[binding->free_count++] = (u32)idx;
		return;
	}
	/* WARN_ON(!gen_pool_has_addr()) */
	c = rx_chunk_of(binding, idx, &ch);
	if (WARN_ON(c == binding->sgt->nents || !binding->rx_taken[idx]))
		return;
	binding->rx_taken[idx] = 0;
	if (idx - ch.first < binding->rx_next[c])
		binding->rx_next[c] = idx - ch.first;
}
