#pragma once
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Whether `bytes` is well-formed UTF-8 (RFC 3629, Unicode's definition: no
 * overlong forms, no surrogates, nothing above U+10FFFF, no sequence cut off
 * at the end); the same answer as the Swift standard library's validation.
 * Vectorised with AVX2 where the CPU has it (chosen at each call by
 * __builtin_cpu_supports), otherwise tc_utf8_is_valid_portable. */
bool tc_utf8_is_valid(const uint8_t *bytes, size_t count);

/* The same answer without AVX2: ASCII sixteen bytes a step with SSE2 (there
 * on every x86-64), the rest a character at a time. What tc_utf8_is_valid
 * falls back to; public so that the tests check it on a CPU with AVX2 too. */
bool tc_utf8_is_valid_portable(const uint8_t *bytes, size_t count);
