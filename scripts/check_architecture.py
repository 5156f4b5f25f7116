"""The architecture checks that import-linter's contracts do not cover (run by `make lint` and
`make test`, after `lint-imports`):

- no import cycle between modules (module level), counting imports inside functions too, since
  a lazy import is how a cycle gets hidden; and none between the children of any package
  (package level: ``a.x.*`` imports ``a.y.*`` and back);
- a game's rules core does not import its own presentation (`<game>.present`);
- no file under the package (``*.py``, ``*.html``, ``*.j2``, ``*.lark``) over 500 lines;
- outside a game's own package, only the registry names a game (the names are read from the
  game packages under ``<package>/rules/``, so a new game is checked without editing this file);
- every top-level module but ``rules`` and ``kit`` is a source of the shell's contract in
  pyproject's ``[tool.importlinter]`` (the forbidden one with ``allow_indirect_imports``), so
  a new shell module cannot slip past the rule that the shell reaches games via the registry.

    python scripts/check_architecture.py [--package app] [--root .]

Prints each finding and exits 1 when there is one.
"""

from __future__ import annotations

import argparse
import re
import sys
import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path

import grimp

MAX_LINES = 500
SIZED_SUFFIXES = (".py", ".html", ".j2", ".lark")
NAMED_SUFFIXES = (".py", ".html", ".j2")
PRESENTATION = "present"
REGISTRY = "rules/registry.py"


