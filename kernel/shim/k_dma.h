/* SPDX-License-Identifier: GPL-2.0 */
/*
 * k_dma.h - scatterlists and dma-bufs.  The sg entry keeps the kernel's
 * widths: a 64-bit dma_address and a u32 dma_length, so a segment of
 * 4 GiB or more cannot be handed to the code (the adapter answers
 * NIOV_E_NOT_REPRESENTABLE instead of truncating it).  The dma-bufs are
 * fakes (runtime/dmabuf.c) whose mapping is the scenario's segment list,
 * with reference counts and injectable failures.
 */
#ifndef NIOV_K_DMA_H
#define NIOV_K_DMA_H

enum dma_data_direction {
	DMA_BIDIRECTIONAL = 0,
	DMA_TO_DEVICE = 1,
	DMA_FROM_DEVICE = 2,
	DMA_NONE = 3,
};
#define DMA_MAPPING_ERROR	(~(dma_addr_t)0)
#define DMA_ATTR_SKIP_CPU_SYNC	(1UL << 5)
#define DMA_ATTR_WEAK_ORDERING	(1UL << 1)

struct scatterlist {
	unsigned long page_link;
	unsigned int offset;
	unsigned int length;
	dma_addr_t dma_address;
	unsigned int dma_length;
	unsigned int dma_flags;
};
#define SG_END			0x02UL
#define sg_is_last(sg)		((sg)->page_link & SG_END)
#define sg_dma_address(sg)	((sg)->dma_address)
#define sg_dma_len(sg)		((sg)->dma_length)
static inline struct scatterlist *sg_next(struct scatterlist *sg)
{
	return sg_is_last(sg) ? NULL : sg + 1;
}
struct sg_table {
	struct scatterlist *sgl;
	unsigned int nents;
	unsigned int orig_nents;
};
#define for_each_sg(sglist, sg, nr, i) \
	for ((i) = 0, (sg) = (sglist); (i) < (nr); (i)++, (sg) = sg_next(sg))
#define for_each_sgtable_sg(sgt, sg, i)	for_each_sg((sgt)->sgl, sg, (sgt)->orig_nents, i)
#define for_each_sgtable_dma_sg(sgt, sg, i) for_each_sg((sgt)->sgl, sg, (sgt)->nents, i)

struct dma_buf {
	size_t size;
	long refs;
	unsigned int id;
};
struct dma_buf_attachment {
	struct dma_buf *dmabuf;
	struct device *dev;
	struct sg_table *mapped;	/* the mapping, while mapped */
};

struct dma_buf *dma_buf_get(int fd);
void dma_buf_put(struct dma_buf *dmabuf);
void get_dma_buf(struct dma_buf *dmabuf);
struct dma_buf_attachment *dma_buf_attach(struct dma_buf *dmabuf, struct device *dev);
void dma_buf_detach(struct dma_buf *dmabuf, struct dma_buf_attachment *attach);
struct sg_table *dma_buf_map_attachment_unlocked(struct dma_buf_attachment *attach,
						 enum dma_data_direction dir);
void dma_buf_unmap_attachment_unlocked(struct dma_buf_attachment *attach,
				       struct sg_table *sgt, enum dma_data_direction dir);
#define dma_buf_map_attachment(a, d)		dma_buf_map_attachment_unlocked(a, d)
#define dma_buf_unmap_attachment(a, s, d)	dma_buf_unmap_attachment_unlocked(a, s, d)

#define dma_unmap_addr_set(p, n, v)	do { (void)(p); (void)(v); } while (0)
static inline void dma_unmap_page_attrs(struct device *dev, dma_addr_t addr, size_t size,
					enum dma_data_direction dir, unsigned long attrs)
{
	(void)dev; (void)addr; (void)size; (void)dir; (void)attrs;
}
static inline int dma_mapping_error(struct device *dev, dma_addr_t a) { (void)dev; return a == DMA_MAPPING_ERROR; }

#endif /* NIOV_K_DMA_H */
