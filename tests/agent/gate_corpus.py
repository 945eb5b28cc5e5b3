"""Two small corpora for the validation gate, over the hand-built deal of `room.py`.

GOOD answers are right and must pass: the seed's own phrasings (the no-data answer, a quoted
"probability of an adverse outcome", "later corrected in …", "this is a forecast", several
sources in one marker), answers in French, Spanish and German (conflicts, corrections,
forecasts, no-data answers, a follow-up naming its assumed period), and figures the answer
computed with their working (a sum, a margin, a multiple, a ratio, a CAGR). BAD answers each
state one wrong fact beside a real citation and must be caught, in English, French and Spanish:
a swapped period, a wrong or invented entity, an invented count or court, a figure of another
place, a claim whose only reference was never retrieved, a confidence score, a margin without
its working, a follow-up that never names the period it assumed. Written from the room's
documents (the ground truth), never tuned to the gate.
"""

from __future__ import annotations

from dataclasses import dataclass

from room import (
    ANNUAL,
    ANNUAL_FIX,
    BIOS,
    DEAL,
    DECK,
    FORECAST,
    FORECAST_V2,
    LEGAL,
    Q3,
    Room,
)

from manda.agent.context import AgentContext
from manda.agent.evidence import Evidence
from manda.agent.tools import ToolBox
from manda.agent.validate import GateResult, Requirements, run_gate

CEO = "Anna Schmidt — Chief Executive Officer"

