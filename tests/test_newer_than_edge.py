""""What car does she drive these days?" after "I drive Mum to physiotherapy … I traded in the Polo for
a Skoda Fabia last month": the traded-for car, not Mum (a person driven somewhere is no vehicle)
and not a value from the very turn that stated the edge (it says nothing newer than the edge).
Our own conversation (tests/data/reader/ilse_oskar_car.json), end to end on each store."""

from __future__ import annotations

from pathlib import Path

import pytest
from reliability.common import ingested

from tkg.memory import Memory

DATA = Path(__file__).parent / "data" / "reader" / "ilse_oskar_car.json"


@pytest.fixture(scope="module")
def car(mem: Memory) -> tuple[Memory, str]:
    return mem, ingested(mem, "ilse-oskar-car", DATA)


def test_the_car_traded_for_is_driven_now(car: tuple[Memory, str]) -> None:
    m, group = car
    a = m.ask("What car does Ilse drive these days?", group=group)
    assert a.answer == "Skoda Fabia" and not a.abstained, (a.answer, a.trace.get("reading"))
    state = {(f.predicate, f.object) for f in m.state("Ilse", group=group)}
    assert ("owns", "Mum") not in state and ("owns", "Skoda Fabia") in state
