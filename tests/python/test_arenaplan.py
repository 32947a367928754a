"""The Python package against the CLI: same offsets and arenas as `arenaplan plan/size/solve --format
json` on corpus models and the demo, errors as exceptions carrying the CLI's message, plot() writing
a PNG. The CLI is $ARENAPLAN_CLI; corpus models come from $ARENAPLAN_SHARED (skipped without it,
failing under CI=true)."""
import json
import os
import random
import struct
import subprocess

import pytest

import arenaplan

CLI = os.environ.get("ARENAPLAN_CLI", "arenaplan")
SHARED = os.environ.get("ARENAPLAN_SHARED", os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared"))
MODELS = ["tflm_hello_world_int8", "tflm_mobilenet_v2_pt_int8", "tflm_dp_net_f32", "tflm_id_model_int8",
          "litert_multi_subgraphs_while_f32"]
TFLM_RUNS = ["tflm_hello_world_int8", "tflm_mobilenet_v2_pt_int8", "tflm_id_model_int8"]  # dp_net has POW


def cli(*args):
    r = subprocess.run([CLI, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return r.returncode, r.stdout, r.stderr


def cli_json(*args):
    code, out, err = cli(*args, "--format", "json")
    assert code == 0, err
    return json.loads(out)


def corpus(name):
    path = os.path.join(SHARED, "models", name + ".tflite")
    if not os.path.exists(path):
        if os.environ.get("CI") == "true":
            pytest.fail("%s not found (set ARENAPLAN_SHARED); required under CI" % path)
        pytest.skip("../shared not found (set ARENAPLAN_SHARED)")
    return path


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("demo") / "demo.tflite")
    assert cli("demo", "-o", path)[0] == 0
    return path


def same_plan(plan, doc):
    assert plan.arena_bytes == doc["arena_bytes"]
    assert plan.lower_bound_bytes == doc["lower_bound_bytes"]
    assert plan.status == doc["status"]
    assert plan.chosen_planner == doc["chosen_planner"]
    assert (plan.peak_step, plan.peak_bytes) == (doc["peak"]["step"], doc["peak"]["live_bytes"])
    assert [(b.id, b.name, b.size, b.first, b.last, b.offset, b.fixed) for b in plan.buffers] == \
        [(b["id"], b["name"], b["size"], b["first"], b["last"], b["offset"], b["fixed"]) for b in doc["buffers"]]


@pytest.mark.parametrize("name", MODELS)
@pytest.mark.parametrize("planner", ["tflm-greedy", "best"])
def test_plan_round_trips_the_cli_json(name, planner):
    path = corpus(name)
    same_plan(arenaplan.plan(path, planner=planner), cli_json("plan", path, "--planner", planner))


@pytest.mark.parametrize("name", TFLM_RUNS)
def test_plan_with_target_plans_scratch_like_the_cli(name):
    path = corpus(name)
    model = arenaplan.read(path)
    same_plan(arenaplan.plan(model, planner="tflm-greedy", target="tflm-x86_64"),
              cli_json("plan", path, "--planner", "tflm-greedy", "--target", "tflm-x86_64"))


@pytest.mark.parametrize("name", TFLM_RUNS)
def test_size_round_trips_the_cli_json(name):
    path = corpus(name)
    s = arenaplan.size(path, target="tflm-cortex-m")
    doc = cli_json("size", path, "--target", "tflm-cortex-m")
    assert (s.head_bytes, s.tail_bytes, s.arena_used_bytes, s.min_arena_bytes) == \
        (doc["head_bytes"], doc["tail_bytes"], doc["arena_used_bytes"], doc["min_arena_bytes"])
    assert s.tail_breakdown == doc["tail_breakdown"]


def test_what_tflm_cannot_run_is_no_solution_with_the_cli_message():
    path = corpus("tflm_dp_net_f32")  # POW: no TFLM kernel
    with pytest.raises(arenaplan.NoSolution) as e:
        arenaplan.size(path)
    code, _, err = cli("size", path)
    assert code == 1 and err == "arenaplan size: %s\n" % e.value
    with pytest.raises(arenaplan.NoSolution) as e:
        arenaplan.plan(path, target="tflm-x86_64")
    code, _, err = cli("plan", path, "--target", "tflm-x86_64")
    assert code == 1 and err == "arenaplan plan: %s\n" % e.value


def test_read_gives_the_graph(demo):
    m = arenaplan.read(demo)
    doc = cli_json("inspect", demo)
    assert m.operator_set == doc["operator_set"]
    assert [o.op for o in m.subgraphs[0].operators] == [o["op"] for o in doc["subgraphs"][0]["operators"]]
    assert m.subgraphs[0].tensors[0].name == "input"
    assert m.subgraphs[0].tensors[0].shape == [1, 16, 16, 3]


def test_solve_a_hand_worked_problem_like_the_cli(tmp_path):
    # a [0,1] 4 B and b [1,2] 4 B overlap at step 1; c [2,2] 8 B can reuse a's bytes: bound 12.
    buffers = [{"id": "a", "first": 0, "last": 1, "size": 4}, {"id": "b", "first": 1, "last": 2, "size": 4},
               {"id": "c", "lower": 2, "upper": 3, "size": 8}]
    p = arenaplan.solve(buffers, planner="best")
    assert p.lower_bound_bytes == 12
    assert p.arena_bytes == 12
    assert (p.peak_step, p.peak_bytes) == (2, 12)
    csv = tmp_path / "p.csv"
    csv.write_text("id,lower,upper,size\na,0,2,4\nb,1,3,4\nc,2,3,8\n")
    doc = cli_json("solve", str(csv), "--planner", "best")
    assert [b.offset for b in p.buffers] == [b["offset"] for b in doc["buffers"]]
    assert [(b.first, b.last) for b in p.buffers] == [(0, 1), (1, 2), (2, 2)]


def test_solve_fixed_offsets_and_capacity():
    p = arenaplan.solve([{"first": 0, "last": 0, "size": 16, "offset": 32}, {"first": 0, "last": 0, "size": 16}])
    assert p.buffers[0].offset == 32
    with pytest.raises(arenaplan.NoSolution) as e:
        arenaplan.solve([{"first": 0, "last": 0, "size": 16}, {"first": 0, "last": 0, "size": 16}],
                        planner="optimal", capacity=24)
    assert "infeasible" in str(e.value)


def cut_rectangle(seed, width, steps, depth):
    """A width x steps rectangle cut at random into pieces (a perfect packing at capacity width)."""
    rng = random.Random(seed)
    buffers = []

    def cut(lo, hi, t0, t1, depth):
        if depth == 0 or (hi - lo < 2 and t1 == t0):
            buffers.append({"id": "b%d" % len(buffers), "first": t0, "last": t1, "size": hi - lo})
        elif t1 == t0 or (hi - lo >= 2 and rng.random() < 0.5):
            m = rng.randrange(lo + 1, hi)
            cut(lo, m, t0, t1, depth - 1)
            cut(m, hi, t0, t1, depth - 1)
        else:
            m = rng.randrange(t0, t1)
            cut(lo, hi, t0, m, depth - 1)
            cut(lo, hi, m + 1, t1, depth - 1)

    cut(0, width, 0, steps - 1, depth)
    return buffers


def test_solve_under_work_time_gives_the_cli_plan(tmp_path):
    # Counted in search steps, a time-limited optimal search is the same in this process and in
    # the CLI's, however loaded the machine. The problem: a 1024 x 200 rectangle cut at random into
    # pieces, five of them grown by one byte, so that the search is still running at its limit.
    buffers = cut_rectangle(7, 1024, 200, 9)
    for k in range(5):
        buffers[k * 37]["size"] += 1
    p = arenaplan.solve(buffers, planner="optimal", time_limit=0.2, work_time=True)
    assert p.status == "feasible"
    csv = tmp_path / "p.csv"
    csv.write_text("id,lower,upper,size\n" + "".join(
        "%s,%d,%d,%d\n" % (b["id"], b["first"], b["last"] + 1, b["size"]) for b in buffers))
    doc = cli_json("solve", str(csv), "--planner", "optimal", "--time-limit", "0.2", "--work-time")
    assert [b.offset for b in p.buffers] == [b["offset"] for b in doc["buffers"]]
    with pytest.raises(arenaplan.BadInput) as e:
        arenaplan.solve(buffers, planner="best", work_time=True)
    assert "applies to --planner optimal only" in str(e.value)


def test_solve_takes_one_or_two_threads():
    # A perfect packing at its capacity: on one thread, and raced against its mirror image on two.
    buffers = cut_rectangle(3, 1024, 200, 8)
    for threads in (1, 2):
        p = arenaplan.solve(buffers, planner="optimal", capacity=1024, threads=threads)
        assert p.arena_bytes <= 1024
    with pytest.raises(arenaplan.BadInput) as e:
        arenaplan.solve(buffers, threads=3)
    assert "--threads must be 0" in str(e.value)


def test_errors_are_exceptions_with_the_cli_message(tmp_path, demo):
    missing = str(tmp_path / "missing.tflite")
    with pytest.raises(arenaplan.BadInput) as e:
        arenaplan.plan(missing)
    assert "arenaplan plan: %s\n" % e.value == cli("plan", missing)[2]
    garbage = tmp_path / "garbage.tflite"
    garbage.write_bytes(b"\x10\x00\x00\x00TFL3" + b"\xff" * 64)
    with pytest.raises(arenaplan.BadInput) as e:
        arenaplan.read(str(garbage))
    code, _, err = cli("inspect", str(garbage))
    assert code == 2 and err == "arenaplan inspect: %s\n" % e.value
    with pytest.raises(arenaplan.BadInput) as e:
        arenaplan.plan(demo, planner="no-such-planner")
    assert "unknown planner 'no-such-planner'" in str(e.value)
    with pytest.raises(arenaplan.BadInput) as e:
        arenaplan.size(demo, target="no-such-target")
    assert "arenaplan size: %s\n" % e.value == cli("size", demo, "--target", "no-such-target")[2]
    with pytest.raises(arenaplan.BadInput) as e:
        arenaplan.solve([{"first": 2, "last": 1, "size": 4}])
    assert isinstance(e.value, arenaplan.Error) and isinstance(e.value, ValueError)


def test_plot_writes_a_png(tmp_path, demo):
    p = arenaplan.plan(demo, planner="tflm-greedy")
    out = tmp_path / "plan.png"
    ax = p.plot(str(out))
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    assert width > 400 and height > 200
    assert len(ax.collections[0].get_paths()) == len(p.buffers)  # one rectangle per buffer


def test_html_report_of_a_plan(tmp_path, demo):
    p = arenaplan.plan(demo)
    out = tmp_path / "r.html"
    p.html(str(out))
    assert 'id="arenaplan-data"' in out.read_text()
