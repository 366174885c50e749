/* suggest.c — weighted edit distance and "did you mean" suggestions. */
#include "suggest.h"

#include <stdio.h>
#include <string.h>

#include "units.h" /* name_normalize */

/* git help.c's weights, but for the transposition (git: 0). */
enum { COST_INSERT = 1, COST_DELETE = 3, COST_SUBSTITUTE = 2, COST_TRANSPOSE = 1 };

int name_distance(const char *a, const char *b)
{
    a = a ? a : "";
    b = b ? b : "";
    size_t n = strnlen(a, RT_SUGGEST_NAME_MAX), m = strnlen(b, RT_SUGGEST_NAME_MAX);
    /* Three rows of the (n + 1) x (m + 1) table: two back for transpositions. */
    int rows[3][RT_SUGGEST_NAME_MAX + 1];
    int *prev2 = rows[0], *prev = rows[1], *cur = rows[2];
    for (size_t j = 0; j <= m; j++)
        prev[j] = (int)j * COST_INSERT;
    for (size_t i = 1; i <= n; i++) {
        cur[0] = (int)i * COST_DELETE;
        for (size_t j = 1; j <= m; j++) {
            int best = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : COST_SUBSTITUTE);
            if (prev[j] + COST_DELETE < best)
                best = prev[j] + COST_DELETE;
            if (cur[j - 1] + COST_INSERT < best)
                best = cur[j - 1] + COST_INSERT;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && a[i - 1] != b[j - 1] &&
                prev2[j - 2] + COST_TRANSPOSE < best)
                best = prev2[j - 2] + COST_TRANSPOSE;
            cur[j] = best;
        }
        int *t = prev2;
        prev2 = prev;
        prev = cur;
        cur = t;
    }
    return prev[m];
}

void suggest_init(struct suggestions *sg, const char *given)
{
    memset(sg, 0, sizeof *sg);
    name_normalize(sg->given, sizeof sg->given, given);
}

/* True when name is among list[0..n). */
static int listed(const char *const *list, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(list[i], name) == 0)
            return 1;
    return 0;
}

void suggest_offer(struct suggestions *sg, const char *name)
{
    if (!name || !name[0] || !sg->given[0] || listed(sg->near, sg->near_count, name) ||
        listed(sg->starts, sg->starts_count, name))
        return;
    char have[RT_SUGGEST_NAME_MAX + 1];
    name_normalize(have, sizeof have, name);
    int cost = name_distance(sg->given, have);
    if (cost <= RT_SUGGEST_NEAR) {
        size_t at = sg->near_count;
        while (at > 0 && sg->near_cost[at - 1] > cost)
            at--;
        if (at >= RT_SUGGEST_MAX)
            return;
        size_t last = sg->near_count < RT_SUGGEST_MAX ? sg->near_count : RT_SUGGEST_MAX - 1;
        for (size_t k = last; k > at; k--) {
            sg->near[k] = sg->near[k - 1];
            sg->near_cost[k] = sg->near_cost[k - 1];
        }
        sg->near[at] = name;
        sg->near_cost[at] = cost;
        if (sg->near_count < RT_SUGGEST_MAX)
            sg->near_count++;
        return;
    }
    size_t len = strlen(sg->given);
    if (len >= 3 && strncmp(have, sg->given, len) == 0 && sg->starts_count < RT_SUGGEST_MAX)
        sg->starts[sg->starts_count++] = name;
}

char *suggest_text(const struct suggestions *sg, const char *prefix, char *out, size_t size)
{
    if (size == 0)
        return out;
    out[0] = '\0';
    const char *const *list = sg->near_count ? sg->near : sg->starts;
    size_t n = sg->near_count ? sg->near_count : sg->starts_count;
    if (n == 0)
        return out;
    size_t used = (size_t)snprintf(out, size, "did you mean ");
    for (size_t i = 0; i < n && used < size; i++)
        used += (size_t)snprintf(out + used, size - used, "%s%s%s", i ? ", " : "", prefix ? prefix : "", list[i]);
    if (used < size)
        snprintf(out + used, size - used, "?");
    return out;
}
