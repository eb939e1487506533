"""``ask``'s samples and table cells on a CUDA GPU: the CPU kernels' own code, compiled for the device by numba-cuda.

``ask_kernel``: each thread runs ``hand.ask_sample``, the very ``@njit``
function of the CPU path (numba-cuda compiles a CPU dispatcher called from a
kernel as a device function, from the same Python source: one source of game
logic), for the samples ``start + t``, ``start + t + T``, ... of a batch.
Every sample draws from its own stream ``rng.stream_start(seed, index)``
with the CPU's index, so it is the CPU's sample, bit for bit: the same
results, tries and importance weight. The weighted sums are then formed on
the host by ``results.Accumulator`` from these arrays, the same code and
order as for the CPU's. ``table_kernel``: each thread runs whole cells with
``table.simulate_cell``, the CPU table kernel's per-cell code (samples,
weighted sums, adaptive stopping), so a cell's every output is the CPU's.

All scratch is preallocated by the host (one row per thread, initialised as
``hand.new_scratch`` / ``table.new_cell_scratch`` do, kept on the device for
later calls) and the device code allocates nothing.

Floating point (the importance weights, the opponents' word probabilities,
the cell statistics): NVVM fuses ``a * b + c`` into one rounding unless told
``-fma=0``; the CPU rounds twice. It is turned off here, so the device rounds
every operation as the CPU does (IEEE division and square root are
numba-cuda's defaults).

Imported only when a GPU is asked for (``devices.py``): importing this module
imports numba.cuda. With ``NUMBA_ENABLE_CUDASIM=1`` the kernels run in
Numba's CUDA simulator (how the tests check them without a GPU).
"""

from __future__ import annotations

import functools

import numpy as np
from numba import cuda
from numba.core import config as _numba_config

try:
    from numba.cuda.core import config as _cuda_config
except ImportError:  # numba-cuda before its own copy of numba's core shared numba's config
    _cuda_config = _numba_config

from .condition import KMAX, NGROUPS
from .hand import OUT_FIELDS, R_HAND, STATS, STATS_AT, ask_sample
from .policy import NSCORE, W_NONE
from .table import COL_PLAY, N_COUNTERS, SUM_ROWS, new_outputs, simulate_cell, table_choices

SIMULATOR = bool(_cuda_config.ENABLE_CUDASIM)
THREADS = 128  # threads per block
MAX_THREADS = 1 << 16  # threads of one launch (each walks its share of the batch)
MAX_HARD_THREADS = 1 << 13  # ... when a seat is drawn exactly: each thread then holds a 200 KB counting table
SIM_THREADS = 4  # the simulator: few threads, so each runs several samples on one scratch (as the CPU's chunks)
MAX_CHOICES = 16  # hand.new_scratch's ``probs``

# numba-cuda keeps its own config: its kernel cache goes where the CPU kernels' goes (a folder per digest of the
# kernel files, engine/__init__.py), so an edit of any kernel file never reuses stale device code
_cuda_config.CACHE_DIR = _numba_config.CACHE_DIR

if SIMULATOR:
    from numba.cuda.simulator.cudadrv.devicearray import FakeWithinKernelCUDAArray

    def _plain(array):
        """The simulator wraps a kernel's array arguments; the shared @njit code needs the numpy array."""
        return array._item._ary if isinstance(array, FakeWithinKernelCUDAArray) else array
