/* GTK 4's C API (libgtk-4-dev, pkg-config gtk4), for the desktop prompt's window in CPromptWindow. */
#include <gtk/gtk.h>
