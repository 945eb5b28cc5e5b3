"""Ground truth of the Sorelle data room: a French SAS whose documents are all in French.

Sorelle Conditionnement SAS ("Projet Mistral") makes corrugated packaging near Lyon. Its
exercice ends 30 September (exercice 2024/2025 = 1 October 2024 to 30 September 2025); figures are
in K€ in French number style ("41 862,4", a no-break space between thousands, "14,3 %"); the
comptes annuels are certified by a commissaire aux comptes and carry a compte de résultat, the
soldes intermédiaires de gestion (EBE), a bilan (disponibilités, créances clients, dettes
fournisseurs) and an annexe; the reporting mensuel has French month labels across the columns
(oct.-24 … sept.-25), a "Cumul 12 mois", a budget and a variance; the cap table gives actions
ordinaires and actions de préférence; the contrat de crédit syndiqué has a ratio de levier tested
semi-annually and a changement de contrôle clause; the top clients sit in a PowerPoint table with
"% du CA" down to "1,0 %"; the liste de demandes has its own Statut column. The drawn revolving
credit (RCF) at 30 September 2025 differs between the annexe and the reporting: a contradiction.
Evaluation-only: `manda.sample.generate.EVAL_ONLY_DEALS`. Conventions are those of
`manda.sample.facts` (`stated` for a sheet cell is the value as an English Excel displays it).
"""

from __future__ import annotations

from datetime import date

from manda.models import DocumentRole
from manda.sample.facts import Fact, IRLItem, Nature, SampleFile, Trap

SORELLE = "sorelle"
COMPANY = "Sorelle Conditionnement SAS"
NBSP = "\u00a0"

# ---------------------------------------------------------------- folders and files

F_FINANCES = "A - Finances"
F_JURIDIQUE = "B - Juridique"
F_COMMERCIAL = "C - Commercial"
F_DD = "D - Due diligence"

COMPTES = "Sorelle - Comptes annuels 30-09-2025 certifiés.pdf"
REPORTING = "Reporting mensuel exercice 2024-2025.xlsx"
PRESENTATION = "Présentation société - Projet Mistral.pptx"
CAPITALISATION = "Table de capitalisation au 15-10-2025.xlsx"
CREDIT = "Contrat de crédit syndiqué - Crédit Rhodanien.docx"
ATTESTATION = "Attestation de respect des ratios 30-09-2025.pdf"
NOTE_JURIDIQUE = "Note de synthèse juridique.docx"
DEMANDES = "Liste de demandes - Projet Mistral.xlsx"


def _file(name: str, folder: str, issued: date, summary: str) -> SampleFile:
    return SampleFile(SORELLE, name, name.rsplit(".", 1)[1], issued, summary, folder=folder)


FILES: tuple[SampleFile, ...] = (
    _file(COMPTES, F_FINANCES, date(2025, 12, 12),
          "Comptes annuels 30/09/2025 certifiés: rapport du CAC, compte de résultat, SIG, bilan"),
    _file(REPORTING, F_FINANCES, date(2025, 10, 24),
          "Reporting mensuel: French month labels across, cumul, budget, écart; dette"),
    _file(PRESENTATION, F_COMMERCIAL, date(2025, 11, 5),
          "Présentation: activité, équipe de direction, top 10 clients (% du CA)"),
    _file(CAPITALISATION, F_JURIDIQUE, date(2025, 10, 15),
          "Table de capitalisation: actions ordinaires et de préférence"),
    _file(CREDIT, F_JURIDIQUE, date(2023, 3, 20),
          "Contrat de crédit syndiqué: crédits A, B et renouvelable, ratio de levier"),
    _file(ATTESTATION, F_JURIDIQUE, date(2025, 12, 15),
          "Attestation de conformité aux ratios, date de test 30/09/2025"),
    _file(NOTE_JURIDIQUE, F_JURIDIQUE, date(2026, 1, 8),
          "Note juridique: contrats significatifs, litiges, social, financement"),
    _file(DEMANDES, F_DD, date(2026, 1, 12), "Liste de demandes de l'acquéreur, avec statut"),
)

