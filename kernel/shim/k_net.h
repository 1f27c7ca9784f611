/* SPDX-License-Identifier: GPL-2.0 */
/*
 * k_net.h - the networking structures devmem touches, cut down to what it
 * reads: one fake net_device with rx queues whose restart builds a
 * page_pool and runs the memory provider's init (runtime/netdev.c), the
 * page_pool fields the provider looks at, netlink extack capture, and thin
 * sk_buff / iov_iter views over the ABI's niov_skb / niov_iov_iter for the
 * TX fill.
 */
#ifndef NIOV_K_NET_H
#define NIOV_K_NET_H

/* --- page_pool ------------------------------------------------------------- */

#define PP_ALLOC_CACHE_SIZE	128
#define PP_ALLOC_CACHE_REFILL	64
#define PP_FLAG_DMA_MAP		(1u << 0)
#define PP_FLAG_DMA_SYNC_DEV	(1u << 1)
#define PP_FLAG_SYSTEM_POOL	(1u << 2)
#define PP_FLAG_ALLOW_UNREADABLE_NETMEM	(1u << 3)
#define PP_SIGNATURE		0x40UL
#define PP_MAGIC_MASK		(~0x3UL)
#define PP_DMA_INDEX_BITS	0
#define PP_DMA_INDEX_SHIFT	6
#define PP_DMA_INDEX_MASK	0UL
#define PAGE_POOL_32BIT_ARCH_WITH_64BIT_DMA	0

struct memory_provider_ops;
#ifdef NIOV_K_NO_MP_OPS
/*
 * Trees before the memory-provider hooks have no memory_provider.h: their
 * page_pool called devmem's mp_dmabuf_devmem_*() itself.  The runtime
 * gathers those four into a table of this shape (runtime/netdev.c), so the
 * fake page_pool runs every era the same way.
 */
struct memory_provider_ops {
	unsigned long (*alloc_netmems)(struct page_pool *pool, gfp_t gfp);
	bool (*release_netmem)(struct page_pool *pool, unsigned long netmem);
	int (*init)(struct page_pool *pool);
	void (*destroy)(struct page_pool *pool);
};
extern const struct memory_provider_ops niov_k_mp_direct_ops;
#endif
struct pp_memory_provider_params {
	void *mp_priv;
	const struct memory_provider_ops *mp_ops;
	u32 rx_page_size;
};
struct page_pool_params {
	unsigned int order;
	unsigned int pool_size;
	unsigned int flags;
	int nid;
	struct device *dev;
	struct net_device *netdev;
	unsigned int queue_idx;
	enum dma_data_direction dma_dir;
	unsigned int max_len;
	unsigned int offset;
};
struct pp_alloc_cache {
	u32 count;
	unsigned long cache[PP_ALLOC_CACHE_SIZE];
};
struct page_pool {
	struct page_pool_params p;
	void *mp_priv;
	const struct memory_provider_ops *mp_ops;
	bool dma_map;
	bool dma_sync;
	bool dma_sync_for_cpu;
	bool has_init_callback;
	u32 pages_state_hold_cnt;
	atomic_t pages_state_release_cnt;
	struct pp_alloc_cache alloc;
	struct netdev_rx_queue *rxq;
};
/*
 * A net_iov's page_pool fields: at top level until 6.17, inside a struct
 * netmem_desc from then on (NIOV_K_NETMEM_DESC, from the tree probe).
 */
#ifdef NIOV_K_NETMEM_DESC
#define NIOV_K_NIOV(niov, field)	((niov)->desc.field)
#else
#define NIOV_K_NIOV(niov, field)	((niov)->field)
#endif
/* The net_iov a netmem_ref names, whatever the tree's netmem.h offers. */
#define niov_k_netmem_niov(netmem)	((struct net_iov *)((unsigned long)(netmem) & ~1UL))
/* 2026 trees stamp niovs with net_iov_init(); a tree calling it without
 * defining it gets this (the probe says NIOV_K_NEED_NET_IOV_INIT). */
#ifdef NIOV_K_NEED_NET_IOV_INIT
#define net_iov_init(niov, area, kind)	do { (niov)->owner = (area); (niov)->type = (kind); } while (0)
#endif
/* 2026 trees take the fill's niov reference with netmem_inc_ref(); a tree
 * calling it without defining it gets the adapter's counting reference
 * (the probe says NIOV_K_NEED_NETMEM_INC_REF). */
