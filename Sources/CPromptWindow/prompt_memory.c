/* prompt_memory.c: the program's heap between prompts (CPromptWindow.h). It sits idle most of its
 * life, so what a prompt window needed is given back once the last one is gone. */
#include "CPromptWindow.h"
#include <glib.h>
#include <malloc.h>

void prompt_memory_limit_arenas(void) {
        /* glibc gives each thread that allocates an arena of its own (up to 8 per core), and keeps
         * what is freed in each: the GTK loop, pango's font thread, GDBus's and Swift's few threads
         * need no more than two. */
        mallopt(M_ARENA_MAX, 2);
}

static gboolean release(gpointer data) {
        (void)data;
        /* glibc keeps freed heap for the next allocation; this returns the free pages of every
         * arena to the system. */
        malloc_trim(0);
        return G_SOURCE_REMOVE;
}

void prompt_memory_release_soon(void) {
        /* At low priority, after GTK has finished with the destroyed window (its surface, its
         * frame clock and the widgets' last references go in the loop's next turns). */
        g_idle_add_full(G_PRIORITY_LOW, release, NULL, NULL);
}