EXPECTED_ROLES: dict[str, DocumentRole] = {
    COMPTES: DocumentRole.AUDITED_STATEMENTS,
    REPORTING: DocumentRole.MANAGEMENT_ACCOUNTS,
    PRESENTATION: DocumentRole.PRESENTATION,
    CAPITALISATION: DocumentRole.CAP_TABLE,
    CREDIT: DocumentRole.CONTRACT,
    ATTESTATION: DocumentRole.CONTRACT,
    NOTE_JURIDIQUE: DocumentRole.LEGAL_MEMO,
    DEMANDES: DocumentRole.IRL,
}


def fr(amount: float, decimals: int = 1) -> str:
    """French number style: 41 862,4 (no-break space between thousands, decimal comma)."""
    text = f"{amount:,.{decimals}f}"
    return text.replace(",", NBSP).replace(".", ",")


def _t(subject: str, period: str | None, value: float | str | None, unit: str | None,
       file: str, location: str, stated: str, *, nature: Nature = "actual",
       note: str = "") -> Fact:
    return Fact(SORELLE, subject, period, value, unit, file, location, stated, nature, note)


# ---------------------------------------------------------------- comptes annuels (K€)

AUDITOR_NAME = "Berthier Lamarque Audit"
RESULTAT = (  # (line, 2024/2025, 2023/2024) in K€; charges negative
    ("Chiffre d'affaires net", 41_862.4, 38_127.9),
    ("Achats consommés", -17_210.6, -15_902.3),
    ("Charges externes", -6_845.2, -6_310.8),
    ("Impôts et taxes", -612.0, -588.4),
    ("Charges de personnel", -11_204.7, -10_487.1),
    ("Dotations aux amortissements", -2_140.5, -1_986.2),
    ("Résultat d'exploitation", 3_849.4, 2_853.1),
    ("Résultat financier", -702.8, -655.0),
    ("Résultat exceptionnel", 118.0, -42.5),
    ("Impôt sur les sociétés", -812.3, -545.1),
    ("Résultat net", 2_452.3, 1_610.5),
)
CA_K, CA_PRIOR_K = 41_862.4, 38_127.9
EBE_K, EBE_PRIOR_K = 5_989.9, 4_839.3  # CA - achats - charges externes - impôts - personnel
BILAN = (  # (line, 30/09/2025, 30/09/2024) in K€
    ("Immobilisations nettes", 24_318.6, 23_540.2),
    ("Stocks", 6_215.0, 5_870.4),
    ("Créances clients", 9_874.1, 9_102.6),
    ("Autres créances", 1_420.3, 1_388.0),
    ("Disponibilités", 3_418.7, 2_906.2),
    ("Total actif", 45_246.7, 42_807.4),
    ("Capitaux propres", 14_905.6, 12_453.3),
    ("Provisions pour risques et charges", 620.0, 380.0),
    ("Emprunts et dettes auprès des établissements de crédit", 18_650.0, 20_400.0),
    ("Dettes fournisseurs", 5_932.8, 5_611.4),
    ("Dettes fiscales et sociales et autres dettes", 5_138.3, 3_962.7),
    ("Total passif", 45_246.7, 42_807.4),
)
TRANCHE_A_K, TRANCHE_B_K, RCF_DRAWN_K = 10_650.0, 6_000.0, 2_000.0
RCF_REPORTING_K = 2_750.0  # the reporting mensuel's figure for the same date
CASH_K = 3_418.7
NET_DEBT_K = 18_650.0 - CASH_K  # 15 231,3

COMPTES_CA = _t("revenue", "FY2024/25", 41_862_400, "EUR", COMPTES, "p.2", fr(CA_K),
                note="exercice clos le 30 septembre 2025")
COMPTES_CA_PRIOR = _t("revenue", "FY2023/24", 38_127_900, "EUR", COMPTES, "p.2",
                      fr(CA_PRIOR_K), note="prior-year column; growth 9,8 %")
