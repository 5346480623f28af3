"""The results file: records round-trip, the record that counts, what needs solving, a cut-off last line."""

from __future__ import annotations

import gzip
import json
from dataclasses import FrozenInstanceError, replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorpion_conformance.solving.campaign import budget_ladder
from scorpion_conformance.solving.inputs import BadInput, read_budget, read_games
from scorpion_conformance.solving.results import (
    Record,
    ResultsError,
    ResultsFile,
    best_records,
    ladder_work,
    needs_solving,
    read_records,
    write_compressed,
)


def record(game: int, outcome: str, budget: int = 1000, **more: object) -> Record:
    fields: dict[str, object] = dict(game=game, rules="classic", outcome=outcome, nodes=10, seconds=0.5,
                                     budget=budget, memory_mb=64, solver="test")
    fields.update(more)
    if outcome == "won":
        fields.setdefault("line", "9♦ to column 5, deal")
    else:
        fields.setdefault("proof", "exhausted" if outcome == "lost" else "nodes")
    return Record(**fields)  # type: ignore[arg-type]


def test_a_record_round_trips_and_writes_cards_as_cards() -> None:
    for r in (record(3, "won"), record(4, "lost", cpu=0.25), record(5, "unknown", seconds=1.23456789)):
        text = r.to_json()
        assert "\n" not in text
        back = Record.from_json(text)
        assert back == r or (r.outcome == "unknown" and back.seconds == pytest.approx(r.seconds, abs=1e-4))
    assert "9♦" in record(3, "won").to_json()


@given(st.sampled_from(["won", "lost", "unknown"]), st.booleans(), st.booleans(), st.booleans())
def test_a_record_read_is_the_record_made_from_the_same_fields(outcome: str, cpu: bool, core: bool,
                                                               carried: bool) -> None:
    more = {"cpu": 0.5} if cpu else {}
    more |= {"core": "compiled"} if core else {}
    more |= {"carried": 4} if carried else {}
    made = record(9, outcome, **more)
    data = json.loads(made.to_json())
    read = Record.from_data(data)
    assert read == Record(**data) and hash(read) == hash(Record(**data)) and vars(read) == vars(made)
    with pytest.raises(FrozenInstanceError):
        read.game = 10  # type: ignore[misc]


@pytest.mark.parametrize("text", [
    "[]", '{"game": 1}', '{"game": "1", "rules": "x", "outcome": "won", "nodes": 1, "seconds": 0,'
    ' "budget": 1, "memory_mb": 1, "solver": "v"}',
    '{"game": 1, "rules": "x", "outcome": "maybe", "nodes": 1, "seconds": 0, "budget": 1, "memory_mb": 1,'
    ' "solver": "v"}',
])
def test_a_bad_record_says_what_is_wrong(text: str) -> None:
    with pytest.raises(ValueError):
        Record.from_json(text)


def test_decided_counts_at_any_budget_unknown_only_at_a_bigger_one() -> None:
    assert needs_solving(None, 10)
    assert not needs_solving(record(1, "lost", budget=10), 10**9)
    assert not needs_solving(record(1, "won", budget=10), 10**9)
    assert not needs_solving(record(1, "unknown", budget=1000), 1000)
    assert not needs_solving(record(1, "unknown", budget=1000), 500)
    assert needs_solving(record(1, "unknown", budget=1000), 4000)


def test_the_record_that_counts() -> None:
    history = [record(1, "unknown", 100), record(1, "unknown", 400), record(1, "won", 1600),
               record(2, "unknown", 400), record(2, "unknown", 100), record(3, "lost", 100),
               record(3, "unknown", 9999), record(4, "won", rules="standard")]
    best = best_records(history, "classic")
    assert sorted(best) == [1, 2, 3]
    assert best[1].outcome == "won" and best[2].budget == 400 and best[3].outcome == "lost"