def strongly_connected(nodes: Iterable[str], edges: Mapping[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm, iterative: the components of more than one node, or of one node that
    imports itself, each sorted, the list sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = 0
    for root in sorted(nodes):
        if root in index:
            continue
        work: list[tuple[str, list[str]]] = [(root, sorted(edges.get(root, ())))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, pending = work[-1]
            if pending:
                nxt = pending.pop()
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, sorted(edges.get(nxt, ()))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1 or node in edges.get(node, ()):
                    found.append(sorted(component))
    return sorted(found)


def shortest_loop(start: str, members: set[str], edges: Mapping[str, set[str]]) -> list[str]:
    """One shortest path start -> ... -> start inside a component (to show a reader)."""
    previous: dict[str, str] = {}
    frontier = [start]
    seen = {start}
    while frontier:
        following = []
        for node in frontier:
            for nxt in sorted(edges.get(node, ())):
                if nxt == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(previous[path[-1]])
                    return [start, *reversed(path[:-1]), start] if node != start else [start, start]
                if nxt in members and nxt not in seen:
                    seen.add(nxt)
                    previous[nxt] = node
                    following.append(nxt)
        frontier = following
    return [start]


def module_edges(graph: grimp.ImportGraph) -> dict[str, set[str]]:
    return {m: set(graph.find_modules_directly_imported_by(m)) for m in graph.modules}


def owner(module: str, parent: str) -> str:
    """The child of `parent` that holds `module` (`parent` is an ancestor of it)."""
    return (
        module[: module.index(".", len(parent) + 1)] if "." in module[len(parent) + 1 :] else module
    )


def module_cycles(graph: grimp.ImportGraph) -> list[str]:
    edges = module_edges(graph)
    findings = []
    for component in strongly_connected(graph.modules, edges):
        loop = shortest_loop(component[0], set(component), edges)
        findings.append(
            f"module import cycle ({len(component)} modules: {', '.join(component)}): "
            + " -> ".join(loop)
        )
    return findings


def package_cycles(graph: grimp.ImportGraph) -> list[str]:
    """For each package, the cycles between its children (each child standing for itself and
    everything under it)."""
    edges = module_edges(graph)
    findings = []
    for package in sorted(m for m in graph.modules if graph.find_children(m)):
        children = graph.find_children(package)
        if len(children) < 2:
            continue
        prefix = package + "."
        squashed: dict[str, set[str]] = {child: set() for child in children}
        for importer, imported_set in edges.items():
            if not importer.startswith(prefix):
                continue
            source = owner(importer, package)
            for imported in imported_set:
                if imported.startswith(prefix):
                    target = owner(imported, package)
                    if target != source:
                        squashed[source].add(target)
        for component in strongly_connected(children, squashed):
            members = set(component)
            links = []
            for a in component:
                for b in sorted(squashed[a] & members):
                    links.append(witness(edges, a, b))
            findings.append(
                f"package import cycle under {package} between {', '.join(component)}: "
                + "; ".join(links)
            )
    return findings


def witness(edges: Mapping[str, set[str]], a: str, b: str) -> str:
    """One module import that makes package `a` import package `b`."""
    for importer in sorted(edges):
        if importer == a or importer.startswith(a + "."):
            for imported in sorted(edges[importer]):
                if imported == b or imported.startswith(b + "."):
                    return f"{importer} -> {imported}"
    return f"{a} -> {b}"


def game_names(package_dir: Path) -> list[str]:
    """The games: the packages under <package>/rules/ with a presentation or a words catalogue."""
    rules = package_dir / "rules"
    if not rules.is_dir():
        return []
    return sorted(
        d.name
        for d in rules.iterdir()
        if (d / "__init__.py").is_file() and ((d / PRESENTATION).is_dir() or (d / "words").is_dir())
    )


def core_imports_presentation(
    graph: grimp.ImportGraph, package: str, games: list[str]
) -> list[str]:
    findings = []
    for game in games:
        core = f"{package}.rules.{game}"
        present = f"{core}.{PRESENTATION}"
        if core not in graph.modules or present not in graph.modules:
            continue
        inside_present = {present, *graph.find_descendants(present)}
        for module in sorted({core, *graph.find_descendants(core)} - inside_present):
            for imported in sorted(graph.find_modules_directly_imported_by(module)):
                if imported in inside_present:
                    findings.append(
                        f"a rules core imports its presentation: {module} -> {imported}"
                    )
    return findings


def files_under(package_dir: Path, suffixes: tuple[str, ...]) -> list[Path]:
    return sorted(
        p
        for p in package_dir.rglob("*")
        if p.is_file() and p.suffix in suffixes and "__pycache__" not in p.parts
    )


def oversized_files(root: Path, package_dir: Path, limit: int = MAX_LINES) -> list[str]:
    findings = []
    for path in files_under(package_dir, SIZED_SUFFIXES):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > limit:
            findings.append(f"{path.relative_to(root)}: {lines} lines (the limit is {limit})")
    return findings


def games_named_outside(root: Path, package_dir: Path, games: list[str]) -> list[str]:
    if not games:
        return []
    pattern = re.compile("|".join(re.escape(g) for g in games))
    own = [package_dir / "rules" / g for g in games]
    allowed = {package_dir / REGISTRY}
    findings = []
    for path in files_under(package_dir, NAMED_SUFFIXES):
        if path in allowed or any(d in path.parents for d in own):
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line):
                findings.append(
                    f"{path.relative_to(root)}:{number}: names a game outside its package "
                    f"(only {REGISTRY} may): {line.strip()[:100]}"
                )
    return findings


def unclassified_modules(graph: grimp.ImportGraph, package: str, pyproject: Path) -> list[str]:
    if not pyproject.is_file():
        return []
    config = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    contracts = config.get("tool", {}).get("importlinter", {}).get("contracts", [])
    shell_contracts = [
        c for c in contracts if c.get("type") == "forbidden" and c.get("allow_indirect_imports")
    ]
    if not shell_contracts:
        return []
    named = {m for c in shell_contracts for m in c.get("source_modules", [])}
    neutral = {f"{package}.rules", f"{package}.kit"}
    return [
        f"{module} is not a source of the shell's import contract in {pyproject.name} "
        "([tool.importlinter], allow_indirect_imports): add it there"
        for module in sorted(graph.find_children(package) - neutral - named)
    ]


def check(package: str, root: Path) -> list[str]:
    package_dir = root / package
    sys.path.insert(0, str(root))
    try:
        graph = grimp.build_graph(package, cache_dir=None)
    finally:
        sys.path.remove(str(root))
    games = game_names(package_dir)
    return [
        *module_cycles(graph),
        *package_cycles(graph),
        *core_imports_presentation(graph, package, games),
        *oversized_files(root, package_dir),
        *games_named_outside(root, package_dir, games),
        *unclassified_modules(graph, package, root / "pyproject.toml"),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--package", default="app")
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[1])
    args = parser.parse_args(argv)
    findings = check(args.package, args.root.resolve())
    for finding in findings:
        print(finding)
    if findings:
        print(f"architecture: {len(findings)} finding(s)")
        return 1
    print("architecture: no cycle, no file over the limit, only the registry names a game")
    return 0


if __name__ == "__main__":
    sys.exit(main())
