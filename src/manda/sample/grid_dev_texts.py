"""The review grid's development contracts (issue 28), as data: the set the grid is built on.

Twelve contracts of one target, Fernhill Components Ltd (a Sheffield maker of pump parts), in the
layouts a data room mixes: numbered clauses in a PDF, headings in Word (no clause numbers), a
scanned lease with no text layer, a German Rahmenliefervertrag (§ paragraphs), a French contrat de
distribution, and a deed of variation that replaces terms of an earlier agreement. Their wording
varies on purpose: a change of control said as "comes under the control of" or "gains control",
a termination for convenience said as "end this agreement at any time, without giving a reason",
exclusivity without the word "exclusive", amounts that are no liability cap beside ones that are.
Their ground truth is `evals/grid/dev.yaml` (the held-out set's schema), written with these texts
before any grid code existed; `manda.sample.grid_dev` writes them. The held-out set is another
company's (`grid_contract_texts`), never read while the grid is built.
"""

from __future__ import annotations

from datetime import date

from manda.sample.grid_contract_texts import Contract

TARGET = "Fernhill Components Ltd"

F_CUSTOMERS = "Customer contracts"
F_SUPPLIERS = "Supplier contracts"
F_LEASES = "Property"
F_PEOPLE = "People"
F_FINANCE = "Banking"

HALLAM = Contract(
    id="D01",
    folder=F_CUSTOMERS,
    name="Supply Agreement - Hallam Water Services Ltd.pdf",
    layout="numbered_pdf",
    language="en",
    issued=date(2022, 3, 14),
    title="SUPPLY AGREEMENT",
    preamble=(
        "THIS AGREEMENT is made on 14 March 2022 BETWEEN (1) Fernhill Components Ltd, a company "
        "incorporated in England and Wales with company number 04417789 (the Supplier); and (2) "
        "Hallam Water Services Ltd, a company incorporated in England and Wales with company "
        "number 02366104 (the Buyer)."
    ),
    sections=(
        ("1. Definitions and interpretation", (
            "1.1 In this Agreement, Contract Year means each period of twelve months starting "
            "on the date of this Agreement or an anniversary of it.",
            "1.2 Products means the pump impellers, seals and housings described in Schedule 1.",
        )),
        ("2. Commencement and duration", (
            "2.1 This Agreement takes effect on the date above and shall remain in force for a "
            "period of five years.",
            "2.2 On expiry of the initial period, this Agreement shall continue for further "
            "periods of two years each unless terminated by either party on not less than six "
            "months' written notice expiring at the end of the then current period.",
        )),
        ("3. Prices", (
            "3.1 The prices for the Products are set out in Schedule 2 and are fixed for the "
            "first Contract Year.",
            "3.2 Thereafter the Supplier may increase prices once a year by no more than the "
            "annual change in the consumer prices index.",
        )),
        ("4. Orders and forecasts", (
            "4.1 The Buyer shall provide a rolling twelve-month forecast each quarter. Forecasts "
            "are not binding on the Buyer.",
        )),
        ("9. Liability", (
            "9.1 Nothing in this Agreement limits liability for death or personal injury caused "
            "by negligence or for fraud.",
            "9.2 Subject to clause 9.1, the Supplier's total liability in each Contract Year "
            "shall be limited to 150% of the Charges paid by the Buyer in that Contract Year.",
        )),
        ("12. Termination", (
            "12.1 Either party may terminate this Agreement immediately by written notice if the "
            "other party commits a material breach which is not remedied within 30 days.",
            "12.2 The Buyer may terminate this Agreement by written notice with immediate effect "
            "if the Supplier comes under the control of a competitor of the Buyer.",
        )),
        ("15. Assignment and subcontracting", (
            "15.1 The Supplier shall not assign, novate or subcontract any of its obligations "
            "without the prior written consent of the Buyer.",
            "15.2 The Buyer may assign this Agreement to any member of its group on written "
            "notice to the Supplier.",
        )),
        ("18. Governing law", (
            "18.1 This Agreement and any dispute arising out of it shall be governed by English "
            "law.",
            "18.2 The courts of England shall have exclusive jurisdiction.",
        )),
    ),
    breaks=("9. Liability",),
)

