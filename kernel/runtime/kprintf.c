// SPDX-License-Identifier: GPL-2.0
/*
 * kprintf.c - snprintf as kernel code means it (lib/vsprintf.c's %p
 * extensions), for the extack messages the suite shows and compares.
 * libc's printf would read "%pad" as a pointer followed by "ad" and print
 * an address that changes from run to run; reports must be deterministic.
 *
 *  %pad, %pa[p]	the dma_addr_t / phys_addr_t the argument points to, as
 *			0x plus 16 hex digits (64-bit, as the kernel prints it)
 *  %p<letters>, %p	"(ptr)": the kernel hashes plain pointers, and no other
 *			extension means anything to the suite
 *
 * Everything else goes to libc one conversion at a time.  Compiled with
 * libc headers (like libc_bridge.c), not with the shim.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

int niov_k_vsnprintf(char *buf, unsigned long size, const char *fmt, va_list ap);
int niov_k_snprintf(char *buf, unsigned long size, const char *fmt, ...);
int niov_k_scnprintf(char *buf, unsigned long size, const char *fmt, ...);

struct out {
	char *buf;
	size_t size;
	size_t len;	/* what would have been written */
};

static void put(struct out *o, const char *s, size_t n)
{
	if (o->len + 1 < o->size) {
		size_t room = o->size - 1 - o->len;

		memcpy(o->buf + o->len, s, n < room ? n : room);
	}
	o->len += n;
}

/* A %p with its extension letters at *pp; advances past them. */
static void put_pointer(struct out *o, const char **pp, va_list *ap)
{
	const char *p = *pp;
	const void *arg = va_arg(*ap, const void *);
	char tmp[24];

	if (p[0] == 'a' && (p[1] == 'd' || p[1] == 'p')) {
		snprintf(tmp, sizeof(tmp), "0x%016llx", arg ? (unsigned long long)*(const uint64_t *)arg : 0ULL);
		put(o, tmp, strlen(tmp));
		p += 2;
	} else if (p[0] == 'a') {
		snprintf(tmp, sizeof(tmp), "0x%016llx", arg ? (unsigned long long)*(const uint64_t *)arg : 0ULL);
		put(o, tmp, strlen(tmp));
		p += 1;
	} else {
		put(o, "(ptr)", 5);
		while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9'))
			p++;
	}
	*pp = p;
}

/* One conversion spec[] (flags, width, precision, length, conversion) with its argument. */
static void put_one(struct out *o, const char *spec, char conv, int lng, va_list *ap)
{
	char tmp[512];
	int n = 0;

	switch (conv) {
	case 'd': case 'i':
		if (lng >= 2)
			n = snprintf(tmp, sizeof(tmp), spec, va_arg(*ap, long long));
		else if (lng == 1)
			n = snprintf(tmp, sizeof(tmp), spec, va_arg(*ap, long));
		else
			n = snprintf(tmp, sizeof(tmp), spec, va_arg(*ap, int));
		break;
	case 'u': case 'x': case 'X': case 'o':
		if (lng >= 2)
			n = snprintf(tmp, sizeof(tmp), spec, va_arg(*ap, unsigned long long));
		else if (lng == 1)
			n = snprintf(tmp, sizeof(tmp), spec, va_arg(*ap, unsigned long));
		else
			n = snprintf(tmp, sizeof(tmp), spec, va_arg(*ap, unsigned int));
		break;
	case 'c':
		n = snprintf(tmp, sizeof(tmp), spec, va_arg(*ap, int));
		break;
	case 's': {
		const char *s = va_arg(*ap, const char *);

		n = snprintf(tmp, sizeof(tmp), spec, s ? s : "(null)");
		break;
	}
	case 'e': case 'f': case 'g': case 'E': case 'G':
		n = snprintf(tmp, sizeof(tmp), spec, va_arg(*ap, double));
		break;
	default:
		tmp[0] = conv;
		n = 1;
		break;
	}
	if (n < 0)
		return;
	put(o, tmp, (size_t)n < sizeof(tmp) ? (size_t)n : sizeof(tmp) - 1);
}

int niov_k_vsnprintf(char *buf, unsigned long size, const char *fmt, va_list ap)
{
	struct out o = { .buf = buf, .size = size, .len = 0 };
	va_list args;

	va_copy(args, ap);
	while (*fmt) {
		char spec[32];
		size_t k = 0;
		int lng = 0;

		if (*fmt != '%') {
			const char *next = strchr(fmt, '%');
			size_t n = next ? (size_t)(next - fmt) : strlen(fmt);

			put(&o, fmt, n);
			fmt += n;
			continue;
		}
		fmt++;
		if (*fmt == '%') {
			put(&o, "%", 1);
			fmt++;
			continue;
		}
		spec[k++] = '%';
		while (*fmt && strchr("-+ #0123456789.*", *fmt) && k < sizeof(spec) - 4) {
			if (*fmt == '*') {	/* width or precision from the arguments */
				k += (size_t)snprintf(spec + k, sizeof(spec) - k, "%d", va_arg(args, int));
				fmt++;
				continue;
			}
			spec[k++] = *fmt++;
		}
		while (*fmt && strchr("hlzjtL", *fmt)) {
			/* z, j, t and l are all 64-bit here (LP64); h and hh promote to int */
			lng += *fmt == 'l' ? 1 : (*fmt == 'z' || *fmt == 'j' || *fmt == 't') ? 2 : 0;
			fmt++;
		}
		if (!*fmt)
			break;
		if (*fmt == 'p') {
			fmt++;
			put_pointer(&o, &fmt, &args);
			continue;
		}
		if (lng >= 2)
			spec[k++] = 'l', spec[k++] = 'l';
		else if (lng == 1)
			spec[k++] = 'l';
		spec[k++] = *fmt;
		spec[k] = 0;
		put_one(&o, spec, *fmt, lng, &args);
		fmt++;
	}
	va_end(args);
	if (o.size)
		o.buf[o.len < o.size ? o.len : o.size - 1] = 0;
	return (int)o.len;
}

int niov_k_snprintf(char *buf, unsigned long size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = niov_k_vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

/* scnprintf(): the characters actually written, not those that would have been. */
int niov_k_scnprintf(char *buf, unsigned long size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = niov_k_vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	if (!size)
		return 0;
	return n < (int)size ? n : (int)size - 1;
}
