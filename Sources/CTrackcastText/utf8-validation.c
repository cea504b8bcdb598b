/* UTF-8 validation and repair for the feed decoder (FeedInputDecoder), which checks every
 * feed before libxml2 or XMLByteReader read it. In Swift a byte at a time (and
 * eight bytes a step over ASCII and two-byte scripts) it was 5.7 % of a
 * realistic feed's parse; Swift's SIMD types compile to loops over the lanes on
 * x86-64, so the vector code is here.
 *
 * The AVX2 path is the "lookup" algorithm of Keiser and Lemire, "Validating
 * UTF-8 In Less Than One Instruction Per Byte" (Software: Practice and
 * Experience, 2021), as simdjson has it: each byte's error classes are looked up
 * by the high nibble of the byte before it, the low nibble of the byte before
 * it and its own high nibble, and their AND is non-zero exactly where a
 * two-byte pattern is invalid (a continuation without a lead, a lead without
 * its continuation, the overlong, surrogate and too-large second bytes). The
 * third and fourth bytes of longer sequences are checked by where a three- or
 * four-byte lead stood two or three bytes back. Blocks of 64 bytes that are
 * all ASCII cost a load, an OR and a movemask. */
#include "trackcast-text.h"

#include <string.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

/* The length of the well-formed sequence at `bytes` (at most `left` bytes
 * read), 0 if there is none: Table 3-7 of the Unicode Standard. */
static size_t sequence_length(const uint8_t *bytes, size_t left)
{
    uint8_t lead = bytes[0];
    size_t length;
    uint8_t lower = 0x80, upper = 0xBF;
    if (lead < 0x80) return 1;
    if (lead >= 0xC2 && lead <= 0xDF) length = 2;
    else if (lead == 0xE0) { length = 3; lower = 0xA0; }
    else if ((lead >= 0xE1 && lead <= 0xEC) || lead == 0xEE || lead == 0xEF) length = 3;
    else if (lead == 0xED) { length = 3; upper = 0x9F; }
    else if (lead == 0xF0) { length = 4; lower = 0x90; }
    else if (lead >= 0xF1 && lead <= 0xF3) length = 4;
    else if (lead == 0xF4) { length = 4; upper = 0x8F; }
    else return 0;
    if (left < length) return 0;
    if (bytes[1] < lower || bytes[1] > upper) return 0;
    for (size_t k = 2; k < length; k++)
        if ((bytes[k] & 0xC0) != 0x80) return 0;
    return length;
}

/* For eight bytes starting at a character's start (`word`, the first byte
 * lowest) that hold only ASCII and two-byte characters: how many of them are
 * whole, valid characters (8, or 7 when the last byte leads a character the
 * next word ends); 0 for anything else (a longer character, a stray
 * continuation, the overlong leads C0 and C1), which is for the character at a
 * time check to judge. Text in Greek, Cyrillic, Arabic or accented Latin, with
 * the spaces and punctuation between its words, goes eight bytes a step. */
static size_t ascii_and_two_byte_step(uint64_t word)
{
    const uint64_t highs = 0x8080808080808080u;
    /* 10xxxxxx, 110xxxxx, 111xxxxx: bit 7 of each lane against bits 6 and 5 moved up to it. */
    uint64_t continuations = word & ~(word << 1) & highs;
    uint64_t two_byte_leads = word & (word << 1) & ~(word << 2) & highs;
    if ((word & (word << 1) & (word << 2) & highs) != 0) return 0;
    /* C0 and C1 (1100000x) have bits 1-4 clear: adding 0x7F to them (at most 0x1E) sets no bit 7. */
    uint64_t lead_bits_set = ((word & 0x1E1E1E1E1E1E1E1Eu) + 0x7F7F7F7F7F7F7F7Fu) & highs;
    if ((two_byte_leads & ~lead_bits_set) != 0) return 0;
    /* Each lead's continuation is the next byte: a lead's bit moved one lane up is a continuation's. */
    if (continuations != two_byte_leads << 8) return 0;
    return (two_byte_leads >> 63) != 0 ? 7 : 8;
}

