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
 * on every x86-64), text of ASCII and two-byte characters eight bytes a step,
 * the rest a character at a time (about what the Swift check it replaced
 * took, 43 M instructions for the 10.8 MB realistic feed). What
 * tc_utf8_is_valid falls back to; public so that the tests check it on a CPU
 * with AVX2 too. */
bool tc_utf8_is_valid_portable(const uint8_t *bytes, size_t count);

/* `bytes` made valid UTF-8 without NUL bytes, written to `out`, which must
 * have room for 3 * count bytes; returns how many it wrote. Well-formed
 * sequences are copied, NUL bytes (padding from broken servers, where libxml2
 * would stop) dropped, and every other byte that starts no well-formed
 * sequence read as Windows-1252, as browsers read such bytes (WHATWG
 * Encoding: its five holes in 0x80-0x9F are the C1 controls). */
size_t tc_utf8_repaired_as_windows1252(const uint8_t *bytes, size_t count, uint8_t *out);

/* The index of the first "<!" or "<?" at or after `start` in `bytes` (of
 * `count`), or `count` if there is none: where a comment, CDATA section,
 * document type declaration or processing instruction may start, for
 * UntrustedXMLFilter, which otherwise stopped at every tag. AVX2 where the
 * CPU has it, SSE2 otherwise and for the last block. */
size_t tc_markup_declaration_index(const uint8_t *bytes, size_t count, size_t start);

/* XMLByteReader's scans: the index of the first byte at or after `start` in
 * `bytes` (of `count`) that ends a run of the kind, or `count` if none does.
 * Every run ends at 0xEF (perhaps U+FFFE or U+FFFF, which XML forbids) and at
 * a control character XML forbids (below 0x20 but tab, line feed and carriage
 * return); besides, text (character data) at '<', '&', ']' and a carriage
 * return; an attribute value at '<', '&', either quote, and a tab, line feed
 * or carriage return (which it normalises); a CDATA section at ']'; a comment
 * at '-'. AVX2 where the CPU has it, SSE2 otherwise and for the last block;
 * the reader's word-at-a-time scan in Swift stopped at every line feed, which
 * show notes in mixed scripts hold every few dozen bytes. */
size_t tc_xml_text_run_end(const uint8_t *bytes, size_t count, size_t start);
size_t tc_xml_value_run_end(const uint8_t *bytes, size_t count, size_t start);
size_t tc_xml_cdata_run_end(const uint8_t *bytes, size_t count, size_t start);
size_t tc_xml_comment_run_end(const uint8_t *bytes, size_t count, size_t start);

/* The index of the first byte at or after `start` in `bytes` (of `count`)
 * that may start a control character feed text drops (FeedControls): below
 * 0x20 but tab, line feed and carriage return, DEL, or 0xC2 (the lead byte of
 * every C1 control, which the caller checks exactly); `count` if none. The
 * same steps as the scans above: TrackcastCore's eight-byte scan stopped at
 * every line feed of show notes. */
size_t tc_control_candidate_index(const uint8_t *bytes, size_t count, size_t start);

/* The index of the first byte at or after `start` in `bytes` (of `count`)
 * that JSONWriter may have to escape: a control character, '"', '\\', DEL,
 * or 0xC2 (perhaps a C1 control); `count` if none. The same steps as above:
 * JSONWriter's eight-byte scan in Swift was a third of the JSON's time. */
size_t tc_json_escape_candidate_index(const uint8_t *bytes, size_t count, size_t start);
