/* The desktop prompt row's floor (bench/prompt-bench.sh): GTK 4 alone, a window with one label
 * presented at start, so that the row can say what of localauthd-prompt's start and memory is the
 * toolkit's. */
#include <gtk/gtk.h>

static void activate(GtkApplication *app, gpointer data) {
        (void)data;
        GtkWidget *window = gtk_application_window_new(app);
        gtk_window_set_title(GTK_WINDOW(window), "floor");
        gtk_window_set_child(GTK_WINDOW(window), gtk_label_new("A prompt would be here."));
        gtk_window_present(GTK_WINDOW(window));
}

int main(void) {
        GtkApplication *app = gtk_application_new(NULL, G_APPLICATION_NON_UNIQUE);
        g_signal_connect(app, "activate", G_CALLBACK(activate), NULL);
        int status = g_application_run(G_APPLICATION(app), 0, NULL);
        g_object_unref(app);
        return status;
}
