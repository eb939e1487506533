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
- :mod:`.neighbours`, :mod:`.pooling`: neighbouring hands and pooling their cells (issue 35's estimator, measured by
  ``benchmarks/bench_neighbours.py``; the shipped tables do not use it yet).
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
