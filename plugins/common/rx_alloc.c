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
 * A free goes by DMA address (gen_pool_has_addr(), gen_pool_free()) to the
 * first chunk in list order whose [dma, dma + len - 1], wrapping as
 * gen_pool's end_addr does, holds the address: a niov no chunk holds whole
 * stays taken (WARN), and with sg entries overlapping in DMA space the free
 * may land on another chunk's niov, or on one already free (BUG).
 * A niov's dmabuf offset is its chunk's (the sum of the sg lengths before
 * it) plus its index in the chunk times the niov size.
 *
 * The freelist bind: a stack of the niov indices the bind reached, pushed
 * in order, popped from the top; the offset is the index times the size.
 */
#include "devmem_common.h"

/* A chunk: its first table index and niov count, DMA address and offset. */
struct rx_chunk {
	size_t first, count;
	dma_addr_t dma;
	u64 len;		/* the sg entry's bytes: gen_pool's chunk size */
	size_t virt;
	size_t next;		/* gen_pool: no free niov below this one */
};

int net_devmem_rx_init(struct net_devmem_dmabuf_binding *binding)
{
	const struct scatterlist *sg;
	size_t first = 0, virt = 0, i;
	unsigned int c;

	binding->rx_chunks = kvcalloc(binding->sgt->nents, sizeof(*binding->rx_chunks), GFP_KERNEL);
	if (!binding->rx_chunks)
		return -ENOMEM;
	for_each_sgtable_dma_sg(binding->sgt, sg, c) {
		size_t n = sg_dma_len(sg) >> binding->niov_shift;
		struct rx_chunk *ch = &binding->rx_chunks[c];

		ch->first = first;
		ch->count = first < binding->niovs_init ? min_t(size_t, n, binding->niovs_init - first) : 0;
		ch->dma = sg_dma_address(sg);
		ch->len = sg_dma_len(sg);
		ch->virt = binding->rx_genpool ? virt : first << binding->niov_shift;
		first += n;
		virt += sg_dma_len(sg);
	}

	if (binding->rx_genpool) {
		binding->rx_taken = kvcalloc(binding->niovs_init, sizeof(u8), GFP_KERNEL);
		if (!binding->rx_taken)
			goto err;
		binding->rx_top = binding->sgt->nents;
		return 0;
	}
	binding->freelist = kvmalloc_array(binding->niovs_init, sizeof(u32), GFP_KERNEL);
	if (!binding->freelist)
		goto err;
	for (i = 0; i < binding->niovs_init; i++)
		binding->freelist[binding->free_count++] = (u32)i;
	return 0;
err:
	kvfree(binding->rx_chunks);
	binding->rx_chunks = NULL;
	return -ENOMEM;
}

bool net_devmem_rx_release(struct net_devmem_dmabuf_binding *binding)
{
	size_t i;

	if (binding->rx_genpool && binding->rx_taken) {
		for (i = 0; i < binding->niovs_init; i++)
			if (binding->rx_taken[i])
				break;
		if (i < binding->niovs_init) {
			/* size != avail: the pool stays, leaked with the binding */
			kvleak(binding->rx_chunks);
			kvleak(binding->rx_taken);
			binding->rx_chunks = NULL;
			binding->rx_taken = NULL;
			return false;
		}
	}
	if (binding->freelist)
		WARN(binding->free_count != binding->niovs_init,
		     "destroying dmabuf binding with outstanding net_iovs");
	kvfree(binding->rx_chunks);
	kvfree(binding->rx_taken);
	kvfree(binding->freelist);
	binding->rx_chunks = NULL;
	binding->rx_taken = NULL;
	binding->freelist = NULL;
	return true;
}

static int rx_answer(const struct net_devmem_dmabuf_binding *binding, const struct rx_chunk *ch,
		     size_t j, u64 *idx, u64 *virt, u64 *dma)
{
	*idx = ch->first + j;
	*virt = binding->rx_genpool ? ch->virt + ((u64)j << binding->niov_shift)
				    : (u64)(ch->first + j) << binding->niov_shift;
	*dma = binding->area.niovs[ch->first + j].dma_addr;
	return 0;
}

