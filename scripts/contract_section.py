"""Writes a game's section into docs/API.md's "The bodies of each game" (the HTTP contract), from
the request models its jobs declare: each job's body with every field it reads, and the fields of
each object inside it. A step of games/README.md's "Adding a game": tests/test_api_contract.py
holds that every game in GAMES has its section naming its bodies' fields, and no other. The
section is where the game's own words go next (what an answer adds, its refusals' codes).

    .venv/bin/python scripts/contract_section.py high-card
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any, get_args

ROOT = Path(__file__).resolve().parent.parent
CONTRACT = ROOT / "docs" / "API.md"
SECTION = "## The bodies of each game"


def _models_in(annotation: Any) -> list[Any]:
    from pydantic import BaseModel

    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [model for arg in get_args(annotation) for model in _models_in(arg)]


def shape(model: Any, depth: int = 0) -> str:
    """The body as the contract writes it: `{"field": {"inner", …}, "other"}`."""
    parts = []
    for name, field in model.model_fields.items():
        quoted = json.dumps(field.alias or name)
        inner = _models_in(field.annotation)
        if inner and depth == 0:
            shapes = dict.fromkeys(shape(each, depth + 1) for each in inner)
            parts.append(f"{quoted}: " + " or ".join(shapes))
        else:
            parts.append(quoted)
    return "{" + ", ".join(parts) + "}"


def section(game: Any) -> str:
    from games.package import RULING, SCORE

    name = json.loads(game.catalog_file.read_text(encoding="utf-8"))["game"]["name"]
    lines = [f"### {name}", ""]
    for kind in (RULING, SCORE):
        job = game.job(kind)
        if job is None:
            continue
        bodies = " or ".join(f"`{shape(model)}`" for model in job.request_models)
        lines.append(
            f"- **{job.label}** ({'a ruling' if kind == RULING else 'a score'}): {bodies}."
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    import django

    django.setup()
    from common.games import game_package

    slug = sys.argv[1] if len(sys.argv) > 1 else ""
    game = game_package(slug)
    if game is None:
        raise SystemExit(f"No game {slug!r} in GAMES (games/registry.py).")
    text = CONTRACT.read_text(encoding="utf-8")
    written = section(game)
    if f"\n{written.splitlines()[0]}\n" in text:
        raise SystemExit(f"docs/API.md has a section {written.splitlines()[0]!r} already.")
    start = text.index(SECTION) + len(SECTION)
    end = text.find("\n## ", start)
    end = len(text) if end == -1 else end + 1
    text = text[:end].rstrip("\n") + "\n\n" + written + "\n" + text[end:]
    CONTRACT.write_text(text, encoding="utf-8")
    print(f"docs/API.md: {written.splitlines()[0]} written")


if __name__ == "__main__":
    main()
