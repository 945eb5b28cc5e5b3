"""Dev filings questions asked in French, German and Spanish, checked against the English key.

A deal team in Paris, Frankfurt or Madrid asks about a target whose filings are in English. Each
question below is one of the DEV split (evals/retrieval/filings_questions.json, `"split": "dev"`),
translated by hand; its answer is checked as bench/filings_answers.py checks the English one
(`_answer_key.score`: key fact in the first line, evidence page cited). The English question is
asked too, so the gap between the languages is printed beside it. Run:
`.venv/bin/python bench/filings_languages.py --keep DIR` (DIR as filings_answers.py keeps it;
`--save PATH` / `--against PATH` list what changed).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _answer_key import Score, load_key, score
from _probe import FILINGS_DEAL, filing_questions, filings_present, filings_probe, ingest_probe

from manda.app import Manda
from manda.config import Settings

# dev question id -> (French, German, Spanish), each a translation of the English question
TRANSLATED: dict[str, tuple[str, str, str]] = {
    "aapl25-rnd": (
        "Combien Apple a-t-elle dépensé en recherche et développement sur l'exercice 2025 ?",
        "Wie viel hat Apple im Geschäftsjahr 2025 für Forschung und Entwicklung ausgegeben?",
        "¿Cuánto gastó Apple en investigación y desarrollo en el ejercicio 2025?"),
    "aapl25-tax-rate": (
        "Quel a été le taux d'imposition effectif d'Apple sur l'exercice 2025 ?",
        "Wie hoch war Apples effektiver Steuersatz im Geschäftsjahr 2025?",
        "¿Cuál fue el tipo impositivo efectivo de Apple en el ejercicio 2025?"),
    "aapl25-ocf": (
        "Quel flux de trésorerie opérationnel Apple a-t-elle généré sur l'exercice 2025 ?",
        "Wie hoch war der operative Cashflow von Apple im Geschäftsjahr 2025?",
        "¿Cuánto flujo de caja operativo generó Apple en el ejercicio 2025?"),
    "aapl25-da": (
        "Quelles ont été les dotations aux amortissements d'Apple sur l'exercice 2025 ?",
        "Wie hoch waren die Abschreibungen von Apple im Geschäftsjahr 2025?",
        "¿Cuál fue la depreciación y amortización de Apple en el ejercicio 2025?"),
    "aapl25-revenue": (
        "Quel a été le chiffre d'affaires d'Apple sur l'exercice 2025 et de combien a-t-il "
        "progressé ?",
        "Wie hoch war der Umsatz von Apple im Geschäftsjahr 2025 und wie stark ist er gewachsen?",
        "¿Cuáles fueron las ventas de Apple en el ejercicio 2025 y cuánto crecieron?"),
    "aapl-total-assets": (
        "Quel était le total de l'actif d'Apple à la fin de l'exercice 2023 ?",
        "Wie hoch war die Bilanzsumme von Apple am Ende des Geschäftsjahres 2023?",
        "¿Cuál era el total de activos de Apple al cierre del ejercicio 2023?"),
    "amzn25-net-income": (
        "Quel a été le résultat net d'Amazon en 2025 ?",
        "Wie hoch war der Jahresüberschuss von Amazon im Jahr 2025?",
        "¿Cuál fue el beneficio neto de Amazon en 2025?"),
    "amzn25-lt-debt": (
        "Quel était l'endettement à long terme d'Amazon à la fin de 2025 ?",
        "Wie hoch waren die langfristigen Finanzschulden von Amazon Ende 2025?",
        "¿Cuánta deuda a largo plazo tenía Amazon al cierre de 2025?"),
    "amzn25-financing": (
        "Quels ont été les flux de trésorerie liés aux activités de financement d'Amazon en "
        "2025 ?",
        "Wie hoch war der Cashflow aus Finanzierungstätigkeit von Amazon im Jahr 2025?",
        "¿Cuál fue el flujo de caja de las actividades de financiación de Amazon en 2025?"),
    "amzn25-employees": (
        "Combien de salariés Amazon employait-elle à la fin de 2025 ?",
        "Wie viele Mitarbeiter beschäftigte Amazon Ende 2025?",
        "¿Cuántos empleados tenía Amazon al cierre de 2025?"),
    "tgt25-revenue": (
        "Quel a été le chiffre d'affaires de Target sur l'exercice 2025 et comment a-t-il "
        "évolué ?",
        "Wie hoch war der Umsatz von Target im Geschäftsjahr 2025 und wie hat er sich verändert?",
        "¿Cuáles fueron las ventas netas de Target en el ejercicio 2025 y cómo variaron?"),
    "tgt25-operating-income": (
        "Quel a été le résultat d'exploitation de Target sur l'exercice 2025 ?",
        "Wie hoch war das Betriebsergebnis von Target im Geschäftsjahr 2025?",
        "¿Cuál fue el resultado de explotación de Target en el ejercicio 2025?"),
    "tgt25-op-margin": (
        "Quelle a été la marge opérationnelle de Target ?",
        "Wie hoch war die operative Marge von Target?",
        "¿Cuál fue el margen operativo de Target?"),
    "tgt25-net-earnings": (
        "Quel a été le résultat net de Target en 2025 ?",
        "Wie hoch war der Jahresüberschuss von Target im Jahr 2025?",
        "¿Cuál fue el beneficio neto de Target en 2025?"),
    "tgt25-debt": (
        "Quelle est la dette à long terme de Target ?",
        "Wie hoch sind die langfristigen Schulden von Target?",
        "¿Cuál es la deuda a largo plazo de Target?"),
    "uber21-fcf": (
        "Quel a été le flux de trésorerie disponible d'Uber en 2021 ?",
        "Wie hoch war der Free Cashflow von Uber im Jahr 2021?",
        "¿Cuál fue el flujo de caja libre de Uber en 2021?"),
    "uber21-working-capital": (
        "Quel était le fonds de roulement d'Uber à la fin de 2021 ?",
        "Wie hoch war das Working Capital von Uber Ende 2021?",
        "¿Cuál era el capital circulante de Uber al cierre de 2021?"),
    "uber21-tax-rate": (
        "Quel a été le taux d'imposition effectif d'Uber en 2021 ?",
        "Wie hoch war der effektive Steuersatz von Uber im Jahr 2021?",
        "¿Cuál fue el tipo impositivo efectivo de Uber en 2021?"),
    "uber21-goodwill": (
        "Quel montant de goodwill figure au bilan d'Uber à la fin de 2021 ?",
        "Wie hoch ist der Geschäfts- oder Firmenwert in der Bilanz von Uber Ende 2021?",
        "¿Cuánto fondo de comercio figura en el balance de Uber al cierre de 2021?"),
    "lyft21-revenue": (
        "Quel a été le chiffre d'affaires de Lyft en 2021 et de combien a-t-il progressé ?",
        "Wie hoch war der Umsatz von Lyft im Jahr 2021 und wie stark ist er gewachsen?",
        "¿Cuáles fueron los ingresos de Lyft en 2021 y cuánto crecieron?"),
    "lyft21-net-loss": (
        "Quelle a été la perte nette de Lyft en 2021 ?",
        "Wie hoch war der Jahresfehlbetrag von Lyft im Jahr 2021?",
        "¿Cuál fue la pérdida neta de Lyft en 2021?"),
    "lyft21-operating-cash": (
        "Quel a été le flux de trésorerie opérationnel de Lyft en 2021 ?",
        "Wie hoch war der operative Cashflow von Lyft im Jahr 2021?",
        "¿Cuál fue el flujo de caja operativo de Lyft en 2021?"),
    "tsla-debt": (
        "Quel est l'encours de la dette de Tesla ?",
        "Wie hoch sind die ausstehenden Finanzschulden von Tesla?",
        "¿Cuánta deuda tiene Tesla pendiente?"),
}
LANGUAGES = ("en", "fr", "de", "es")


async def run(root: Path) -> list[tuple[str, Score]]:
    """Every translated question and its English original, asked and scored: (language, score)."""
    english = {q["id"]: q for q in filing_questions()}
    assert all(english[i]["split"] == "dev" for i in TRANSLATED), "dev questions only"
    key = load_key()
    out: list[tuple[str, Score]] = []
    async with Manda(Settings(MANDA_HOME=root / "home")) as app:
        await ingest_probe(app, filings_probe(root / "filings"))
        for qid, translations in TRANSLATED.items():
            for language, question in zip(LANGUAGES, (english[qid]["question"], *translations),
                                          strict=True):
                answer = await app.answers.ask(FILINGS_DEAL, question)
                out.append((language, score(key[qid], "dev", answer)))
    return out


def report(scores: list[tuple[str, Score]]) -> None:
    print("| language | right | key fact in answer | says not found |\n|---|---|---|---|")
    for language in LANGUAGES:
        own = [s for lang, s in scores if lang == language]
        right = sum(s.right for s in own)
        fact = sum(s.in_answer for s in own)
        nf = sum(s.not_found for s in own)
        print(f"| {language} | {right}/{len(own)} | {fact}/{len(own)} | {nf}/{len(own)} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", type=Path, help="a folder to keep the ingested home in")
    parser.add_argument("--save", type=Path, help="write every answer's score to this JSON")
    parser.add_argument("--against", type=Path, help="a JSON written by --save to compare with")
    parser.add_argument("--lines", action="store_true", help="print every answer's first line")
    args = parser.parse_args()
    if not filings_present():
        raise SystemExit("evals/retrieval/filings is missing: see evals/retrieval/PROVENANCE.md")
    with tempfile.TemporaryDirectory(prefix="manda-languages-") as tmp:
        scores = asyncio.run(run(args.keep or Path(tmp)))
    report(scores)
    if args.lines:
        for language, s in scores:
            print(f"{'+' if s.right else '-'} {language} {s.id}: {s.first[:160]}")
    rows = [{"language": lang, "id": s.id, "right": s.right, "in_answer": s.in_answer,
             "first": s.first} for lang, s in scores]
    if args.save:
        args.save.write_text(json.dumps(rows, indent=1, ensure_ascii=False), encoding="utf-8")
    if args.against:
        before = {(r["language"], r["id"]): r for r in
                  json.loads(args.against.read_text(encoding="utf-8"))}
        for row in rows:
            old = before.get((row["language"], row["id"]))
            if old is not None and old["right"] != row["right"]:
                print(f"  {'now right' if row['right'] else 'NO LONGER right'}: "
                      f"{row['language']} {row['id']}")


if __name__ == "__main__":
    main()
