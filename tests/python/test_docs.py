"""test_docs.py: the examples of docs/python.md marked `<!-- doctest -->` run (CPU arrays), in
order, in one namespace, and their assertions hold: the page cannot drift from the package."""
import re

from conftest import ROOT


def blocks():
    text = (ROOT / "docs" / "python.md").read_text(encoding="utf-8")
    found = re.findall(r"<!-- doctest -->\n```python\n(.*?)\n```", text, re.S)
    assert len(found) >= 5, f"docs/python.md: {len(found)} doctest blocks (5 expected)"
    return found


def test_python_md_examples():
    ns = {}
    for i, code in enumerate(blocks()):
        exec(compile(code, f"docs/python.md block {i + 1}", "exec"), ns)   # noqa: S102 (our own page)
