"""Strategy tables: every seat, trump rank and hand class, simulated once and kept as Parquet.

A table answers ``ask`` instantly for any hand (hands are looked up through
their class, :mod:`.handclasses`). The ideas live in their own modules:

- :mod:`.handclasses`: hand classes, hands up to a permutation of the side suits (a table's rows);
- :mod:`.spec`: what a table is (settings, adaptive precision, seeds, manifest);
- :mod:`.build`: building and resuming, chunk by chunk, with the stopping rule;
- :mod:`.schedulers`: where the chunks run (this process, or Dask);
- :mod:`.plan`: how long a whole map of tables would take;
- :mod:`.pack`: compact decision tables (shipped in the package) and their lookup;
- :mod:`.lookup`: reading tables and answering ``ask`` from them;
- :mod:`.find`: the first table (full, packed, shipped) that answers a situation;
- :mod:`.validity`: a table is valid when today's code recomputes a fixed sample of its cells exactly;
- :mod:`.neighbours`: neighbour groups, hands alike but for their low side ranks, and each group's representative;
- :mod:`.groups`, :mod:`.group_model`: tables of one cell per group (the shipped flemish ones), the build's calibration
  of how far a hand sits from its group's cell, and how a cell answers for every hand of its group;
- :mod:`.pooling`: pooling neighbouring cells (measured by ``benchmarks/bench_neighbours.py``; not in the shipped
  tables).
"""

from .build import DEFAULT_CHUNK_CELLS, build_table, compute_chunk, knock_values
from .find import find_answer
from .lookup import (
    Table,
    answer_from_table,
    cell_situation,
    find_tables,
    load_table,
    manifest_matches,
    matches,
    read_manifest,
    table_cell,
)
from .spec import (
    DEFAULT_PRECISION,
    TABLE_FORMAT,
    TableError,
    TableSpec,
    default_seed,
    numbers_problem,
    package_version,
)

__all__ = ["TableSpec", "Table", "TableError", "build_table", "load_table", "find_tables", "answer_from_table",
           "knock_values", "cell_situation", "table_cell", "package_version", "default_seed", "find_answer",
           "compute_chunk", "matches", "manifest_matches", "read_manifest", "DEFAULT_PRECISION", "DEFAULT_CHUNK_CELLS",
           "TABLE_FORMAT", "numbers_problem"]
