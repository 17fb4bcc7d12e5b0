/* prompt_window.c: the desktop prompt's window in GTK 4 (CPromptWindow.h). */
#include "CPromptWindow.h"
#include <gtk/gtk.h>
#include <glib-unix.h>
#include <signal.h>
#include <string.h>

struct prompt_window {
        unsigned long id;
        prompt_window_handler handler;
        void *context;
        GtkWidget *window;
        GtkWidget *heading;
        GtkWidget *requester;
        GtkWidget *reason;
        GtkWidget *signing_key;
        GtkWidget *status;
        GtkWidget *secret;
        GtkWidget *cancel;
        GtkWidget *fallback;
};

static GMainLoop *main_loop;

int prompt_display_open(void) {
        /* The name the accessibility tree and the window manager know the program by. */
        g_set_prgname("localauthd-prompt");
        g_set_application_name("localauthd-prompt");
        /* A prompt window is a few labels and buttons: GTK's cairo renderer draws it without
         * loading the GPU driver, which GTK otherwise loads when the display opens (Mesa and LLVM:
         * 60 of the 86 MB the program held once registered, under Xvfb). A user's own choice in
         * the environment is kept. */
        g_setenv("GSK_RENDERER", "cairo", FALSE);
        g_setenv("GDK_DEBUG", "gl-disable", FALSE);
        return gtk_init_check() ? 0 : -1;
}

static void report(prompt_window *window, int action) {
        window->handler(window->context, window->id, action);
}

static void on_cancel_clicked(GtkButton *button, gpointer data) {
        (void)button;
        report(data, PROMPT_WINDOW_CANCEL);
}

static void on_fallback_clicked(GtkButton *button, gpointer data) {
        (void)button;
        report(data, PROMPT_WINDOW_FALLBACK);
}

static void on_secret_activate(GtkPasswordEntry *entry, gpointer data) {
        (void)entry;
        report(data, PROMPT_WINDOW_SUBMIT);
}

static gboolean on_escape(GtkWidget *widget, GVariant *args, gpointer data) {
        (void)widget;
        (void)args;
        report(data, PROMPT_WINDOW_CANCEL);
        return TRUE;
}

/* The window manager's close is Cancel; the window stays until the evaluation ends. */
static gboolean on_close_request(GtkWindow *gtk_window, gpointer data) {
        (void)gtk_window;
        report(data, PROMPT_WINDOW_CANCEL);
        return TRUE;
}

static GtkWidget *new_label(const char *css_class) {
        GtkWidget *label = gtk_label_new(NULL);
        gtk_label_set_wrap(GTK_LABEL(label), TRUE);
        gtk_label_set_xalign(GTK_LABEL(label), 0);
        gtk_label_set_max_width_chars(GTK_LABEL(label), 60);
        gtk_label_set_selectable(GTK_LABEL(label), FALSE);
        if (css_class)
                gtk_widget_add_css_class(label, css_class);
        return label;
}

prompt_window *prompt_window_new(unsigned long id, prompt_window_handler handler, void *context) {
        prompt_window *window = g_new0(prompt_window, 1);
        window->id = id;
        window->handler = handler;
        window->context = context;
        window->window = gtk_window_new();
        gtk_window_set_default_size(GTK_WINDOW(window->window), 480, 280);
        gtk_window_set_icon_name(GTK_WINDOW(window->window), "dialog-password");

        GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 10);
        gtk_widget_set_margin_top(box, 18);
        gtk_widget_set_margin_bottom(box, 18);
        gtk_widget_set_margin_start(box, 18);
        gtk_widget_set_margin_end(box, 18);
        window->heading = new_label("title-3");
        window->requester = new_label("dim-label");
        window->reason = new_label(NULL);
        window->signing_key = new_label("dim-label");
        gtk_widget_set_visible(window->signing_key, FALSE);
        window->status = new_label(NULL);
        window->secret = gtk_password_entry_new();
        gtk_password_entry_set_show_peek_icon(GTK_PASSWORD_ENTRY(window->secret), FALSE);
        gtk_widget_set_visible(window->secret, FALSE);
        gtk_box_append(GTK_BOX(box), window->heading);
        gtk_box_append(GTK_BOX(box), window->requester);
        gtk_box_append(GTK_BOX(box), window->reason);
        gtk_box_append(GTK_BOX(box), window->signing_key);
        gtk_box_append(GTK_BOX(box), window->status);
        gtk_box_append(GTK_BOX(box), window->secret);

        GtkWidget *buttons = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8);
        gtk_widget_set_halign(buttons, GTK_ALIGN_END);
        gtk_widget_set_valign(buttons, GTK_ALIGN_END);
        gtk_widget_set_vexpand(buttons, TRUE);
        window->cancel = gtk_button_new_with_label("Cancel");
        window->fallback = gtk_button_new_with_label("");
        gtk_widget_add_css_class(window->fallback, "suggested-action");
        gtk_widget_set_visible(window->fallback, FALSE);
        gtk_box_append(GTK_BOX(buttons), window->cancel);
        gtk_box_append(GTK_BOX(buttons), window->fallback);
        gtk_box_append(GTK_BOX(box), buttons);
        gtk_window_set_child(GTK_WINDOW(window->window), box);

        g_signal_connect(window->cancel, "clicked", G_CALLBACK(on_cancel_clicked), window);
        g_signal_connect(window->fallback, "clicked", G_CALLBACK(on_fallback_clicked), window);
        g_signal_connect(window->secret, "activate", G_CALLBACK(on_secret_activate), window);
        g_signal_connect(window->window, "close-request", G_CALLBACK(on_close_request), window);

        /* Escape cancels wherever the focus is in the window, the secret field included. */
        GtkEventController *keys = gtk_shortcut_controller_new();
        gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE);
        gtk_shortcut_controller_add_shortcut(GTK_SHORTCUT_CONTROLLER(keys),
                                             gtk_shortcut_new(gtk_keyval_trigger_new(GDK_KEY_Escape, 0),
                                                              gtk_callback_action_new(on_escape, window, NULL)));
        gtk_widget_add_controller(window->window, keys);
        return window;
}