CORDOVA = Contract(
    id="D02",
    folder=F_CUSTOMERS,
    name="Master Purchase Agreement - Cordova Irrigation Inc.docx",
    layout="docx_headings",
    language="en",
    issued=date(2023, 6, 1),
    title="Master Purchase Agreement",
    preamble=(
        "This Master Purchase Agreement (the Agreement) is entered into as of June 1, 2023 by "
        "and between Cordova Irrigation Inc., a Delaware corporation (Cordova), and Fernhill "
        "Components Ltd (Seller)."
    ),
    sections=(
        ("Term", (
            "The Agreement begins on the Effective Date and ends on May 31, 2026, unless "
            "terminated earlier as provided below.",
        )),
        ("Sales to others", (
            "Seller shall not sell the Products to any other irrigation equipment manufacturer "
            "in the United States or Canada during the Term.",
        )),
        ("Pricing", (
            "Prices are stated in Exhibit A in US dollars and include delivery to Cordova's "
            "warehouse in Fresno, California.",
        )),
        ("Most Favored Customer", (
            "If Seller offers any other customer lower prices for similar quantities of the "
            "Products, Seller shall offer the same lower prices to Cordova.",
        )),
        ("Termination", (
            "Cordova may terminate this Agreement for convenience upon ninety (90) days' prior "
            "written notice to Seller.",
            "Either party may terminate this Agreement for material breach not cured within "
            "thirty (30) days after written notice.",
        )),
        ("Limitation of Liability", (
            "EXCEPT FOR INDEMNITY OBLIGATIONS, NEITHER PARTY'S AGGREGATE LIABILITY UNDER THIS "
            "AGREEMENT SHALL EXCEED USD 5,000,000.",
        )),
        ("Assignment", (
            "Neither party may assign this Agreement without the other party's written consent, "
            "except to a successor to all or substantially all of its business.",
        )),
        ("Change in Control", (
            "A change in control of Seller shall not by itself give Cordova a right to terminate "
            "this Agreement.",
        )),
        ("Governing Law", (
            "This Agreement is governed by the laws of the State of New York, without regard to "
            "its conflict of laws rules.",
        )),
    ),
)

PELLWORTH = Contract(
    id="D03",
    folder=F_CUSTOMERS,
    name="Distribution Agreement - Pellworth Industrial BV.pdf",
    layout="numbered_pdf",
    language="en",
    issued=date(2021, 9, 2),
    title="DISTRIBUTION AGREEMENT",
    preamble=(
        "This Distribution Agreement is dated 2 September 2021 and made between Fernhill "
        "Components Ltd (Fernhill) and Pellworth Industrial B.V., registered in the Netherlands "
        "under number 34219876 (the Distributor)."
    ),
    sections=(
        ("1 Appointment", (
            "1.1 Fernhill appoints the Distributor as its exclusive distributor of the Products "
            "in the Territory, and shall not appoint any other distributor in the Territory "
            "during the Term.",
            "1.2 The Territory is the Netherlands, Belgium and Luxembourg.",
        )),
        ("2 Term", (
            "2.1 This Agreement starts on 1 October 2021 and runs for an initial term of three "
            "years.",
            "2.2 The Distributor may renew this Agreement for one further term of three years by "
            "giving Fernhill written notice at least 120 days before the end of the initial "
            "term.",
        )),
        ("5 Minimum purchases", (
            "5.1 The Distributor shall purchase Products worth at least EUR 750,000 in each "
            "Contract Year.",
        )),
        ("8 Termination", (
            "8.1 Fernhill may terminate this Agreement on 60 days' notice if the Distributor "
            "fails to meet the minimum purchase commitment in any Contract Year.",
            "8.2 If a person who does not control the Distributor at the date of this Agreement "
            "acquires control of it, Fernhill may terminate this Agreement by giving not less "
            "than 30 days' notice.",
        )),
        ("9 Liability", (
            "9.1 Neither party shall be liable to the other for any indirect or consequential "
            "loss.",
        )),
        ("11 Assignment", (
            "11.1 The Distributor may not assign or transfer any of its rights under this "
            "Agreement.",
        )),
        ("14 Law and jurisdiction", (
            "14.1 This Agreement is governed by the laws of the Netherlands. The courts of "
            "Amsterdam have exclusive jurisdiction.",
        )),
    ),
    breaks=("8 Termination",),
)

