// SPDX-License-Identifier: GPL-2.0
/*
 * state.c - the runtime's process-wide state: the run's configuration,
 * the resource counters, fault injection, WARN/BUG, and the small kernel
 * services nothing else owns (percpu_ref, strscpy, devres, kmem caches).
 */
#include "runtime.h"
#include "libc_bridge.h"

unsigned int niov_k_page_shift = 12;
unsigned int niov_k_max_skb_frags = 17;
unsigned int niov_k_max_page_order = 10;
unsigned int niov_k_device;
u32 niov_k_dev_tx_max_frag_size;

struct niov_resources niov_k_res;

void niov_k_configure(const struct niov_impl_config *cfg)
{
	niov_k_page_shift = cfg->page_shift;
	niov_k_max_skb_frags = cfg->max_skb_frags;
	niov_k_max_page_order = cfg->max_page_order;
	niov_k_device = cfg->device;
	niov_k_dev_tx_max_frag_size = cfg->dev_tx_max_frag_size;
}

/*
 * The engines read the resources before each bind and after each unbind,
 * so a case that wrote out of bounds in a call the guarded check skipped
 * is stopped before the next case runs on its heap.
 */
void niov_k_resources(struct niov_resources *out)
{
	niov_k_heap_check("when the resources were read");
	*out = niov_k_res;
}

/* Set by the adapter: a block of the code's is being freed. */
void (*niov_k_free_hook)(const void *p);

/* --- fault injection ------------------------------------------------------------ */

static u64 fault_calls[NIOV_FAULT_COUNT_];
static u64 fault_nth[NIOV_FAULT_COUNT_];

bool niov_k_fault_hit(enum niov_fault kind)
{
	u64 n = ++fault_calls[kind];

	return fault_nth[kind] && n == fault_nth[kind];
}

void niov_k_fault_arm(u32 kind, u64 nth)
{
	if (kind >= NIOV_FAULT_COUNT_)
		return;
	fault_calls[kind] = 0;
	fault_nth[kind] = nth;
}

u64 niov_k_fault_calls(u32 kind)
{
	return kind < NIOV_FAULT_COUNT_ ? fault_calls[kind] : 0;
}

/* --- WARN and BUG ------------------------------------------------------------------ */

void niov_k_warn(const char *file, int line, const char *what)
{
	niov_k_res.warns++;
	niov_libc_warn(file, line, what);
}

void niov_k_bug(const char *file, int line, const char *what)
{
	niov_k_res.bugs++;
	niov_libc_bug(file, line, what);
}

/*
 * The heap check costs a walk of every live block, so it runs only after a
 * call that allocated or freed (bind, unbind, a queue restart, a pool's
 * init), not after the fills and lookups an engine makes by the thousand;
 * the resources read at the end of every case covers those.  Only the
 * outermost call checks: the inner ones' blocks are on the same list.
 */
static unsigned int guarded_depth;

long niov_k_guarded(long (*fn)(void *arg), void *arg, long on_bug)
{
	u64 gen = niov_k_heap_generation();
	long ret;

	guarded_depth++;
	ret = niov_libc_guarded(fn, arg, on_bug);
	guarded_depth--;
	if (!guarded_depth && niov_k_heap_generation() != gen)
		niov_k_heap_check("after a call into the code that allocated or freed");
	return ret;
}

/* --- percpu_ref: one counter, the initial reference dropped by kill ---------------- */

int percpu_ref_init(struct percpu_ref *ref, percpu_ref_func_t *release,
		    unsigned int flags, gfp_t gfp)
{
	(void)gfp;
	ref->release = release;
	ref->dead = flags & PERCPU_REF_INIT_DEAD;
	ref->count = ref->dead ? 0 : 1;
	ref->inited = true;
	return 0;
}

void percpu_ref_exit(struct percpu_ref *ref)
{
	/* an exit with references left leaks them: keep them counted */
	ref->inited = false;
}

void percpu_ref_get_many(struct percpu_ref *ref, unsigned long nr)
{
	WARN_ON(ref->count <= 0);
	ref->count += (long)nr;
}

void percpu_ref_put_many(struct percpu_ref *ref, unsigned long nr)
{
	if (WARN_ON(ref->count < (long)nr))	/* underflow */
		return;
	ref->count -= (long)nr;
	if (ref->count == 0 && ref->release)
		ref->release(ref);
}

bool percpu_ref_tryget(struct percpu_ref *ref)
{
	if (ref->count <= 0)
		return false;
	percpu_ref_get_many(ref, 1);
	return true;
}

bool percpu_ref_tryget_live(struct percpu_ref *ref)
{
	return !ref->dead && percpu_ref_tryget(ref);
}

void percpu_ref_kill(struct percpu_ref *ref)
{
	if (WARN_ON(ref->dead))
		return;
	ref->dead = true;
	percpu_ref_put_many(ref, 1);
}

/* --- odds and ends ----------------------------------------------------------------- */

ssize_t niov_k_strscpy(char *d, const char *s, size_t n)
{
	size_t len = strlen(s);

	if (!n)
		return -E2BIG;
	if (len >= n) {
		memcpy(d, s, n - 1);
		d[n - 1] = 0;
		return -E2BIG;
	}
	memcpy(d, s, len + 1);
	return (ssize_t)len;
}

static int rebuild_header_fails(struct sock *sk)
{
	(void)sk;
	return -EHOSTUNREACH;
}

static const struct inet_connection_sock_af_ops no_route_ops = {
	.rebuild_header = rebuild_header_fails,
};
static struct inet_connection_sock no_route_csk = { .icsk_af_ops = &no_route_ops };

struct inet_connection_sock *niov_k_inet_csk(struct sock *sk)
{
	(void)sk;
	return &no_route_csk;
}

/* The netlink socket every bind is made on: one namespace, uid 0. */
static struct net nl_net;
static struct sock nl_sk = { .sk_net = &nl_net };

struct sock *niov_k_nl_sk(void)
{
	return &nl_sk;
}

struct kmem_cache *niov_k_cache_create(size_t size)
{
	struct kmem_cache *c = kzalloc(sizeof(*c), GFP_KERNEL);

	if (c)
		c->size = size;
	return c;
}

/* devres: genalloc's devm_ helpers link against these; nothing calls them. */
void *devres_alloc_node(dr_release_t release, size_t size, gfp_t gfp, int nid)
{
	(void)release; (void)nid;
	return kzalloc(size, gfp);
}
void devres_free(void *res) { kfree(res); }
void devres_add(struct device *dev, void *res) { (void)dev; (void)res; }
void *devres_find(struct device *dev, dr_release_t release, dr_match_t match, void *data)
{
	(void)dev; (void)release; (void)match; (void)data;
	return NULL;
}
int devres_release(struct device *dev, dr_release_t release, dr_match_t match, void *data)
{
	(void)dev; (void)release; (void)match; (void)data;
	return -ENOENT;
}
