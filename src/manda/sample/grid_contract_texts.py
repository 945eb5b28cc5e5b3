"""The held-out contracts of the review grid (issue 28), as data: who signed what, clause by clause.

Fourteen contracts of one target, Larkspur Provisions Ltd (a UK maker of chilled desserts): customer
and supplier contracts, leases, employment agreements and loans, in several layouts (numbered
clauses in a PDF, headings in Word, a scanned lease with no text layer, a German Liefervertrag, a
French contrat de prestations) and one amendment that supersedes terms of an earlier contract.
Their ground truth, column by column with the verbatim quote, is `evals/grid/contracts.yaml`,
written from these texts before any grid code existed; `manda.sample.grid_contracts` writes them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Literal

TARGET = "Larkspur Provisions Ltd"
Layout = Literal["numbered_pdf", "docx_headings", "scanned_pdf"]

F_CUSTOMERS = "Customer contracts"
F_SUPPLIERS = "Supplier contracts"
F_LEASES = "Leases"
F_EMPLOYMENT = "Employment"
F_FINANCING = "Financing"


@dataclass(frozen=True)
class Contract:
    """One contract: its file, layout and language, and its sections in reading order.

    `breaks` names the section headings that start a new page (PDF layouts only).
    """

    id: str
    folder: str
    name: str
    layout: Layout
    language: str
    issued: date
    title: str
    preamble: str
    sections: tuple[tuple[str, tuple[str, ...]], ...]
    breaks: tuple[str, ...] = ()

    @property
    def path(self) -> str:
        return f"{self.folder}/{self.name}"


MARLOW = Contract(
    "C01", F_CUSTOMERS, "Supply Agreement - Marlow Grocers plc.pdf", "numbered_pdf", "en",
    date(2023, 4, 1), "SUPPLY AGREEMENT",
    f"This Agreement is dated 1 April 2023 and made between {TARGET} (the Supplier) and Marlow "
    "Grocers plc, a company registered in England with number 01877342 (the Customer).",
    (
        ("1. Supply", (
            "1.1 The Supplier shall supply chilled desserts to the Customer's distribution "
            "centres in accordance with the Orders placed under this Agreement.",
        )),
        ("2. Term", (
            "2.1 This Agreement shall commence on 1 April 2023 and continue for an initial term "
            "of 36 months.",
            "2.2 This Agreement shall automatically renew for successive periods of 12 months "
            "unless either party gives the other at least 90 days' written notice before the end "
            "of the then current term.",
        )),
        ("3. Prices", (
            "3.1 The Supplier shall ensure that the prices charged to the Customer are no less "
            "favourable than the prices charged to any other customer of the Supplier for "
            "comparable volumes.",
        )),
        ("11. Termination", (
            "11.1 The Customer may terminate this Agreement for convenience at any time by "
            "giving the Supplier not less than 180 days' written notice.",
            "11.2 If the Supplier undergoes a Change of Control, the Customer may terminate this "
            "Agreement by giving 30 days' written notice within six months of becoming aware of "
            "the Change of Control.",
        )),
        ("14. Limitation of Liability", (
            "14.1 Each party's total aggregate liability under this Agreement shall not exceed "
            "the total Charges paid by the Customer in the 12 months preceding the event giving "
            "rise to the claim.",
        )),
        ("17. Assignment", (
            "17.1 Neither party may assign or transfer this Agreement without the prior written "
            "consent of the other party, such consent not to be unreasonably withheld.",
        )),
        ("20. Governing Law", (
            "20.1 This Agreement and any dispute arising out of it shall be governed by the law "
            "of England and Wales.",
        )),
    ),
    breaks=("11. Termination",),
)

MARLOW_AMENDMENT = Contract(
    "C02", F_CUSTOMERS, "Amendment No 1 - Marlow Grocers Supply Agreement.pdf", "numbered_pdf",
    "en", date(2024, 10, 15), "AMENDMENT No. 1 TO THE SUPPLY AGREEMENT",
    f"This Amendment is dated 15 October 2024 and made between {TARGET} (the Supplier) and "
    "Marlow Grocers plc (the Customer). It amends the Supply Agreement between them dated 1 April "
    "2023 (the Agreement).",
    (
        ("1. Amendments", (
            "1.1 Clause 2.1 of the Agreement is replaced as follows: This Agreement shall "
            "commence on 1 April 2023 and continue until 31 March 2028.",
            "1.2 Clause 14.1 of the Agreement is replaced as follows: Each party's total "
            "aggregate liability under this Agreement shall not exceed GBP 2,000,000.",
        )),
        ("2. General", (
            "2.1 Save as amended by this Amendment, the Agreement continues in full force and "
            "effect. This Amendment is governed by the law of England and Wales.",
        )),
    ),
)

OAKHURST = Contract(
    "C03", F_CUSTOMERS, "Master Services Agreement - Oakhurst Hospitality Inc.docx",
    "docx_headings", "en", date(2024, 1, 15), "MASTER SERVICES AGREEMENT",
    f"This Master Services Agreement is entered into as of January 15, 2024 by and between "
    f"{TARGET} (Supplier) and Oakhurst Hospitality, Inc., a Delaware corporation (Customer).",
    (
        ("Services", (
            "Supplier shall design, produce and deliver prepared desserts for the Customer's "
            "hotels in the United Kingdom as set out in each Statement of Work.",
        )),
        ("Term and Renewal", (
            "This Agreement has an initial term of twenty-four (24) months from the Effective "
            "Date. The parties may extend it for one additional term of twenty-four (24) months "
            "only by mutual written agreement.",
        )),
        ("Exclusivity", (
            "During the Term, Supplier shall be Customer's exclusive supplier of prepared "
            "desserts for its hotels in the United Kingdom.",
        )),
        ("Termination", (
            "Either party may terminate this Agreement upon thirty (30) days' written notice if "
            "the other party materially breaches it and fails to cure the breach within that "
            "period. Neither party may terminate this Agreement for convenience.",
        )),
        ("Limitation of Liability", (
            "Except for breach of confidentiality, each party's aggregate liability arising out "
            "of this Agreement shall not exceed USD 1,500,000.",
        )),
        ("Assignment", (
            "Either party may assign this Agreement without consent to an Affiliate or to a "
            "successor in a merger or a sale of all or substantially all of its assets.",
        )),
        ("Governing Law", (
            "This Agreement shall be governed by the laws of the State of New York, without "
            "regard to its conflict of laws principles.",
        )),
    ),
)

NORDVIK = Contract(
    "C04", F_CUSTOMERS, "Distribution Agreement - Nordvik Foods AS.pdf", "numbered_pdf", "en",
    date(2022, 9, 1), "EXCLUSIVE DISTRIBUTION AGREEMENT",
    f"This Agreement is made on 1 September 2022 between {TARGET} (Larkspur) and Nordvik Foods "
    "AS, organisation number 918 224 571, Oslo (the Distributor).",
    (
        ("1. Appointment", (
            "1.1 Larkspur appoints the Distributor as its exclusive distributor of the Products "
            "in Norway, Sweden and Denmark, and shall not appoint any other distributor in that "
            "Territory.",
        )),
        ("2. Duration", (
            "2.1 This Agreement shall come into force on 1 September 2022 and remain in force for "
            "a period of five years.",
        )),
        ("9. Termination", (
            "9.1 Either party may terminate this Agreement with immediate effect by written "
            "notice if the other party is subject to a change of control.",
            "9.2 Either party may terminate this Agreement with immediate effect by written "
            "notice if the other party commits a material breach which is not remedied within "
            "30 days.",
        )),
        ("10. Liability", (
            "10.1 The total liability of either party under or in connection with this Agreement "
            "shall not exceed EUR 750,000.",
        )),
        ("12. Assignment", (
            "12.1 The Distributor shall not assign, transfer or sub-license any of its rights "
            "under this Agreement without Larkspur's prior written consent.",
        )),
        ("15. Governing Law and Jurisdiction", (
            "15.1 This Agreement is governed by Norwegian law, and the parties submit to the Oslo "
            "District Court.",
        )),
    ),
    breaks=("9. Termination",),
)

BRIGHTWELL = Contract(
    "C05", F_CUSTOMERS, "Framework Agreement - Brightwell Catering Ltd.pdf", "numbered_pdf",
    "en", date(2025, 2, 3), "FRAMEWORK AGREEMENT FOR THE SUPPLY OF DESSERTS",
    f"This Framework Agreement is dated 3 February 2025 and made between {TARGET} (the Supplier) "
    "and Brightwell Catering Ltd (the Buyer).",
    (
        ("1. Term", (
            "1.1 This Framework Agreement begins on 3 February 2025 and lasts for 12 months. It "
            "renews automatically for further periods of 12 months unless either party gives "
            "at least 60 days' written notice of non-renewal.",
        )),
        ("2. Pricing", (
            "2.1 Prices are set out in Schedule 1. No most-favoured customer pricing applies "
            "under this Framework Agreement.",
        )),
        ("3. Termination", (
            "3.1 The Buyer may terminate this Framework Agreement at any time on 30 days' "
            "written notice.",
            "3.2 A change of control of either party shall not entitle the other party to "
            "terminate this Framework Agreement.",
        )),
        ("4. Liability", (
            "4.1 The Supplier's total liability under this Framework Agreement shall not exceed "
            "GBP 500,000 in aggregate.",
        )),
        ("5. Assignment", (
            "5.1 The Buyer may not assign this Framework Agreement. The Supplier may assign it to "
            "any company in its group on written notice to the Buyer.",
        )),
        ("6. Law", (
            "6.1 This Framework Agreement is governed by the law of England and Wales.",
        )),
    ),
)

VOSSBERG = Contract(
    "C06", F_SUPPLIERS, "Liefervertrag - Vossberg Verpackung GmbH.pdf", "numbered_pdf", "de",
    date(2023, 11, 20), "LIEFERVERTRAG",
    f"vom 20. November 2023 zwischen der Vossberg Verpackung GmbH, Bielefeld (der Lieferant), "
    f"und der {TARGET}, Swindon (der Käufer).",
    (
        ("§ 1 Vertragsgegenstand", (
            "(1) Der Lieferant liefert dem Käufer bedruckte Faltschachteln und Becher für "
            "Kühldesserts nach den jeweiligen Einzelbestellungen.",
            "(2) Der Lieferant beliefert während der Vertragslaufzeit keine anderen Hersteller "
            "von Kühldesserts im Vereinigten Königreich.",
        )),
        ("§ 4 Preise", (
            "(1) Der Lieferant gewährt dem Käufer Preise, die nicht ungünstiger sind als die "
            "Preise, die er vergleichbaren Kunden für vergleichbare Mengen gewährt "
            "(Meistbegünstigung).",
        )),
        ("§ 9 Haftung", (
            "(1) Die Haftung des Lieferanten ist, außer bei Vorsatz und grober Fahrlässigkeit, "
            "auf EUR 500.000 je Vertragsjahr begrenzt.",
        )),
        ("§ 12 Laufzeit und Kündigung", (
            "(1) Der Vertrag beginnt am 1. Januar 2024 und hat eine feste Laufzeit von drei "
            "Jahren.",
            "(2) Er verlängert sich jeweils um ein weiteres Jahr, wenn er nicht mit einer Frist "
            "von sechs Monaten zum Ende der Laufzeit gekündigt wird.",
            "(3) Im Falle eines Kontrollwechsels bei einer Vertragspartei ist die jeweils andere "
            "Partei berechtigt, den Vertrag mit einer Frist von drei Monaten außerordentlich zu "
            "kündigen.",
        )),
        ("§ 14 Abtretung", (
            "(1) Die Abtretung von Rechten aus diesem Vertrag bedarf der vorherigen schriftlichen "
            "Zustimmung der anderen Partei.",
        )),
        ("§ 16 Schlussbestimmungen", (
            "(1) Es gilt das Recht der Bundesrepublik Deutschland unter Ausschluss des "
            "UN-Kaufrechts. Gerichtsstand ist Bielefeld.",
        )),
    ),
    breaks=("§ 12 Laufzeit und Kündigung",),
)

COBALT = Contract(
    "C07", F_SUPPLIERS, "IT Services Agreement - Cobalt Managed Services Ltd.docx",
    "docx_headings", "en", date(2024, 6, 3), "IT MANAGED SERVICES AGREEMENT",
    f"This Agreement is dated 3 June 2024 and made between {TARGET} (the Customer) and Cobalt "
    "Managed Services Ltd (the Supplier).",
    (
        ("Duration", (
            "This Agreement runs for 48 months from the Service Commencement Date. The Customer "
            "may extend it once for a further 12 months by giving at least 3 months' notice "
            "before expiry.",
        )),
        ("Non-exclusivity", (
            "Nothing in this Agreement obliges the Customer to purchase services exclusively "
            "from the Supplier.",
        )),
        ("Termination", (
            "The Customer may terminate this Agreement for convenience on 6 months' written "
            "notice, subject to payment of the Termination Charges in Schedule 5.",
            "If the Supplier undergoes a Change of Control, the Customer may terminate this "
            "Agreement immediately by written notice.",
        )),
        ("Liability", (
            "The Supplier's total liability in each Contract Year shall not exceed 150% of the "
            "Charges paid or payable in that Contract Year.",
        )),
        ("Assignment and Subcontracting", (
            "The Customer may assign this Agreement to any member of its Group. The Supplier "
            "shall not assign or subcontract any of its obligations without the Customer's "
            "prior written consent.",
        )),
        ("Governing Law", (
            "This Agreement is governed by the law of England and Wales.",
        )),
    ),
)

GARNIER = Contract(
    "C08", F_SUPPLIERS, "Contrat de prestations logistiques - Transports Garnier SAS.docx",
    "docx_headings", "fr", date(2024, 2, 12), "CONTRAT DE PRESTATIONS LOGISTIQUES",
    f"Conclu le 12 février 2024 entre Transports Garnier SAS, société par actions simplifiée "
    f"immatriculée au RCS de Lyon (le Prestataire), et {TARGET} (le Client).",
    (
        ("Article 1 – Objet", (
            "Le Prestataire assure le transport sous température dirigée et l'entreposage des "
            "produits du Client en France.",
        )),
        ("Article 3 – Durée", (
            "Le Contrat est conclu pour une durée de deux (2) ans à compter du 1er mars 2024. Il "
            "se renouvelle ensuite tacitement par périodes successives d'un (1) an, sauf "
            "dénonciation par l'une des parties moyennant un préavis de trois (3) mois.",
        )),
        ("Article 9 – Résiliation", (
            "Le Client pourra résilier le Contrat à tout moment, sans avoir à justifier d'un "
            "motif, moyennant un préavis de trois (3) mois.",
            "En cas de changement de contrôle du Prestataire, au sens de l'article L. 233-3 du "
            "Code de commerce, le Client pourra résilier le Contrat de plein droit, sans "
            "indemnité, moyennant un préavis d'un (1) mois.",
        )),
        ("Article 10 – Responsabilité", (
            "La responsabilité totale du Prestataire au titre du Contrat est plafonnée au "
            "montant des sommes versées par le Client au cours des douze (12) mois précédant le "
            "fait générateur.",
        )),
        ("Article 12 – Cession", (
            "Le Prestataire ne pourra céder le Contrat sans l'accord préalable et écrit du "
            "Client.",
        )),
        ("Article 15 – Droit applicable", (
            "Le Contrat est soumis au droit français. Tout litige relève de la compétence du "
            "tribunal de commerce de Lyon.",
        )),
    ),
)

KESTREL = Contract(
    "C09", F_LEASES, "Lease - Unit 4 Kestrel Park Swindon.pdf", "numbered_pdf", "en",
    date(2021, 7, 1), "LEASE OF UNIT 4, KESTREL PARK, SWINDON",
    f"This Lease is dated 1 July 2021 and made between Kestrel Park Estates Limited (the "
    f"Landlord) and {TARGET} (the Tenant).",
    (
        ("1. Term and Rent", (
            "1.1 The Landlord lets the Property to the Tenant for a term of 10 years from and "
            "including 1 July 2021 at an initial rent of GBP 185,000 a year.",
            "1.2 The provisions of sections 24 to 28 of the Landlord and Tenant Act 1954 are "
            "excluded in relation to the tenancy created by this Lease.",
        )),
        ("8. Alienation", (
            "8.1 The Tenant shall not assign the whole of this Lease without the consent of the "
            "Landlord, such consent not to be unreasonably withheld.",
            "8.2 A change of control of the Tenant shall be treated as an assignment of this "
            "Lease requiring the Landlord's consent under clause 8.1.",
        )),
        ("12. Break Clause", (
            "12.1 The Tenant may terminate this Lease on 1 July 2026 by giving the Landlord not "
            "less than six months' written notice.",
        )),
        ("15. Governing Law", (
            "15.1 This Lease and any dispute arising out of it are governed by the law of "
            "England and Wales.",
        )),
    ),
)

# The scanned lease: a page image of these lines and nothing else (no text layer). Plain ASCII
# and no apostrophes, as OCR must read every quote back verbatim.
ORWELL = Contract(
    "C10", F_LEASES, "Lease - Cold Store Bay 2 Felixstowe (scan).pdf", "scanned_pdf", "en",
    date(2022, 3, 15), "LEASE OF COLD STORE BAY 2, ORWELL TRADING ESTATE, FELIXSTOWE",
    f"This Lease is dated 15 March 2022 and made between Orwell Cold Storage Limited (the "
    f"Landlord) and {TARGET} (the Tenant).",
    (
        ("1. Term", (
            "1.1 The Landlord lets Bay 2 to the Tenant for a term of five years from 25 March "
            "2022 at a rent of GBP 96,000 per annum payable quarterly in advance.",
        )),
        ("2. Option to Renew", (
            "2.1 The Tenant may renew this Lease for one further term of five years by giving "
            "the Landlord written notice at least twelve months before the end of the term.",
        )),
        ("5. Assignment", (
            "5.1 The Tenant shall not assign or underlet the Premises without the prior written "
            "consent of the Landlord.",
        )),
        ("9. Law", (
            "9.1 This Lease is governed by the law of England and Wales.",
        )),
    ),
)

CFO = Contract(
    "C11", F_EMPLOYMENT, "Service Agreement - Chief Financial Officer.docx", "docx_headings",
    "en", date(2023, 9, 4), "SERVICE AGREEMENT",
    f"This Agreement is dated 4 September 2023 and made between {TARGET} (the Company) and "
    "Rachel Ostrowski (the Executive).",
    (
        ("Appointment", (
            "The Company appoints the Executive as Chief Financial Officer with effect from "
            "4 September 2023, at a base salary of GBP 165,000 a year.",
        )),
        ("Term and Notice", (
            "The appointment shall continue until terminated by either party giving the other "
            "not less than six months' written notice.",
        )),
        ("Change of Control", (
            "If, within 12 months after a Change of Control, the Company terminates the "
            "Executive's employment other than for cause, the Company shall pay the Executive a "
            "sum equal to 12 months' base salary.",
        )),
        ("Governing Law", (
            "This Agreement is governed by the law of England and Wales.",
        )),
    ),
)

PRODUCTION_HEAD = Contract(
    "C12", F_EMPLOYMENT, "Employment Contract - Head of Production.pdf", "numbered_pdf", "en",
    date(2022, 1, 10), "CONTRACT OF EMPLOYMENT",
    f"This Contract is dated 10 January 2022 and made between {TARGET} (the Employer) and Tomasz "
    "Wierzbicki (the Employee).",
    (
        ("1. Position", (
            "1.1 The Employee is employed as Head of Production at the Employer's site in "
            "Livingston, West Lothian, from 10 January 2022 on a permanent basis.",
        )),
        ("2. Notice", (
            "2.1 After the probationary period, either party may terminate the employment by "
            "giving the other three months' written notice.",
        )),
        ("3. Law", (
            "3.1 This Contract is governed by the law of Scotland.",
        )),
    ),
)

THAMESIDE = Contract(
    "C13", F_FINANCING, "Facility Agreement - Thameside Bank plc.docx", "docx_headings", "en",
    date(2023, 5, 22), "GBP 15,000,000 TERM FACILITY AGREEMENT",
    f"This Agreement is dated 22 May 2023 and made between {TARGET} (the Borrower) and "
    "Thameside Bank plc (the Lender).",
    (
        ("The Facility", (
            "The Lender makes available to the Borrower a sterling term loan facility in an "
            "aggregate amount of GBP 15,000,000.",
        )),
        ("Repayment", (
            "The Borrower shall repay the Loan in full on the Final Repayment Date, being the "
            "date falling five years after the date of this Agreement.",
        )),
        ("Voluntary Prepayment", (
            "The Borrower may, if it gives the Lender not less than five Business Days' prior "
            "notice, prepay the whole or any part of the Loan and cancel the Facility.",
        )),
        ("Change of Control", (
            "If any person or group of persons acting in concert gains control of the Borrower, "
            "the Lender may cancel the Facility and declare the Loan, together with accrued "
            "interest, immediately due and payable.",
        )),
        ("Assignments and Transfers", (
            "The Borrower may not assign any of its rights or transfer any of its obligations "
            "under this Agreement. The Lender may assign any of its rights to another bank or "
            "financial institution.",
        )),
        ("Governing Law", (
            "This Agreement and any non-contractual obligations arising out of it are governed "
            "by English law.",
        )),
    ),
)

SHAREHOLDER_LOAN = Contract(
    "C14", F_FINANCING, "Shareholder Loan Agreement - Larkspur Holdings Limited.pdf",
    "numbered_pdf", "en", date(2024, 12, 1), "SHAREHOLDER LOAN AGREEMENT",
    f"This Agreement is dated 1 December 2024 and made between Larkspur Holdings Limited (the "
    f"Lender) and {TARGET} (the Borrower).",
    (
        ("1. Loan", (
            "1.1 The Lender lends the Borrower GBP 4,000,000, bearing interest at 8% a year, "
            "which shall accrue and be paid on repayment.",
        )),
        ("2. Repayment and Prepayment", (
            "2.1 The Loan shall be repaid in full on 30 November 2029.",
            "2.2 The Borrower may prepay the Loan in whole or in part at any time without "
            "premium or penalty.",
            "2.3 The Loan shall become immediately repayable upon a Change of Control of the "
            "Borrower.",
        )),
        ("3. Subordination", (
            "3.1 The Loan is subordinated to the Borrower's obligations to Thameside Bank plc.",
        )),
        ("4. Transfers", (
            "4.1 The Lender may assign or transfer its rights under this Agreement. The Borrower "
            "may not assign or transfer any of its rights or obligations.",
        )),
        ("5. Law", (
            "5.1 This Agreement is governed by the law of England and Wales.",
        )),
    ),
)

CONTRACTS: tuple[Contract, ...] = (
    MARLOW, MARLOW_AMENDMENT, OAKHURST, NORDVIK, BRIGHTWELL, VOSSBERG, COBALT, GARNIER,
    KESTREL, ORWELL, CFO, PRODUCTION_HEAD, THAMESIDE, SHAREHOLDER_LOAN,
)
