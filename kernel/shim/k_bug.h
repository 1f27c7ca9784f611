/* SPDX-License-Identifier: GPL-2.0 */
/*
 * k_bug.h - WARN*, BUG*, printk.  A WARN counts (niov_resources.warns) and
 * says where; a BUG counts, says where and stops the operation (back to the
 * adapter through niov_libc_guarded(), see libc_bridge.h).
 */
#ifndef NIOV_K_BUG_H
#define NIOV_K_BUG_H

void niov_k_warn(const char *file, int line, const char *what);
void niov_k_bug(const char *file, int line, const char *what) __attribute__((noreturn));

#define WARN(cond, fmt...) ({					\
	int __c = !!(cond);					\
	if (unlikely(__c))					\
		niov_k_warn(__FILE__, __LINE__, "WARN(" #cond ")"); \
	unlikely(__c);						\
})
#define WARN_ON(cond)		WARN(cond, "")
#define WARN_ONCE(cond, fmt...)	WARN(cond, "")
#define WARN_ON_ONCE(cond)	WARN(cond, "")
#define WARN_RATELIMIT(cond, fmt...) WARN(cond, "")
#define DEBUG_NET_WARN_ON_ONCE(cond)	((void)WARN_ON_ONCE(cond))
#define DEBUG_NET_WARN_ONCE(cond, fmt...) ((void)WARN_ON_ONCE(cond))
#define DEBUG_NET_WARN_ON(cond)	((void)WARN_ON(cond))
#define VM_WARN_ON(cond)	((void)WARN_ON(cond))
#define VM_WARN_ON_ONCE(cond)	((void)WARN_ON_ONCE(cond))
#define VM_BUG_ON(cond)		BUG_ON(cond)
#define BUG()			niov_k_bug(__FILE__, __LINE__, "BUG()")
#define BUG_ON(cond)		do { if (unlikely(cond)) niov_k_bug(__FILE__, __LINE__, "BUG_ON(" #cond ")"); } while (0)
#define lockdep_assert_held(l)	do { } while (0)
#define lockdep_assert_not_held(l) do { } while (0)
#define netdev_assert_locked(d)	do { } while (0)
#define netdev_ops_assert_locked(d) do { } while (0)
#define ASSERT_RTNL()		do { } while (0)
#define might_sleep()		do { } while (0)
#define might_sleep_if(c)	do { } while (0)
#define in_nmi()		0
#define in_interrupt()		0
#define in_softirq()		0
#define irqs_disabled()		0

/* Messages are dropped: the suite reports what matters itself. */
static inline __printf(1, 2) int printk(const char *fmt, ...) { (void)fmt; return 0; }
#define no_printk(fmt, ...)	({ if (0) printk(fmt, ##__VA_ARGS__); 0; })
#define pr_err(fmt, ...)	no_printk(fmt, ##__VA_ARGS__)
#define pr_warn(fmt, ...)	no_printk(fmt, ##__VA_ARGS__)
#define pr_warn_once(fmt, ...)	no_printk(fmt, ##__VA_ARGS__)
#define pr_info(fmt, ...)	no_printk(fmt, ##__VA_ARGS__)
#define pr_notice(fmt, ...)	no_printk(fmt, ##__VA_ARGS__)
#define pr_debug(fmt, ...)	no_printk(fmt, ##__VA_ARGS__)
#define pr_err_once(fmt, ...)	no_printk(fmt, ##__VA_ARGS__)
#define net_warn_ratelimited(fmt, ...)	no_printk(fmt, ##__VA_ARGS__)
#define net_err_ratelimited(fmt, ...)	no_printk(fmt, ##__VA_ARGS__)
#define dev_err(d, fmt, ...)	no_printk(fmt, ##__VA_ARGS__)
#define dev_warn(d, fmt, ...)	no_printk(fmt, ##__VA_ARGS__)
#define dev_info(d, fmt, ...)	no_printk(fmt, ##__VA_ARGS__)
#define dev_dbg(d, fmt, ...)	no_printk(fmt, ##__VA_ARGS__)
#define netdev_err(d, fmt, ...)	no_printk(fmt, ##__VA_ARGS__)
#define netdev_warn(d, fmt, ...) no_printk(fmt, ##__VA_ARGS__)
#define netdev_info(d, fmt, ...) no_printk(fmt, ##__VA_ARGS__)
#define netdev_dbg(d, fmt, ...)	no_printk(fmt, ##__VA_ARGS__)
#define KERN_ERR	""
#define KERN_WARNING	""
#define KERN_INFO	""
#define KERN_DEBUG	""

/* Tracepoints compile to nothing (any trace_*() a file calls is listed here). */
#define trace_page_pool_state_hold(...)		do { } while (0)
#define trace_page_pool_state_release(...)	do { } while (0)
#define trace_page_pool_update_nid(...)		do { } while (0)
#define trace_page_pool_release(...)		do { } while (0)

#endif /* NIOV_K_BUG_H */
