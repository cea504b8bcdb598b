/* XMLByteReader's scans of text, attribute values, CDATA sections and
 * comments: where the next byte is that ends a run of them. */
#include "trackcast-text.h"

/* A run ends at one of up to four bytes of its own (given twice where fewer),
 * at 0xEF (perhaps U+FFFE or U+FFFF), and at a control character other than
 * the whitespace the run keeps (up to three, 0x20 standing for none). */
static inline __attribute__((always_inline)) int ends_run(uint8_t byte, uint8_t a, uint8_t b, uint8_t c, uint8_t d,
                                                          uint8_t kept1, uint8_t kept2, uint8_t kept3)
{
    if (byte < 0x20) return byte != kept1 && byte != kept2 && byte != kept3;
    return byte == 0xEF || byte == a || byte == b || byte == c || byte == d;
}

#if defined(__x86_64__)
#include <immintrin.h>

/* Each lane of the block at `at`: whether its byte ends the run. */
static inline __attribute__((always_inline)) unsigned
sse2_ends(const uint8_t *at, uint8_t a, uint8_t b, uint8_t c, uint8_t d, uint8_t kept1, uint8_t kept2, uint8_t kept3)
{
    __m128i x = _mm_loadu_si128((const __m128i *)at);
    /* Unsigned x <= 0x1F: the smaller of the two is x itself. */
    __m128i control = _mm_cmpeq_epi8(_mm_min_epu8(x, _mm_set1_epi8(0x1F)), x);
    __m128i kept = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8((char)kept1)),
                                             _mm_cmpeq_epi8(x, _mm_set1_epi8((char)kept2))),
                                _mm_cmpeq_epi8(x, _mm_set1_epi8((char)kept3)));
    __m128i own = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8((char)a)), _mm_cmpeq_epi8(x, _mm_set1_epi8((char)b))),
                               _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8((char)c)), _mm_cmpeq_epi8(x, _mm_set1_epi8((char)d))));
    __m128i ends = _mm_or_si128(_mm_or_si128(own, _mm_cmpeq_epi8(x, _mm_set1_epi8((char)0xEF))), _mm_andnot_si128(kept, control));
    return (unsigned)_mm_movemask_epi8(ends);
}

__attribute__((target("avx2"), always_inline)) static inline unsigned
avx2_ends(const uint8_t *at, uint8_t a, uint8_t b, uint8_t c, uint8_t d, uint8_t kept1, uint8_t kept2, uint8_t kept3)
{
    __m256i x = _mm256_loadu_si256((const __m256i *)at);
    __m256i control = _mm256_cmpeq_epi8(_mm256_min_epu8(x, _mm256_set1_epi8(0x1F)), x);
    __m256i kept = _mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi8(x, _mm256_set1_epi8((char)kept1)),
                                                   _mm256_cmpeq_epi8(x, _mm256_set1_epi8((char)kept2))),
                                   _mm256_cmpeq_epi8(x, _mm256_set1_epi8((char)kept3)));
    __m256i own = _mm256_or_si256(
        _mm256_or_si256(_mm256_cmpeq_epi8(x, _mm256_set1_epi8((char)a)), _mm256_cmpeq_epi8(x, _mm256_set1_epi8((char)b))),
        _mm256_or_si256(_mm256_cmpeq_epi8(x, _mm256_set1_epi8((char)c)), _mm256_cmpeq_epi8(x, _mm256_set1_epi8((char)d))));
    __m256i ends = _mm256_or_si256(_mm256_or_si256(own, _mm256_cmpeq_epi8(x, _mm256_set1_epi8((char)0xEF))),
                                   _mm256_andnot_si256(kept, control));
    return (unsigned)_mm256_movemask_epi8(ends);
}

/* From `i` on, `width` (16 or 32) bytes a step; the last block is the
 * document's last `width` bytes, which may go back over bytes already
 * checked: none of those ends the run, so no lane of them is set. The run
 * began at least `width` bytes before the end. */