HALLAM_VARIATION = Contract(
    id="D04",
    folder=F_CUSTOMERS,
    name="Deed of Variation - Hallam Water Supply Agreement.pdf",
    layout="numbered_pdf",
    language="en",
    issued=date(2024, 11, 30),
    title="DEED OF VARIATION",
    preamble=(
        "This Deed of Variation is dated 30 November 2024 and made between Fernhill Components "
        "Ltd (the Supplier) and Hallam Water Services Ltd (the Buyer). It varies the supply "
        "agreement between the parties dated 14 March 2022 (the Agreement)."
    ),
    sections=(
        ("1 Variations", (
            "1.1 Clause 2.1 of the Agreement is deleted and replaced with: This Agreement takes "
            "effect on 14 March 2022 and shall remain in force until 13 March 2029.",
            "1.2 A new clause 12.3 is inserted in the Agreement: The Buyer may terminate this "
            "Agreement for convenience by giving the Supplier at least 9 months' written "
            "notice.",
        )),
        ("2 General", (
            "2.1 Save as varied by this Deed, the Agreement continues in full force and effect.",
            "2.2 This Deed is governed by English law.",
        )),
    ),
)

KESSLER = Contract(
    id="D05",
    folder=F_SUPPLIERS,
    name="Rahmenliefervertrag - Kessler Gusstechnik GmbH.pdf",
    layout="numbered_pdf",
    language="de",
    issued=date(2023, 1, 15),
    title="RAHMENLIEFERVERTRAG",
    preamble=(
        "zwischen der Kessler Gusstechnik GmbH, Industriestraße 12, 73431 Aalen, eingetragen im "
        "Handelsregister des Amtsgerichts Ulm unter HRB 724118 (nachfolgend Lieferant), und der "
        "Fernhill Components Ltd, Sheffield, Vereinigtes Königreich (nachfolgend Besteller). "
        "Dieser Vertrag wird am 15. Januar 2023 geschlossen."
    ),
    sections=(
        ("§ 1 Vertragsgegenstand", (
            "(1) Der Lieferant liefert dem Besteller Pumpengehäuse aus Grauguss nach den "
            "Spezifikationen in Anlage 1.",
        )),
        ("§ 2 Preise", (
            "(1) Die Preise ergeben sich aus Anlage 2 und verstehen sich frei Werk Aalen.",
            "(2) Meistbegünstigung: Gewährt der Lieferant einem anderen Kunden für vergleichbare "
            "Mengen günstigere Preise, gelten diese Preise auch für den Besteller.",
        )),
        ("§ 9 Haftung", (
            "(1) Die Haftung des Lieferanten ist je Schadensfall auf EUR 500.000 begrenzt.",
            "(2) Die Haftung für Vorsatz und grobe Fahrlässigkeit bleibt unberührt.",
        )),
        ("§ 12 Laufzeit und Kündigung", (
            "(1) Der Vertrag tritt am 1. Februar 2023 in Kraft und hat eine feste Laufzeit von "
            "24 Monaten.",
            "(2) Er verlängert sich jeweils um weitere 12 Monate, wenn er nicht von einer Partei "
            "mit einer Frist von drei Monaten zum Ende der Laufzeit gekündigt wird.",
            "(3) Im Falle eines Kontrollwechsels beim Lieferanten ist der Besteller berechtigt, "
            "den Vertrag mit einer Frist von einem Monat zu kündigen.",
        )),
        ("§ 14 Abtretung", (
            "(1) Der Lieferant darf Rechte und Pflichten aus diesem Vertrag nur mit vorheriger "
            "schriftlicher Zustimmung des Bestellers auf Dritte übertragen.",
        )),
        ("§ 16 Schlussbestimmungen", (
            "(1) Es gilt das Recht der Bundesrepublik Deutschland unter Ausschluss des "
            "UN-Kaufrechts.",
            "(2) Gerichtsstand ist Stuttgart.",
        )),
    ),
    breaks=("§ 12 Laufzeit und Kündigung",),
)

