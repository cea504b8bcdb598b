/* XMLByteReader's scans of text, attribute values, CDATA sections and
 * comments, and the feed handler's for control characters: where the next
 * byte is that ends a run of them. */
#include "trackcast-text.h"

/* The bytes a run ends at: up to five of its own (given twice where fewer),
 * and a control character other than the whitespace the run keeps (up to
 * three, 0x20 standing for none). */
struct stops {
    uint8_t own[5];
    uint8_t kept[3];
};

/* For XMLByteReader every run also ends at 0xEF, which may start U+FFFE or
 * U+FFFF, no XML characters. */
static const struct stops text = {{'<', '&', ']', ']', 0xEF}, {'\t', '\n', 0x20}};
static const struct stops value = {{'<', '&', '"', '\'', 0xEF}, {0x20, 0x20, 0x20}};
static const struct stops cdata = {{']', ']', ']', ']', 0xEF}, {'\t', '\n', '\r'}};
static const struct stops comment = {{'-', '-', '-', '-', 0xEF}, {'\t', '\n', '\r'}};
/* DEL, and 0xC2, the lead byte of every C1 control. */
static const struct stops control = {{0x7F, 0xC2, 0xC2, 0xC2, 0xC2}, {'\t', '\n', '\r'}};
/* What JSONWriter escapes: every control, the quote and the backslash, DEL,
 * and 0xC2 (a C1 control's lead byte, which the caller checks). */
static const struct stops json = {{'"', '\\', 0x7F, 0xC2, 0xC2}, {0x20, 0x20, 0x20}};

static inline __attribute__((always_inline)) int ends_run(uint8_t byte, struct stops stops)
{
    if (byte < 0x20) return byte != stops.kept[0] && byte != stops.kept[1] && byte != stops.kept[2];
    for (int k = 0; k < 5; k++)
        if (byte == stops.own[k]) return 1;
    return 0;
}

#if defined(__x86_64__)
#include <immintrin.h>

/* Each lane of the sixteen bytes at `at`: whether its byte ends the run. */
static inline __attribute__((always_inline)) unsigned sse2_ends(const uint8_t *at, struct stops stops)
{
    __m128i x = _mm_loadu_si128((const __m128i *)at);
    /* Unsigned x <= 0x1F: the smaller of the two is x itself. */
    __m128i controls = _mm_cmpeq_epi8(_mm_min_epu8(x, _mm_set1_epi8(0x1F)), x);
    __m128i kept = _mm_setzero_si128(), own = _mm_setzero_si128();
    for (int k = 0; k < 3; k++) kept = _mm_or_si128(kept, _mm_cmpeq_epi8(x, _mm_set1_epi8((char)stops.kept[k])));
    for (int k = 0; k < 5; k++) own = _mm_or_si128(own, _mm_cmpeq_epi8(x, _mm_set1_epi8((char)stops.own[k])));
    return (unsigned)_mm_movemask_epi8(_mm_or_si128(own, _mm_andnot_si128(kept, controls)));
}

/* The same for 32 bytes. */
__attribute__((target("avx2"), always_inline)) static inline unsigned avx2_ends(const uint8_t *at, struct stops stops)
{
    __m256i x = _mm256_loadu_si256((const __m256i *)at);
    __m256i controls = _mm256_cmpeq_epi8(_mm256_min_epu8(x, _mm256_set1_epi8(0x1F)), x);
    __m256i kept = _mm256_setzero_si256(), own = _mm256_setzero_si256();
    for (int k = 0; k < 3; k++) kept = _mm256_or_si256(kept, _mm256_cmpeq_epi8(x, _mm256_set1_epi8((char)stops.kept[k])));
    for (int k = 0; k < 5; k++) own = _mm256_or_si256(own, _mm256_cmpeq_epi8(x, _mm256_set1_epi8((char)stops.own[k])));
    return (unsigned)_mm256_movemask_epi8(_mm256_or_si256(own, _mm256_andnot_si256(kept, controls)));
}

