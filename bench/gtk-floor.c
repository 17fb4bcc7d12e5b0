/* The desktop prompt row's floor (bench/prompt-bench.sh): GTK 4 alone, set up as localauthd-prompt
 * sets it up (CPromptWindow: gtk_init, GTK's cairo renderer, GL disabled, unless the environment
 * says otherwise), a window with one label presented at start, so that the row can say what of the
 * program's start and memory is the toolkit's. */
#include <gtk/gtk.h>

int main(void) {
        g_setenv("GSK_RENDERER", "cairo", FALSE);
        g_setenv("GDK_DEBUG", "gl-disable", FALSE);
        if (!gtk_init_check())
                return 4;
        GtkWidget *window = gtk_window_new();
        gtk_window_set_title(GTK_WINDOW(window), "floor");
        gtk_window_set_child(GTK_WINDOW(window), gtk_label_new("A prompt would be here."));
        gtk_window_present(GTK_WINDOW(window));
        for (;;)
                g_main_context_iteration(NULL, TRUE);
}
