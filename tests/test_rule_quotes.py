"""A ruling quotes the sentence of its rule that decides it, with a link to the whole section
(issue 23: a Star Realms Academy ruling quoted the whole Bases section before the legal moves)."""

import pytest

from results.quoting import WHOLE_UP_TO, deciding_sentence, rule_quote, sentences

BASES = (
    "You may have multiple Bases in play, and you may use each Base's Primary Ability once "
    "at any time on your turn.\n\nUnlike Ships, Bases are not discarded at the end of your "
    "turn; they remain in play until destroyed.\n\nBases work like shields. As long as you "
    "have a Base in play, your Health cannot be attacked. Your Health can only be attacked "
    "if you have no Bases in play.\n\nEach Base has a Defense value. This is the number of "
    "Combat Tokens it takes to destroy the Base."
)


def test_a_rule_splits_into_sentences_and_list_items():
    assert sentences("One rule. Two rules.\n• Ram: costs 1.\n• Scout") == [
        "One rule.",
        "Two rules.",
        "Ram: costs 1.",
        "Scout",
    ]


def test_the_sentence_that_shares_the_reasons_words_decides():
    reason = "Ben has The Hive in play, so Ben's Health cannot be attacked yet (SRA-7)."
    assert deciding_sentence(BASES, reason) == (
        "As long as you have a Base in play, your Health cannot be attacked."
    )
    assert deciding_sentence(BASES, "The Hive has a Defense value of 1.") == (
        "Each Base has a Defense value."
    )


def test_no_shared_word_quotes_the_first_sentence():
    assert deciding_sentence(BASES, "zzz") == sentences(BASES)[0]


def test_a_short_rule_is_quoted_whole():
    short = "Combat left at the end of the turn is lost."
    assert len(short) <= WHOLE_UP_TO
    assert rule_quote({"text": short}, "anything") == {"text": short, "whole": True}
    assert rule_quote({"text": BASES}, "Health cannot be attacked")["whole"] is False


@pytest.mark.django_db
def test_a_star_realms_academy_ruling_quotes_one_sentence_and_links_the_section(client, catalog):
    from tests.test_star_realms_academy_pages import CHECK, HTMX, board

    data = board(
        action_0="attack",
        target_0="health",
        amount_0="1",
        active_combat="2",
        in_play=["Imperial Frigate"],
    )  # the pool's source (SRA-R8)
    html = client.post(CHECK, data, **HTMX).content.decode()
    assert "Ruling: Illegal" in html
    quote = html.split('<blockquote class="rule-quote__text">')[1].split("</blockquote>")[0]
    assert "Health" in quote and "attacked" in quote
    assert "Unlike Ships" not in quote and "Example:" not in quote
    assert len(quote) < 200
    assert "(the whole section)" in html and 'href="/games/star-realms-academy/#rule-SRA-' in html