def test_opening_drops_a_record_cut_short_and_appends_after_the_rest(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text(record(1, "lost").to_json() + "\n" + record(2, "won").to_json()[:25], encoding="utf-8")
    with ResultsFile(path) as results:
        assert [r.game for r in results.records] == [1]
        results.add(record(3, "lost"))
    assert [r.game for r in read_records(path)] == [1, 3]
    assert path.read_text(encoding="utf-8").endswith("\n")


def test_a_damaged_line_in_the_middle_is_named(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text(record(1, "lost").to_json() + "\nnot json\n" + record(2, "lost").to_json() + "\n")
    with pytest.raises(ResultsError, match=r"r\.jsonl, line 2"):
        read_records(path)


def test_a_missing_file_has_no_records_and_a_compressed_one_reads(tmp_path: Path) -> None:
    assert read_records(tmp_path / "none.jsonl") == []
    records = [record(g, "lost") for g in range(1, 50)]
    write_compressed(records, tmp_path / "r.jsonl.gz")
    assert read_records(tmp_path / "r.jsonl.gz") == records
    assert json.loads(gzip.decompress((tmp_path / "r.jsonl.gz").read_bytes()).splitlines()[0])["game"] == 1
    with pytest.raises(ResultsError, match="compressed"):
        ResultsFile(tmp_path / "r.jsonl.gz")


def test_the_ladder_of_budgets_and_the_inputs() -> None:
    assert budget_ladder(200_000, 3_200_000) == [200_000, 800_000, 3_200_000]
    assert budget_ladder(1000, 5000, growth=2) == [1000, 2000, 4000, 5000]
    with pytest.raises(BadInput, match="smaller than --budget"):
        budget_ladder(10, 5)
    assert read_games("3-5,1,4") == [3, 4, 5, 1]
    assert read_budget("1_500k") == 1_500_000
    for bad in ("0", "-5", "lots", "2.5M"):
        with pytest.raises(BadInput, match="not a positive number"):
            read_budget(bad)
    for bad in ("0-3", "5-2", "a-b", ""):
        with pytest.raises(BadInput, match="--games"):
            read_games(bad)


def test_a_record_says_which_core_searched_and_a_bad_core_is_refused() -> None:
    from scorpion_conformance.solving.pool import decide

    [record] = decide(5, "standard", (100_000,), 256)
    assert record.core == "compiled"  # the extension is built wherever the tests run (test_solver_core)
    assert Record.from_json(record.to_json()).core == "compiled"
    with pytest.raises(ValueError, match="core 'rust' is not one of python, compiled"):
        Record.from_json(record.to_json().replace('"compiled"', '"rust"'))


def test_a_search_that_goes_on_says_what_it_carried_and_the_ladder_counts_each_position_once() -> None:
    from scorpion_conformance.solving.pool import decide

    records = decide(27, "standard", (1_000, 4_000, 16_000), 256)  # unknown at each: lost after 800,000
    assert [(r.budget, r.nodes, r.carried, r.outcome) for r in records] == [
        (1_000, 1_000, None, "unknown"), (4_000, 4_000, 1_000, "unknown"), (16_000, 16_000, 4_000, "unknown")]
    assert [Record.from_json(r.to_json()).carried for r in records] == [None, 1_000, 4_000]
    assert ladder_work(records) == (16_000, 16_000)
    afresh = [replace(r, carried=None) for r in records]  # as a ladder that starts every search again
    assert ladder_work(afresh) == (21_000, 16_000)
    with pytest.raises(ValueError, match="carried"):
        Record.from_json(records[1].to_json().replace('"carried":1000', '"carried":5000'))


def test_a_campaign_beside_compressed_results_asks_for_them_to_be_decompressed(tmp_path: Path) -> None:
    plain = tmp_path / "classic.jsonl"
    write_compressed([Record(game=1, rules="classic", outcome="lost", nodes=5, seconds=0.1, budget=10,
                             memory_mb=64, solver="t", proof="exhausted")], tmp_path / "classic.jsonl.gz")
    with pytest.raises(ResultsError, match=r"classic.jsonl does not exist but .*classic.jsonl.gz does: "
                                           r"decompress it first \(gunzip -k "):
        ResultsFile(plain)
    assert not plain.exists()
