/* The window process's side of the line protocol with localauthd-prompt (docs/owners-and-agents.md,
 * "The desktop prompt"): lines in on standard input, what the person did out on standard output. */
#ifndef PROMPT_LINES_H
#define PROMPT_LINES_H

#include <stddef.h>

/* Applies one line from the agent (its newline removed; its bytes are split in place):
 *   window ID TITLE HEADING REQUESTER REASON SIGNING_KEY STATUS CANCEL FALLBACK SECRET
 *       shows window ID (first time: created and presented) with these texts, tab-separated; an
 *       empty SIGNING_KEY, FALLBACK or SECRET (the field's placeholder) hides that part;
 *   close ID
 *       destroys window ID.
 * Returns 0, or -1 for a line that is none of these. */
int prompt_lines_apply(char *line);

/* Starts reading standard input on the GTK loop: each complete line is applied; end of input (the
 * agent closed its side: its last window closed, or it went away) or a malformed or overlong line
 * quits the loop. */
void prompt_lines_follow_input(void);

#endif