bool tc_utf8_is_valid_portable(const uint8_t *bytes, size_t count)
{
    size_t i = 0;
    while (i < count) {
#if defined(__x86_64__)
        while (i + 16 <= count
               && _mm_movemask_epi8(_mm_loadu_si128((const __m128i *)(bytes + i))) == 0)
            i += 16;
#endif
        /* Then at least sixteen bytes a character at a time: in text that
         * mixes scripts, runs of ASCII are short. */
        size_t stretch_end = count - i < 16 ? count : i + 16;
        while (i < stretch_end) {
            if (bytes[i] < 0xE0 && i + 8 <= count) {
                uint64_t word;
                memcpy(&word, bytes + i, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
                word = __builtin_bswap64(word);
#endif
                size_t step = ascii_and_two_byte_step(word);
                if (step != 0) {
                    i += step;
                    continue;
                }
            }
            size_t length = sequence_length(bytes + i, count - i);
            if (length == 0) return false;
            i += length;
        }
    }
    return true;
}

#if defined(__x86_64__)

/* Error classes of a byte pair (first byte, second byte); see the paper. */
enum {
    TOO_SHORT = 1 << 0,      /* 11______ 0_______ or 11______ 11______ */
    TOO_LONG = 1 << 1,       /* 0_______ 10______ */
    OVERLONG_3 = 1 << 2,     /* 11100000 100_____ */
    TOO_LARGE = 1 << 3,      /* 11110100 1001____, 11110100 101_____, 11110101+ 1001____ or 101_____ */
    SURROGATE = 1 << 4,      /* 11101101 101_____ */
    OVERLONG_2 = 1 << 5,     /* 1100000_ 10______ */
    TOO_LARGE_1000 = 1 << 6, /* 11110101+ 1000____ */
    OVERLONG_4 = 1 << 6,     /* 11110000 1000____ */
    TWO_CONTS = 1 << 7,      /* 10______ 10______ */
    CARRY = TOO_SHORT | TOO_LONG | TWO_CONTS,
};

#define AVX2 __attribute__((target("avx2")))

/* The 32 bytes ending `n` bytes before `input`'s end: the last `n` of
 * `previous` and the first 32 - n of `input`. */
#define AVX2_PREVIOUS(input, previous, n) \
    _mm256_alignr_epi8((input), _mm256_permute2x128_si256((previous), (input), 0x21), 16 - (n))

AVX2 static inline __m256i avx2_table(uint8_t t0, uint8_t t1, uint8_t t2, uint8_t t3, uint8_t t4, uint8_t t5,
                                      uint8_t t6, uint8_t t7, uint8_t t8, uint8_t t9, uint8_t t10, uint8_t t11,
                                      uint8_t t12, uint8_t t13, uint8_t t14, uint8_t t15)
{
    return _mm256_setr_epi8((char)t0, (char)t1, (char)t2, (char)t3, (char)t4, (char)t5, (char)t6, (char)t7,
                            (char)t8, (char)t9, (char)t10, (char)t11, (char)t12, (char)t13, (char)t14, (char)t15,
                            (char)t0, (char)t1, (char)t2, (char)t3, (char)t4, (char)t5, (char)t6, (char)t7,
                            (char)t8, (char)t9, (char)t10, (char)t11, (char)t12, (char)t13, (char)t14, (char)t15);
}

typedef struct {
    __m256i byte_1_high, byte_1_low, byte_2_high, low_nibble;
    /* What the last three bytes of a block may be without a sequence left open. */
    __m256i incomplete_limits;
} AVX2Tables;

AVX2 static AVX2Tables avx2_tables(void)
{
    AVX2Tables t;
    t.byte_1_high = avx2_table(
        /* 0_______: ASCII first */
        TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG,
        /* 10______: a continuation first */
        TWO_CONTS, TWO_CONTS, TWO_CONTS, TWO_CONTS,
        /* 1100____, 1101____: two-byte leads */
        TOO_SHORT | OVERLONG_2, TOO_SHORT,
        /* 1110____: three-byte leads */
        TOO_SHORT | OVERLONG_3 | SURROGATE,
        /* 1111____: four-byte leads and F5-FF */
        TOO_SHORT | TOO_LARGE | TOO_LARGE_1000 | OVERLONG_4);
    t.byte_1_low = avx2_table(
        /* ____0000 */ CARRY | OVERLONG_3 | OVERLONG_2 | OVERLONG_4,
        /* ____0001 */ CARRY | OVERLONG_2,
        /* ____001_ */ CARRY, CARRY,
        /* ____0100 */ CARRY | TOO_LARGE,
        /* ____0101, ____011_ */ CARRY | TOO_LARGE | TOO_LARGE_1000, CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
        /* ____1___ */ CARRY | TOO_LARGE | TOO_LARGE_1000, CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000, CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000,
        /* ____1101 */ CARRY | TOO_LARGE | TOO_LARGE_1000 | SURROGATE,
        CARRY | TOO_LARGE | TOO_LARGE_1000, CARRY | TOO_LARGE | TOO_LARGE_1000);
    t.byte_2_high = avx2_table(
        /* 0_______: ASCII second */
        TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT,
        /* 1000____ */ TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE_1000 | OVERLONG_4,
        /* 1001____ */ TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE,
        /* 101_____ */ TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
        TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
        /* 11______: a lead second */
        TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT);
    t.low_nibble = _mm256_set1_epi8(0x0F);
    t.incomplete_limits = _mm256_setr_epi8(
        -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
        -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
        (char)(0xF0 - 1), (char)(0xE0 - 1), (char)(0xC0 - 1));
    return t;
}

/* The errors of the 32 bytes `input`, `previous` being the 32 before them. */
AVX2 static inline __m256i avx2_errors(const AVX2Tables *t, __m256i input, __m256i previous)
{
    __m256i previous_1 = AVX2_PREVIOUS(input, previous, 1);
    /* No 16-bit shift brings another lane's bits into a nibble that is masked. */
    __m256i byte_1_high = _mm256_shuffle_epi8(t->byte_1_high,
                                              _mm256_and_si256(_mm256_srli_epi16(previous_1, 4), t->low_nibble));
    __m256i byte_1_low = _mm256_shuffle_epi8(t->byte_1_low, _mm256_and_si256(previous_1, t->low_nibble));
    __m256i byte_2_high = _mm256_shuffle_epi8(t->byte_2_high,
                                              _mm256_and_si256(_mm256_srli_epi16(input, 4), t->low_nibble));
    __m256i special = _mm256_and_si256(_mm256_and_si256(byte_1_high, byte_1_low), byte_2_high);

    /* Where the byte two back leads three or more, or the byte three back four:
     * this byte must be a continuation, which the pair check saw as TWO_CONTS. */
    __m256i previous_2 = AVX2_PREVIOUS(input, previous, 2);
    __m256i previous_3 = AVX2_PREVIOUS(input, previous, 3);
    __m256i third = _mm256_subs_epu8(previous_2, _mm256_set1_epi8((char)(0xE0 - 0x80)));
    __m256i fourth = _mm256_subs_epu8(previous_3, _mm256_set1_epi8((char)(0xF0 - 0x80)));
    __m256i must_continue = _mm256_and_si256(_mm256_or_si256(third, fourth), _mm256_set1_epi8((char)0x80));
    return _mm256_xor_si256(must_continue, special);
}

AVX2 static bool avx2_is_valid(const uint8_t *bytes, size_t count)
{
    const AVX2Tables t = avx2_tables();
    __m256i error = _mm256_setzero_si256();
    __m256i previous = _mm256_setzero_si256();
    /* The last block's sequences still open, checked when the next is ASCII or at the end. */
    __m256i previous_incomplete = _mm256_setzero_si256();
    size_t i = 0;
    for (; i + 64 <= count; i += 64) {
        __m256i first = _mm256_loadu_si256((const __m256i *)(bytes + i));
        __m256i second = _mm256_loadu_si256((const __m256i *)(bytes + i + 32));
        if (_mm256_movemask_epi8(_mm256_or_si256(first, second)) == 0) {
            error = _mm256_or_si256(error, previous_incomplete);
            previous_incomplete = _mm256_setzero_si256();
            previous = second;
            continue;
        }
        error = _mm256_or_si256(error, avx2_errors(&t, first, previous));
        error = _mm256_or_si256(error, avx2_errors(&t, second, first));
        previous_incomplete = _mm256_subs_epu8(second, t.incomplete_limits);
        previous = second;
        /* An invalid feed is rare; leaving early only saves time on one. */
        if (!_mm256_testz_si256(error, error)) return false;
    }
    if (i < count) {
        /* The rest in a zeroed block: the zeros are ASCII, so a sequence the
         * input cuts off is one a zero cuts short. */
        uint8_t tail[64] = {0};
        memcpy(tail, bytes + i, count - i);
        __m256i first = _mm256_loadu_si256((const __m256i *)tail);
        __m256i second = _mm256_loadu_si256((const __m256i *)(tail + 32));
        error = _mm256_or_si256(error, avx2_errors(&t, first, previous));
        error = _mm256_or_si256(error, avx2_errors(&t, second, first));
    } else {
        error = _mm256_or_si256(error, previous_incomplete);
    }
    return _mm256_testz_si256(error, error);
}

#endif

bool tc_utf8_is_valid(const uint8_t *bytes, size_t count)
{
#if defined(__x86_64__)
    if (__builtin_cpu_supports("avx2")) return avx2_is_valid(bytes, count);
#endif
    return tc_utf8_is_valid_portable(bytes, count);
}

/* 0x80-0x9F in Windows-1252; the five holes map to the C1 controls, as in WHATWG Encoding. */
static const uint16_t windows1252_high[32] = {
    0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
    0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
    0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
    0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
};

size_t tc_utf8_repaired_as_windows1252(const uint8_t *bytes, size_t count, uint8_t *out)
{
    /* Each byte becomes at most three (a Windows-1252 character is below
     * U+0800 or a three-byte one), so `o` never passes 3 * i and a sixteen-byte
     * store at `o` while sixteen bytes are left to read stays within `out`. */
    size_t i = 0, o = 0;
    while (i < count) {
#if defined(__x86_64__)
        /* ASCII without NUL sixteen bytes a step, stored whole; where a block
         * holds something else, only the bytes before it count as written. */
        const __m128i zero = _mm_setzero_si128();
        while (i + 16 <= count) {
            __m128i block = _mm_loadu_si128((const __m128i *)(bytes + i));
            unsigned special = (unsigned)(_mm_movemask_epi8(block) | _mm_movemask_epi8(_mm_cmpeq_epi8(block, zero)));
            _mm_storeu_si128((__m128i *)(out + o), block);
            if (special != 0) {
                unsigned plain = (unsigned)__builtin_ctz(special);
                i += plain;
                o += plain;
                break;
            }
            i += 16;
            o += 16;
        }
#endif
        size_t stretch_end = count - i < 16 ? count : i + 16;
        while (i < stretch_end) {
            uint8_t byte = bytes[i];
            size_t length = byte == 0 ? 0 : sequence_length(bytes + i, count - i);
            if (length != 0) {
                for (size_t k = 0; k < length; k++) out[o + k] = bytes[i + k];
                i += length;
                o += length;
                continue;
            }
            i += 1;
            if (byte == 0) continue;
            uint32_t scalar = byte <= 0x9F ? windows1252_high[byte - 0x80] : byte;
            if (scalar < 0x800) {
                out[o++] = (uint8_t)(0xC0 | scalar >> 6);
                out[o++] = (uint8_t)(0x80 | (scalar & 0x3F));
            } else {
                out[o++] = (uint8_t)(0xE0 | scalar >> 12);
                out[o++] = (uint8_t)(0x80 | ((scalar >> 6) & 0x3F));
                out[o++] = (uint8_t)(0x80 | (scalar & 0x3F));
            }
        }
    }
    return o;
}
