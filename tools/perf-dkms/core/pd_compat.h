/* SPDX-License-Identifier: MIT */
/*
 * The core compiles in two worlds: inside the kernel (Kbuild defines
 * __KERNEL__) and in user space for the tools and unit tests. Only the few
 * freestanding headers both provide are used, so nothing else needs #ifdefs.
 */
#ifndef PD_COMPAT_H
#define PD_COMPAT_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/string.h>
#else
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#endif

#ifdef __cplusplus
#define PD_EXTERN_C_BEGIN extern "C" {
#define PD_EXTERN_C_END }
#else
#define PD_EXTERN_C_BEGIN
#define PD_EXTERN_C_END
#endif

#define PD_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif /* PD_COMPAT_H */