else:
    try:
        from numba.cuda.cpython.unsafe import numbers as _cuda_numbers
    except ImportError:  # an older numba-cuda types numba's own intrinsics
        _cuda_numbers = None
    if _cuda_numbers is not None:
        from numba.cpython.unsafe import numbers as _cpu_numbers
        from numba.cuda.extending import overload

        # bits.py counts zeros with numba's CPU intrinsics; numba-cuda has its own, with the same LLVM code
        # (cttz / ctlz, defined at zero): tell it they are the same functions
        @overload(_cpu_numbers.trailing_zeros, target="cuda")
        def _trailing_zeros(mask):
            return lambda mask: _cuda_numbers.trailing_zeros(mask)

        @overload(_cpu_numbers.leading_zeros, target="cuda")
        def _leading_zeros(mask):
            return lambda mask: _cuda_numbers.leading_zeros(mask)

    from numba.cuda.extending import overload as _cuda_overload

    from . import distilled as _distilled

    # the distilled play's table of partial sums is 387 KB, a GPU's constant memory 64 KB: there the play sums
    # its folded weights whole (the same additions, so the same cards)
    @_cuda_overload(_distilled.shipped_prefix, target="cuda")
    def _shipped_prefix_gpu(follow):
        return lambda follow: None

    # read from a table on the CPU, divided here: IEEE division, the same numbers (constant memory is 64 KB)
    @_cuda_overload(_distilled.quotient, target="cuda")
    def _quotient_gpu(k, d):
        return _distilled.divided

    _TREE_ROW = _distilled.N_CARD + _distilled.N_CONTEXT

    # the trees read a card's numbers from an array: the thread's own local array here
    @_cuda_overload(_distilled.choice_with_trees, target="cuda")
    def _choice_with_trees_gpu(legal, count, folded, ctx, trees, ensemble, min_winner_key, hand, unseen, trump,
                               following, beat, unseen_trumps, opponent_voids, low_rank, top_rank):
        def on_the_gpu(legal, count, folded, ctx, trees, ensemble, min_winner_key, hand, unseen, trump, following,
                       beat, unseen_trumps, opponent_voids, low_rank, top_rank):
            return _distilled.choice_on_row(cuda.local.array(_TREE_ROW, np.float64), legal, count, folded, ctx,
                                            trees, ensemble, min_winner_key, hand, unseen, trump, following, beat,
                                            unseen_trumps, opponent_voids, low_rank, top_rank)
        return on_the_gpu

    from . import searched_play as _searched

    # play by search is the CPU's alone (analysis refuses --device gpu with it): compiled away here
    @_cuda_overload(_searched.searched_tricks, target="cuda")
    def _searched_tricks_gpu(in_play, m, lead, trump, follow, rumba_idx, deck_mask, table_mask, tricks, need, rp,
                             state, counters, at, pol, words, rumba_seat, knocked, jack_forced, trump_card):
        return lambda in_play, m, lead, trump, follow, rumba_idx, deck_mask, table_mask, tricks, need, rp, state, \
            counters, at, pol, words, rumba_seat, knocked, jack_forced, trump_card: None

    @cuda.jit(device=True, inline=True)
    def _plain(array):
        return array

    def _rounding_as_the_cpu(compile_ir):
        """NVVM fuses ``a * b + c`` into one rounding unless told ``-fma=0``; the CPU rounds twice: off."""

        @functools.wraps(compile_ir)
        def compile_ir_without_fma(llvmir, **options):
            if not options.get("fastmath"):
                options.setdefault("fma", False)
            return compile_ir(llvmir, **options)

        return compile_ir_without_fma

    from numba.cuda.cudadrv import nvvm as _nvvm

    if not getattr(_nvvm.compile_ir, "_rumbaodds", False):
        _nvvm.compile_ir = _rounding_as_the_cpu(_nvvm.compile_ir)
        _nvvm.compile_ir._rumbaodds = True


