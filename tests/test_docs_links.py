"""The README and docs/ hold together (issue 31): every relative link in them reaches a file that
exists (and, with a #fragment, a heading of that file), the README stays a newcomer's (at most 400
lines), and no page quotes a machine's load: figures live in docs/MEASUREMENTS.md with the command
that produced them."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parents[1]

# The pages a reader follows links between: the README, docs/ (rules included) and the games' own.
PAGES = sorted(
    [ROOT / "README.md", *(ROOT / "docs").rglob("*.md"), *(ROOT / "games").glob("*.md")],
    key=lambda path: path.as_posix(),
)

LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(([^()\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^\s*(```|~~~)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def prose_lines(text: str) -> list[str]:
    """The lines outside fenced code blocks (a `#` or `[x](y)` inside one is code, not markdown)."""
    lines, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            lines.append(line)
    return lines


def anchor(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces made hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link in a heading: its text
    text = re.sub(r"[^\w\- ]", "", text.lower())
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    found: set[str] = set()
    seen: dict[str, int] = {}
    for line in prose_lines(page.read_text(encoding="utf-8")):
        match = HEADING.match(line)
        if not match:
            continue
        slug = anchor(match.group(2))
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        found.add(slug if count == 0 else f"{slug}-{count}")
    return found


def relative_links(page: Path) -> list[str]:
    links = []
    for line in prose_lines(page.read_text(encoding="utf-8")):
        line = re.sub(r"`[^`]*`", "", line)  # code spans are not links
        for match in LINK.finditer(line):
            target = match.group(1)
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE):
                continue  # http:, https:, mailto:
            links.append(target)
    return links


def broken_links(page: Path) -> list[str]:
    problems = []
    for target in relative_links(page):
        path_part, _, fragment = target.partition("#")
        destination = (page.parent / unquote(path_part)).resolve() if path_part else page
        if not destination.exists():
            problems.append(f"{target}: no such file")
            continue
        if fragment and destination.suffix == ".md" and fragment not in anchors(destination):
            problems.append(f"{target}: no heading with that anchor")
    return problems


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.relative_to(ROOT).as_posix())
def test_every_relative_link_reaches_a_file_and_its_heading(page: Path):
    assert broken_links(page) == []


def test_the_pages_are_found_and_link_to_each_other():
    names = {page.relative_to(ROOT).as_posix() for page in PAGES}
    assert {
        "README.md",
        "docs/DECISIONS.md",
        "docs/MEASUREMENTS.md",
        "docs/DEPLOYING.md",
        "games/README.md",
    } <= names
    readme = relative_links(ROOT / "README.md")
    for doc in ("docs/DEPLOYING.md", "docs/API.md", "docs/DECISIONS.md", "docs/MEASUREMENTS.md"):
        assert doc in readme, f"the README does not link {doc}"


def test_the_readme_is_a_newcomers():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 400
    headings = [line for line in lines if line.startswith("## ")]
    assert "## The two commands" in headings
    assert "## Game night: the phones of the room" in headings
    assert "## A tour" in headings


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.relative_to(ROOT).as_posix())
def test_no_page_quotes_a_machines_load(page: Path):
    text = page.read_text(encoding="utf-8")
    assert not re.search(r"load average|/proc/loadavg", text, re.IGNORECASE)


def test_the_checks_find_what_they_look_for(tmp_path: Path):
    page = tmp_path / "page.md"
    (tmp_path / "there.md").write_text("# There\n\n## Its part: one, two\n", encoding="utf-8")
    page.write_text(
        "[ok](there.md) [part](there.md#its-part-one-two) ![img](missing.png)\n"
        "[bad anchor](there.md#nowhere) [web](https://example.org/x) `[code](nothing.md)`\n"
        "```\n[fenced](nothing.md)\n```\n",
        encoding="utf-8",
    )
    assert broken_links(page) == [
        "missing.png: no such file",
        "there.md#nowhere: no heading with that anchor",
    ]
    assert anchor("Tables' bounds") == "tables-bounds"
    assert anchor("The rules: free of Django, and typed") == "the-rules-free-of-django-and-typed"