GOOD: dict[str, str] = {
    "seed no-data answer": (
        "I couldn't find information about pension obligations in the uploaded documents. "
        "The IRL lists the actuarial report as an open request, and no document of the room "
        "covers it. Would you like me to add this to the Q&A list?"),
    "quoted probability of an adverse outcome": (
        f"Vertex Distribution GmbH claims damages of EUR 1.2 million before the Regional Court "
        f"Munich (source: {LEGAL}, Litigation). The summary gives no \"probability of an "
        f"adverse outcome\"; no provision has been recognised (source: {LEGAL}, Litigation)."),
    "French, with the conflict and a computed margin": (
        f"Le chiffre d'affaires du T3 2024 s'élève à 5,2 M€ (source: {Q3}, p.1) ; la "
        f"présentation de la direction indique 5,0 M€ (source: {DECK}, slide 2) : les deux "
        "documents divergent.\n\n"
        f"La marge d'EBITDA est de 21,2 % : EBITDA de 1,1 M€ (source: {Q3}, p.1) / chiffre "
        "d'affaires de 5,2 M€."),
    "German, with the conflict": (
        f"Der Umsatz im Q3 2024 betrug 5,2 Mio. € (source: {Q3}, p.1); die "
        f"Managementpräsentation nennt 5,0 Mio. € (source: {DECK}, slide 2) – die Angaben "
        "widersprechen sich."),
    "a sum of two periods": (
        f"EBITDA for Q2 and Q3 2024 totalled €1.7M: EUR 0.6 million in Q2 2024 (source: {Q3}, "
        f"p.2) and €1.1M in Q3 2024 (source: {Q3}, p.1)."),
    "a computed leverage": (
        f"The term loan is EUR 4.0 million (source: {LEGAL}, Financing). FY2023 EBITDA was EUR "
        f"2.9 million (source: {ANNUAL_FIX}, p.1), corrected from EUR 3.1 million (source: "
        f"{ANNUAL}, p.1). Debt / EBITDA is about 1.4x against the 3.0x covenant (source: "
        f"{LEGAL}, Financing)."),
    "a CAGR to a forecast": (
        f"FY2023 revenue was EUR 18.4 million (source: {ANNUAL_FIX}, p.1). The revised FY2025 "
        f"forecast is EUR 22.5 million (source: {FORECAST_V2}, Forecast 2025!F7), corrected "
        f"from EUR 24.0 million (source: {FORECAST}, Forecast 2025!F7): a forecast growth of "
        "10.6% a year."),
    "a person and her role": (
        f"Anna Schmidt founded Acme in 2015 and is its Chief Executive Officer (source: {BIOS}, "
        f"{CEO})."),
    "a claim with its court": (
        f"Vertex Distribution GmbH filed a claim against Acme on 2024-05-14 before the Regional "
        f"Court Munich, seeking damages of EUR 1.2 million (source: {LEGAL}, Litigation)."),
    "a customer and a notice period": (
        f"Globex AG is the largest customer with 38% of revenue and may terminate on a change "
        f"of control with 90 days' notice (source: {LEGAL}, Material Contracts)."),
    "seed: later corrected in": (
        f"FY2023 EBITDA was EUR 2.9 million (source: {ANNUAL_FIX}, p.1). The EUR 3.1 million "
        f"of the first annual report (source: {ANNUAL}, p.1) was later corrected in "
        f"{ANNUAL_FIX}."),
    "seed: this is a forecast": (
        f"This is a forecast: the revised FY2025 budget puts revenue at EUR 22.5 million "
        f"(source: {FORECAST_V2}, Forecast 2025!F7), revised from EUR 24.0 million (source: "
        f"{FORECAST}, Forecast 2025!F7); no actuals exist yet for FY2025."),
    "seed: several sources in one marker": (
        f"Acme had 156 employees at the end of September 2024 (sources: {Q3} p.1, {DECK} "
        "slide 2)."),
    "French no-data answer": (
        "Je n'ai pas trouvé d'information sur les engagements de retraite dans les documents "
        "de la data room : la liste de demandes (IRL) indique le rapport actuariel comme "
        "demande ouverte. Voulez-vous que j'ajoute cette question à la liste de questions du "
        "vendeur ?"),
    "Spanish no-data answer": (
        "No he encontrado información sobre las obligaciones por pensiones en los documentos "
        "cargados: la lista de solicitudes (IRL) recoge el informe actuarial como pendiente. "
        "¿Quiere que añada esta pregunta a la lista de preguntas y respuestas?"),
    "Spanish, with the conflict": (
        f"Los ingresos del T3 2024 fueron de 5,2 M€ (source: {Q3}, p.1); la presentación de "
        f"la dirección indica 5,0 M€ (source: {DECK}, slide 2): las dos cifras no coinciden."),
    "French, a correction": (
        f"L'EBITDA de l'exercice 2023 s'élève à 2,9 millions d'euros (source: {ANNUAL_FIX}, "
        f"p.1) ; le rapport annuel initial indiquait 3,1 millions d'euros (source: {ANNUAL}, "
        "p.1), chiffre corrigé depuis."),
    "Spanish, a revised forecast": (
        f"La previsión revisada de ingresos para FY2025 es de 22.500 miles de euros (source: "
        f"{FORECAST_V2}, Forecast 2025!F7), corregida desde 24.000 miles de euros (source: "
        f"{FORECAST}, Forecast 2025!F7)."),
    "French, a computed ratio": (
        f"Le prêt à terme s'élève à 4,0 M€ (source: {LEGAL}, Financing) et l'EBITDA FY2023 à "
        f"2,9 M€ (source: {ANNUAL_FIX}, p.1), corrigé depuis 3,1 M€ (source: {ANNUAL}, p.1) : "
        "le ratio dette / EBITDA est d'environ 1,4x (4,0 / 2,9), sous le plafond de 3,0x "
        f"(source: {LEGAL}, Financing)."),
    "Spanish, a growth rate": (
        f"Los ingresos del T3 2024 fueron de 5,2 M€ frente a 4,7 M€ en el T3 2023 (source: "
        f"{Q3}, p.1), un crecimiento del 10,6 %; la presentación de la dirección indica 5,0 M€ "
        f"(source: {DECK}, slide 2): las dos cifras no coinciden."),
    "French follow-up naming its period": (
        f"Pour le T3 2024, l'EBITDA s'élève à 1,1 M€ (source: {Q3}, p.1)."),
    "Spanish follow-up naming its period": (
        f"En el tercer trimestre de 2024, el EBITDA fue de 1,1 M€ (source: {Q3}, p.1)."),
}

