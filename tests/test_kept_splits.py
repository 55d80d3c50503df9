"""Work kept or done once per text (tkg.text.split_sentences, planners.query_text.parse_question,
planners.mentions' name patterns, procedures.group_turns' joined turns): the same result as the work
done afresh, turn by turn."""

from __future__ import annotations

from planners.mentions import _usable
from planners.query_text import parse_question
from procedures.group_turns import GroupTurns
from tkg.text import split_sentences


def test_a_caller_changing_its_split_changes_no_later_split() -> None:
    text = "We adopted a kitten on Sunday. Her name is Biscuit! She sleeps all day."
    first = split_sentences(text)
    first.append("not said")
    first[0] = "changed"
    assert split_sentences(text) == [
        "We adopted a kitten on Sunday.", "Her name is Biscuit!", "She sleeps all day.",
    ]
    assert split_sentences(text) is not split_sentences(text)


def test_a_kept_query_is_the_one_prepared_afresh() -> None:
    question = "Where did Tomasz go hiking on 3 March, 2024?"
    kept = parse_question(question)
    parse_question.cache_clear()
    fresh = parse_question(question)
    assert kept == fresh and kept is not fresh
    assert fresh.when_text == "on 3 March, 2024" and "tomasz" in fresh.words


def test_name_patterns_match_whole_words_and_escape_the_name() -> None:
    # found as a word (not opening the question): usable; a name the question does not hold: usable
    assert _usable("Ines", "When did Ines move?", lowercase=False)
    assert _usable("Al (Sr.)", "Did Al (Sr.) call?", lowercase=False)
    # a starter word that only opens the question is not a name
    assert not _usable("Will", "Will it rain in Porto?", lowercase=False)
    assert _usable("Will", "Did Will call?", lowercase=False)
    # said only in lower case: found ignoring case, but no case-true occurrence is a name
    assert not _usable("Will", "What will Ines do?", lowercase=False)


def _per_turn(turns: GroupTurns, terms: list[str], limit: int) -> list[str]:
    """What ``with_terms`` returned when it searched each turn by itself (the reference)."""
    out = []
    for row in turns.rows:
        text, speaker = (row.get("text") or "").lower(), (row.get("speaker") or "").lower()
        if len(out) < limit and any(t in text or t in speaker for t in terms):
            out.append(row["uuid"])
    return out


def test_turns_with_terms_scanned_together_are_the_turns_searched_one_by_one() -> None:
    texts = ["Moved to Porto", "", "nice! porto again", "We bought a kayak", "kayak\nand porto", "Ok"]
    speakers = ["Ana", "Ben", "Ana", "Porter", "Ben", "Ana"]
    turns = GroupTurns([{"uuid": f"t{i}", "text": t, "speaker": s, "seq": i, "session": 1}
                        for i, (t, s) in enumerate(zip(texts, speakers, strict=True))])
    for terms in (["porto"], ["kayak", "ben"], ["port"], ["ok"], ["nothing"], [""], ["o"], ["ana", "ben"]):
        for limit in (0, 1, 2, 10):
            got = turns.with_terms(terms, limit)
            assert [r["uuid"] for r in got] == _per_turn(turns, terms, limit), (terms, limit)
            assert all("session" not in r for r in got)
