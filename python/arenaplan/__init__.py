"""arenaplan from Python: read a .tflite model, plan its tensor arena, size stock TFLM's arena, solve
generic problems, and draw the plan.

    >>> import arenaplan
    >>> model = arenaplan.read("model.tflite")
    >>> plan = arenaplan.plan(model, planner="best")
    >>> plan.arena_bytes, plan.lower_bound_bytes, plan.status
    >>> plan.buffers[0]          # Buffer(id='s0t0', name=..., size=..., first=..., last=..., offset=...)
    >>> plan.plot("plan.png")    # matplotlib
    >>> arenaplan.size(model, target="tflm-cortex-m").min_arena_bytes

Every figure comes from the C++ libraries the `arenaplan` command uses (the documents its
``--format json`` prints), so the two always agree. Errors raise ``arenaplan.BadInput`` (bad
input or usage; the command exits 2) or ``arenaplan.NoSolution`` (does not fit / cannot run; exit
1), both ``arenaplan.Error``, with the command's one-line message.
"""
import json
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Union

from . import _arenaplan as _core

__all__ = ["Error", "BadInput", "NoSolution", "Buffer", "Plan", "Model", "Tensor", "Operator", "Subgraph",
           "Size", "read", "plan", "size", "solve", "planners", "targets"]


class Error(Exception):
    """Base of arenaplan's exceptions; str(e) is the command's one-line message."""


class BadInput(Error, ValueError):
    """Bad input or usage (the command exits 2): unreadable or malformed model, unknown planner..."""


class NoSolution(Error):
    """No solution under the constraints (the command exits 1): infeasible, over capacity, unsupported."""


def _call(fn, *args):
    """Calls the C++ side; its exceptions become the two documented classes."""
    try:
        return json.loads(fn(*args))
    except _core.NoSolution as e:
        raise NoSolution(str(e)) from None
    except _core.BadInput as e:
        raise BadInput(str(e)) from None


@dataclass
class Buffer:
    """One planned buffer: lifetime [first, last] in TFLM's time steps (inclusive), bytes [offset, offset + size)."""
    id: str
    name: str
    size: int
    first: int
    last: int
    offset: int
    subgraph: Optional[int] = None
    tensor: Optional[int] = None
    fixed: bool = False


@dataclass
class Plan:
    """A verified plan: the document `arenaplan plan --format json` (or `solve --format json`) prints."""
    model: str
    planner: str
    chosen_planner: str
    arena_bytes: int
    lower_bound_bytes: int
    status: str
    seconds: float
    nodes: int
    peak_step: int
    peak_bytes: int
    buffers: List[Buffer]
    alignment: Optional[int] = None
    document: dict = field(default_factory=dict, repr=False)  # the JSON document as printed

    @property
    def gap(self) -> float:
        """Relative gap to the lower bound (0.0 = at the bound)."""
        return (self.arena_bytes - self.lower_bound_bytes) / self.lower_bound_bytes if self.lower_bound_bytes else 0.0

    def plot(self, path: Optional[str] = None, ax=None, title: Optional[str] = None, dpi: int = 120):
        """Draws the timeline with matplotlib: time across, arena address down, one rectangle per
        buffer, the arena end, the lower bound and the peak step. Writes `path` (PNG, SVG, PDF: by
        extension) when given; returns the matplotlib Axes."""
        from ._plot import plot_plan
        return plot_plan(self, path=path, ax=ax, title=title, dpi=dpi)

    def html(self, path: str) -> None:
        """Writes the interactive HTML report of this plan (as `arenaplan report` does)."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(_core.render("html", [json.dumps(self.document)], self.model))

    @staticmethod
    def _from_document(doc: dict) -> "Plan":
        solve = "height" in doc
        buffers = []
        for b in doc["buffers"]:
            if solve:
                buffers.append(Buffer(id=str(b["id"]), name=str(b["id"]), size=b["size"], first=b["lower"],
                                      last=b["upper"] - 1, offset=b["offset"]))
            else:
                buffers.append(Buffer(id=b["id"], name=b["name"], size=b["size"], first=b["first"], last=b["last"],
                                      offset=b["offset"], subgraph=b["subgraph"], tensor=b["tensor"],
                                      fixed=b["fixed"]))
        return Plan(model=doc["problem"] if solve else doc["model"], planner=doc["planner"],
                    chosen_planner=doc["chosen_planner"], arena_bytes=doc["height"] if solve else doc["arena_bytes"],
                    lower_bound_bytes=doc["lower_bound_bytes"], status=doc["status"], seconds=doc["seconds"],
                    nodes=doc["nodes"], peak_step=doc["peak"]["step"], peak_bytes=doc["peak"]["live_bytes"],
                    buffers=buffers, alignment=doc.get("alignment"), document=doc)


@dataclass
class Tensor:
    index: int
    name: str
    dtype: str
    shape: List[int]
    bytes: Optional[int]
    constant: bool
    variable: bool
    quantization: Optional[dict]


@dataclass
class Operator:
    index: int
    op: str
    inputs: List[int]
    outputs: List[int]
    called_subgraphs: List[int]


@dataclass
class Subgraph:
    index: int
    name: str
    inputs: List[int]
    outputs: List[int]
    tensors: List[Tensor]
    operators: List[Operator]


@dataclass
class Model:
    """A model read and verified by arenaplan's reader (the document `arenaplan inspect --format json` prints)."""
    path: str
    version: int
    description: str
    operator_set: List[str]
    subgraphs: List[Subgraph]
    static_planning_problems: List[str]
    document: dict = field(default_factory=dict, repr=False)