COMPTES_EBE = _t("ebitda", "FY2024/25", 5_989_900, "EUR", COMPTES, "p.2", fr(EBE_K),
                 note="excédent brut d'exploitation, soldes intermédiaires de gestion")
COMPTES_EBE_MARGIN = _t("ebitda_margin", "FY2024/25", 14.3, "%", COMPTES, "p.2",
                        f"14,3{NBSP}%")
COMPTES_RESULTAT_NET = _t("net_income", "FY2024/25", 2_452_300, "EUR", COMPTES, "p.2",
                          fr(2_452.3))
COMPTES_DISPONIBILITES = _t("cash", "as of 2025-09-30", 3_418_700, "EUR", COMPTES, "p.3",
                            fr(CASH_K))
COMPTES_CREANCES = _t("trade_receivables", "as of 2025-09-30", 9_874_100, "EUR", COMPTES,
                      "p.3", fr(9_874.1), note="créances clients: an amount, not a count")
COMPTES_FOURNISSEURS = _t("trade_payables", "as of 2025-09-30", 5_932_800, "EUR", COMPTES,
                          "p.3", fr(5_932.8))
COMPTES_DETTE_BANCAIRE = _t("bank_debt", "as of 2025-09-30", 18_650_000, "EUR", COMPTES, "p.3",
                            fr(18_650.0))
COMPTES_RCF = _t("revolver_drawn", "as of 2025-09-30", 2_000_000, "EUR", COMPTES, "p.3",
                 f"{fr(RCF_DRAWN_K)}{NBSP}K€",
                 note="the reporting mensuel says 2 750,0 K€: a contradiction")
AUDITOR = _t("auditor", "FY2024/25", AUDITOR_NAME, None, COMPTES, "p.1", AUDITOR_NAME)
OPINION = _t("audit_opinion", "FY2024/25", "certification sans réserve", None, COMPTES, "p.1",
             "Nous certifions que les comptes annuels sont",
             note="an unqualified (clean) opinion; no réserve, no observation")

# ---------------------------------------------------------------- reporting mensuel (K€)

MONTHS = ("oct.-24", "nov.-24", "déc.-24", "janv.-25", "févr.-25", "mars-25",
          "avr.-25", "mai-25", "juin-25", "juil.-25", "août-25", "sept.-25")
_CA_11 = (3_402.5, 3_518.3, 3_120.8, 3_205.6, 3_330.1, 3_688.4,
          3_540.2, 3_612.9, 3_755.0, 3_410.7, 2_980.3)
MONTHLY_CA = (*_CA_11, round(CA_K - sum(_CA_11), 1))  # sept.-25: 4 297,6
_EBE_11 = (498.2, 521.7, 402.6, 430.1, 468.9, 566.3, 520.4, 541.0, 575.8, 455.2, 318.5)
MONTHLY_EBE = (*_EBE_11, round(EBE_K - sum(_EBE_11), 1))  # sept.-25: 691,2
REPORTING_COLUMNS = "BCDEFGHIJKLM"
BUDGET_CA_K, BUDGET_EBE_K = 43_000.0, 6_300.0

MARCH_CA = _t("revenue", "mars-25", 3_688_400, "EUR", REPORTING, "Synthèse!G6", "3,688.4",
              note="French month labels across the columns, K€")
REPORTING_CA_TOTAL = _t("revenue", "FY2024/25", 41_862_400, "EUR", REPORTING, "Synthèse!N6",
                        "41,862.4", note="'Cumul 12 mois' column, a formula")
REPORTING_EBE_TOTAL = _t("ebitda", "FY2024/25", 5_989_900, "EUR", REPORTING, "Synthèse!N12",
                         "5,989.9")
BUDGET_CA = _t("revenue", "FY2024/25", 43_000_000, "EUR", REPORTING, "Synthèse!O6",
               "43,000.0", nature="forecast", note="budget, not an actual")
