#!/usr/bin/env python3
"""Flash bytes of a firmware by part, from its linker map: every input section placed in .text,
.ARM.exidx or .data (whose initial values live in flash), summed by the object it comes from, and
the objects grouped: each kernel file (kernels/<family>.cc, the fast ones kernels/dsp/<family>.cc),
the rest of the runtime, rules/, the firmware's own code, the model, and the C library. Prints a markdown
table, largest first; a last row reconciles the sum with the ELF's text + data (the map lists
mergeable string sections before the linker merges them).
usage: flash_groups.py FW.ELF (FW.map beside it)"""
import re
import subprocess
import sys

SECTION = re.compile(r'^ (\.\S+)\s*(?:\n\s+)?(0x[0-9a-f]+)\s+(0x[0-9a-f]+)\s+(\S.*)$', re.M)
OUTPUT = re.compile(r'^(\.\S+)\s+0x[0-9a-f]+\s+0x[0-9a-f]+', re.M)
FLASH_OUTPUTS = ('.text', '.ARM.exidx', '.data')


def group(origin):
    m = re.search(r'src_runtime_(kernels_)?(dsp_)?(\w+)\.cc\.o', origin)
    if m:
        name = m.group(3)
        if m.group(1):
            return 'kernels/%s%s.cc' % ('dsp/' if m.group(2) else '', name)
        return 'runtime core (interpreter, planning, arena, ...)'
    if re.search(r'src_rules_\w+\.cc\.o', origin):
        return "rules/ (TFLM's model checks, lifetimes, greedy planner)"
    if 'model_data' in origin:
        return 'the model (.tflite bytes)'
    if 'firmware' in origin or 'resolver' in origin or 'model_config' in origin:
        return 'firmware (main, startup, semihosting, resolver)'
    if re.search(r'lib(c|m|gcc|stdc\+\+|rdimon|nosys)\.a', origin):
        return 'C library (newlib, libgcc, libm)'
    return 'other (alignment, linker)'


def main():
    elf = sys.argv[1]
    text = open(elf[:-len('.elf')] + '.map').read()
    text = text[text.index('Linker script and memory map'):]
    # Split at output sections so that each input section is counted under the one it lands in.
    starts = [(m.start(), m.group(1)) for m in OUTPUT.finditer(text)]
    sizes = {}
    for i, (start, name) in enumerate(starts):
        if name not in FLASH_OUTPUTS:
            continue
        end = starts[i + 1][0] if i + 1 < len(starts) else len(text)
        for m in SECTION.finditer(text[start:end]):
            size = int(m.group(3), 16)
            if size:
                g = group(m.group(4))
                sizes[g] = sizes.get(g, 0) + size
    fields = subprocess.run(['arm-none-eabi-size', elf], capture_output=True, text=True,
                            check=True).stdout.splitlines()[1].split()
    flash = int(fields[0]) + int(fields[1])
    print('| part | flash bytes |')
    print('|---|---:|')
    for g, n in sorted(sizes.items(), key=lambda kv: -kv[1]):
        print('| %s | %s |' % (g, format(n, ',')))
    print('| strings merged by the linker | %s |' % format(flash - sum(sizes.values()), ','))
    print('| **total (text + data)** | **%s** |' % format(flash, ','))


if __name__ == '__main__':
    main()