BAD: dict[str, str] = {
    "swapped period (revenue)": f"Revenue was €4.7M in Q3 2024 (source: {Q3}, p.1).",
    "swapped period (EBITDA)": f"EBITDA was €0.75M in Q3 2024 (source: {Q3}, p.1).",
    "swapped period, in French": (
        f"Le chiffre d'affaires du Q3 2024 était de 4,7 M€ (source: {Q3}, p.1)."),
    "invented entity": (
        f"Initech AG is the largest customer with 38% of revenue (source: {LEGAL}, Material "
        "Contracts)."),
    "wrong entity": (
        f"Vertex Distribution GmbH is the largest customer with 38% of revenue (source: "
        f"{LEGAL}, Material Contracts)."),
    "invented count": (
        f"Acme faces 3 pending claims, led by Vertex Distribution GmbH (source: {LEGAL}, "
        "Litigation)."),
    "invented court": (
        f"Vertex Distribution GmbH filed a claim before the Commercial Court Hamburg (source: "
        f"{LEGAL}, Litigation)."),
    "invented person": f"The CFO is Thomas Berger (source: {BIOS}, Markus Weber).",
    "a figure of another place": f"Q3 2024 EBITDA was €1.1M (source: {Q3}, p.2).",
    "a claim on a reference never retrieved": (
        "Acme has no pending litigation (source: Board_Pack_Final.pdf, p.9)."),
    "a confidence score": (
        f"EBITDA was €1.1M in Q3 2024 (source: {Q3}, p.1), with 92% confidence."),
    "a margin without its working": f"The Q3 2024 EBITDA margin was 30% (source: {Q3}, p.1).",
    "swapped period, in Spanish": (
        f"Los ingresos del T3 2024 fueron de 4,7 M€ (source: {Q3}, p.1)."),
    "wrong entity, in French": (
        f"Vertex Distribution GmbH est le premier client, avec 38 % du chiffre d'affaires "
        f"(source: {LEGAL}, Material Contracts)."),
    "invented count, in Spanish": (
        f"Acme tiene 3 litigios pendientes, encabezados por Vertex Distribution GmbH (source: "
        f"{LEGAL}, Litigation)."),
    "invented court, in French": (
        f"Vertex Distribution GmbH a assigné Acme devant le Tribunal de commerce de Paris "
        f"(source: {LEGAL}, Litigation)."),
    "follow-up without its period": f"EBITDA was €1.1M (source: {Q3}, p.1).",
    "French follow-up without its period": (
        f"L'EBITDA s'élève à 1,1 M€ (source: {Q3}, p.1)."),
}

# The answers to a follow-up: the period the conversation carried over, which the answer names
ASSUMED: dict[str, str] = {
    "French follow-up naming its period": "For Q3 2024",
    "Spanish follow-up naming its period": "For Q3 2024",
    "follow-up without its period": "For Q3 2024",
    "French follow-up without its period": "For Q3 2024",
}


async def corpus_evidence(room: Room) -> Evidence:
    """What the questions behind the corpora retrieve."""
    ctx = AgentContext(graph=room.graph, search=room.search, memory=room.memory)
    found = Evidence(documents={d.id: d for d in await room.graph.list_documents(DEAL)})
    box = ToolBox(ctx, DEAL, found)
    for args in (
        {"query": "Q3 2024 revenue EBITDA", "subject": "revenue, ebitda"},
        {"query": "FY2023 EBITDA revenue annual report", "subject": "ebitda, revenue"},
        {"query": "forecast FY2025 revenue", "subject": "revenue", "period": "FY2025"},
        {"query": "litigation claim court Vertex"},
        {"query": "largest customer change of control Globex"},
        {"query": "term loan covenant net debt"},
        {"query": "management team CEO Anna Schmidt Markus Weber"},
        {"query": "Q2 2024 revenue EBITDA income statement"},
        {"query": "pension obligations actuarial report IRL"},
    ):
        await box.query_knowledge_base(args)
    return found


@dataclass
class Scores:
    false_rejections: dict[str, list[str]]  # good answers the gate refused, with its errors
    missed: list[str]  # bad answers it let through

    @property
    def false_rejection_rate(self) -> float:
        return len(self.false_rejections) / len(GOOD)

    @property
    def catch_rate(self) -> float:
        return 1 - len(self.missed) / len(BAD)


def gate(text: str, evidence: Evidence, name: str = "") -> GateResult:
    return run_gate(text, evidence, Requirements(model=True, assumption=ASSUMED.get(name)))


async def measure(room: Room) -> Scores:
    evidence = await corpus_evidence(room)
    rejected = {name: result.errors for name, text in GOOD.items()
                if not (result := gate(text, evidence, name)).ok}
    missed = [name for name, text in BAD.items() if gate(text, evidence, name).ok]
    return Scores(rejected, missed)
