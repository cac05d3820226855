"""Writes tests/data/answers-before.json: every game's every job's answer to a corpus of request
bodies, as the API gives it (status and body, without the saved result's "id" and "url").

The corpus: the bodies the API, pages and tables tests sent (recorded by tests/oracle_recorder.py
into a JSON-lines file, given as the first argument), each game's schema examples, the published
Star Trek: Missions hands of tests/data/star-trek-missions-examples.json, and the error cases
made from the examples here (an unknown card, a bad type, counts that cannot be, a body that is
not an object). It was run once, on the code before the one flow (games/services.py); then
tests/test_one_flow.py asks the flow every request again and expects the same answer.

    .venv/bin/python scripts/oracle_answers.py /tmp/recorded.jsonl   # a new corpus
    .venv/bin/python scripts/oracle_answers.py                       # the same bodies again
    .venv/bin/python scripts/oracle_answers.py --game high-card      # a game added since

`--game SLUG` answers that game's corpus (its schema examples, the error cases made from them,
bodies that are no body of it) and puts its answers in the file in place of any it had, leaving
every other game's as they are: the step of games/README.md's "Adding a game" that records a new
game's answers, so that tests/test_one_flow.py holds its answers too.

An answer holds no database id: a link to a card's admin page (`/admin/cards/card/<id>/change/`,
a Star Realms Academy card whose value is not known yet) is written with the card it links to
(`/admin/cards/card/<game-slug/Card name>/change/`, `stable_references`), as the ids a database
gives its rows differ from one database to the next (PostgreSQL's sequences, a catalog loaded in
another order); tests/test_one_flow.py compares the answers it gets in the same terms.
"""

from __future__ import annotations

import copy
import json
import logging
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "answers-before.json"
KINDS = ("ruling", "score")
ADMIN_CARD = re.compile(r"/admin/cards/card/(\d+)/change/")


def stable_references(content: object) -> object:
    """`content` (an answer's body) with each card's admin link naming the card (its game's slug
    and its name) instead of its database id; an id no card has is named "unknown card"."""
    from cards.models import Card

    text = json.dumps(content, ensure_ascii=False)
    ids = {int(found) for found in ADMIN_CARD.findall(text)}
    if not ids:
        return content
    names = {
        card.pk: json.dumps(f"{card.game.slug}/{card.name}", ensure_ascii=False)[1:-1]
        for card in Card.objects.filter(pk__in=ids).select_related("game")
    }
    return json.loads(
        ADMIN_CARD.sub(
            lambda found: f"/admin/cards/card/<{names.get(int(found[1]), 'unknown card')}>/change/",
            text,
        )
    )


def mutations(body: object) -> list[object]:
    """Error cases made from a good body: its first card-like text unknown, its first number a
    text, its first number far too large, its first list's first entry twice."""
    found: dict[str, list] = {"text": [], "number": [], "list": []}

    def walk(value, path):
        if isinstance(value, dict):
            for key, item in value.items():
                walk(item, [*path, key])
        elif isinstance(value, list):
            if value:
                found["list"].append(path)
            for index, item in enumerate(value):
                walk(item, [*path, index])
        elif isinstance(value, bool) or value is None:
            return
        elif isinstance(value, int):
            found["number"].append(path)
        elif isinstance(value, str) and path and isinstance(path[-1], int):
            found["text"].append(path)

    walk(body, [])

    def changed(path, change):
        new = copy.deepcopy(body)
        parent = new
        for key in path[:-1]:
            parent = parent[key]
        change(parent, path[-1])
        return new

    cases: list[object] = []
    for path in found["text"][:1]:
        cases.append(changed(path, lambda p, k: p.__setitem__(k, "No Such Card Anywhere")))
    for path in found["number"][:2]:
        cases.append(changed(path, lambda p, k: p.__setitem__(k, "many")))
        cases.append(changed(path, lambda p, k: p.__setitem__(k, 999)))
    for path in found["list"][:3]:
        cases.append(changed(path, lambda p, k: p[k].append(copy.deepcopy(p[k][0]))))
    return cases


def corpus(recorded: Path | None, only: str | None = None) -> list[tuple[str, str, object]]:
    """The bodies to answer: those recorded, then each game's examples, the error cases made from
    them and bodies that are no body (only the game `only`'s, where given)."""
    from common.games import games

    entries: list[tuple[str, str, object]] = []
    if recorded is not None:
        for line in recorded.read_text(encoding="utf-8").splitlines():
            item = json.loads(line)
            entries.append((item["game"], item["kind"], item["body"]))
    for game in games():
        if only is not None and game.slug != only:
            continue
        for kind, name in (("ruling", "RULING_EXAMPLES"), ("score", "SCORE_EXAMPLES")):
            if game.job(kind) is None:
                continue
            for example in game.docs(name):
                entries.append((game.slug, kind, example.value))
                entries += [(game.slug, kind, case) for case in mutations(example.value)]
            entries += [
                (game.slug, kind, body)
                for body in ({}, {"position": 5}, {"players": []}, {"unknown": 1})
            ]
    published = json.loads((ROOT / "tests/data/star-trek-missions-examples.json").read_text())
    for example in published["examples"] if only is None else []:
        body = {"hand": example["hand"]}
        if example.get("choices"):
            body["choices"] = example["choices"]
        entries.append(("star-trek-missions", "score", body))
    unique, seen = [], set()
    for game, kind, body in entries:
        key = json.dumps([game, kind, body], sort_keys=True)
        if key not in seen:
            seen.add(key)
            unique.append((game, kind, body))
    return unique


def answer(client, game: str, kind: str, body: object) -> dict:
    """The API's answer: status and body, without the saved result's id and url."""
    path = f"/api/games/{game}/{'rulings' if kind == 'ruling' else 'score'}/"
    response = client.post(path, data=json.dumps(body), content_type="application/json")
    content = response.json()
    if isinstance(content, dict):
        content = {key: value for key, value in content.items() if key not in ("id", "url")}
    return {"status": response.status_code, "body": stable_references(content)}


def load(path: Path) -> list[dict]:
    """The oracle's entries: {"game", "kind", "body", "response": {"status", "body"}}."""
    return json.loads(path.read_text(encoding="utf-8"))


def main() -> None:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    import django

    django.setup()
    from django.db import connection
    from django.test.utils import setup_test_environment
    from rest_framework.test import APIClient

    from cards.services import catalog_load

    setup_test_environment()
    connection.creation.create_test_db(verbosity=0)
    catalog_load()
    logging.getLogger("django.request").setLevel(logging.ERROR)  # a 400 is an answer here
    arguments = sys.argv[1:]
    only = None
    if arguments[:1] == ["--game"]:
        only, arguments = arguments[1], arguments[2:]
    recorded = Path(arguments[0]) if arguments else None
    kept: list[dict] = []
    if only is not None:
        from common.games import game_package

        if game_package(only) is None:
            raise SystemExit(f"No game {only!r} in GAMES (games/registry.py).")
        kept = [item for item in load(OUT) if item["game"] != only]
        requests = corpus(recorded, only)
    else:
        requests = (
            corpus(recorded)
            if recorded
            else [(item["game"], item["kind"], item["body"]) for item in load(OUT)]
        )
    client = APIClient()
    answers = kept + [
        {"game": game, "kind": kind, "body": body, "response": answer(client, game, kind, body)}
        for game, kind, body in requests
    ]
    lines = [json.dumps(item, ensure_ascii=False) for item in answers]
    OUT.write_text("[\n" + ",\n".join(lines) + "\n]\n", encoding="utf-8")
    print(f"{len(answers)} requests answered into {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