TALLIS = Contract(
    id="D06",
    folder=F_SUPPLIERS,
    name="Software Licence and Support Agreement - Tallis Data Systems Ltd.docx",
    layout="docx_headings",
    language="en",
    issued=date(2022, 8, 9),
    title="Software Licence and Support Agreement",
    preamble=(
        "Dated 9 August 2022. Parties: Tallis Data Systems Limited, incorporated in Ireland with "
        "company number 581204 (Tallis); and Fernhill Components Ltd (the Customer)."
    ),
    sections=(
        ("Licence", (
            "Tallis grants the Customer a non-exclusive licence to use the PlantTrack software "
            "at its sites in the United Kingdom.",
        )),
        ("Duration", (
            "This agreement starts on the date it is signed and continues until either party "
            "ends it in accordance with the section headed Ending this agreement.",
        )),
        ("Fees", (
            "The annual licence fee is EUR 84,000, payable yearly in advance.",
        )),
        ("Ending this agreement", (
            "Either party may end this agreement at any time, without giving a reason, by "
            "giving the other not less than six months' notice in writing.",
            "Tallis may end this agreement immediately if the Customer fails to pay any fee "
            "within 60 days of its due date.",
        )),
        ("Liability", (
            "Tallis's total liability to the Customer in any year is limited to the fees paid "
            "by the Customer in that year.",
        )),
        ("Transfer of rights", (
            "The Customer may transfer this agreement to a company in its group without Tallis's "
            "consent. Any other transfer needs the written consent of the other party.",
        )),
        ("Law", (
            "Irish law governs this agreement, and the Irish courts have exclusive jurisdiction.",
        )),
    ),
)

BRIGHTSIDE = Contract(
    id="D07",
    folder=F_LEASES,
    name="Lease - Unit 7 Don Valley Trade Park (scan).pdf",
    layout="scanned_pdf",
    language="en",
    issued=date(2019, 6, 24),
    title="LEASE",
    preamble=(
        "This Lease is dated 24 June 2019 and is made between Brightside Estates Limited (the "
        "Landlord) and Fernhill Components Ltd (the Tenant) in respect of Unit 7, Don Valley "
        "Trade Park, Sheffield S9 3QD (the Property)."
    ),
    sections=(
        ("1. Term", (
            "1.1 The Landlord lets the Property to the Tenant for a term of 10 years from and "
            "including 24 June 2019 (the Term).",
        )),
        ("2. Rent", (
            "2.1 The initial annual rent is GBP 86,500, payable quarterly in advance on the "
            "usual quarter days.",
            "2.2 The rent is reviewed upwards only on the fifth anniversary of the start of the "
            "Term.",
        )),
        ("5. Tenant's break option", (
            "5.1 The Tenant may end this Lease on 24 June 2024 by giving the Landlord at least "
            "six months' prior written notice, provided the rent is paid up to date.",
        )),
        ("7. Alienation", (
            "7.1 The Tenant shall not assign the whole of this Lease without the prior written "
            "consent of the Landlord, such consent not to be unreasonably withheld.",
            "7.2 The Tenant shall not assign or underlet part only of the Property.",
        )),
        ("9. Security of tenure", (
            "9.1 The parties agree that sections 24 to 28 of the Landlord and Tenant Act 1954 "
            "are excluded in relation to the tenancy created by this Lease.",
        )),
        ("12. Governing law", (
            "12.1 This Lease is governed by the law of England and Wales.",
        )),
    ),
)