#ifdef NIOV_K_NEED_NETMEM_INC_REF
void netmem_inc_ref(unsigned long netmem);
#endif
/* page_pool.c's pp_info helpers (the provider's alloc/release call them) */
void page_pool_set_pp_info(struct page_pool *pool, unsigned long netmem);
void page_pool_clear_pp_info(unsigned long netmem);

/* --- net_device and rx queues ---------------------------------------------- */

struct netdev_rx_queue {
	struct pp_memory_provider_params mp_params;
	struct net_device *dev;
	void *pool;			/* AF_XDP pool (never set) */
	struct page_pool *page_pool;	/* what the fake driver built at restart */
	unsigned int napi_id;
};
struct netdev_queue_mgmt_ops {
	unsigned int supported_params;
};
#define QCFG_RX_PAGE_SIZE	0x1
/* The ring configuration devmem's 6.14 bind-to-queue reads: header split on. */
enum {
	ETHTOOL_TCP_DATA_SPLIT_UNKNOWN = 0,
	ETHTOOL_TCP_DATA_SPLIT_DISABLED,
	ETHTOOL_TCP_DATA_SPLIT_ENABLED,
};
struct netdev_config {
	u32 hds_thresh;
	u8 hds_config;
	u32 rx_buf_len;
};
struct net_device {
	struct device dev;
	char name[16];
	int ifindex;
	unsigned int num_rx_queues;
	unsigned int real_num_rx_queues;
	struct netdev_rx_queue *_rx;
	const struct netdev_queue_mgmt_ops *queue_mgmt_ops;
	struct netdev_config *cfg;
	bool netmem_tx;
	bool up;
	/*
	 * Fields a tree adds that its devmem code reads, fed from the run's
	 * configuration (the device's limit, or the scenario's override).
	 */
	u32 netmem_tx_max_frag_size;
};
static inline struct netdev_rx_queue *__netif_get_rx_queue(struct net_device *dev, unsigned int i)
{
	return &dev->_rx[i];
}
static inline unsigned int get_netdev_rx_queue_index(struct netdev_rx_queue *rxq)
{
	return (unsigned int)(rxq - rxq->dev->_rx);
}
#define netif_running(d)	((d)->up)
#define netif_device_present(d)	true
#define netdev_need_ops_lock(d)	true
int netdev_rx_queue_restart(struct net_device *dev, unsigned int rxq_idx);

/* --- netlink ----------------------------------------------------------------- */

struct netlink_ext_ack {
	const char *_msg;
	const void *bad_attr;
	char _msg_buf[128];
};
#define NL_SET_ERR_MSG(e, m)	do { if (e) (e)->_msg = (m); } while (0)
#define NL_SET_ERR_MSG_MOD(e, m) NL_SET_ERR_MSG(e, m)
#define NL_SET_ERR_MSG_FMT(e, fmt, ...) do {					\
		if (e) {							\
			niov_k_snprintf((e)->_msg_buf, sizeof((e)->_msg_buf), fmt, ##__VA_ARGS__); \
			(e)->_msg = (e)->_msg_buf;				\
		}								\
	} while (0)
#define NL_SET_ERR_MSG_FMT_MOD	NL_SET_ERR_MSG_FMT
#define NL_SET_BAD_ATTR(e, a)	do { if (e) (e)->bad_attr = (a); } while (0)
#define NL_SET_ERR_MSG_ATTR(e, a, m) do { NL_SET_BAD_ATTR(e, a); NL_SET_ERR_MSG(e, m); } while (0)
struct nlattr { u16 nla_len, nla_type; };
static inline int nla_put_u32(void *skb, int type, u32 v) { (void)skb; (void)type; (void)v; return 0; }
enum {
	NETDEV_A_PAGE_POOL_DMABUF = 1,
	NETDEV_A_QUEUE_DMABUF = 2,
	NETDEV_A_QUEUE_IO_URING = 3,
	NETDEV_A_PAGE_POOL_IO_URING = 4,
};
struct netdev_nl_sock {
	struct mutex lock;
	struct list_head bindings;
};

