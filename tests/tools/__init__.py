"""The demo and the benchmarks, run from the repository root as modules, e.g.
`python -m tests.tools.demo --once` (`cargo xtask demo`) or `python -m tests.tools.bench`."""