REPORTING_RCF = _t("revolver_drawn", "as of 2025-09-30", 2_750_000, "EUR", REPORTING,
                   "Dette!B8", "2,750.0",
                   note="the annexe of the comptes annuels says 2 000,0 K€: a contradiction")

# ---------------------------------------------------------------- présentation (top clients)

CLIENTS = (  # (client, secteur, % du CA)
    ("Laiteries du Vercors", "Produits laitiers", 18.4),
    ("Fromageries Bressanes", "Produits laitiers", 9.7),
    ("Biscuiterie Camarguaise", "Biscuiterie", 7.2),
    ("Maraîchers du Forez", "Fruits et légumes", 5.5),
    ("Salaisons des Monts d'Ardèche", "Charcuterie", 4.1),
    ("Brasserie Saint-Romain", "Boissons", 3.3),
    ("Nougaterie Adhémar", "Confiserie", 2.6),
    ("Vergers du Pilat", "Fruits et légumes", 2.0),
    ("Pâtisseries Lugdunum", "Boulangerie-pâtisserie", 1.4),
    ("Épicerie Fine Ravel", "Épicerie fine", 1.0),
)
CLIENT_CA_K = tuple(round(CA_K * share / 100, 1) for _, _, share in CLIENTS)
CLIENT_SHARES = tuple(
    _t(f"customer_share:{name.casefold()}", "FY2024/25", share, "%", PRESENTATION, "slide 4",
       f"{fr(share)}{NBSP}%")
    for name, _, share in CLIENTS
)
MANAGEMENT = (
    _t("person:hélène sorelle", None, "Présidente", None, PRESENTATION, "slide 3",
       "Hélène Sorelle — Présidente"),
    _t("person:marc guérin", None, "Directeur général", None, PRESENTATION, "slide 3",
       "Marc Guérin — Directeur général"),
    _t("person:claire vasseur", None, "Directrice administrative et financière", None,
       PRESENTATION, "slide 3", "Claire Vasseur — Directrice administrative et financière"),
    _t("person:julien ferrand", None, "Directeur industriel", None, PRESENTATION, "slide 3",
       "Julien Ferrand — Directeur industriel"),
)

# ---------------------------------------------------------------- table de capitalisation

HOLDERS = (  # (actionnaire, catégorie, actions)
    ("Holding Sorelle Participations SAS", "Actions ordinaires", 1_240_000),
    ("Rhône Croissance II FPCI", "Actions de préférence A", 600_000),
    ("Hélène Sorelle", "Actions ordinaires", 60_000),
    ("Marc Guérin", "Actions ordinaires", 40_000),
    ("Cadres dirigeants (actions gratuites acquises)", "Actions ordinaires", 60_000),
)
TOTAL_SHARES = sum(h[2] for h in HOLDERS)  # 2 000 000 actions de 1 €
OWNERSHIP = tuple(
    _t(f"ownership:{holder.casefold()}", "as of 2025-10-15", shares / TOTAL_SHARES * 100, "%",
       CAPITALISATION, f"Capital!D{row}", f"{shares / TOTAL_SHARES:.1%}")
    for row, (holder, _, shares) in enumerate(HOLDERS, start=5)
)

# ---------------------------------------------------------------- crédit syndiqué, attestation

AGENT = "Crédit Rhodanien"
CREDIT_A = _t("facility_limit:crédit a", None, 16_000_000, "EUR", CREDIT,
              "Article 2 – Les Crédits", "16 000 000 €")
CREDIT_B = _t("facility_limit:crédit b", None, 6_000_000, "EUR", CREDIT,
              "Article 2 – Les Crédits", "6 000 000 €")
RCF_LIMIT = _t("facility_limit:crédit renouvelable", None, 5_000_000, "EUR", CREDIT,
               "Article 2 – Les Crédits", "5 000 000 €")
