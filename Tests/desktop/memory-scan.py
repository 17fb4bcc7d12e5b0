#!/usr/bin/python3
"""Counts where a secret's bytes still are in a running process's memory: every readable mapping
of /proc/PID/maps, read through /proc/PID/mem (root, or a tracer's rights). It looks for the
secret without its first byte, which also finds a copy whose first byte alone was overwritten
(GtkPasswordEntry's buffer, emptied, moves only its terminating zero over the text). Prints one
line per place found (address, mapping) and exits 0 when there is none, 1 when there is one, 2
when the memory cannot be read.

  memory-scan.py PID SECRET
"""
import sys


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    pid, secret = argv[1], argv[2].encode()
    if len(secret) < 7:
        print("memory-scan.py: a secret of at least 7 bytes, so that a find is no accident", file=sys.stderr)
        return 2
    secret = secret[1:]
    found = 0
    try:
        maps = open(f"/proc/{pid}/maps").read().splitlines()
        mem = open(f"/proc/{pid}/mem", "rb", buffering=0)
    except OSError as error:
        print(f"memory-scan.py: cannot read the memory of {pid}: {error}", file=sys.stderr)
        return 2
    for line in maps:
        fields = line.split()
        start, end = (int(part, 16) for part in fields[0].split("-"))
        name = fields[5] if len(fields) > 5 else "[anonymous]"
        if "r" not in fields[1] or name in ("[vvar]", "[vsyscall]"):
            continue
        try:
            mem.seek(start)
            data = mem.read(end - start)
        except OSError:
            continue
        at = data.find(secret)
        while at >= 0:
            found += 1
            print(f"{start + at:#x} in {fields[0]} {fields[1]} {name}")
            at = data.find(secret, at + 1)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
