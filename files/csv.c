/* csv.c — CSV records (see csv.h). */
#include "csv.h"

#include <string.h>

static int record(const char *text, size_t len, size_t *pos, char fields[][CSV_FIELD_MAX], int max, bool cut)
{
    size_t i = *pos;
    if (i == 0 && len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0) /* a UTF-8 byte-order mark */
        i = 3;
    /* Skip blank lines. */
    while (i < len && (text[i] == '\n' || text[i] == '\r'))
        i++;
    if (i >= len) {
        *pos = i;
        return 0;
    }
    int n = 0;
    size_t used = 0;
    bool quoted = false, at_start = true, too_big = false;
    if (max > 0)
        fields[0][0] = '\0';
    for (; i < len; i++) {
        char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < len && text[i + 1] == '"') {
                i++;
            } else if (c == '"') {
                quoted = false;
                continue;
            }
        } else if (c == '"' && at_start) {
            quoted = true;
            at_start = false;
            continue;
        } else if (c == ',') {
            n++;
            used = 0;
            at_start = true;
            if (n < max)
                fields[n][0] = '\0';
            else
                too_big = true;
            continue;
        } else if (c == '\n' || c == '\r') {
            break;
        }
        at_start = false;
        if (n < max && used + 1 < CSV_FIELD_MAX) {
            fields[n][used++] = c;
            fields[n][used] = '\0';
        } else if (!(cut && n < max)) { /* cut: a long field keeps its start */
            too_big = true;
        }
    }
    if (quoted)
        return -1;
    *pos = i;
    return too_big ? -2 : n + 1;
}

int csv_record(const char *text, size_t len, size_t *pos, char fields[][CSV_FIELD_MAX], int max)
{
    return record(text, len, pos, fields, max, false);
}

int csv_record_cut(const char *text, size_t len, size_t *pos, char fields[][CSV_FIELD_MAX], int max)
{
    return record(text, len, pos, fields, max, true);
}

size_t csv_nul_line(const char *text, size_t len)
{
    const char *nul = memchr(text, '\0', len);
    if (!nul)
        return 0;
    size_t line = 1;
    for (const char *p = text; p < nul; p++)
        line += *p == '\n';
    return line;
}

int csv_column(char header[][CSV_FIELD_MAX], int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(header[i], name) == 0)
            return i;
    return -1;
}

int csv_room(const char *text, size_t len, int cap)
{
    size_t width = 2;
    for (size_t i = 0; i < len && text[i] != '\n'; i++)
        width += text[i] == ',';
    return width + 8 < (size_t)cap ? (int)width + 8 : cap;
}
