#!/usr/bin/env python3
"""Flash per kernel file from a GNU ld map of the every-kernel firmware (build.sh's fw_all.map): the
bytes each object keeps in flash after --gc-sections (.text, .rodata, exception index, .data's
initial values), grouped as kernel files (with the ops registrations.h lists for each), the
runtime core, the firmware, the model, the C libraries and alignment fill. Prints a Markdown table.

usage: flash_report.py FW_ALL.map [REGISTRATIONS_H]
"""
import collections
import os
import re
import sys

FLASH_SECTIONS = ('.text', '.ARM.exidx', '.data')  # .data: its initial values are stored in flash
INPUT = re.compile(r'^ (\S+)?\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S.*)$')


def group(path):
    base = os.path.basename(path)
    m = re.search(r'src_runtime_kernels_(\w+)\.cc\.o$', base)
    if m:
        return 'kernels/%s.cc' % m.group(1)
    if re.search(r'src_(runtime|rules|util)_\w+\.cc\.o$', base):
        return 'runtime core (interpreter, arena, planning)'
    if 'model_data' in base:
        return 'the model (flatbuffer)'
    if 'op_resolver' in base:
        return 'op resolver table'
    if 'firmware_' in base:
        return 'firmware (main, startup, semihosting)'
    m = re.search(r'(lib\w+)\.a\(', path)
    return m.group(1) if m else base


def sizes(map_path):
    out = collections.Counter()
    text = open(map_path).read()
    body = text[text.index('Linker script and memory map'):]
    section, pending, total = None, None, 0
    for line in body.splitlines():
        if line and not line[0].isspace():
            fields = line.split()
            section = fields[0]
            if section in FLASH_SECTIONS and len(fields) >= 3:
                total += int(fields[2], 16)
            continue
        if section not in FLASH_SECTIONS:
            continue
        if line.startswith(' *fill*'):
            out['alignment fill'] += int(line.split()[2], 16)
            continue
        if re.match(r'^ \.\S+$', line):  # a long input-section name: address, size, file follow
            pending = line.strip()
            continue
        m = INPUT.match(line)
        if m and (m.group(1) or pending) and m.group(4).endswith(('.o', '.o)')):
            out[group(m.group(4))] += int(m.group(3), 16)
        pending = None
    # The map lists mergeable string sections at their size before the linker merged duplicates.
    out['duplicate strings merged by the linker'] = total - sum(out.values())
    return out


def ops_by_file(registrations):
    ops = collections.defaultdict(list)
    for m in re.finditer(r'Register_(\w+)\(\);\s*// (kernels/\w+\.cc)', open(registrations).read()):
        ops[m.group(2)].append(m.group(1))
    return ops


def main(argv):
    if len(argv) not in (2, 3):
        sys.stderr.write(__doc__)
        return 2
    here = os.path.dirname(os.path.abspath(__file__))
    regs = argv[2] if len(argv) == 3 else os.path.join(here, '..', 'src', 'runtime', 'kernels', 'registrations.h')
    counts, ops = sizes(argv[1]), ops_by_file(regs)
    kernel_total = sum(v for k, v in counts.items() if k.startswith('kernels/'))
    print('| flash of the every-kernel firmware | bytes | ops |')
    print('|---|---:|---|')
    for name, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        print('| %s | %s | %s |' % (name, format(n, ','), ', '.join(ops.get(name, [])) or ('shared helpers'
                                    if name.startswith('kernels/') else '')))
    print('| **all kernel files** | **%s** | %d ops |' % (format(kernel_total, ','), sum(map(len, ops.values()))))
    print('| **total** | **%s** | |' % format(sum(counts.values()), ','))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
