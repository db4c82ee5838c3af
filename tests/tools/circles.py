"""Import circles between the filter's modules, submodules included.

    python -m tests.tools.circles [--edges] [--src DIR]...

Every crate's `src/` is read on its own (the filter's `src`, `veil-core/src`,
`veil-detect/src`; Cargo already refuses a circle between crates). Every file under
a `src/` is a module (`veil-detect/src/engine/scan.rs` is `engine::scan`,
`veil-detect/src/engine/mod.rs` is `engine`). A module depends on another when its code (test
modules aside) names a path into it: `crate::a::b::…`, `super::…`, `self::…`, or a
child module by its bare name (`rules::BUILTIN` in `detect/mod.rs`). A path is
resolved to the deepest module it names; an item a module re-exports (`pub use
child::Item`) resolves to the module that defines it, so a parent that only declares
and re-exports its children is no link in a circle. Prints each circle found (and,
with `--edges`, every edge), and exits 1 when there is one.

ARCHITECTURE.md's invariant ("no import circle in any crate, submodules included") is
what this checks (`tests/e2e/test_build.py` runs it); `--src` reads other trees.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SRCS = [ROOT / "src", ROOT / "veil-core" / "src", ROOT / "veil-detect" / "src"]


def module_of(path: Path, src: Path) -> tuple[str, ...]:
    parts = list(path.relative_to(src).with_suffix("").parts)
    if parts[-1] in ("mod", "lib"):
        parts.pop()
    return tuple(parts)


def code_of(text: str) -> str:
    """The text without its test module and without comments."""
    cut = text.find("#[cfg(test)]\nmod tests")
    text = text if cut < 0 else text[:cut]
    return re.sub(r"//[^\n]*", "", text)


def expand_uses(code: str) -> list[str]:
    """Every path a `use` statement names, groups expanded (`a::{b, c::{d}}`)."""
    out: list[str] = []

    def expand(prefix: str, body: str) -> None:
        depth, item = 0, ""
        for ch in body + ",":
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
            if ch == "," and depth == 0:
                item = item.strip()
                if item:
                    m = re.match(r"^([\w:]*?)::\{(.*)\}$", item, re.S)
                    if m:
                        expand(prefix + m.group(1) + "::", m.group(2))
                    else:
                        out.append(prefix + item.split(" as ")[0].strip())
                item = ""
            else:
                item += ch

    for m in re.finditer(r"\buse\s+([^;]+);", code):
        expand("", m.group(1).strip())
    return out


def main(argv: list[str]) -> int:
    srcs = [Path(argv[i + 1]) for i, a in enumerate(argv) if a == "--src" and i + 1 < len(argv)] or SRCS
    totals = [0, 0, 0]
    for src in srcs:
        modules, edges, circles = crate(src, "--edges" in argv)
        totals = [totals[0] + modules, totals[1] + edges, totals[2] + circles]
    print(f"{totals[0]} modules, {totals[1]} edges, {totals[2]} circles")
    return 1 if totals[2] else 0


def crate(src: Path, edges: bool) -> tuple[int, int, int]:
    """The modules, edges and circles of the crate whose sources are `src`; prints each
    circle (and with `edges` every edge)."""
    files = {module_of(p, src): p for p in src.rglob("*.rs")}
    modules = set(files)
    codes = {m: code_of(p.read_text()) for m, p in files.items()}
    children = {m: {c[-1] for c in modules if len(c) == len(m) + 1 and c[: len(m)] == m} for m in modules}

    def absolute(module: tuple[str, ...], path: str) -> tuple[str, ...] | None:
        segs = [s for s in path.split("::") if s]
        if not segs:
            return None
        base: tuple[str, ...]
        if segs[0] == "crate":
            base, segs = (), segs[1:]
        elif segs[0] in ("super", "self"):
            base = module
            while segs and segs[0] in ("super", "self"):
                if segs.pop(0) == "super":
                    base = base[:-1]
        elif segs[0] in children.get(module, ()):
            base = module
        else:
            return None
        return base + tuple(segs)

    # Re-exports: (module, item) -> the absolute path it stands for.
    reexports: dict[tuple[tuple[str, ...], str], tuple[str, ...]] = {}
    for m, code in codes.items():
        for stmt in re.finditer(r"\bpub(?:\([^)]*\))?\s+use\s+([^;]+);", code):
            for path in expand_uses(f"use {stmt.group(1).strip()};"):
                full = absolute(m, path)
                if full and full[-1] != "*":
                    reexports[(m, full[-1])] = full

    def resolve(full: tuple[str, ...]) -> tuple[str, ...] | None:
        for _ in range(8):
            n = len(full)
            while n >= 0 and full[:n] not in modules:
                n -= 1
            if n < 0:
                return None
            owner = full[:n]
            if n < len(full) and (owner, full[n]) in reexports and reexports[(owner, full[n])] != full:
                full = reexports[(owner, full[n])] + full[n + 1 :]
                continue
            return owner
        return None

    graph: dict[tuple[str, ...], set[tuple[str, ...]]] = {m: set() for m in modules}
    for m, code in codes.items():
        paths = expand_uses(code)
        paths += re.findall(r"\b((?:crate|super|self)(?:::\w+)+)(?![\w:])", code)
        paths += [p for p in re.findall(r"(?<![\w:])(\w+(?:::\w+)+)", code) if p.split("::")[0] in children[m]]
        for path in paths:
            full = absolute(m, path)
            target = resolve(full) if full else None
            # A module's own children declared with `mod`, or its own items, are no edge
            # unless named; `()` (the crate root) is lib.rs, which only declares.
            if target is not None and target != m and target != ():
                graph[m].add(target)

    name = lambda m: "::".join(m) or "crate"  # noqa: E731
    if edges:
        for m in sorted(graph):
            for d in sorted(graph[m]):
                print(f"{name(m)} -> {name(d)}")
    # Strongly connected components (Tarjan): each of more than one module is a circle.
    index: dict = {}
    low: dict = {}
    stack: list = []
    on: set = set()
    sccs: list[list] = []
    counter = [0]

    def strong(v) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                sccs.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            strong(v)
    for comp in sorted(sccs):
        print(f"{src}: circle of {len(comp)}: " + ", ".join(name(m) for m in comp))
    return len(modules), sum(len(d) for d in graph.values()), len(sccs)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
