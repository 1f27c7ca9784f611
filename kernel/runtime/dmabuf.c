// SPDX-License-Identifier: GPL-2.0
/*
 * dmabuf.c - fake dma-bufs: an fd names a buffer of the scenario's size
 * whose mapping is the scenario's segment list.  The exporter side (the
 * buffers, attachments and sg tables) lives in libc memory, not in the
 * code's allocation count; what the code holds is counted instead:
 * dmabuf_refs (dma_buf_get, and an attachment, which pins the buffer) and
 * dma_mappings (maps not unmapped).  get, attach and map fail on demand.
 */
#include "runtime.h"
#include "libc_bridge.h"

#define MAX_DMABUFS	64

struct fake_dmabuf {
	struct dma_buf buf;
	struct niov_dma_seg *segs;
	u32 nr_segs;
	bool open;		/* the fd still refers to it */
};

static struct fake_dmabuf *table[MAX_DMABUFS];

static void release_if_unused(int fd)
{
	struct fake_dmabuf *f = table[fd];

	if (f && !f->open && f->buf.refs == 0) {
		niov_libc_free(f->segs);
		niov_libc_free(f);
		table[fd] = NULL;
	}
}

int niov_k_dmabuf_create(u64 size, const struct niov_dma_seg *segs, u32 nr_segs)
{
	struct fake_dmabuf *f;
	int fd;
	u32 i;

	for (i = 0; i < nr_segs; i++) {
		if (segs[i].len > U32_MAX)
			return NIOV_E_NOT_REPRESENTABLE;	/* u32 dma_length */
	}
	for (fd = 0; fd < MAX_DMABUFS && table[fd]; fd++)
		;
	if (fd == MAX_DMABUFS)
		return -ENOMEM;
	f = niov_libc_malloc(sizeof(*f));
	if (!f)
		return -ENOMEM;
	niov_libc_memzero(f, sizeof(*f));
	f->segs = niov_libc_malloc((nr_segs ? nr_segs : 1) * sizeof(*segs));
	if (!f->segs) {
		niov_libc_free(f);
		return -ENOMEM;
	}
	if (nr_segs)
		memcpy(f->segs, segs, nr_segs * sizeof(*segs));
	f->nr_segs = nr_segs;
	f->buf.size = size;
	f->buf.id = (unsigned int)fd;
	f->open = true;
	table[fd] = f;
	return fd;
}

void niov_k_dmabuf_close(int fd)
{
	if (fd < 0 || fd >= MAX_DMABUFS || !table[fd])
		return;
	table[fd]->open = false;
	release_if_unused(fd);
}

struct dma_buf *dma_buf_get(int fd)
{
	if (niov_k_fault_hit(NIOV_FAULT_DMABUF_GET))
		return ERR_PTR(-EBADF);
	if (fd < 0 || fd >= MAX_DMABUFS || !table[fd] || !table[fd]->open)
		return ERR_PTR(-EBADF);
	get_dma_buf(&table[fd]->buf);
	return &table[fd]->buf;
}

void get_dma_buf(struct dma_buf *dmabuf)
{
	dmabuf->refs++;
	niov_k_res.dmabuf_refs++;
}

void dma_buf_put(struct dma_buf *dmabuf)
{
	if (WARN_ON(!dmabuf || IS_ERR(dmabuf) || dmabuf->refs <= 0))
		return;
	dmabuf->refs--;
	niov_k_res.dmabuf_refs--;
	release_if_unused((int)dmabuf->id);
}

struct dma_buf_attachment *dma_buf_attach(struct dma_buf *dmabuf, struct device *dev)
{
	struct dma_buf_attachment *a;

	if (niov_k_fault_hit(NIOV_FAULT_DMABUF_ATTACH))
		return ERR_PTR(-ENOMEM);
	a = niov_libc_malloc(sizeof(*a));
	if (!a)
		return ERR_PTR(-ENOMEM);
	a->dmabuf = dmabuf;
	a->dev = dev;
	a->mapped = NULL;
	dmabuf->refs++;
	niov_k_res.dmabuf_refs++;
	return a;
}

void dma_buf_detach(struct dma_buf *dmabuf, struct dma_buf_attachment *a)
{
	if (WARN_ON(!a || IS_ERR(a) || a->dmabuf != dmabuf))
		return;
	WARN_ON(a->mapped);	/* detached while still mapped */
	niov_libc_free(a);
	dmabuf->refs--;
	niov_k_res.dmabuf_refs--;
	release_if_unused((int)dmabuf->id);
}

struct sg_table *dma_buf_map_attachment_unlocked(struct dma_buf_attachment *a,
						 enum dma_data_direction dir)
{
	struct fake_dmabuf *f = container_of(a->dmabuf, struct fake_dmabuf, buf);
	struct sg_table *sgt;
	u32 i;

	(void)dir;
	if (niov_k_fault_hit(NIOV_FAULT_DMABUF_MAP))
		return ERR_PTR(-ENOMEM);
	if (WARN_ON(a->mapped))
		return ERR_PTR(-EBUSY);
	sgt = niov_libc_malloc(sizeof(*sgt));
	if (!sgt)
		return ERR_PTR(-ENOMEM);
	sgt->sgl = niov_libc_malloc((f->nr_segs ? f->nr_segs : 1) * sizeof(*sgt->sgl));
	if (!sgt->sgl) {
		niov_libc_free(sgt);
		return ERR_PTR(-ENOMEM);
	}
	niov_libc_memzero(sgt->sgl, (f->nr_segs ? f->nr_segs : 1) * sizeof(*sgt->sgl));
	for (i = 0; i < f->nr_segs; i++) {
		sgt->sgl[i].dma_address = f->segs[i].addr;
		sgt->sgl[i].dma_length = (unsigned int)f->segs[i].len;
		sgt->sgl[i].length = (unsigned int)f->segs[i].len;
	}
	if (f->nr_segs)
		sgt->sgl[f->nr_segs - 1].page_link |= SG_END;
	sgt->nents = sgt->orig_nents = f->nr_segs;
	a->mapped = sgt;
	niov_k_res.dma_mappings++;
	return sgt;
}

void dma_buf_unmap_attachment_unlocked(struct dma_buf_attachment *a, struct sg_table *sgt,
				       enum dma_data_direction dir)
{
	(void)dir;
	if (WARN_ON(!a || a->mapped != sgt || !sgt))
		return;
	niov_libc_free(sgt->sgl);
	niov_libc_free(sgt);
	a->mapped = NULL;
	niov_k_res.dma_mappings--;
}