void prompt_window_set_texts(prompt_window *window, const char *title, const char *heading, const char *requester,
                             const char *reason, const char *signing_key, const char *status) {
        /* Plain text only (never markup): the texts are a client's, already sanitized. */
        gtk_window_set_title(GTK_WINDOW(window->window), title);
        gtk_label_set_text(GTK_LABEL(window->heading), heading);
        gtk_label_set_text(GTK_LABEL(window->requester), requester);
        gtk_label_set_text(GTK_LABEL(window->reason), reason);
        gtk_label_set_text(GTK_LABEL(window->signing_key), signing_key ? signing_key : "");
        gtk_widget_set_visible(window->signing_key, signing_key != NULL);
        gtk_label_set_text(GTK_LABEL(window->status), status);
}

void prompt_window_set_buttons(prompt_window *window, const char *cancel_title, const char *fallback_title) {
        gtk_button_set_label(GTK_BUTTON(window->cancel), cancel_title);
        gboolean was_visible = gtk_widget_get_visible(window->fallback);
        if (fallback_title)
                gtk_button_set_label(GTK_BUTTON(window->fallback), fallback_title);
        gtk_widget_set_visible(window->fallback, fallback_title != NULL);
        /* Focus inside this window only: Enter or Space then presses the button just offered. */
        if (fallback_title && !was_visible)
                gtk_widget_grab_focus(window->fallback);
}

void prompt_window_set_secret(prompt_window *window, const char *placeholder) {
        gboolean was_visible = gtk_widget_get_visible(window->secret);
        if (placeholder)
                g_object_set(window->secret, "placeholder-text", placeholder, NULL);
        gtk_widget_set_visible(window->secret, placeholder != NULL);
        if (placeholder && !was_visible)
                gtk_widget_grab_focus(window->secret);
}

/* The field's text lives in GTK's secure (locked) memory, but clearing the field only moves its bytes
 * there: a fresh buffer takes its place, and the old one, released, is zeroed (gtk_secure_free). */
static void replace_secret_buffer(prompt_window *window) {
        GtkEditable *text = gtk_editable_get_delegate(GTK_EDITABLE(window->secret));
        if (!text || !GTK_IS_TEXT(text)) {
                gtk_editable_set_text(GTK_EDITABLE(window->secret), "");
                return;
        }
        GtkEntryBuffer *fresh = gtk_password_entry_buffer_new();
        gtk_text_set_buffer(GTK_TEXT(text), fresh);
        g_object_unref(fresh);
}

size_t prompt_window_take_secret(prompt_window *window, char *buffer, size_t capacity) {
        const char *typed = gtk_editable_get_text(GTK_EDITABLE(window->secret));
        size_t length = typed ? strlen(typed) : 0;
        if (length <= capacity && length > 0)
                memcpy(buffer, typed, length);
        replace_secret_buffer(window);
        return length;
}

void prompt_window_present(prompt_window *window) {
        gtk_window_present(GTK_WINDOW(window->window));
}

void prompt_window_close(prompt_window *window) {
        if (!window)
                return;
        /* The field's buffer is released with the window, and zeroed then. */
        gtk_window_destroy(GTK_WINDOW(window->window));
        g_free(window);
}

static gboolean on_stop_signal(gpointer data) {
        (void)data;
        prompt_loop_quit();
        return G_SOURCE_CONTINUE;
}

void prompt_loop_run(void) {
        main_loop = g_main_loop_new(NULL, FALSE);
        g_unix_signal_add(SIGTERM, on_stop_signal, NULL);
        g_unix_signal_add(SIGINT, on_stop_signal, NULL);
        g_unix_signal_add(SIGHUP, on_stop_signal, NULL);
        g_main_loop_run(main_loop);
        g_main_loop_unref(main_loop);
        main_loop = NULL;
}

void prompt_loop_quit(void) {
        if (main_loop)
                g_main_loop_quit(main_loop);
}

struct soon {
        void (*work)(void *data);
        void *data;
};

static gboolean run_soon(gpointer data) {
        struct soon *soon = data;
        soon->work(soon->data);
        g_free(soon);
        return G_SOURCE_REMOVE;
}

void prompt_loop_call_soon(void (*work)(void *data), void *data) {
        struct soon *soon = g_new(struct soon, 1);
        soon->work = work;
        soon->data = data;
        g_idle_add(run_soon, soon);
}
