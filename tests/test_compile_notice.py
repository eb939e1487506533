"""The line a fresh install's first answer prints while the kernels compile (issue 37, engine/compiled.py).

A real ``@njit(cache=True)`` function, written into a new module here, is not compiled and not cached until its
first call, then both: ``is_compiled`` reads Numba's own cache index, so it follows Numba as it is installed. The
line is said once per process and only for a kernel that must compile (the control: a cached one says nothing).
"""

from __future__ import annotations

import importlib
import sys

import pytest

from rumbaodds.engine import compiled


@pytest.fixture
def fresh_kernel(tmp_path, monkeypatch):
    """A cached kernel in a module of its own, never compiled before (its own cache folder)."""
    from numba.core import config

    monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "fresh_kernel_mod.py").write_text(
        "from numba import njit\n\n\n@njit(cache=True)\ndef twice(x):\n    return 2 * x\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    sys.modules.pop("fresh_kernel_mod", None)
    module = importlib.import_module("fresh_kernel_mod")
    yield module.twice
    sys.modules.pop("fresh_kernel_mod", None)


@pytest.fixture
def said(monkeypatch, capsys):
    monkeypatch.setattr(compiled, "_announced", set())

    def lines():
        return [line for line in capsys.readouterr().err.splitlines() if line]
    return lines


def test_a_kernel_is_compiled_once_called_and_cached(fresh_kernel):
    assert not compiled.is_compiled(fresh_kernel)
    assert fresh_kernel(21) == 42
    assert compiled.is_compiled(fresh_kernel)
    # as a new process finds it: the module imported again, a dispatcher with no signatures, its index on disk
    sys.modules.pop("fresh_kernel_mod")
    again = importlib.import_module("fresh_kernel_mod").twice
    assert again is not fresh_kernel and not again.signatures
    assert compiled.is_compiled(again)


def test_the_line_is_said_once_before_compiling(fresh_kernel, said):
    assert compiled.announce_compile(fresh_kernel, "the simulator")
    assert said() == [f"rumbaodds: compiling the simulator: first run only, about "
                      f"{compiled.COLD_SECONDS['the simulator']} s"]
    assert not compiled.announce_compile(fresh_kernel, "the simulator")  # once per process
    assert said() == []


def test_a_compiled_or_cached_kernel_says_nothing(fresh_kernel, said):
    """The control: the same call once the kernel is compiled says nothing."""
    fresh_kernel(1)
    assert not compiled.announce_compile(fresh_kernel, "the simulator")
    assert said() == []


def test_the_line_can_be_silenced_by_a_library_user(fresh_kernel, said, monkeypatch):
    import logging

    compiled.log.setLevel(logging.WARNING)
    try:
        compiled.announce_compile(fresh_kernel, "the simulator")
    finally:
        compiled.log.setLevel(logging.INFO)
    assert said() == []


def test_every_named_command_has_an_estimate():
    """The estimates the line quotes are the ones benchmarks/bench_cold.py measures, one per command kind."""
    assert set(compiled.COLD_SECONDS) == {"the simulator", "the knock simulator", "the whole-game simulator",
                                          "the game value of every choice", "the table builder"}
    assert all(0 < s <= 60 for s in compiled.COLD_SECONDS.values())


def _readme_question():
    from rumbaodds.answer.question import Question
    from rumbaodds.web.warm import WARM_HAND

    # the README's hand: the swiss table names Rumba from 32 deals and leaves the margin open, so ask settles it
    return Question.of(*WARM_HAND)


@pytest.mark.parametrize("cold", [True, False])
def test_a_cold_settle_says_the_tables_answer_before_the_simulator_compiles(cold, said, monkeypatch):
    """A fresh install's first `ask` must settle the table's open margin by simulation, and the simulator compiles
    first (half a minute): the table's own answer is said on stderr before that, so that a player has it in
    seconds. The control: where the simulator is compiled (or cached) nothing is said."""
    from rumbaodds.answer import pipeline

    seen = []

    def settle_spy(table, question, left, *args):
        seen.append((said(), left))  # what stderr held when the simulation would start
        return table

    monkeypatch.setattr(compiled, "is_compiled", lambda dispatcher: not cold)
    monkeypatch.setattr(pipeline, "settle", settle_spy)
    found = pipeline.answer(_readme_question())
    (lines, left), = seen
    assert "margin" in left and found.recommendation == "rumba" and found.samples == 32
    if not cold:
        assert lines == []
        return
    m = found.margin
    assert lines == [f"rumbaodds: while the simulator compiles, the table's answer (32 deals): rumba, ahead of "
                     f"{found.runner_up} by {m.mean:.2f} points per hand (95% interval {m.low:.2f} to {m.high:.2f}); "
                     f"the settled answer follows"]
    assert m.low <= 0 < m.mean  # the reason it is settled: the table alone cannot exclude a tie
