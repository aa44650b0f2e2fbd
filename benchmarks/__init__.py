"""Benchmarks: every figure of the table's costs (docs/benchmarks.md), measured next to bare Kivy baselines in
the same run (``python -m benchmarks``; ``--quick``, ``--only NAME``, ``--json FILE``).

Figures print medians with their min-max and ratios taken pair by pair; nothing asserts on
time, since these machines are noisy. Each figure is one module with ``TITLE`` and
``measure(ctx) -> Figure``; they drive the app and the rules only through public APIs
(``CompanionApp``, ``Session``, ``Store``, ``companion.script``), so they keep working while
those change. This package imports nothing heavy: the figure modules are imported when run.
"""

#: (name for --only, module under benchmarks/), in the order of docs/benchmarks.md's table.
FIGURES = (
    ("cold_start", "cold_start"),
    ("peak_rss", "peak_rss"),
    ("idle_cpu", "idle_cpu"),
    ("latency", "latency"),
    ("undo_redo", "undo_redo"),
    ("history", "history"),
    ("suite", "suite"),
    ("replay", "replay"),
    ("phones", "phones"),      # the phones at the table
    ("club", "club"),          # the club unreachable
)