/* --- sockets (net_devmem_get_binding() only needs to compile) ---------------- */

/*
 * The netlink socket a bind is made on (2026 net-next passes it to the
 * bind, which records its namespace and owner): one fake socket, whose
 * namespace and uid nothing compares.
 */
struct net { int ns_id; };
typedef struct { struct net *net; } possible_net_t;
typedef struct { uid_t val; } kuid_t;
struct sock { int sk_family; struct net *sk_net; kuid_t sk_uid; };
static inline struct net *sock_net(const struct sock *sk) { return sk->sk_net; }
static inline kuid_t sk_uid(const struct sock *sk) { return sk->sk_uid; }
static inline void write_pnet(possible_net_t *pnet, struct net *net) { pnet->net = net; }
static inline struct net *read_pnet(const possible_net_t *pnet) { return pnet->net; }
struct sock *niov_k_nl_sk(void);
struct dst_entry { struct net_device *dev; };
struct inet_connection_sock_af_ops { int (*rebuild_header)(struct sock *sk); };
struct inet_connection_sock { const struct inet_connection_sock_af_ops *icsk_af_ops; };
struct inet_connection_sock *niov_k_inet_csk(struct sock *sk);
#define inet_csk(sk)		niov_k_inet_csk(sk)
#define __sk_dst_get(sk)	((struct dst_entry *)((void)(sk), NULL))
#define sk_dst_get(sk)		__sk_dst_get(sk)
#define dst_release(d)		((void)(d))
#define dst_dev(d)		((d)->dev)
#define dst_dev_rcu(d)		((d)->dev)
#define ASSERT_EXCLUSIVE_WRITER(x) do { } while (0)

/* --- skb and iov_iter views for the TX fill ----------------------------------- */

#define NIOV_K_SKB_FRAGS	64	/* room above any MAX_SKB_FRAGS (17..45) */
typedef struct skb_frag {
	unsigned long netmem;
	unsigned int len;
	unsigned int offset;
	unsigned int truesize;	/* what adding it charged (the view's, for the ABI) */
} skb_frag_t;
struct skb_shared_info {
	u8 nr_frags;
	skb_frag_t frags[NIOV_K_SKB_FRAGS];
};
struct sk_buff {
	unsigned int len;
	unsigned int data_len;
	unsigned int truesize;
	bool unreadable;
	struct skb_shared_info shinfo;
};
#define skb_shinfo(skb)		(&(skb)->shinfo)
#define skb_frag_size(f)	((f)->len)
#define skb_frag_off(f)		((f)->offset)
static inline void skb_add_rx_frag_netmem(struct sk_buff *skb, int i, unsigned long netmem,
					  int off, int size, unsigned int truesize)
{
	skb_frag_t *frag = &skb_shinfo(skb)->frags[i];

	frag->netmem = netmem;
	frag->offset = (unsigned int)off;
	frag->len = (unsigned int)size;
	frag->truesize = truesize;
	skb_shinfo(skb)->nr_frags = (u8)(i + 1);
	if (netmem & 1UL)
		skb->unreadable = true;
	skb->len += (unsigned int)size;
	skb->data_len += (unsigned int)size;
	skb->truesize += truesize;
}

/* The ABI's iterator is the kernel's ITER_IOVEC state (niov_impl.h). */
#define iov_iter	niov_iov_iter
enum iter_type { ITER_UBUF, ITER_IOVEC, ITER_BVEC, ITER_KVEC };
#define iov_iter_type(i)	((void)(i), ITER_IOVEC)
#define iter_is_iovec(i)	((void)(i), true)
#define iter_is_ubuf(i)		((void)(i), false)
#define user_backed_iter(i)	((void)(i), true)
static inline void *iter_iov_addr(const struct iov_iter *i)
{
	return (void *)(uintptr_t)(i->iov->base + i->iov_offset);
}
static inline size_t iter_iov_len(const struct iov_iter *i)
{
	return (size_t)(i->iov->len - i->iov_offset);
}
static inline size_t iov_iter_count(const struct iov_iter *i) { return (size_t)i->count; }
void iov_iter_advance(struct iov_iter *i, size_t size);

#endif /* NIOV_K_NET_H */
