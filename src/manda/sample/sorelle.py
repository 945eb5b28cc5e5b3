"""Sorelle's files: a French SAS room (exercice to 30 September, K€, French number style).

PDFs (comptes annuels certifiés, an attestation de respect des ratios), workbooks (reporting
mensuel with French month labels across the columns, a table de capitalisation, the liste de
demandes), a PowerPoint présentation with the top clients and the management team, and Word
files (the contrat de crédit syndiqué, the note juridique). Every document is in French. Ground
truth: `manda.sample.sorelle_facts`; evaluation-only, so the demo does not get slower.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from pathlib import Path

from openpyxl import Workbook
from openpyxl.worksheet.worksheet import Worksheet
from pptx import Presentation

from manda.sample._docx import write_sectioned_docx
from manda.sample._office import save_office_file
from manda.sample._paths import room_folder
from manda.sample._pdf import company_meta, para, spacer, table, write_pdf
from manda.sample._sheets import BOLD, header, number_format, request_list, title
from manda.sample._slides import bullet_slide, table_slide
from manda.sample._xlsx import save_workbook
from manda.sample.sorelle_facts import (
    AGENT,
    ATTESTATION,
    AUDITOR_NAME,
    BILAN,
    BUDGET_CA_K,
    BUDGET_EBE_K,
    CA_K,
    CA_PRIOR_K,
    CAPITALISATION,
    CASH_K,
    CLIENT_CA_K,
    CLIENTS,
    COMPANY,
    COMPTES,
    CREDIT,
    DEMANDES,
    EBE_K,
    EBE_PRIOR_K,
    F_COMMERCIAL,
    F_DD,
    F_FINANCES,
    F_JURIDIQUE,
    HOLDERS,
    IRL_ITEMS,
    MONTHLY_CA,
    MONTHLY_EBE,
    MONTHS,
    NBSP,
    NET_DEBT_K,
    NOTE_JURIDIQUE,
    PRESENTATION,
    RCF_DRAWN_K,
    RCF_REPORTING_K,
    REPORTING,
    REPORTING_COLUMNS,
    RESULTAT,
    TRANCHE_A_K,
    TRANCHE_B_K,
    fr,
)

KEUR = "#,##0.0;-#,##0.0"
PCT = f"{NBSP}%"


def write_sorelle(room: Path) -> list[Path]:
    """Write every Sorelle file into its folder under `room`; return their paths."""
    return [
        _comptes(room_folder(room, F_FINANCES) / COMPTES),
        _reporting(room_folder(room, F_FINANCES) / REPORTING),
        _presentation(room_folder(room, F_COMMERCIAL) / PRESENTATION),
        _capitalisation(room_folder(room, F_JURIDIQUE) / CAPITALISATION),
        _credit(room_folder(room, F_JURIDIQUE) / CREDIT),
        _attestation(room_folder(room, F_JURIDIQUE) / ATTESTATION),
        _note_juridique(room_folder(room, F_JURIDIQUE) / NOTE_JURIDIQUE),
        _demandes(room_folder(room, F_DD) / DEMANDES),
    ]


def _signed(amount: float) -> str:
    """K€ as French statements print a charge: -17 210,6."""
    return fr(amount) if amount >= 0 else f"-{fr(-amount)}"


# ---------------------------------------------------------------- comptes annuels


def _comptes(path: Path) -> Path:
    sig = [
        ["Soldes intermédiaires de gestion (K€)", "2024/2025", "2023/2024"],
        ["Chiffre d'affaires net", fr(CA_K), fr(CA_PRIOR_K)],
        ["Excédent brut d'exploitation (EBE)", fr(EBE_K), fr(EBE_PRIOR_K)],
        ["Taux d'EBE (EBE / chiffre d'affaires)", f"{fr(EBE_K / CA_K * 100)}{PCT}",
         f"{fr(EBE_PRIOR_K / CA_PRIOR_K * 100)}{PCT}"],
    ]
    pages = [
        [
            para(COMPANY, "Title"),
            para("Comptes annuels de l'exercice clos le 30 septembre 2025", "Heading1"),
            para("Rapport du commissaire aux comptes sur les comptes annuels", "Heading2"),
            para("À l'assemblée générale de la société Sorelle Conditionnement SAS. Opinion : "
                 "en exécution de la mission qui nous a été confiée, nous avons effectué l'audit "
                 "des comptes annuels de la société relatifs à l'exercice de douze mois clos le "
                 "30 septembre 2025. Nous certifions que les comptes annuels sont, au regard des "
                 "règles et principes comptables français, réguliers et sincères et donnent une "
                 "image fidèle du résultat des opérations de l'exercice écoulé ainsi que de la "
                 "situation financière et du patrimoine de la société à la fin de cet exercice."),
            para(f"{AUDITOR_NAME}, commissaire aux comptes, représenté par Anne Berthier — Lyon, "
                 "le 12 décembre 2025"),
            para("Activité : la société conçoit et fabrique des emballages en carton ondulé et "
                 "des barquettes pour l'industrie agroalimentaire dans son usine de "
                 "Villefranche-sur-Saône (Rhône). Effectif moyen de l'exercice : 186 salariés."),
        ],
        [
            para("Compte de résultat", "Heading2"),
            para("Exercices de douze mois clos le 30 septembre · en milliers d'euros (K€)",
                 "Small"),
            table([["K€", "2024/2025", "2023/2024"],
                   *([line, _signed(current), _signed(prior)]
                     for line, current, prior in RESULTAT)],
                  [95, 30, 30], bold_rows=[1, 7, 11]),
            spacer(),
            table(sig, [95, 30, 30], bold_rows=[2]),
        ],
        [
            para("Bilan au 30 septembre 2025", "Heading2"),
            para("en milliers d'euros (K€)", "Small"),
            table([["K€", "30/09/2025", "30/09/2024"],
                   *([line, fr(current), fr(prior)] for line, current, prior in BILAN)],
                  [100, 28, 28], bold_rows=[6, 12]),
            spacer(),
            para("Annexe (extraits)", "Heading2"),
            para("Emprunts et dettes auprès des établissements de crédit : "
                 f"{fr(18_650.0)}{NBSP}K€ au 30 septembre 2025, dont crédit A "
                 f"{fr(TRANCHE_A_K)}{NBSP}K€, crédit B {fr(TRANCHE_B_K)}{NBSP}K€ et crédit "
                 f"renouvelable (RCF) tiré à hauteur de {fr(RCF_DRAWN_K)}{NBSP}K€, au titre du "
                 f"contrat de crédit syndiqué conclu le 20 mars 2023 avec {AGENT} (agent)."),
            para("Provisions pour risques : une provision de 120,0 K€ couvre un litige "
                 "prud'homal ; aucune provision n'est constituée au titre de l'assignation de la "
                 "société Emballix Distribution (voir la note juridique)."),
        ],
    ]
    write_pdf(path, pages,
              company_meta(COMPANY, "Comptes annuels 2024/2025", date(2025, 12, 12), AUDITOR_NAME))
    return path


# ---------------------------------------------------------------- reporting mensuel


def _reporting(path: Path) -> Path:
    workbook = Workbook()
    _synthese(workbook.active)
    _dette(workbook.create_sheet("Dette"))
    save_workbook(workbook, path, issued=date(2025, 10, 24), author=COMPANY)
    return path


def _spread(total: float, weights: Sequence[float]) -> tuple[float, ...]:
    """`total` shared in proportion to `weights`, to one decimal; the last month balances."""
    whole = sum(weights)
    parts = [round(total * w / whole, 1) for w in weights[:-1]]
    return (*parts, round(total - sum(parts), 1))


def _synthese(ws: Worksheet) -> None:
    """Lines down column A, French month labels across, then cumul, budget and écart."""
    ws.title = "Synthèse"
    title(ws, f"{COMPANY} — Reporting mensuel, exercice 2024/2025",
          "en K€ · exercice du 1er octobre 2024 au 30 septembre 2025 · non audité")
    header(ws, 4, ["K€", *MONTHS, "Cumul 12 mois", "Budget", "Écart"])
    achats = _spread(17_210.6, MONTHLY_CA)
    externes = _spread(6_845.2, MONTHLY_CA)
    impots = (51.0,) * 12
    personnel = tuple(round(ca - a - e - i - ebe, 1) for ca, a, e, i, ebe in zip(
        MONTHLY_CA, achats, externes, impots, MONTHLY_EBE, strict=True))
    lines = {6: ("Chiffre d'affaires", MONTHLY_CA), 7: ("Achats consommés", achats),
             9: ("Charges externes", externes), 10: ("Impôts et taxes", impots),
             11: ("Charges de personnel", personnel)}
    for row, (label, values) in lines.items():
        ws.cell(row=row, column=1, value=label)
        for col, value in zip(REPORTING_COLUMNS, values, strict=True):
            ws[f"{col}{row}"] = value
    ws["A8"], ws["A12"], ws["A13"] = "Marge brute", "EBE", "Taux d'EBE"
    ws["A8"].font = ws["A12"].font = ws["A6"].font = BOLD
    for col in (*REPORTING_COLUMNS, "N"):
        ws[f"{col}8"] = f"={col}6-{col}7"
        ws[f"{col}12"] = f"={col}8-{col}9-{col}10-{col}11"
        ws[f"{col}13"] = f"={col}12/{col}6"
    for row in (6, 7, 9, 10, 11):
        ws[f"N{row}"] = f"=SUM(B{row}:M{row})"
    ws["O6"], ws["O12"] = BUDGET_CA_K, BUDGET_EBE_K
    ws["O13"] = "=O12/O6"
    for row in (6, 12, 13):
        ws[f"P{row}"] = f"=N{row}-O{row}"
    number_format(ws, "B6:P12", KEUR)
    number_format(ws, "B13:P13", "0.0%")
    ws["A15"] = "Effectif fin de mois (ETP)"
    for col, staff in zip(REPORTING_COLUMNS, (181, 182, 182, 183, 184, 185, 186, 187, 188, 188,
                                              187, 189), strict=True):
        ws[f"{col}15"] = staff
    ws.column_dimensions["A"].width = 26


def _dette(ws: Worksheet) -> None:
    title(ws, "Trésorerie et endettement au 30/09/2025", "en K€ · chiffres de gestion")
    header(ws, 4, ["K€", "30/09/2025"])
    rows = (("Disponibilités", CASH_K), ("Crédit A (amortissable)", TRANCHE_A_K),
            ("Crédit B (in fine)", TRANCHE_B_K), ("RCF tiré", RCF_REPORTING_K))
    for row, (label, value) in enumerate(rows, start=5):
        ws.cell(row=row, column=1, value=label)
        ws.cell(row=row, column=2, value=value)
    number_format(ws, "B5:B8", KEUR)
    ws.column_dimensions["A"].width = 26


# ---------------------------------------------------------------- présentation


def _presentation(path: Path) -> Path:
    prs = Presentation()
    cover = prs.slides.add_slide(prs.slide_layouts[0])
    cover.shapes.title.text = "Sorelle Conditionnement — Présentation de la société"
    cover.placeholders[1].text = "Projet Mistral · novembre 2025 · strictement confidentiel"
    bullet_slide(prs, "L'entreprise en bref", [
        "Emballages en carton ondulé et barquettes pour l'agroalimentaire",
        "Usine de Villefranche-sur-Saône (Rhône), 189 salariés",
        f"Chiffre d'affaires {fr(CA_K)}{NBSP}K€ sur l'exercice clos le 30 septembre 2025",
    ])
    bullet_slide(prs, "Équipe de direction", [
        "Hélène Sorelle — Présidente",
        "Marc Guérin — Directeur général",
        "Claire Vasseur — Directrice administrative et financière",
        "Julien Ferrand — Directeur industriel",
    ])
    rows = [["Client", "Secteur", "CA 2024/25 (K€)", "% du CA"]]
    rows += [[name, sector, fr(revenue), f"{fr(share)}{PCT}"]
             for (name, sector, share), revenue in zip(CLIENTS, CLIENT_CA_K, strict=True)]
    table_slide(prs, "Nos 10 premiers clients (exercice 2024/2025)", rows)
    save_office_file(prs, path, issued=date(2025, 11, 5), author=COMPANY,
                     title="Présentation de la société — Projet Mistral")
    return path


# ---------------------------------------------------------------- table de capitalisation


def _capitalisation(path: Path) -> Path:
    workbook = Workbook()
    ws = workbook.active
    ws.title = "Capital"
    title(ws, f"{COMPANY} — Table de capitalisation",
          "au 15 octobre 2025 · capital social de 2 000 000 € divisé en 2 000 000 actions de "
          "1 € de nominal")
    header(ws, 4, ["Actionnaire", "Catégorie d'actions", "Nombre d'actions", "% du capital",
                   "% des droits de vote"])
    last = 4 + len(HOLDERS)
    for row, (holder, category, shares) in enumerate(HOLDERS, start=5):
        ws.cell(row=row, column=1, value=holder)
        ws.cell(row=row, column=2, value=category)
        ws.cell(row=row, column=3, value=shares)
        ws[f"D{row}"] = f"=C{row}/C{last + 1}"
        ws[f"E{row}"] = f"=C{row}/C{last + 1}"
    ws.cell(row=last + 1, column=1, value="Total").font = BOLD
    ws[f"C{last + 1}"] = f"=SUM(C5:C{last})"
    number_format(ws, f"C5:C{last + 1}", "#,##0")
    number_format(ws, f"D5:E{last}", "0.0%")
    ws[f"A{last + 3}"] = ("Les actions de préférence A bénéficient d'un dividende prioritaire "
                          "et d'une préférence de liquidation égale à 1x leur prix de "
                          "souscription.")
    ws.column_dimensions["A"].width = 44
    save_workbook(workbook, path, issued=date(2025, 10, 15), author=COMPANY)
    return path


# ---------------------------------------------------------------- crédit syndiqué


def _credit(path: Path) -> Path:
    sections = {
        "Article 1 – Définitions": [
            "« EBE » désigne l'excédent brut d'exploitation de l'Emprunteur sur douze mois "
            "glissants. « Dette Nette » désigne l'endettement financier diminué des "
            "disponibilités. « Ratio de Levier » désigne le rapport Dette Nette / EBE.",
        ],
        "Article 2 – Les Crédits": [
            "Les Prêteurs mettent à la disposition de l'Emprunteur : (a) un crédit amortissable "
            "(Crédit A) d'un montant maximum en principal de 16 000 000 € ; (b) un crédit "
            "remboursable in fine (Crédit B) d'un montant maximum en principal de 6 000 000 € ; "
            "(c) un crédit renouvelable (RCF) d'un montant maximum en principal de "
            "5 000 000 €.",
        ],
        "Article 5 – Remboursement": [
            "Le Crédit A est remboursable semestriellement jusqu'au 20 mars 2029 ; le Crédit B "
            "est remboursable en totalité le 20 mars 2030 ; le crédit renouvelable prend fin "
            "le 20 mars 2029.",
        ],
        "Article 6 – Intérêts": [
            "Chaque crédit porte intérêt au taux EURIBOR augmenté d'une marge de 2,10 % l'an "
            "(Crédit A), 2,60 % l'an (Crédit B) et 1,90 % l'an (crédit renouvelable).",
        ],
        "Article 11 – Engagements financiers": [
            "L'Emprunteur s'engage à ce que (a) le Ratio de Levier soit inférieur ou égal à "
            "3,00 à chaque Date de Test jusqu'au 30 septembre 2024 inclus, puis inférieur ou "
            "égal à 2,75 à chaque Date de Test ultérieure ; (b) le Ratio de Couverture du "
            "Service de la Dette (DSCR) soit supérieur ou égal à 1,20.",
            "Les ratios sont testés semestriellement au 31 mars et au 30 septembre sur la base "
            "des douze derniers mois et font l'objet d'une attestation remise à l'Agent.",
        ],
        "Article 12 – Remboursement anticipé obligatoire": [
            "12.3 Changement de Contrôle. Si la société Holding Sorelle Participations SAS "
            "cesse de détenir, directement ou indirectement, plus de 50 % du capital et des "
            "droits de vote de l'Emprunteur (un « Changement de Contrôle »), chaque Prêteur "
            "pourra exiger le remboursement anticipé de sa participation dans les Crédits et "
            "l'annulation de son engagement au titre du crédit renouvelable.",
        ],
        "Article 25 – Droit applicable et juridiction": [
            "Le présent contrat est soumis au droit français. Tout litige relatif au présent "
            "contrat relève de la compétence exclusive du tribunal de commerce de Lyon.",
        ],
    }
    preamble = (f"en date du 20 mars 2023 entre {COMPANY}, en qualité d'Emprunteur, {AGENT}, "
                "en qualité d'Arrangeur et d'Agent, et la Banque Populaire du Beaujolais et la "
                "Caisse d'Épargne Loire-Dauphiné, en qualité de Prêteurs.")
    return write_sectioned_docx(
        path, "CONTRAT DE CRÉDITS SYNDIQUÉS", preamble, sections.items(),
        issued=date(2023, 3, 20), author="Cabinet Royer Faure",
        title="Contrat de crédits syndiqués")


def _attestation(path: Path) -> Path:
    pages = [[
        para(COMPANY, "Title"),
        para("Attestation de respect des ratios financiers", "Heading1"),
        para(f"À l'attention de {AGENT}, en qualité d'Agent · Date de Test : 30 septembre 2025 "
             "· article 11 du contrat de crédits syndiqués du 20 mars 2023"),
        table([
            ["Ratio", "Seuil contractuel", "Niveau constaté"],
            ["Ratio de Levier (Dette Nette / EBE)", "inférieur ou égal à 2,75", "2,54"],
            ["DSCR", "supérieur ou égal à 1,20", "1,46"],
        ], [70, 50, 35]),
        spacer(),
        para(f"Dette Nette au 30 septembre 2025 : {fr(NET_DEBT_K)}{NBSP}K€ ; EBE des douze "
             f"derniers mois : {fr(EBE_K)}{NBSP}K€. Aucun Cas de Défaut n'est en cours."),
        para("Lyon, le 15 décembre 2025 — Claire Vasseur, Directrice administrative et "
             "financière"),
    ]]
    write_pdf(path, pages,
              company_meta(COMPANY, "Attestation de respect des ratios", date(2025, 12, 15)))
    return path


# ---------------------------------------------------------------- note juridique


def _note_juridique(path: Path) -> Path:
    sections = {
        "Présentation de la société": [
            f"{COMPANY} est une société par actions simplifiée au capital de 2 000 000 €, "
            "immatriculée au RCS de Villefranche-Tarare, dont le siège est à "
            "Villefranche-sur-Saône. Elle est présidée par Mme Hélène Sorelle ; M. Marc Guérin "
            "en est le directeur général.",
        ],
        "Contrats significatifs": [
            "Le contrat-cadre conclu avec Laiteries du Vercors, premier client de la société "
            "(18,4 % du chiffre d'affaires), court jusqu'au 31 décembre 2027. En cas de "
            "changement de contrôle du Fournisseur au sens de l'article L. 233-3 du Code de "
            "commerce, le Client pourra résilier le contrat-cadre moyennant un préavis de trois "
            "mois.",
            "Le contrat d'approvisionnement en carton conclu avec les Papeteries de la Durance "
            "comporte une exclusivité d'achat jusqu'au 31 décembre 2026.",
        ],
        "Litiges": [
            "La société Emballix Distribution SARL, ancien distributeur de la société pour le "
            "Sud-Ouest, a assigné Sorelle Conditionnement devant le tribunal de commerce de "
            "Lyon le 17 avril 2025 pour rupture brutale des relations commerciales établies "
            "(article L. 442-1, II du Code de commerce) et réclame 1 250 000 € de dommages et "
            "intérêts. L'affaire est pendante ; l'audience de plaidoirie est fixée au 5 mars "
            "2026. Aucune provision n'a été constituée.",
        ],
        "Social": [
            "Un ancien directeur commercial, licencié pour insuffisance professionnelle en mars "
            "2025, a saisi le conseil de prud'hommes de Lyon le 4 juin 2025 et réclame "
            "310 000 € au titre d'un licenciement sans cause réelle et sérieuse. L'audience de "
            "jugement est fixée au 19 février 2026. Une provision de 120 000 € a été "
            "constituée dans les comptes au 30 septembre 2025.",
        ],
        "Financement": [
            f"Le contrat de crédits syndiqués conclu avec {AGENT} prévoit un remboursement "
            "anticipé obligatoire à la demande de chaque Prêteur en cas de Changement de "
            "Contrôle (article 12.3).",
        ],
    }
    preamble = "Cabinet Delorme Vidal Avocats, Lyon · 8 janvier 2026 · confidentiel"
    return write_sectioned_docx(
        path, "Projet Mistral — Note de synthèse juridique", preamble, sections.items(),
        issued=date(2026, 1, 8), author="Cabinet Delorme Vidal Avocats",
        title="Note de synthèse juridique")


# ---------------------------------------------------------------- liste de demandes


def _demandes(path: Path) -> Path:
    workbook = Workbook()
    ws = workbook.active
    ws.title = "Demandes"
    title(ws, "Projet Mistral — Liste de demandes d'informations",
          "Acquéreur : Vellave Capital Partenaires · mise à jour du 12 janvier 2026")
    request_list(ws, ["N°", "Thème", "Document demandé", "Priorité", "Statut",
                      "Commentaire vendeur"], IRL_ITEMS,
                 {"FIN-03": "Transmission prévue après la clôture fiscale",
                  "JUR-02": "Statuts en cours de mise à jour"})
    save_workbook(workbook, path, issued=date(2026, 1, 12), author="Vellave Capital Partenaires")
    return path