def _ask_kernel(deck_mask, unknown, hero_hand, trump_card, n, hero, rp, p_ints, p_values, p_words, p_throws,
                p_exchanges, plan_word, plan_hard, plan_stretched, stretch, excluded, policy, passes, knocked,
                swapped_by, choices, seed, start, count,
                deck, hands2, ints, cards, us, counts, members, table, present, taken, alpha, cache, forced, probs,
                out, results, tries, weights):
    """Thread ``t``: samples ``start + i`` for i = t, t + T, ... below ``count`` (T threads), on its scratch row."""
    t = cuda.grid(1)
    threads = deck.shape[0]  # one scratch row per thread (the last block may have more threads than rows)
    if t >= threads:
        return
    unknown = _plain(unknown)
    rp = _plain(rp)
    choices = _plain(choices)
    pol = (_plain(p_ints), _plain(p_values), _plain(p_words), _plain(p_throws), _plain(p_exchanges))
    plan = (_plain(plan_word), _plain(plan_hard), _plain(plan_stretched), _plain(stretch), _plain(excluded))
    cond = (_plain(counts)[t], _plain(members)[t], _plain(table)[t], _plain(present)[t], _plain(taken)[t],
            _plain(alpha)[t], _plain(cache)[t])
    scratch = (_plain(deck)[t], _plain(hands2)[t], _plain(ints)[t], _plain(cards)[t], _plain(us)[t], cond,
               _plain(forced)[t], _plain(probs)[t])
    mine = _plain(out)[t]
    results = _plain(results)
    tries = _plain(tries)
    weights = _plain(weights)
    for i in range(t, count, threads):
        got, w = ask_sample(deck_mask, unknown, hero_hand, trump_card, n, hero, rp, pol, plan, policy, passes,
                            knocked, swapped_by, choices, seed, start + i, mine, scratch)
        tries[i] = got
        weights[i] = w
        for c in range(choices.shape[0]):
            for f in range(OUT_FIELDS):
                results[i, c, f] = mine[c, f]


ask_kernel = cuda.jit(cache=not SIMULATOR)(_ask_kernel)


def describe() -> str:
    """The device in words, e.g. ``NVIDIA H200 (compute capability 9.0)``."""
    if SIMULATOR:
        return "Numba's CUDA simulator (NUMBA_ENABLE_CUDASIM=1)"
    device = cuda.get_current_device()
    name = device.name.decode() if isinstance(device.name, bytes) else str(device.name)
    major, minor = device.compute_capability
    return f"{name} (compute capability {major}.{minor})"


def _scratch(threads: int, n: int, unknown_size: int, choices: int, hard: bool) -> tuple:
    """Per-thread scratch as ``hand.new_scratch`` makes it (one row per thread). Without an exactly drawn
    seat the counting table is never touched: one cell per thread stands in for it."""
    shape = (NGROUPS + 1, KMAX, NSCORE, 2) if hard else (1, 1, 1, 1)
    return (np.zeros((threads, unknown_size), dtype=np.int64),  # deck
            np.zeros((threads, 4, n), dtype=np.uint64),  # hands
            np.zeros((threads, 4, n), dtype=np.int64),  # ints
            np.zeros((threads, STATS_AT + STATS), dtype=np.int64),  # cards
            np.zeros((threads, n, 4), dtype=np.float64),  # us
            np.zeros((threads, NGROUPS), dtype=np.int64),  # condition: counts
            np.zeros((threads, NGROUPS, 64), dtype=np.int64),  # members
            np.zeros((threads, *shape), dtype=np.float64),  # table
            np.zeros((threads, NGROUPS), dtype=np.int64),  # present
            np.zeros((threads, NGROUPS), dtype=np.int64),  # taken
            np.zeros((threads, NSCORE, 2), dtype=np.float64),  # alpha
            np.zeros((threads, 5), dtype=np.int64),  # cache
            np.full((threads, n), -1, dtype=np.int64),  # forced: none
            np.ones((threads, MAX_CHOICES), dtype=np.float64),  # probs
            np.zeros((threads, choices, OUT_FIELDS), dtype=np.int64))  # out


_RESIDENT: dict = {}  # (kernel, shapes) -> the threads' scratch, on the device, kept for the next batches
KEEP_RESIDENT = 4


def _resident(key: tuple, make) -> tuple:
    """The scratch arrays ``make()`` for ``key``, made (and copied to the device) once and kept for later calls.

    Reuse is safe because no sample's result depends on what its scratch held before: every sample writes what
    it reads (the conditioned deal's counting-table cache checks its own key; ``forced`` stays -1), as on the
    CPU, whose threads reuse theirs over a chunk's samples. It saves copying about a gigabyte of zeros to the
    device for every batch of ``ask``.
    """
    arrays = _RESIDENT.get(key)
    if arrays is None:
        arrays = make()
        if not SIMULATOR:
            arrays = tuple(cuda.to_device(a) for a in arrays)
        while len(_RESIDENT) >= KEEP_RESIDENT:
            _RESIDENT.pop(next(iter(_RESIDENT)))
        _RESIDENT[key] = arrays
    return arrays


