/* textsafe.h — text from files and flags made safe to print on a terminal.
 *
 * Names and keys come from files and command lines rooftop does not control
 * (a chip file's "name", a config.json's folder, a row label of a CSV). Sent
 * raw, an ESC in one can clear the screen, set the window title or worse. The
 * functions here make every byte a terminal acts on visible as \xNN instead:
 *   - C0 controls (0x00-0x1F; a newline only when asked) and DEL (0x7F);
 *   - C1 controls (U+0080-U+009F, C2 80..C2 9F in UTF-8), which many
 *     terminals act on as ESC sequences (U+009B is CSI);
 *   - bytes that are not part of valid UTF-8 (a stray 0x9B is CSI in an
 *     8-bit terminal), so the output is always valid UTF-8;
 *   - the bidirectional formatting characters (U+061C, U+200E, U+200F,
 *     U+202A-U+202E, U+2066-U+2069), which reorder what a terminal shows
 *     around them.
 * Everything else, printable ASCII and valid UTF-8, passes unchanged.
 * Pure: no I/O, no globals; allocation only in the *_take functions.
 */
#ifndef ROOFTOP_TEXTSAFE_H
#define ROOFTOP_TEXTSAFE_H

#include <stdbool.h>
#include <stddef.h>

/* Writes text into out (size bytes) with every unsafe byte as "\xNN"
 * (lower-case hex); '\n' is kept when keep_newlines, else escaped too (a
 * one-line message stays one line). The result is always NUL-terminated
 * when size > 0; when it does not fit it is cut before an escape or a
 * UTF-8 sequence, never inside one. text NULL writes "". Returns out. */
char *text_safe(char *out, size_t size, const char *text, bool keep_newlines);

/* Bytes text_safe needs for text, without the NUL (0 for NULL). */
size_t text_safe_len(const char *text, bool keep_newlines);

/* True when text_safe would change text (it holds an unsafe byte). */
bool text_needs_escape(const char *text, bool keep_newlines);

/* Replaces a whole rendered text (a report, a table: newlines kept) by its
 * safe copy: returns a newly allocated string and frees text, or returns
 * text itself when nothing needed escaping. Returns NULL when text is NULL
 * or memory runs out (text is freed then). */
char *text_safe_take(char *text);

/* The same for a JSON document (cJSON's output): DEL and the C1 controls,
 * which cJSON writes raw, become the JSON escapes \u007f and \u0080 ..
 * \u009f (the same characters to a JSON reader), and a byte that is not
 * valid UTF-8 becomes \ufffd. cJSON already escapes C0 controls in strings;
 * its own newlines and tabs are kept. Same ownership as text_safe_take. */
char *json_safe_take(char *text);

#endif
