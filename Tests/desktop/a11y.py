#!/usr/bin/python3
"""The desktop prompt's windows as the accessibility tree (AT-SPI) shows them, for the tests that
cannot read a window's title with X11 tools (Weston's headless backend). Needs the session bus the
program runs on and at-spi2-core's bus.

  a11y.py windows            one line per window of localauthd-prompt: its title, then its texts
  a11y.py press TITLE LABEL  does the "click" action of the button labelled LABEL in window TITLE
"""
import sys

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi  # noqa: E402

PROGRAM = "localauthd-prompt"


def prompt_windows():
    desktop = Atspi.get_desktop(0)
    for index in range(desktop.get_child_count()):
        app = desktop.get_child_at_index(index)
        if app is None or app.get_name() != PROGRAM:
            continue
        for child in range(app.get_child_count()):
            window = app.get_child_at_index(child)
            if window is not None:
                yield window


def descendants(node, depth=0):
    if depth > 12:
        return
    for index in range(node.get_child_count()):
        child = node.get_child_at_index(index)
        if child is None:
            continue
        yield child
        yield from descendants(child, depth + 1)


def texts(window):
    for node in descendants(window):
        role = node.get_role_name()
        if role == "label":
            yield node.get_name()
        elif role == "push button" and node.get_state_set().contains(Atspi.StateType.VISIBLE):
            yield "[" + node.get_name() + "]"
        elif role == "password text":
            yield "<secret field>"


def main(argv):
    if argv[1:] == ["windows"]:
        for window in prompt_windows():
            print(window.get_name() + "\t" + "\t".join(texts(window)))
        return 0
    if len(argv) == 4 and argv[1] == "press":
        for window in prompt_windows():
            if window.get_name() != argv[2]:
                continue
            for node in descendants(window):
                if node.get_role_name() == "push button" and node.get_name() == argv[3]:
                    if node.do_action(0):
                        return 0
        print(f"a11y.py: no button {argv[3]!r} in a window {argv[2]!r}", file=sys.stderr)
        return 1
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