def _c(array, dtype):
    return np.ascontiguousarray(array, dtype=dtype)


def launch_size(count: int, hard: bool) -> int:
    """Threads for a batch of ``count`` samples."""
    if SIMULATOR:
        return max(1, min(count, SIM_THREADS))
    return max(1, min(count, MAX_HARD_THREADS if hard else MAX_THREADS))


def ask_batch(deck_mask, unknown, hero_hand, trump_card, n, hero, rp, pol, plan, policy, passes, knocked, swapped_by,
              choices, seed, start, count):
    """``hand.ask_batch`` on the GPU: the same arguments, the same (results, tries, weights), sample by sample."""
    count = int(count)
    n = int(n)
    unknown = _c(unknown, np.int64)
    choices = _c(choices, np.int64)
    if choices.shape[0] > MAX_CHOICES:
        raise ValueError(f"at most {MAX_CHOICES} choices, got {choices.shape[0]}")
    inputs = (unknown, _c(rp, np.int64), _c(pol[0], np.int64), _c(pol[1], np.int64), _c(pol[2], np.float64),
              _c(pol[3], np.float64), _c(pol[4], np.float64), _c(plan[0], np.int64), _c(plan[1], np.int64),
              _c(plan[2], np.int64), _c(plan[3], np.float64), _c(plan[4], np.int64), choices)
    results = np.zeros((count, choices.shape[0], OUT_FIELDS), dtype=np.int8)
    tries = np.zeros(count, dtype=np.int32)
    weights = np.zeros(count, dtype=np.float64)
    if count == 0:
        return results, tries, weights
    hard = bool(np.any(inputs[8]))
    threads = launch_size(count, hard)
    scratch = _resident(("ask", threads, n, unknown.shape[0], choices.shape[0], hard),
                        lambda: _scratch(threads, n, unknown.shape[0], choices.shape[0], hard))
    outputs = (results, tries, weights)
    if not SIMULATOR:
        inputs = tuple(cuda.to_device(a) for a in inputs)
        outputs = tuple(cuda.device_array(a.shape, a.dtype) for a in outputs)  # every element is written
    (unknown_d, rp_d, i0, i1, i2, i3, i4, w0, w1, w2, w3, w4, choices_d) = inputs
    blocks = (threads + THREADS - 1) // THREADS
    ask_kernel[blocks, THREADS](np.uint64(deck_mask), unknown_d, np.uint64(hero_hand), int(trump_card), n, int(hero),
                                rp_d, i0, i1, i2, i3, i4, w0, w1, w2, w3, w4, int(policy), int(passes),
                                bool(knocked), int(swapped_by), choices_d, np.uint64(seed), int(start), count,
                                *scratch, *outputs)
    if not SIMULATOR:
        for device_array, host in zip(outputs, (results, tries, weights)):
            device_array.copy_to_host(host)
    return results, tries, weights


