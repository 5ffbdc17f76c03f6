"""The include graph of Avocet's C++: which module includes which, and whether any include cycle.

Reads every C++ file under src/ and include/ and follows its quoted includes (`#include
"avocet/..."` and local ones such as `#include "encoding.h"`), resolved as the compiler does:
beside the including file first, then in each include root (include/, then src/). An include
that resolves to no file of the tree (a system header, a header CMake generates) is left out.

A file belongs to a module: the folder under src/ or include/avocet/ that holds it
(src/nn/network.cpp and include/avocet/nn/network.h are both `nn`); with --depth 2 a subfolder
is a module of its own (`nn/kernels`). A file directly in src/ or include/avocet/ is a module
named after it (`main`, `build_info`).

Prints the module graph twice: as text edges `from -> to: N` (N include lines), and as a Mermaid
`graph TD` block (modules as boxes with their file counts, includes as arrows labelled with
their counts). Then checks for cycles:
- a file-level cycle (a.h includes b.h includes a.h) cannot compile as intended: each is printed
  and the exit status is 1;
- a module-level cycle (a file of A includes one of B, another of B one of A) compiles but ties
  the two modules together: each is printed as a warning, exit status 0.

Standard library only. Usage:
    python3 -m tools.dev.include_graph [--root REPO] [--depth 1] [--format both|text|mermaid]
"""

import argparse
import os
import re
import sys
from collections import Counter
from collections.abc import Collection, Mapping
from typing import TextIO

SOURCE_EXTENSIONS = (".h", ".hh", ".hpp", ".cpp", ".cc", ".cxx", ".inc", ".ipp")
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
PROJECT_DIR = "avocet"  # include/avocet/...: the public headers' folder under include/


def source_files(root: str) -> list[str]:
    """Repository-relative paths of the C++ files under src/ and include/, sorted."""
    files = []
    for top in ("src", "include"):
        for folder, _, names in os.walk(os.path.join(root, top)):
            for name in names:
                if name.endswith(SOURCE_EXTENSIONS):
                    files.append(os.path.relpath(os.path.join(folder, name), root))
    return sorted(path.replace(os.sep, "/") for path in files)


def includes_of(root: str, path: str, known: set[str]) -> list[str]:
    """The files of `known` that `path` includes, one entry per include line, in order."""
    found = []
    with open(os.path.join(root, path), encoding="utf-8", errors="replace") as lines:
        for line in lines:
            match = INCLUDE.match(line)
            if not match:
                continue
            name = match.group(1)
            for base in (os.path.dirname(path), "include", "src"):
                candidate = os.path.normpath(os.path.join(base, name)).replace(os.sep, "/")
                if candidate in known:
                    found.append(candidate)
                    break
    return found


def module_of(path: str, depth: int) -> str:
    """`src/nn/network.cpp` and `include/avocet/nn/network.h` -> `nn` (depth 1)."""
    parts = path.split("/")
    parts = parts[2:] if parts[:2] == ["include", PROJECT_DIR] else parts[1:]
    folders = parts[:-1]
    if not folders:
        return os.path.splitext(parts[-1])[0]
    return "/".join(folders[:depth])


def file_graph(root: str) -> dict[str, list[str]]:
    files = source_files(root)
    known = set(files)
    return {path: includes_of(root, path, known) for path in files}


def strongly_connected(graph: Mapping[str, Collection[str]]) -> list[list[str]]:
    """Tarjan's components of `graph` (node -> iterable of nodes) that hold a cycle."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []

    def visit(start):
        # Iterative, so that a deep include chain cannot reach Python's recursion limit.
        work = [(start, iter(sorted(set(graph.get(start, ())))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            for successor in successors:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(sorted(set(graph.get(successor, ()))))))
                    break
                if successor in on_stack:
                    low[node] = min(low[node], index[successor])
            else:
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
                    if len(component) > 1 or node in graph.get(node, ()):
                        found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def cycle_in(graph: Mapping[str, Collection[str]], component: list[str]) -> list[str]:
    """One cycle through the component's first node, as a list of nodes ending where it began."""
    members, start = set(component), component[0]
    path, seen = [start], {start}
    while True:
        successors = sorted(set(graph.get(path[-1], ())) & members)
        if start in successors:
            return path + [start]
        step = next((s for s in successors if s not in seen), None)
        if step is None:  # a dead end inside the component: back up
            path.pop()
            if not path:
                return component + [component[0]]
            continue
        path.append(step)
        seen.add(step)


def module_graph(files: dict[str, list[str]],
                 depth: int) -> tuple[Counter[str], Counter[tuple[str, str]]]:
    """(module -> file count, Counter of (from, to) -> include lines between modules)."""
    sizes = Counter(module_of(path, depth) for path in files)
    edges = Counter()
    for path, targets in files.items():
        source = module_of(path, depth)
        for target in targets:
            if module_of(target, depth) != source:
                edges[(source, module_of(target, depth))] += 1
    return sizes, edges


def mermaid_id(module: str) -> str:
    return re.sub(r"\W", "_", module)


def print_text(sizes: Mapping[str, int], edges: Mapping[tuple[str, str], int],
               out: TextIO) -> None:
    print("module edges (from -> to: include lines):", file=out)
    for module in sorted(sizes):
        targets = sorted((to, n) for (source, to), n in edges.items() if source == module)
        if not targets:
            print(f"  {module} -> (none)", file=out)
        for to, n in targets:
            print(f"  {module} -> {to}: {n}", file=out)


def print_mermaid(sizes: Mapping[str, int], edges: Mapping[tuple[str, str], int],
                  out: TextIO) -> None:
    print("```mermaid", file=out)
    print("graph TD", file=out)
    for module in sorted(sizes):
        files = "file" if sizes[module] == 1 else "files"
        print(f'  {mermaid_id(module)}["{module} ({sizes[module]} {files})"]', file=out)
    for (source, to), n in sorted(edges.items()):
        print(f"  {mermaid_id(source)} -->|{n}| {mermaid_id(to)}", file=out)
    print("```", file=out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                       "..", ".."),
                        help="the repository (default: the one holding this script)")
    parser.add_argument("--depth", type=int, default=1,
                        help="folder levels that name a module (2: src/nn/kernels is nn/kernels)")
    parser.add_argument("--format", choices=["both", "text", "mermaid"], default="both")
    args = parser.parse_args(argv)
    if args.depth < 1:
        parser.error("--depth must be at least 1")
    root = os.path.abspath(args.root)
    if not any(os.path.isdir(os.path.join(root, top)) for top in ("src", "include")):
        sys.exit(f"include_graph.py: {root} has neither src/ nor include/")

    files = file_graph(root)
    sizes, edges = module_graph(files, args.depth)
    lines = sum(len(targets) for targets in files.values())
    print(f"{len(files)} files, {lines} includes between them, {len(sizes)} modules, "
          f"{len(edges)} module edges")
    if args.format in ("both", "text"):
        print_text(sizes, edges, sys.stdout)
    if args.format in ("both", "mermaid"):
        print_mermaid(sizes, edges, sys.stdout)

    modules = {}
    for (source, to) in edges:
        modules.setdefault(source, set()).add(to)
    for component in strongly_connected(modules):
        print("warning: module cycle: " + " -> ".join(cycle_in(modules, component)))
    file_cycles = strongly_connected(files)
    for component in file_cycles:
        print("error: include cycle: " + " -> ".join(cycle_in(files, component)))
    if file_cycles:
        return 1
    print("no file-level include cycle")
    return 0


if __name__ == "__main__":
    sys.exit(main())