ODUYA = Contract(
    id="D08",
    folder=F_PEOPLE,
    name="Service Agreement - Managing Director.docx",
    layout="docx_headings",
    language="en",
    issued=date(2023, 1, 3),
    title="Service Agreement",
    preamble=(
        "This Service Agreement is dated 3 January 2023 and made between Fernhill Components "
        "Ltd (the Company) and Ruth Anne Oduya (the Executive)."
    ),
    sections=(
        ("Appointment", (
            "The Company appoints the Executive as Managing Director, reporting to the board.",
        )),
        ("Period of employment", (
            "The Executive's employment began on 3 January 2023 and continues until terminated "
            "by either party giving notice under the section headed Notice.",
        )),
        ("Salary and benefits", (
            "The Company shall pay the Executive a basic salary of GBP 185,000 a year, reviewed "
            "annually.",
        )),
        ("Notice", (
            "Either party may terminate the Executive's employment by giving the other not less "
            "than twelve months' written notice.",
        )),
        ("Restrictions after employment", (
            "For twelve months after the employment ends, the Executive shall not be engaged in "
            "any business which competes with the Company in the United Kingdom.",
        )),
        ("Change of control", (
            "If the Company is acquired by a third party and the Executive's employment is "
            "terminated within twelve months afterwards, the Company shall pay the Executive a "
            "sum equal to one year's basic salary.",
        )),
        ("Governing law", (
            "This agreement is governed by the law of England and Wales.",
        )),
    ),
)

WIECZOREK = Contract(
    id="D09",
    folder=F_PEOPLE,
    name="Employment Contract - Quality Manager.pdf",
    layout="numbered_pdf",
    language="en",
    issued=date(2024, 5, 1),
    title="STATEMENT OF MAIN TERMS OF EMPLOYMENT",
    preamble=(
        "Statement of main terms of employment, dated 1 May 2024, between Fernhill Components "
        "Ltd (the Employer) and Tomasz Wieczorek (the Employee)."
    ),
    sections=(
        ("1. Start date and probation", (
            "1.1 Your employment starts on 13 May 2024. The first six months are a "
            "probationary period.",
            "1.2 This is a permanent position.",
        )),
        ("2. Job title", (
            "2.1 You are employed as Quality Manager at the Sheffield site.",
        )),
        ("3. Pay", (
            "3.1 Your salary is GBP 58,000 per year, paid monthly in arrears.",
        )),
        ("6. Notice", (
            "6.1 After the probationary period, either party may end your employment by giving "
            "the other three months' written notice.",
        )),
        ("7. Governing law", (
            "7.1 This contract is governed by Scots law.",
        )),
    ),
)

NORTHGATE = Contract(
    id="D10",
    folder=F_FINANCE,
    name="Revolving Facility Agreement - Northgate Bank plc.docx",
    layout="docx_headings",
    language="en",
    issued=date(2024, 2, 28),
    title="Revolving Credit Facility Agreement",
    preamble=(
        "This agreement is dated 28 February 2024 between Fernhill Components Ltd as borrower "
        "(the Borrower) and Northgate Bank plc as lender (the Lender)."
    ),
    sections=(
        ("The Facility", (
            "The Lender makes available to the Borrower a sterling revolving credit facility in "
            "an aggregate amount equal to GBP 4,000,000.",
        )),
        ("Repayment", (
            "Each Loan shall be repaid on the last day of its Interest Period, and all amounts "
            "outstanding shall be repaid in full on the date falling 48 months after the date of "
            "this Agreement.",
        )),
        ("Interest", (
            "The rate of interest on each Loan is the aggregate of the margin of 2.75 per cent. "
            "per annum and SONIA.",
        )),
        ("Financial covenants", (
            "The Borrower shall ensure that Leverage does not exceed 3.00:1 on each Test Date.",
        )),
        ("Mandatory prepayment", (
            "If any person or group of persons acting in concert gains control of the Borrower, "
            "the Lender may by notice cancel the Facility and declare all outstanding Loans "
            "immediately due and payable.",
        )),
        ("Changes to the parties", (
            "The Borrower may not assign any of its rights or transfer any of its rights or "
            "obligations under this Agreement. The Lender may assign any of its rights to "
            "another bank or financial institution.",
        )),
        ("Governing law", (
            "This Agreement and any non-contractual obligations arising out of it are governed "
            "by English law.",
        )),
    ),
)