def _table_kernel(deck_mask, deck, hero_hands, trump_cards, seats, n, rp, p_ints, p_values, p_words, p_throws,
                  p_exchanges, policy, penalised_passes, cols, choices, seed, first_cell, min_samples, max_samples,
                  growth, precision, z_stop, min_tricks, excluded_by_trump,
                  pool, hands2, ints, cards, us, counts, members, table, present, taken, alpha, cache, forced, probs,
                  unknown, plan_word, plan_hard, plan_stretched, stretch, excluded, out, sums, sw2xy, tallies, live,
                  means, halves, shares, best, runner, margin, margin_half, tries, samples, ess, stop,
                  column_samples):
    """Thread ``t``: cells t, t + T, ... (T threads) to their stopping rule, ``table.simulate_cell`` on its scratch."""
    t = cuda.grid(1)
    threads = pool.shape[0]
    if t >= threads:
        return
    pol = (_plain(p_ints), _plain(p_values), _plain(p_words), _plain(p_throws), _plain(p_exchanges))
    cond = (_plain(counts)[t], _plain(members)[t], _plain(table)[t], _plain(present)[t], _plain(taken)[t],
            _plain(alpha)[t], _plain(cache)[t])
    scratch = (_plain(pool)[t], _plain(hands2)[t], _plain(ints)[t], _plain(cards)[t], _plain(us)[t], cond,
               _plain(forced)[t], _plain(probs)[t])
    plan = (_plain(plan_word)[t], _plain(plan_hard)[t], _plain(plan_stretched)[t], _plain(stretch)[t],
            _plain(excluded)[t])
    cell_scratch = (_plain(unknown)[t], plan, _plain(out)[t], _plain(sums)[t], _plain(sw2xy)[t], _plain(tallies)[t],
                    _plain(live)[t])
    outputs = (_plain(means), _plain(halves), _plain(shares), _plain(best), _plain(runner), _plain(margin),
               _plain(margin_half), _plain(tries), _plain(samples), _plain(ess), _plain(stop),
               _plain(column_samples))
    deck = _plain(deck)
    hero_hands = _plain(hero_hands)
    trump_cards = _plain(trump_cards)
    seats = _plain(seats)
    rp = _plain(rp)
    choices = _plain(choices)
    excluded_by_trump = _plain(excluded_by_trump)
    for cell in range(t, hero_hands.shape[0], threads):
        simulate_cell(cell, deck_mask, deck, hero_hands, trump_cards, seats, n, rp, pol, policy, penalised_passes,
                      cols, choices, seed, first_cell, min_samples, max_samples, growth, precision, z_stop,
                      min_tricks, excluded_by_trump, scratch, cell_scratch, outputs)


table_kernel = cuda.jit(cache=not SIMULATOR)(_table_kernel)


def table_cells(deck_mask, deck, hero_hands, trump_cards, seats, n, rp, pol, policy, penalised_passes, exchange_limit,
                seed, first_cell, min_samples, max_samples, growth, precision, z_stop, min_tricks, excluded_by_trump):
    """``table.table_cells`` on the GPU: the same arguments, the same arrays, every float bit for bit.

    One thread per cell (each thread walks its share of the cells when there are more cells than threads),
    running ``table.simulate_cell``, the CPU kernel's own per-cell code, sums and stopping rule included.
    """
    n = int(n)
    hero_hands = _c(hero_hands, np.uint64)
    cells = hero_hands.shape[0]
    outputs = new_outputs(cells, int(exchange_limit))
    if cells == 0:
        return outputs
    cols = COL_PLAY + int(exchange_limit) + 1
    choices = table_choices(int(exchange_limit))
    deck = _c(deck, np.int64)
    rp = _c(rp, np.int64)
    unknown_size = deck.shape[0] - int(rp[R_HAND]) - 1
    inputs = (deck, hero_hands, _c(trump_cards, np.int64), _c(seats, np.int64), rp, _c(pol[0], np.int64),
              _c(pol[1], np.int64), _c(pol[2], np.float64), _c(pol[3], np.float64), _c(pol[4], np.float64), choices,
              _c(excluded_by_trump, np.int64))
    threads = launch_size(cells, False)
    key = ("table", threads, n, unknown_size, choices.shape[0], cols)
    scratch = _resident(key, lambda: _scratch(threads, n, unknown_size, choices.shape[0], False)[:-1])
    cell_scratch = _resident(("cell", *key), lambda: (
        np.zeros((threads, unknown_size), dtype=np.int64),  # unknown
        np.full((threads, n), W_NONE, dtype=np.int64),  # plan: every word unknown
        np.zeros((threads, n), dtype=np.int64),  # nobody drawn exactly
        np.zeros((threads, n), dtype=np.int64),  # nor stretched
        np.zeros((threads, n, NSCORE)),
        np.full((threads, n), -1, dtype=np.int64),  # excluded two of trump (set per cell)
        np.zeros((threads, choices.shape[0], OUT_FIELDS), dtype=np.int64),  # out
        np.zeros((threads, SUM_ROWS, cols)),
        np.zeros((threads, cols, cols)),
        np.zeros((threads, N_COUNTERS)),
        np.zeros((threads, choices.shape[0]), dtype=np.int64)))  # live: the choices still simulated
    device_outputs = outputs
    if not SIMULATOR:
        inputs = tuple(cuda.to_device(a) for a in inputs)
        device_outputs = tuple(cuda.to_device(a) for a in outputs)  # zeros: an impossible cell leaves some
    deck_d, hands_d, trumps_d, seats_d, rp_d, i0, i1, i2, i3, i4, choices_d, excluded_d = inputs
    blocks = (threads + THREADS - 1) // THREADS
    table_kernel[blocks, THREADS](np.uint64(deck_mask), deck_d, hands_d, trumps_d, seats_d, n, rp_d, i0, i1, i2, i3,
                                  i4, int(policy), int(penalised_passes), cols, choices_d, np.uint64(seed),
                                  int(first_cell), int(min_samples), int(max_samples), float(growth),
                                  float(precision), float(z_stop), int(min_tricks), excluded_d, *scratch,
                                  *cell_scratch, *device_outputs)
    if not SIMULATOR:
        for device_array, host in zip(device_outputs, outputs):
            device_array.copy_to_host(host)
    return outputs