LEVERAGE_COVENANT = _t("covenant:ratio de levier", "from 2025-03-31", 2.75, "x", CREDIT,
                       "Article 11 – Engagements financiers", "2,75",
                       note="3,00 up to the test date of 30 September 2024")
DSCR_COVENANT = _t("covenant:dscr", None, 1.20, "x", CREDIT,
                   "Article 11 – Engagements financiers", "1,20")
CREDIT_CHANGE_OF_CONTROL = _t("change_of_control:crédit rhodanien", None,
                              "remboursement anticipé", None, CREDIT,
                              "Article 12 – Remboursement anticipé obligatoire",
                              "Changement de Contrôle")
LEVERAGE_ACTUAL = _t("leverage", "as of 2025-09-30", 2.54, "x", ATTESTATION, "p.1", "2,54",
                     note="against a maximum of 2,75: headroom of 0,21")
DSCR_ACTUAL = _t("dscr", "as of 2025-09-30", 1.46, "x", ATTESTATION, "p.1", "1,46")
ATTESTATION_NET_DEBT = _t("net_debt", "as of 2025-09-30", 15_231_300, "EUR", ATTESTATION,
                          "p.1", fr(NET_DEBT_K))

# ---------------------------------------------------------------- note juridique

CLIENT_CHANGE_OF_CONTROL = _t("change_of_control:laiteries du vercors", None,
                              "résiliation, préavis de trois mois", None, NOTE_JURIDIQUE,
                              "Contrats significatifs", "changement de contrôle du Fournisseur")
COMMERCIAL_CLAIM = _t("litigation:emballix distribution sarl", None, 1_250_000, "EUR",
                      NOTE_JURIDIQUE, "Litiges", "1 250 000 €",
                      note="rupture brutale des relations commerciales établies; pending")
PRUDHOMMES_CLAIM = _t("employment_claim:ancien directeur commercial", None, 310_000, "EUR",
                      NOTE_JURIDIQUE, "Social", "310 000 €",
                      note="licencié en mars 2025; claim pending before the prud'hommes")

FACTS: tuple[Fact, ...] = (
    COMPTES_CA, COMPTES_CA_PRIOR, COMPTES_EBE, COMPTES_EBE_MARGIN, COMPTES_RESULTAT_NET,
    COMPTES_DISPONIBILITES, COMPTES_CREANCES, COMPTES_FOURNISSEURS, COMPTES_DETTE_BANCAIRE,
    COMPTES_RCF, AUDITOR, OPINION,
    MARCH_CA, REPORTING_CA_TOTAL, REPORTING_EBE_TOTAL, BUDGET_CA, REPORTING_RCF,
    *CLIENT_SHARES, *MANAGEMENT, *OWNERSHIP,
    CREDIT_A, CREDIT_B, RCF_LIMIT, LEVERAGE_COVENANT, DSCR_COVENANT, CREDIT_CHANGE_OF_CONTROL,
    LEVERAGE_ACTUAL, DSCR_ACTUAL, ATTESTATION_NET_DEBT,
    CLIENT_CHANGE_OF_CONTROL, COMMERCIAL_CLAIM, PRUDHOMMES_CLAIM,
)

# ---------------------------------------------------------------- liste de demandes