AQUITAINE = Contract(
    id="D11",
    folder=F_CUSTOMERS,
    name="Contrat de distribution - Aquitaine Pompes SARL.docx",
    layout="docx_headings",
    language="fr",
    issued=date(2023, 4, 5),
    title="Contrat de distribution",
    preamble=(
        "Le présent contrat est conclu le 5 avril 2023 entre Fernhill Components Ltd (le "
        "Fournisseur) et Aquitaine Pompes SARL, société immatriculée au RCS de Bordeaux sous le "
        "numéro 512 884 309 (le Distributeur)."
    ),
    sections=(
        ("Article 1 – Objet", (
            "Le Fournisseur confie au Distributeur la revente de ses pompes et pièces détachées.",
        )),
        ("Article 2 – Exclusivité", (
            "Le Fournisseur concède au Distributeur l'exclusivité de la distribution des "
            "Produits en France métropolitaine.",
        )),
        ("Article 3 – Durée", (
            "Le contrat est conclu pour une durée de quatre ans à compter de sa signature.",
            "Il se renouvelle ensuite par tacite reconduction pour des périodes successives d'un "
            "an, sauf dénonciation par l'une des parties moyennant un préavis de trois mois.",
        )),
        ("Article 6 – Prix", (
            "Les prix sont ceux du tarif du Fournisseur en vigueur à la date de la commande.",
        )),
        ("Article 8 – Résiliation", (
            "Chaque partie peut résilier le contrat à tout moment, sans motif, moyennant un "
            "préavis de six mois notifié par lettre recommandée avec accusé de réception.",
            "En cas de changement de contrôle du Distributeur, le Fournisseur pourra résilier le "
            "contrat avec effet immédiat.",
        )),
        ("Article 9 – Responsabilité", (
            "La responsabilité totale du Fournisseur au titre du contrat est limitée à "
            "250 000 euros.",
        )),
        ("Article 10 – Cession", (
            "Le Distributeur ne peut céder le contrat sans l'accord préalable écrit du "
            "Fournisseur.",
        )),
        ("Article 12 – Droit applicable", (
            "Le contrat est soumis au droit français. Tout litige relève de la compétence "
            "exclusive du Tribunal de commerce de Bordeaux.",
        )),
    ),
)

MARSDEN = Contract(
    id="D12",
    folder=F_SUPPLIERS,
    name="Exclusive Supply Agreement - Marsden Polymers Ltd.pdf",
    layout="numbered_pdf",
    language="en",
    issued=date(2020, 7, 20),
    title="EXCLUSIVE SUPPLY AGREEMENT",
    preamble=(
        "This Exclusive Supply Agreement is made on 20 July 2020 between Marsden Polymers Ltd "
        "(company number 06678120) of Huddersfield (Marsden) and Fernhill Components Ltd "
        "(Fernhill)."
    ),
    sections=(
        ("1 Exclusive purchasing", (
            "1.1 Fernhill shall purchase all of its requirements for elastomer seals "
            "exclusively from Marsden during the term of this agreement.",
        )),
        ("2 Duration", (
            "2.1 This agreement commences on 1 August 2020 and expires on 31 July 2025. It shall "
            "not be renewed or extended except by a written agreement signed by both parties.",
        )),
        ("4 Price", (
            "4.1 Marsden shall not charge Fernhill more than the lowest price it charges any "
            "other customer for the same seals in similar volumes.",
        )),
        ("7 Liability", (
            "7.1 Marsden's liability for all claims in aggregate shall not exceed the total "
            "price paid by Fernhill in the six months before the claim arose.",
        )),
        ("8 Termination", (
            "8.1 Fernhill may terminate this agreement at any time on three months' written "
            "notice to Marsden.",
        )),
        ("9 Change of control", (
            "9.1 A change of control of either party shall not affect this agreement.",
        )),
        ("10 Assignment", (
            "10.1 Either party may assign this agreement with the other party's prior written "
            "consent.",
        )),
        ("11 Law", (
            "11.1 English law governs this agreement.",
        )),
    ),
    breaks=("7 Liability",),
)

DEV_CONTRACTS: tuple[Contract, ...] = (
    HALLAM, CORDOVA, PELLWORTH, HALLAM_VARIATION, KESSLER, TALLIS, BRIGHTSIDE, ODUYA, WIECZOREK,
    NORTHGATE, AQUITAINE, MARSDEN,
)
