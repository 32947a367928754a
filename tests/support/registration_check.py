#!/usr/bin/env python3
"""Every GoogleTest test runs in exactly one ctest test, and every ctest filter selects one or more.

ctest's gtest tests come from gtest_add_tests (tests/CMakeLists.txt), which finds TEST macros in
the sources with a regular expression: a macro it misses (split over lines, say) would leave its
test unrun without a word, and a false hit would be a test that runs nothing. This compares the
registered filters with what each test binary lists.
usage: registration_check.py BUILD_DIR
"""
import collections
import fnmatch
import json
import subprocess
import sys


def listed(binary):
    out = subprocess.run([binary, "--gtest_list_tests"], capture_output=True, text=True, check=True).stdout
    names, suite = [], None
    for line in out.splitlines():
        if not line.startswith(" "):
            suite = line.split("#")[0].strip()
        else:
            names.append(suite + line.split("#")[0].strip())
    return names


def main(build_dir):
    doc = json.loads(subprocess.run(["ctest", "--show-only=json-v1"], cwd=build_dir, capture_output=True,
                                    text=True, check=True).stdout)
    filters = collections.defaultdict(list)
    for test in doc["tests"]:
        for arg in test.get("command", []):
            if arg.startswith("--gtest_filter="):
                filters[test["command"][0]].append(arg.split("=", 1)[1])
    problems, total = [], 0
    for binary, pats in sorted(filters.items()):
        names = listed(binary)
        total += len(names)
        runs = collections.Counter()
        for pat in pats:
            hits = [n for n in names if fnmatch.fnmatchcase(n, pat)]
            if not hits:
                problems.append(f"{binary}: ctest filter {pat} selects no test")
            runs.update(hits)
        problems += [f"{binary}: {n} runs in {runs[n]} ctest tests" for n in names if runs[n] != 1]
    if not filters:
        problems.append("no gtest binaries registered with ctest")
    for p in problems:
        print(p)
    print(f"{total} GoogleTest tests in {sum(len(p) for p in filters.values())} ctest tests:",
          "ok" if not problems else f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