FOURNI, EN_ATTENTE = "Fourni", "En attente"
IRL_ITEMS: tuple[IRLItem, ...] = (
    IRLItem("FIN-01", "Finances", "Comptes annuels certifiés des deux derniers exercices",
            "Haute", FOURNI, (COMPTES,)),
    IRLItem("FIN-02", "Finances", "Reporting mensuel de l'exercice 2024/2025", "Haute", FOURNI,
            (REPORTING,)),
    IRLItem("FIN-03", "Finances", "Liasses fiscales des trois derniers exercices", "Haute",
            EN_ATTENTE),
    IRLItem("FIN-04", "Finances", "Balance âgée des créances clients au 30/09/2025", "Moyenne",
            EN_ATTENTE),
    IRLItem("JUR-01", "Juridique", "Table de capitalisation à jour", "Haute", FOURNI,
            (CAPITALISATION,)),
    IRLItem("JUR-02", "Juridique", "Pacte d'associés et statuts à jour", "Haute", EN_ATTENTE),
    IRLItem("JUR-03", "Juridique", "Contrat de crédit syndiqué et attestations de respect des "
            "ratios", "Haute", FOURNI, (CREDIT, ATTESTATION)),
    IRLItem("JUR-04", "Juridique", "Note sur les litiges en cours", "Haute", FOURNI,
            (NOTE_JURIDIQUE,)),
    IRLItem("JUR-05", "Juridique", "Baux commerciaux des sites de production", "Moyenne",
            EN_ATTENTE),
    IRLItem("COM-01", "Commercial", "Chiffre d'affaires par client (top 10)", "Haute", FOURNI,
            (PRESENTATION,)),
    IRLItem("RH-01", "Social", "Registre unique du personnel et contrats des cadres dirigeants",
            "Moyenne", EN_ATTENTE),
    IRLItem("ENV-01", "Environnement", "Arrêtés préfectoraux ICPE et rapports d'inspection",
            "Moyenne", EN_ATTENTE),
    IRLItem("ASS-01", "Assurances", "Polices d'assurance en vigueur et sinistralité", "Moyenne",
            FOURNI),
)
UNCOVERED_IRL = tuple(item for item in IRL_ITEMS if not item.covered)

# ---------------------------------------------------------------- traps

TRAPS: tuple[Trap, ...] = (
    Trap(SORELLE, "contradicts",
         "The RCF drawn at 30 September 2025 is 2 000,0 K€ in the annexe of the comptes annuels "
         "and 2 750,0 K€ in the reporting mensuel: same date, no correction.",
         "Show both figures with their sources and say they disagree.",
         (COMPTES, REPORTING), (COMPTES_RCF, REPORTING_RCF)),
    Trap(SORELLE, "red_flag",
         "Ratio de levier 2,54 at 30 September 2025 against a maximum of 2,75 (stepped down "
         "from 3,00): 0,21 of headroom.", "Flag the thin headroom with the ratio and the maximum.",
         (CREDIT, ATTESTATION), (LEVERAGE_COVENANT, LEVERAGE_ACTUAL)),
    Trap(SORELLE, "red_flag",
         "Two pending claims: Emballix Distribution (1 250 000 €, tribunal de commerce) and a "
         "dismissed sales director before the prud'hommes (310 000 €).",
         "Flag both with amount and forum; both are pending.", (NOTE_JURIDIQUE,),
         (COMMERCIAL_CLAIM, PRUDHOMMES_CLAIM)),
    Trap(SORELLE, "red_flag",
         "Changement de contrôle: Laiteries du Vercors (18,4 % du CA) may terminate on three "
         "months' notice; each lender may demand prepayment.",
         "Flag both change-of-control consequences.", (NOTE_JURIDIQUE, CREDIT),
         (CLIENT_CHANGE_OF_CONTROL, CREDIT_CHANGE_OF_CONTROL)),
    Trap(SORELLE, "not_a_conflict",
         "'Créances clients' is an amount (9 874,1 K€), not a number of customers; '1,0 %' in "
         "the top-client table is one per cent, not 100 %.",
         "Read them as an amount and as 1.0%.", (COMPTES, PRESENTATION),
         (COMPTES_CREANCES, CLIENT_SHARES[-1])),
    Trap(SORELLE, "uncovered_irl",
         "Requests with no document in the room: " + ", ".join(
             item.ref for item in UNCOVERED_IRL) + " (ASS-01 is marked Fourni but nothing in "
         "the room provides it).",
         "List them as gaps by theme and offer to add them to the Q&A list.", (DEMANDES,)),
)

DISTINCTIVE_TERMS: tuple[str, ...] = (
    "Sorelle", "Mistral", "Crédit Rhodanien", "Laiteries du Vercors", "Emballix",
    "Berthier Lamarque", "Rhône Croissance",
)
