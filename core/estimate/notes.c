/* notes.c — recording what analyze() noticed (notes.h). */
#include "notes.h"

#include <string.h>

static const struct {
    const char *name, *signature;
} note_rows[RT_NOTE_CODE_COUNT] = {
#define RT_NOTE_ROW(code, name, signature) [RT_NOTE_##code] = {name, signature},
    RT_NOTE_CODES(RT_NOTE_ROW)
#undef RT_NOTE_ROW
};

const char *note_code_name(enum rt_note_code code)
{
    return (int)code >= 0 && code < RT_NOTE_CODE_COUNT ? note_rows[code].name : "unknown";
}

const char *note_code_signature(enum rt_note_code code)
{
    return (int)code >= 0 && code < RT_NOTE_CODE_COUNT ? note_rows[code].signature : "";
}

int note_record(struct rt_note *out, enum rt_note_code code, const struct rt_note_arg *args, int argc)
{
    out->code = code;
    out->argc = -1;
    out->text[0] = '\0';
    const char *sig = note_code_signature(code);
    if ((int)code < 0 || code >= RT_NOTE_CODE_COUNT || argc < 0 || argc > RT_NOTE_ARGS_MAX || (size_t)argc != strlen(sig))
        return -1;
    size_t used = 0;
    for (int k = 0; k < argc; k++) {
        const struct rt_note_arg *a = &args[k];
        struct rt_note_value *v = &out->argv[k];
        if (a->kind != sig[k])
            return -1;
        v->kind = a->kind;
        v->i = a->i;
        v->r = a->r;
        v->unit = a->kind == 'S' ? a->s : NULL;
        v->text = (uint16_t)used;
        if (a->kind == 's') {
            size_t n = a->s ? strlen(a->s) : 0, room = sizeof out->text - used - 1;
            if (n > room)
                n = room;
            if (n)
                memcpy(out->text + used, a->s, n);
            out->text[used + n] = '\0';
            used += n + (used + n + 1 < sizeof out->text ? 1 : 0);
        }
    }
    out->argc = argc;
    return 0;
}