/* From `i` on, `width` (16 or 32) bytes a step; the last block is the
 * buffer's last `width` bytes, which may go back over bytes already checked:
 * none of those ends the run, so no lane of them is set. The run began at
 * least `width` bytes before the end. */
#define RUN_END_FROM(name, attributes, ends, width)                                                                \
    attributes size_t name(const uint8_t *bytes, size_t count, size_t i, struct stops stops)                        \
    {                                                                                                               \
        for (; i + width <= count; i += width) {                                                                    \
            unsigned found = ends(bytes + i, stops);                                                                \
            if (found != 0) return i + (size_t)__builtin_ctz(found);                                                \
        }                                                                                                           \
        if (i == count) return count;                                                                               \
        unsigned found = ends(bytes + count - width, stops);                                                        \
        return found != 0 ? count - width + (size_t)__builtin_ctz(found) : count;                                   \
    }
RUN_END_FROM(sse2_run_end, static inline __attribute__((always_inline)), sse2_ends, 16)
RUN_END_FROM(avx2_run_end, __attribute__((target("avx2"), always_inline)) static inline, avx2_ends, 32)

/* The AVX2 steps as functions of their own, compiled for AVX2 and called only
 * where the CPU has it, each with its stops as constants. */
#define AVX2_RUN_END(name, stops)                                                                                  \
    __attribute__((target("avx2"))) static size_t name(const uint8_t *bytes, size_t count, size_t i)              \
    {                                                                                                               \
        return avx2_run_end(bytes, count, i, stops);                                                                \
    }
AVX2_RUN_END(avx2_text_end, text)
AVX2_RUN_END(avx2_value_end, value)
AVX2_RUN_END(avx2_cdata_end, cdata)
AVX2_RUN_END(avx2_comment_end, comment)
AVX2_RUN_END(avx2_control_end, control)
AVX2_RUN_END(avx2_json_end, json)
#else
#define avx2_text_end NULL
#define avx2_value_end NULL
#define avx2_cdata_end NULL
#define avx2_comment_end NULL
#define avx2_control_end NULL
#define avx2_json_end NULL
#endif

/* The first sixteen bytes as one SSE2 block: most runs of text in a feed are
 * the line break and indentation between two tags, and end there. Then 32
 * bytes a step with AVX2 where the CPU has it (SSE2 otherwise, and for runs
 * too short for a step), and a byte at a time only within sixteen bytes of
 * the end. */
static inline __attribute__((always_inline)) size_t
run_end(const uint8_t *bytes, size_t count, size_t start, size_t (*avx2)(const uint8_t *, size_t, size_t), struct stops stops)
{
    size_t i = start;
#if defined(__x86_64__)
    if (start < count && count - start >= 16) {
        unsigned found = sse2_ends(bytes + start, stops);
        if (found != 0) return start + (size_t)__builtin_ctz(found);
        i = start + 16;
        if (count - i >= 32 && __builtin_cpu_supports("avx2")) return avx2(bytes, count, i);
        return sse2_run_end(bytes, count, i, stops);
    }
#else
    (void)avx2;
#endif
    for (; i < count; i++)
        if (ends_run(bytes[i], stops)) return i;
    return count;
}

size_t tc_xml_text_run_end(const uint8_t *bytes, size_t count, size_t start)
{
    return run_end(bytes, count, start, avx2_text_end, text);
}

size_t tc_xml_value_run_end(const uint8_t *bytes, size_t count, size_t start)
{
    return run_end(bytes, count, start, avx2_value_end, value);
}

size_t tc_xml_cdata_run_end(const uint8_t *bytes, size_t count, size_t start)
{
    return run_end(bytes, count, start, avx2_cdata_end, cdata);
}

size_t tc_xml_comment_run_end(const uint8_t *bytes, size_t count, size_t start)
{
    return run_end(bytes, count, start, avx2_comment_end, comment);
}

size_t tc_control_candidate_index(const uint8_t *bytes, size_t count, size_t start)
{
    return run_end(bytes, count, start, avx2_control_end, control);
}

size_t tc_json_escape_candidate_index(const uint8_t *bytes, size_t count, size_t start)
{
    return run_end(bytes, count, start, avx2_json_end, json);
}
