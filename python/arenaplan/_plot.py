"""Plan.plot(): the memory timeline with matplotlib (imported only when plotting)."""
import zlib


_PALETTE = ["#5b8def", "#3fb68b", "#e9a23b", "#a97bd8", "#e0677a", "#4bb3c9", "#8fb347", "#d9824a",
            "#6d7fd1", "#c768a9", "#57a773", "#b89b3e"]


def _color(buffer):
    if buffer.fixed:
        return "#98a2b3"
    if buffer.id.startswith("scratch"):
        return "#f2b84b"
    return _PALETTE[zlib.crc32(buffer.id.encode()) % len(_PALETTE)]


def plot_plan(plan, path=None, ax=None, title=None, dpi=120):
    from matplotlib.collections import PatchCollection
    from matplotlib.patches import Rectangle

    if ax is None and path is not None:
        # A figure outside pyplot's state: writing a file needs no display and leaves no window.
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
        fig = Figure(figsize=(10, 5), dpi=dpi)
        FigureCanvasAgg(fig)
        ax = fig.add_subplot()
    elif ax is None:
        import matplotlib.pyplot as plt
        ax = plt.subplots(figsize=(10, 5), dpi=dpi)[1]
    # One rectangle per buffer: steps [first, last + 1) across, bytes [offset, offset + size) down.
    rects = [Rectangle((b.first, b.offset), b.last + 1 - b.first, b.size) for b in plan.buffers]
    ax.add_collection(PatchCollection(rects, facecolor=[_color(b) for b in plan.buffers], edgecolor="white",
                                      linewidth=0.3 if len(rects) < 2000 else 0))
    t0 = min((b.first for b in plan.buffers), default=0)
    t1 = max((b.last + 1 for b in plan.buffers), default=1)
    top = max(plan.arena_bytes, plan.peak_bytes, 1)
    ax.set_xlim(t0, t1)
    ax.set_ylim(top * 1.02, 0)  # address grows downwards, as in the report
    ax.axhline(plan.arena_bytes, color="#344054", linewidth=1, label="arena %d B" % plan.arena_bytes)
    if plan.lower_bound_bytes != plan.arena_bytes:
        ax.axhline(plan.lower_bound_bytes, color="#12b76a", linestyle="--", linewidth=1,
                   label="lower bound %d B" % plan.lower_bound_bytes)
    ax.axvline(plan.peak_step + 0.5, color="#d92d20", linestyle=":", linewidth=1,
               label="peak: step %d, %d B live" % (plan.peak_step, plan.peak_bytes))
    ax.set_xlabel("time step")
    ax.set_ylabel("arena offset (bytes)")
    ax.set_title(title or "%s: %s (%s), %d buffers" % (plan.model, plan.chosen_planner, plan.status, len(plan.buffers)),
                 fontsize=9)
    ax.legend(loc="lower right", fontsize=8)
    if path is not None:
        ax.figure.savefig(path, bbox_inches="tight")
    return ax