#define RUN_END_FROM(name, attributes, ends, width)                                                                \
    attributes static size_t name(const uint8_t *bytes, size_t count, size_t i, uint8_t a, uint8_t b, uint8_t c,     \
                                  uint8_t d, uint8_t kept1, uint8_t kept2, uint8_t kept3)                            \
    {                                                                                                               \
        for (; i + width <= count; i += width) {                                                                    \
            unsigned found = ends(bytes + i, a, b, c, d, kept1, kept2, kept3);                                      \
            if (found != 0) return i + (size_t)__builtin_ctz(found);                                                \
        }                                                                                                           \
        if (i == count) return count;                                                                               \
        unsigned found = ends(bytes + count - width, a, b, c, d, kept1, kept2, kept3);                              \
        return found != 0 ? count - width + (size_t)__builtin_ctz(found) : count;                                   \
    }
RUN_END_FROM(sse2_run_end, inline __attribute__((always_inline)), sse2_ends, 16)
RUN_END_FROM(avx2_run_end_inlined, __attribute__((target("avx2"), always_inline)) inline, avx2_ends, 32)

/* The AVX2 steps as functions of their own, compiled for AVX2 and called only
 * where the CPU has it. */
#define AVX2_RUN_END(name, a, b, c, d, kept1, kept2, kept3)                                                        \
    __attribute__((target("avx2"))) static size_t name(const uint8_t *bytes, size_t count, size_t i)              \
    {                                                                                                               \
        return avx2_run_end_inlined(bytes, count, i, a, b, c, d, kept1, kept2, kept3);                              \
    }
AVX2_RUN_END(avx2_text_end, '<', '&', ']', ']', '\t', '\n', 0x20)
AVX2_RUN_END(avx2_value_end, '<', '&', '"', '\'', 0x20, 0x20, 0x20)
AVX2_RUN_END(avx2_cdata_end, ']', ']', ']', ']', '\t', '\n', '\r')
AVX2_RUN_END(avx2_comment_end, '-', '-', '-', '-', '\t', '\n', '\r')
#endif

/* The first sixteen bytes as one SSE2 block: most runs of text in a feed are
 * the line break and indentation between two tags, and end there. Then 32
 * bytes a step with AVX2 where the CPU has it (SSE2 otherwise, and for runs
 * too short for a step), and a byte at a time only within sixteen bytes of
 * the document's end. */
static inline __attribute__((always_inline)) size_t
run_end(const uint8_t *bytes, size_t count, size_t start, size_t (*avx2)(const uint8_t *, size_t, size_t),
        uint8_t a, uint8_t b, uint8_t c, uint8_t d, uint8_t kept1, uint8_t kept2, uint8_t kept3)
{
    size_t i = start;
#if defined(__x86_64__)
    if (start < count && count - start >= 16) {
        unsigned found = sse2_ends(bytes + start, a, b, c, d, kept1, kept2, kept3);
        if (found != 0) return start + (size_t)__builtin_ctz(found);
        i = start + 16;
        if (count - i >= 32 && __builtin_cpu_supports("avx2")) return avx2(bytes, count, i);
        return sse2_run_end(bytes, count, i, a, b, c, d, kept1, kept2, kept3);
    }
#else
    (void)avx2;
#endif
    for (; i < count; i++)
        if (ends_run(bytes[i], a, b, c, d, kept1, kept2, kept3)) return i;
    return count;
}
#if !defined(__x86_64__)
#define avx2_text_end NULL
#define avx2_value_end NULL
#define avx2_cdata_end NULL
#define avx2_comment_end NULL
#endif

size_t tc_xml_text_run_end(const uint8_t *bytes, size_t count, size_t start)
{
    return run_end(bytes, count, start, avx2_text_end, '<', '&', ']', ']', '\t', '\n', 0x20);
}

size_t tc_xml_value_run_end(const uint8_t *bytes, size_t count, size_t start)
{
    return run_end(bytes, count, start, avx2_value_end, '<', '&', '"', '\'', 0x20, 0x20, 0x20);
}

size_t tc_xml_cdata_run_end(const uint8_t *bytes, size_t count, size_t start)
{
    return run_end(bytes, count, start, avx2_cdata_end, ']', ']', ']', ']', '\t', '\n', '\r');
}

size_t tc_xml_comment_run_end(const uint8_t *bytes, size_t count, size_t start)
{
    return run_end(bytes, count, start, avx2_comment_end, '-', '-', '-', '-', '\t', '\n', '\r');
}
