"""Checks the bounds the documents keep, so that they cannot grow back: the front page at most
100 lines, every other README at most 250, no markdown line over 400 characters, every relative
link resolving to a file or folder of the repository, and every results log in
weights/results/ listed in its index, the results table of weights/README.md.

Prints one line per breach and exits 1 if there is any. Standard library only. Example:
    python3 -m tools.dev.check_docs    # from the repository root, as every tool
"""

import os
import re
import sys
from collections.abc import Iterator

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FRONT_PAGE_LINES = 100
README_LINES = 250
LINE_CHARACTERS = 400
SKIPPED = {".git", "build", "node_modules"}
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def markdown_files(root: str) -> Iterator[str]:
    for folder, folders, files in os.walk(root):
        folders[:] = sorted(f for f in folders if f not in SKIPPED and not f.startswith("build"))
        for name in sorted(files):
            if name.endswith(".md"):
                yield os.path.join(folder, name)


def breaches(root: str = ROOT) -> list[str]:
    """Every breach, as a line naming the file."""
    found = []
    for path in markdown_files(root):
        relative = os.path.relpath(path, root)
        with open(path, encoding="utf-8") as file:
            lines = file.read().split("\n")
        count = len(lines) - (lines[-1] == "")
        name = os.path.basename(path)
        if relative == "README.md" and count > FRONT_PAGE_LINES:
            found.append(f"{relative}: {count} lines, over the front page's {FRONT_PAGE_LINES}")
        elif name == "README.md" and relative != "README.md" and count > README_LINES:
            found.append(f"{relative}: {count} lines, over a README's {README_LINES}")
        in_code = False
        for number, line in enumerate(lines, 1):
            if line.startswith("```"):
                in_code = not in_code
            if len(line) > LINE_CHARACTERS:
                found.append(f"{relative}:{number}: {len(line)} characters, over "
                             f"{LINE_CHARACTERS}")
            if in_code:
                continue
            for target in LINK.findall(line):
                if re.match(r"^[a-z]+:", target) or target.startswith("#"):
                    continue
                file_part = target.split("#", 1)[0]
                resolved = os.path.normpath(os.path.join(os.path.dirname(path), file_part))
                if not os.path.exists(resolved):
                    found.append(f"{relative}:{number}: the link '{target}' leads nowhere")
    results = os.path.join(root, "weights", "results")
    index = os.path.join(root, "weights", "README.md")
    listed = set()
    if os.path.exists(index):
        with open(index, encoding="utf-8") as file:
            listed = {os.path.basename(t.split("#", 1)[0]) for t in LINK.findall(file.read())
                      if t.startswith("results/")}
    if os.path.isdir(results):
        for name in sorted(os.listdir(results)):
            if name.endswith(".md") and name not in listed:
                found.append(f"weights/results/{name}: not listed in weights/README.md")
    return found


def main() -> int:
    found = breaches()
    for line in found:
        print(line)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
