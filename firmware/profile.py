#!/usr/bin/env python3
"""Instructions per function of a firmware run: sums the "tb 0xADDRESS N" lines of the insn_count
plugin's profile report by the function (from the ELF's symbol table) each block starts in.
usage: profile.py FW.ELF REPORT.txt [TOP=25]"""
import bisect
import re
import subprocess
import sys


def main():
    elf, report = sys.argv[1], sys.argv[2]
    top = int(sys.argv[3]) if len(sys.argv) > 3 else 25
    symbols = []
    # -l adds each symbol's source file, which tells apart the kernels' anonymous-namespace Evals.
    for line in subprocess.run(['arm-none-eabi-nm', '-C', '-l', '--defined-only', elf], capture_output=True,
                               text=True, check=True).stdout.splitlines():
        parts = line.split(' ', 2)
        if len(parts) == 3 and parts[1] in 'tTwW':
            name, _, where = parts[2].partition('\t')
            where = where.rsplit('/src/', 1)[-1].split(':')[0] if where else ''
            symbols.append((int(parts[0], 16) & ~1, (where + ' ' if where else '') + name))
    symbols.sort()
    starts = [a for a, _ in symbols]
    total, per = 0, {}
    for line in open(report):
        m = re.match(r'tb 0x([0-9a-f]+) (\d+)', line)
        if not m:
            continue
        address, n = int(m.group(1), 16), int(m.group(2))
        i = bisect.bisect_right(starts, address) - 1
        name = symbols[i][1] if i >= 0 else '?'
        per[name] = per.get(name, 0) + n
        total += n
    for name, n in sorted(per.items(), key=lambda kv: -kv[1])[:top]:
        print('%12d %5.1f%%  %s' % (n, 100.0 * n / total, name[:110]))
    print('%12d total' % total)


if __name__ == '__main__':
    main()