def _types():
    from numba import float64, int64, uint64

    i1, i2, i3 = int64[::1], int64[:, ::1], int64[:, :, ::1]
    f1, f2, f3, f4 = float64[::1], float64[:, ::1], float64[:, :, ::1], float64[:, :, :, ::1]
    # deck or pool, hands, ints, cards, us, counts, members, table, present, taken, alpha, cache, forced, probs
    scratch = (i2, uint64[:, :, ::1], i3, i2, f3, i2, i3, float64[:, :, :, :, ::1], i2, i2, f3, i2, i2, f2)
    return i1, i2, i3, f1, f2, f3, f4, scratch


def kernel_signature(kernel: str = "ask"):
    """The argument types ``ask_batch`` (``table_cells``) launches ``ask_kernel`` (``table_kernel``) with."""
    from numba import boolean, float64, int8, int32, int64, uint64

    i1, i2, i3, f1, f2, f3, f4, scratch = _types()
    policy = (i2, i3, f4, f3, f4)
    if kernel == "ask":
        return (uint64, i1, uint64, int64, int64, int64, i1, *policy, i1, i1, i1, f2, i1, int64, int64, boolean,
                int64, i1, uint64, int64, int64, *scratch, i3, int8[:, :, ::1], int32[::1], f1)
    cell_scratch = (i2, i2, i2, i2, f3, i2, i3, f3, f3, f2, i2)
    outputs = (f2, f2, f2, i1, i1, f1, f1, f1, i1, f1, i1, i2)
    return (uint64, i1, uint64[::1], i1, i1, int64, i1, *policy, int64, int64, int64, i1, uint64, int64, int64,
            int64, float64, float64, float64, int64, i2, *scratch, *cell_scratch, *outputs)


def compile_ptx(cc=(9, 0), kernel: str = "ask") -> str:
    """PTX of ``ask_kernel`` (or ``table_kernel``) for compute capability ``cc``; needs NVVM, not a GPU.

    numba-cuda compiles the device functions a kernel calls for the current
    device's compute capability, which fails where there is none: then
    ``cc`` stands in for it while compiling.
    """
    import contextlib
    from unittest import mock

    import numba.cuda.dispatcher as dispatcher

    if cuda.is_available():
        patch = contextlib.nullcontext()
    else:
        class _Device:
            compute_capability = tuple(cc)

        patch = mock.patch.object(dispatcher, "get_current_device", lambda: _Device())
    with patch:
        function = _ask_kernel if kernel == "ask" else _table_kernel
        ptx, _ = cuda.compile_ptx(function, kernel_signature(kernel), cc=tuple(cc))
    return ptx