@dataclass
class Size:
    """Stock TFLM's arena on a target (the document `arenaplan size --format json` prints)."""
    model: str
    target: str
    planner: str
    head_bytes: int
    tail_bytes: int
    arena_used_bytes: int
    min_arena_bytes: int
    tail_breakdown: Dict[str, int]
    document: dict = field(default_factory=dict, repr=False)


def _path(model: Union[str, Model]) -> str:
    return model.path if isinstance(model, Model) else str(model)


def read(path: str) -> Model:
    """Reads and verifies a .tflite model; raises BadInput naming the problem when it is malformed."""
    doc = _call(_core.inspect, str(path))
    subgraphs = []
    for sg in doc["subgraphs"]:
        tensors = [Tensor(index=t["index"], name=t["name"], dtype=t["dtype"], shape=t["shape"], bytes=t["bytes"],
                          constant=t["constant"], variable=t["variable"], quantization=t["quantization"])
                   for t in sg["tensors"]]
        ops = [Operator(index=o["index"], op=o["op"], inputs=o["inputs"], outputs=o["outputs"],
                        called_subgraphs=o["called_subgraphs"]) for o in sg["operators"]]
        subgraphs.append(Subgraph(index=sg["index"], name=sg["name"], inputs=sg["inputs"], outputs=sg["outputs"],
                                  tensors=tensors, operators=ops))
    return Model(path=str(path), version=doc["version"], description=doc["description"],
                 operator_set=doc["operator_set"], subgraphs=subgraphs,
                 static_planning_problems=doc["static_planning_problems"], document=doc)


def plan(model: Union[str, Model], planner: str = "best", target: Optional[str] = None,
         alignment: Optional[int] = None, time_limit: float = 0.0) -> Plan:
    """Plans the model's arena (as `arenaplan plan`): TFLM-exact lifetimes, the planner, the verifier.
    With `target`, the kernel scratch buffers stock TFLM requests on it are planned too. `alignment`
    defaults to the target's (TFLM's 16 without one)."""
    return Plan._from_document(_call(_core.plan, _path(model), planner, target or "", alignment or 0, time_limit))


def size(model: Union[str, Model], target: str = _core.default_target, planner: str = "tflm-greedy") -> Size:
    """The exact arena stock TFLM needs for the model on `target` (as `arenaplan size`)."""
    doc = _call(_core.size, _path(model), target, planner)
    return Size(model=doc["model"], target=doc["target"], planner=doc["planner"], head_bytes=doc["head_bytes"],
                tail_bytes=doc["tail_bytes"], arena_used_bytes=doc["arena_used_bytes"],
                min_arena_bytes=doc["min_arena_bytes"], tail_breakdown=doc["tail_breakdown"], document=doc)


def _field(b, name, default=None):
    if isinstance(b, dict):
        return b.get(name, default)
    return getattr(b, name, default)


def solve(problem: Sequence, planner: str = "best", capacity: int = 0, time_limit: float = 0.0,
          minimize: bool = False, name: str = "problem", work_time: bool = False, threads: int = 0) -> Plan:
    """Plans a generic problem (as `arenaplan solve`): a list of buffers, each a dict or object with
    `size`, `first` and `last` (inclusive steps, as Plan.buffers) or `lower` and `upper` (MiniMalloc's
    half-open lifespan), and optionally `id`, `alignment` and `offset` (a fixed position).
    With work_time (planner "optimal" only), time_limit counts search steps instead of wall time, so
    the same problem gets the same plan on every machine.
    threads (as `solve --threads`): 2 races each decision near a perfect packing against its mirror
    image in time, 1 searches one direction after the other; 0 takes 2 where the machine has two cores.
    Returns a Plan whose buffers keep the given order."""
    rows = ["id,lower,upper,size,alignment,offset"]
    for k, b in enumerate(problem):
        lower = _field(b, "lower")
        upper = _field(b, "upper")
        if lower is None:
            lower, last = _field(b, "first"), _field(b, "last")
            if lower is None or last is None:
                raise BadInput("buffer %d: needs first and last (or lower and upper)" % k)
            upper = int(last) + 1
        size_ = _field(b, "size")
        if size_ is None:
            raise BadInput("buffer %d: needs a size" % k)
        ident = str(_field(b, "id", k))
        if any(c in ident for c in ',"\n\r'):
            raise BadInput("buffer %d: id %r may not contain commas, quotes or line breaks" % (k, ident))
        offset = _field(b, "offset")
        rows.append("%s,%d,%d,%d,%d,%s" % (ident, int(lower), int(upper), int(size_), int(_field(b, "alignment", 1)),
                                           "" if offset is None or offset < 0 else str(int(offset))))
    text = "\n".join(rows) + "\n"
    return Plan._from_document(_call(_core.solve, text, name, planner, int(capacity), float(time_limit), bool(minimize),
                                             bool(work_time), int(threads)))


def planners() -> List[str]:
    """The planner names `plan` and `solve` accept."""
    return list(_core.planners())


def targets() -> List[str]:
    """The TFLM targets `size` and `plan(target=...)` accept."""
    return list(_core.targets())
