/* Scans of XML markup for the feed decoder's filter (UntrustedXMLFilter). */
#include "trackcast-text.h"

#if defined(__x86_64__)
#include <immintrin.h>

/* Each lane: this byte is '<' and the next one '!' or '?' (the second load is
 * the first one byte on, so each step reads one byte past its block). */
__attribute__((target("avx2"))) static size_t avx2_declaration_index(const uint8_t *bytes, size_t count, size_t i)
{
    const __m256i open = _mm256_set1_epi8('<'), bang = _mm256_set1_epi8('!'), question = _mm256_set1_epi8('?');
    for (; i + 33 <= count; i += 32) {
        __m256i here = _mm256_loadu_si256((const __m256i *)(bytes + i));
        __m256i next = _mm256_loadu_si256((const __m256i *)(bytes + i + 1));
        __m256i declaration = _mm256_or_si256(_mm256_cmpeq_epi8(next, bang), _mm256_cmpeq_epi8(next, question));
        unsigned found = (unsigned)_mm256_movemask_epi8(_mm256_and_si256(_mm256_cmpeq_epi8(here, open), declaration));
        if (found != 0) return i + (size_t)__builtin_ctz(found);
    }
    return i;
}

static size_t sse2_declaration_index(const uint8_t *bytes, size_t count, size_t i)
{
    const __m128i open = _mm_set1_epi8('<'), bang = _mm_set1_epi8('!'), question = _mm_set1_epi8('?');
    for (; i + 17 <= count; i += 16) {
        __m128i here = _mm_loadu_si128((const __m128i *)(bytes + i));
        __m128i next = _mm_loadu_si128((const __m128i *)(bytes + i + 1));
        __m128i declaration = _mm_or_si128(_mm_cmpeq_epi8(next, bang), _mm_cmpeq_epi8(next, question));
        unsigned found = (unsigned)_mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(here, open), declaration));
        if (found != 0) return i + (size_t)__builtin_ctz(found);
    }
    return i;
}
#endif

size_t tc_markup_declaration_index(const uint8_t *bytes, size_t count, size_t start)
{
    size_t i = start;
#if defined(__x86_64__)
    /* Vector steps up to the first find: 32 bytes with AVX2 where the CPU has it,
     * then sixteen (all of them without AVX2, the last block's with it, so
     * that the tests run both), and the last few a byte at a time. */
    if (__builtin_cpu_supports("avx2")) i = avx2_declaration_index(bytes, count, i);
    i = sse2_declaration_index(bytes, count, i);
#endif
    for (; i + 1 < count; i++)
        if (bytes[i] == '<' && (bytes[i + 1] == '!' || bytes[i + 1] == '?')) return i;
    return count;
}
