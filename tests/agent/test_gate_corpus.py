"""The gate's false rejections on right answers (target 0) and catch rate on wrong ones (1.0)."""

from __future__ import annotations

from gate_corpus import BAD, GOOD, corpus_evidence, gate, measure
from room import Room


async def test_no_right_answer_is_refused_and_every_wrong_one_is_caught(room: Room) -> None:
    scores = await measure(room)
    assert scores.false_rejections == {}
    assert scores.missed == []
    assert scores.false_rejection_rate == 0.0 and scores.catch_rate == 1.0


async def test_each_wrong_answer_is_caught_for_its_own_fault(room: Room) -> None:
    evidence = await corpus_evidence(room)
    reason = {
        "swapped period (revenue)": "is Revenue for Q3 2023",
        "swapped period, in French": "is Revenue for Q3 2023",
        "invented entity": "“Initech AG” is not named",
        "wrong entity": "“Vertex Distribution GmbH” is not named",
        "invented count": "does not state 3",
        "invented court": "Hamburg",
        "invented person": "“Thomas Berger” is not named",
        "a figure of another place": "is not stated at Acme_Q3_2024_Report.pdf, p.2",
        "a claim on a reference never retrieved": "Board_Pack_Final.pdf p.9 was never returned",
        "a confidence score": "confidence",
        "a margin without its working": "The number 30% is not stated",
        "swapped period, in Spanish": "is Revenue for Q3 2023",
        "wrong entity, in French": "“Vertex Distribution GmbH” is not named",
        "invented count, in Spanish": "does not state 3",
        "invented court, in French": "Tribunal de commerce de Paris",
        "follow-up without its period": "naming the period you assumed (Q3 2024)",
        "French follow-up without its period": "naming the period you assumed (Q3 2024)",
    }
    for name, words in reason.items():
        errors = gate(BAD[name], evidence, name).errors
        assert any(words in e for e in errors), (name, errors)
    assert len(GOOD) >= 20 and len(BAD) >= 18
    assert set(reason) == set(BAD) - {"swapped period (EBITDA)"}
