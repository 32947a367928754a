#!/usr/bin/env python3
"""Prints the README's TFLM-user table, runtime table and op-suite table from the CLI's JSON output.

usage: scripts/readme_tables.py [tflm|runtime|opsuite] [--arenaplan build/arenaplan] [--shared ../shared]
                               [--best-of N]   (runtime: Invoke time = the fastest of N separate runs)
"""
import argparse, csv, json, os, subprocess, sys, tempfile


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr.strip()


def tflm_table(exe, shared):
    golden = {r["model"]: r for r in csv.DictReader(open(f"{shared}/golden/tflm-cortex-m/arena.csv"))}
    print("| model | TFLM greedy head | exported head (best) | saved | arena_used_bytes | smallest arena | smallest arena, exported |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    tmp = tempfile.mkdtemp()
    for model in sorted(golden):
        if golden[model].get("alloc_ok") != "1":
            continue
        path = f"{shared}/models/{model}"
        rc, out, err = run([exe, "size", path, "--target", "tflm-cortex-m", "--format", "json"])
        s = json.loads(out) if out else {}
        rc2, _, err2 = run([exe, "export", path, "-o", f"{tmp}/x.tflite", "--planner", "best"])
        rc3, out3, _ = run([exe, "size", f"{tmp}/x.tflite", "--target", "tflm-cortex-m", "--format", "json"])
        e = json.loads(out3) if out3 else {}
        head, ehead = s.get("head_bytes"), e.get("head_bytes")
        saved = f"{100.0 * (head - ehead) / head:.1f} %" if head and ehead is not None else "-"
        def mn(j):
            return j.get("min_arena_bytes") if j.get("supported") else "(Invoke fails)"
        print(f"| {model[:-7]} | {head} | {ehead} | {saved} | {s.get('arena_used_bytes')} | {mn(s)} | {mn(e)} |")


def runtime_table(exe, shared, best_of=1):
    g = f"{shared}/golden/tflm-x86_64"
    rows = {r["model"]: r for r in csv.DictReader(open(f"{g}/arena.csv"))}
    print("| model | TFLM arena_used | runtime arena_used | runtime smallest arena | outputs | Invoke (ms) |")
    print("|---|---:|---:|---:|---|---:|")
    total = same = 0
    out_prefix = os.path.join(tempfile.mkdtemp(), "o")
    for model, r in sorted(rows.items()):
        if r["io_files"] != "1" or model.startswith("tflm_ops/"):
            continue
        base = model[:-7]
        total += 1
        rc, out, err = run([exe, "run", f"{shared}/models/{model}", "--inputs-from", f"{g}/io/{base}",
                            "--outputs-to", out_prefix, "--format", "json"])
        if rc != 0:
            print(f"| {base} | {r['arena_used_bytes']} | - | - | {err[:70]} | - |")
            continue
        j = json.loads(out)
        ok = all(open(f"{g}/io/{base}.out{o['index']}.bin", "rb").read() ==
                 open(f"{out_prefix}.out{o['index']}.bin", "rb").read() for o in j["outputs"])
        same += ok
        for _ in range(best_of - 1):  # a loaded machine only ever adds time: keep the fastest run
            rc, out, _ = run([exe, "run", f"{shared}/models/{model}", "--inputs-from", f"{g}/io/{base}",
                              "--format", "json"])
            if rc == 0:
                j["invoke_seconds"] = min(j["invoke_seconds"], json.loads(out)["invoke_seconds"])
        print(f"| {base} | {r['arena_used_bytes']} | {j['arena_used_bytes']} | {j['min_arena_bytes']} | "
              f"{'identical' if ok else 'DIFFERENT'} | {j['invoke_seconds'] * 1000:.2f} |")
    print(f"\n{same} of {total} whole-network models identical to TFLM.")


def opsuite_table(exe, shared):
    """Per op-suite model: the runtime's outputs against TFLM's, and `size` / `plan` against TFLM."""
    root = f"{shared}/op-suite"
    g = f"{root}/golden/tflm-x86_64"
    print("| model | ops | runtime outputs | size: head / tail / used / smallest arena | plan offsets |")
    print("|---|---|---|---|---|")
    n = exact_run = exact_size = exact_plan = 0
    out_prefix = os.path.join(tempfile.mkdtemp(), "o")
    for r in csv.DictReader(open(f"{g}/arena.csv")):
        model, base = r["model"], r["model"][:-7]
        path = f"{root}/models/{model}"
        n += 1
        _, out, _ = run([exe, "inspect", path, "--format", "json"])
        ops = sorted({o["op"] for sg in json.loads(out)["subgraphs"] for o in sg["operators"]}) if out else []
        rc, out, err = run([exe, "run", path, "--inputs-from", f"{g}/io/{base}", "--outputs-to", out_prefix,
                            "--format", "json"])
        ok = rc == 0 and all(open(f"{g}/io/{base}.out{o['index']}.bin", "rb").read() ==
                             open(f"{out_prefix}.out{o['index']}.bin", "rb").read()
                             for o in json.loads(out)["outputs"])
        exact_run += ok
        _, out, _ = run([exe, "size", path, "--target", "tflm-x86_64", "--format", "json"])
        s = json.loads(out) if out else {}
        keys = [("head_bytes", "head_bytes"), ("tail_bytes", "tail_bytes"), ("arena_used_bytes", "arena_used_bytes"),
                ("min_arena_bytes", "min_arena_bytes")]
        size_ok = all(str(s.get(k)) == r[c] for k, c in keys)
        exact_size += size_ok
        _, out, _ = run([exe, "plan", path, "--target", "tflm-x86_64", "--planner", "tflm-greedy", "--format", "json"])
        golden = list(csv.DictReader(open(f"{g}/plans/{base}.csv")))
        bufs = json.loads(out)["buffers"] if out else []
        plan_ok = len(bufs) == len(golden) and all(
            b["id"] == x["id"] and str(b["offset"]) == x["offset"] and str(b["size"]) == x["size"]
            for b, x in zip(bufs, golden))
        exact_plan += plan_ok
        figures = " / ".join(str(s.get(k)) for k, _ in keys)
        print(f"| {base} | {', '.join(ops)} | {'identical' if ok else 'DIFFERENT'} | "
              f"{figures} {'exact' if size_ok else 'DIFFERENT'} | {'exact' if plan_ok else 'DIFFERENT'} |")
    print(f"\nOf {n} op-suite models: runtime outputs identical to TFLM on {exact_run}; `size` exact (head, tail, "
          f"arena_used_bytes, smallest arena) on {exact_size}; `plan --planner tflm-greedy` exact on {exact_plan}.")


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser()
    ap.add_argument("table", choices=["tflm", "runtime", "opsuite"])
    ap.add_argument("--arenaplan", default=os.path.join(root, "build", "arenaplan"))
    ap.add_argument("--shared", default=os.environ.get("ARENAPLAN_SHARED", os.path.join(root, "..", "shared")))
    ap.add_argument("--best-of", type=int, default=1, help="runtime: fastest Invoke of N runs per model")
    a = ap.parse_args()
    if a.table == "runtime":
        runtime_table(a.arenaplan, a.shared, max(1, a.best_of))
    else:
        {"tflm": tflm_table, "opsuite": opsuite_table}[a.table](a.arenaplan, a.shared)


if __name__ == "__main__":
    sys.exit(main())
