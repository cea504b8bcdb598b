"""Runs a command, its output to /dev/null, and prints its peak resident
memory in kilobytes.

Usage: peak-memory.py COMMAND [ARGUMENT...]
Run from this small process rather than from the bench: Linux counts in a
spawned child's peak (ru_maxrss) the peak of the process that spawned it, so
measured from the bench, whose own memory is larger, every command reads alike.
"""
import os
import sys


def main():
    pid = os.posix_spawn(sys.argv[1], sys.argv[1:], os.environ,
                         file_actions=[(os.POSIX_SPAWN_OPEN, 1, '/dev/null', os.O_WRONLY, 0)])
    _, status, usage = os.wait4(pid, 0)
    if status != 0:
        sys.exit('%s ended with wait status %d' % (sys.argv[1], status))
    print(usage.ru_maxrss)


if __name__ == '__main__':
    main()
