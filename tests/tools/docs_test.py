"""tools/dev/check_docs.py: the documents' bounds hold in the repository, and each kind of
breach is caught in a tree made to break it."""

import os
import tempfile
import unittest

from tools.dev import check_docs

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def write(root, path, text):
    path = os.path.join(root, path)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as file:
        file.write(text)


class DocsTest(unittest.TestCase):
    def test_the_repository_keeps_its_bounds(self):
        self.assertEqual(check_docs.breaches(), [])

    def test_each_breach_is_named(self):
        with tempfile.TemporaryDirectory() as root:
            write(root, "README.md", "line\n" * 101 + "[a](missing.md) [b](src/x/README.md#y)\n")
            write(root, "src/x/README.md", "x\n" * 251)
            write(root, "src/y/README.md", "y" * 401 + "\n```\n[not a link](nowhere)\n```\n")
            write(root, "weights/results/2026-01-01-log.md", "a log\n")
            write(root, "weights/results/2026-01-02-linked.md", "linked\n")
            write(root, "weights/README.md", "[log](results/2026-01-02-linked.md)\n")
            found = check_docs.breaches(root)
        self.assertEqual(found, [
            "README.md: 102 lines, over the front page's 100",
            "README.md:102: the link 'missing.md' leads nowhere",
            "src/x/README.md: 251 lines, over a README's 250",
            "src/y/README.md:1: 401 characters, over 400",
            "weights/results/2026-01-01-log.md: not listed in weights/README.md",
        ])


if __name__ == "__main__":
    unittest.main()