/*
 * The chunk holding table index @idx.  Chunks cover disjoint index ranges
 * in table order, so only the last one starting at or before @idx can
 * hold it: a binary search, not a walk per free (the RX sweep frees every
 * niov of tables with hundreds of sg entries).
 */
static struct rx_chunk *rx_chunk_of(const struct net_devmem_dmabuf_binding *binding, size_t idx)
{
	unsigned int lo = 0, hi = binding->sgt->nents;
	struct rx_chunk *ch;

	while (lo < hi) {	/* the first chunk starting past @idx */
		unsigned int mid = lo + (hi - lo) / 2;

		if (binding->rx_chunks[mid].first <= idx)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	ch = &binding->rx_chunks[lo - 1];
	return idx - ch->first < ch->count ? ch : NULL;
}

int devmem_op_rx_alloc(void *priv, u64 *idx, u64 *virt, u64 *dma)
{
	struct net_devmem_dmabuf_binding *binding = priv;
	struct rx_chunk *ch;
	unsigned int c;
	size_t j;

	niov_shim_configure(&binding->cfg);
	if (!binding->rx_chunks)
		return -ENOMEM;
	if (!binding->rx_genpool) {
		if (!binding->free_count)
			return -ENOMEM;
		j = binding->freelist[--binding->free_count];
		ch = rx_chunk_of(binding, j);
		return rx_answer(binding, ch, j - ch->first, idx, virt, dma);
	}
	/* The same search from the last chunk down, skipping those known full. */
	for (c = binding->rx_top; c-- > 0;) {
		ch = &binding->rx_chunks[c];
		for (j = ch->next; j < ch->count && binding->rx_taken[ch->first + j]; j++)
			;
		ch->next = j + 1;
		if (j >= ch->count) {
			if (c + 1 == binding->rx_top)
				binding->rx_top = c;
			continue;
		}
		binding->rx_taken[ch->first + j] = 1;
		/* gen_pool_alloc_owner() returned 0: "no memory" */
		if (ch->dma + ((dma_addr_t)j << binding->niov_shift) == 0)
			return -ENOMEM;
		return rx_answer(binding, ch, j, idx, virt, dma);
	}
	return -ENOMEM;
}

static void rx_genpool_free(struct net_devmem_dmabuf_binding *binding, dma_addr_t dma)
{
	dma_addr_t last = dma + ((dma_addr_t)1 << binding->niov_shift) - 1;
	unsigned int c;
	size_t j;

	for (c = binding->sgt->nents; c-- > 0;) {
		struct rx_chunk *ch = &binding->rx_chunks[c];
		dma_addr_t end = ch->dma + ch->len - 1;

		if (dma < ch->dma || dma > end)
			continue;
		if (WARN_ON(last > end))	/* !gen_pool_has_addr() */
			return;
		j = (dma - ch->dma) >> binding->niov_shift;
		if (WARN_ON(j >= ch->count || !binding->rx_taken[ch->first + j]))
			return;		/* gen_pool_free()'s BUG_ON(remain) */
		binding->rx_taken[ch->first + j] = 0;
		if (j < ch->next)
			ch->next = j;
		if (c >= binding->rx_top)
			binding->rx_top = c + 1;
		return;
	}
	WARN_ON(1);	/* !gen_pool_has_addr() */
}

void devmem_op_rx_free(void *priv, u64 idx)
{
	struct net_devmem_dmabuf_binding *binding = priv;
	struct rx_chunk *ch;

	niov_shim_configure(&binding->cfg);
	if (WARN_ON(!binding->rx_chunks))
		return;
	if (!binding->rx_genpool) {
		if (WARN_ON(binding->free_count >= binding->niovs_init))
			return;
		binding->freelist[binding->free_count++] = (u32)idx;
		return;
	}
	ch = rx_chunk_of(binding, idx);
	if (WARN_ON(!ch || !binding->rx_taken[idx]))
		return;
	rx_genpool_free(binding, ch->dma + ((dma_addr_t)(idx - ch->first) << binding->niov_shift));
}
