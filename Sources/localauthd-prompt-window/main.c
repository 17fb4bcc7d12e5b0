/* localauthd-prompt-window: the desktop prompt's windows (GTK 4), started by localauthd-prompt when a
 * prompt arrives, so that the agent, idle most of its life, links no toolkit. It reads what to show
 * on standard input and writes what the person did on standard output (prompt_lines.h); it exits
 * when its input ends. Exit status: 0 input ended, 4 no display. */
#include "CPromptWindow.h"
#include "prompt_lines.h"
#include <signal.h>
#include <stdio.h>

int main(void) {
        /* The agent gone, a write fails with EPIPE and the input ends: never a signal. */
        signal(SIGPIPE, SIG_IGN);
        if (prompt_display_open() != 0) {
                fputs("localauthd-prompt-window: cannot open a display\n", stderr);
                return 4;
        }
        prompt_lines_follow_input();
        prompt_loop_run();
        return 0;
}
