"""The review grid's development contracts (issue 28), as data: the set the grid is built on.

Twenty-six contracts of one target, Fernhill Components Ltd (a Sheffield maker of pump parts),
in the layouts a data room mixes: numbered clauses in a PDF, headings in Word (no clause
numbers), a scanned lease with no text layer, a German Rahmenliefervertrag (§ paragraphs), a
French contrat de distribution, and a deed of variation that replaces terms of an earlier
agreement. Their wording varies on purpose: a change of control said as "comes under the
control of" or "gains control", a termination for convenience said as "end this agreement at
any time, without giving a reason", exclusivity without the word "exclusive", amounts that are
no liability cap beside ones that are.
Their ground truth is `evals/grid/dev.yaml` (the held-out set's schema), written with these texts
(D01-D12 before any grid code existed, D13-D22 and D23-D26 before the grid ran on them);
`manda.sample.grid_dev` writes them. The held-out set is another company's
(`grid_contract_texts`), never read while the grid is built.
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

# ---------------------------------------------------------------- the second batch
# Written after a mid-point measure on the held-out set said which columns read worst offline
# (not which contracts or words: its misses were never looked at), to widen the wording the grid
# is built on: capitals and defined terms in quotes, parties named without parentheses, terms as
# dates, options to extend, "twice the Charges", exclusivity and termination for convenience
# ruled out, a change of control "in the ownership or control", German and French again.

GREYWELL = Contract(
    id="D13",
    folder=F_CUSTOMERS,
    name="Framework Purchase Agreement - Greywell Retail plc.pdf",
    layout="numbered_pdf",
    language="en",
    issued=date(2024, 1, 11),
    title="FRAMEWORK PURCHASE AGREEMENT",
    preamble=(
        "THIS FRAMEWORK AGREEMENT is dated 11 January 2024. PARTIES: (1) GREYWELL RETAIL PLC, "
        "incorporated and registered in England and Wales with company number 00998877 whose "
        "registered office is at 4 Canal Street, Leeds (\"Greywell\"); and (2) FERNHILL "
        "COMPONENTS LTD, incorporated and registered in England and Wales with company number "
        "04417789 (\"Fernhill\")."
    ),
    sections=(
        ("1. Duration", (
            "1.1 This Framework Agreement shall come into force on the date of this Agreement "
            "and, unless terminated earlier, shall continue for an Initial Term of three (3) "
            "years.",
            "1.2 Thereafter this Framework Agreement shall be renewed automatically for "
            "successive renewal terms of one (1) year, unless either party notifies the other "
            "in writing not later than three (3) months before the end of the Initial Term or "
            "the relevant renewal term that it does not wish to renew.",
        )),
        ("2. Exclusivity", (
            "2.1 During the Term, Greywell shall purchase all of its requirements for pump "
            "seals solely from Fernhill, and Fernhill shall be Greywell's sole and exclusive "
            "supplier of such seals.",
        )),
        ("3. Pricing", (
            "3.1 Fernhill warrants that the prices charged under this Framework Agreement are, "
            "and will remain, at least as favourable as the prices Fernhill charges to any "
            "other customer purchasing similar quantities.",
        )),
        ("9. Limitation of liability", (
            "9.3 The total liability of each party under or in connection with this Framework "
            "Agreement shall in no circumstances exceed the greater of GBP 750,000 and the "
            "total Charges paid in the Contract Year in which the claim arises.",
        )),
        ("10. Termination", (
            "10.1 Greywell may terminate this Framework Agreement without cause at any time on "
            "giving not less than four (4) months' notice in writing to Fernhill.",
            "10.2 Either party may terminate this Framework Agreement with immediate effect by "
            "notice if the other party becomes insolvent.",
        )),
        ("11. Change of control", (
            "11.1 Fernhill shall notify Greywell promptly of any change in the ownership or "
            "control of Fernhill. Greywell may, within three (3) months of such notification, "
            "terminate this Framework Agreement on thirty (30) days' notice.",
        )),
        ("14. Assignment", (
            "14.1 Neither party shall assign, transfer, charge or deal in any other manner with "
            "this Framework Agreement or any of its rights under it without the prior written "
            "consent of the other party.",
        )),
        ("20. Governing law and jurisdiction", (
            "20.1 This Framework Agreement and any dispute or claim arising out of or in "
            "connection with it shall be governed by and construed in accordance with the law "
            "of England and Wales.",
        )),
    ),
    breaks=("9. Limitation of liability",),
)

HOLT_MERCER = Contract(
    id="D14",
    folder=F_SUPPLIERS,
    name="Packaging Supply Terms - Holt and Mercer Packaging Ltd.docx",
    layout="docx_headings",
    language="en",
    issued=date(2022, 3, 7),
    title="Packaging Supply Terms",
    preamble=(
        "Date: 7 March 2022. This agreement is between Holt and Mercer Packaging Ltd, a company "
        "registered in England under number 03412200 (\"the Supplier\"), and Fernhill "
        "Components Ltd (\"the Buyer\")."
    ),
    sections=(
        ("Commencement and term", (
            "This agreement runs from 1 April 2022 until 31 March 2025. After that date it will "
            "end unless the parties agree in writing to extend it.",
        )),
        ("Prices", (
            "The Supplier shall not offer any other customer more favourable prices or terms "
            "for comparable volumes without offering the same prices or terms to the Buyer.",
        )),
        ("Exclusivity", (
            "Nothing in this agreement obliges the Buyer to purchase packaging exclusively from "
            "the Supplier.",
        )),
        ("Ending the agreement", (
            "The Buyer may end this agreement for convenience on 60 days' written notice.",
        )),
        ("Liability", (
            "The Supplier's liability is capped at 100% of the sums paid by the Buyer under this "
            "agreement in the twelve months before the claim.",
        )),
        ("Transfer", (
            "The Supplier may not transfer or subcontract this agreement without the Buyer's "
            "written consent.",
        )),
        ("Law", (
            "This agreement is governed by the laws of England and Wales.",
        )),
    ),
)

TINSLEY = Contract(
    id="D15",
    folder=F_LEASES,
    name="Lease - Warehouse 3 Tinsley Park.pdf",
    layout="numbered_pdf",
    language="en",
    issued=date(2020, 9, 1),
    title="LEASE",
    preamble=(
        "LEASE dated 1 September 2020 between TINSLEY LOGISTICS PROPERTIES LIMITED (company "
        "number 07766554) (the \"Landlord\") and FERNHILL COMPONENTS LTD (company number "
        "04417789) (the \"Tenant\")."
    ),
    sections=(
        ("1. Term", (
            "1.1 The Contractual Term is a term of fifteen years beginning on and including 29 "
            "September 2020 and ending on and including 28 September 2035.",
        )),
        ("4. Rent", (
            "4.1 The Tenant shall pay the Annual Rent of GBP 142,000 per annum by equal "
            "quarterly instalments in advance.",
        )),
        ("6. Break clause", (
            "6.1 The Tenant may terminate this Lease on the fifth anniversary of the Term "
            "Commencement Date by giving the Landlord not less than twelve months' written "
            "notice.",
        )),
        ("8. Alienation", (
            "8.1 The Tenant shall not assign, underlet, charge or part with possession of the "
            "whole or any part of the Property except as permitted by this clause.",
            "8.2 The Tenant may assign the whole of the Property with the consent of the "
            "Landlord, which is not to be unreasonably withheld.",
        )),
        ("12. Security of tenure", (
            "12.1 The parties confirm that they have agreed to exclude the security of tenure "
            "provisions of the Landlord and Tenant Act 1954 in relation to this Lease.",
        )),
        ("15. Law", (
            "15.1 This Lease is governed by English law.",
        )),
    ),
)

RAMAN = Contract(
    id="D16",
    folder=F_PEOPLE,
    name="Contract of Employment - Head of Engineering.pdf",
    layout="numbered_pdf",
    language="en",
    issued=date(2022, 10, 17),
    title="CONTRACT OF EMPLOYMENT",
    preamble=(
        "This contract of employment is made on 17 October 2022 between Fernhill Components Ltd "
        "(\"the Company\") and Priya Raman (\"you\")."
    ),
    sections=(
        ("1. Commencement", (
            "1.1 Your employment with the Company will begin on 1 November 2022 and will "
            "continue until terminated in accordance with clause 12.",
        )),
        ("4. Salary", (
            "4.1 Your basic salary is GBP 96,000 per annum, payable monthly.",
        )),
        ("12. Termination", (
            "12.1 Either you or the Company may terminate your employment by giving not less "
            "than three months' notice in writing.",
        )),
        ("13. Restrictions", (
            "13.1 For six months after your employment ends you will not work for a competitor "
            "of the Company in the United Kingdom.",
        )),
        ("17. Governing law", (
            "17.1 This contract is governed by the law of England and Wales.",
        )),
    ),
)

ASHCOMBE = Contract(
    id="D17",
    folder=F_FINANCE,
    name="Term Loan Agreement - Ashcombe Capital LLP.pdf",
    layout="numbered_pdf",
    language="en",
    issued=date(2023, 6, 5),
    title="TERM LOAN AGREEMENT",
    preamble=(
        "THIS AGREEMENT is dated 5 June 2023 and made between: (1) FERNHILL COMPONENTS LTD as "
        "borrower (the Borrower); and (2) ASHCOMBE CAPITAL LLP as lender (the Lender)."
    ),
    sections=(
        ("1. The Loan", (
            "1.1 The Lender grants to the Borrower a term loan facility of GBP 2,500,000.",
        )),
        ("4. Repayment", (
            "4.1 The Borrower shall repay the Loan in full on the Final Repayment Date, being 5 "
            "June 2028.",
        )),
        ("5. Voluntary prepayment", (
            "5.1 The Borrower may prepay the whole or any part of the Loan on any interest "
            "payment date on giving not less than ten business days' notice to the Lender.",
        )),
        ("8. Change of control", (
            "8.1 If any single person, or group of persons acting in concert, acquires control "
            "of the Borrower, the Loan shall become immediately due and payable.",
        )),
        ("12. Transfers", (
            "12.1 The Lender may assign or transfer any of its rights and obligations under this "
            "Agreement to any person without the consent of the Borrower.",
            "12.2 The Borrower may not assign or transfer any of its rights or obligations under "
            "this Agreement.",
        )),
        ("20. Governing law", (
            "20.1 This Agreement shall be governed by the laws of England.",
        )),
    ),
)

OLDCASTLE = Contract(
    id="D18",
    folder=F_CUSTOMERS,
    name="Services Agreement - Oldcastle Water Authority.docx",
    layout="docx_headings",
    language="en",
    issued=date(2021, 2, 23),
    title="Services Agreement",
    preamble=(
        "This Services Agreement is entered into on 23 February 2021 by Oldcastle Water "
        "Authority, a statutory water undertaker (the Authority), and Fernhill Components Ltd "
        "(the Contractor)."
    ),
    sections=(
        ("Term", (
            "The Services shall be provided for a period of four years from 1 April 2021.",
        )),
        ("Extension", (
            "The Authority may extend this Agreement once by up to two years by notice given no "
            "later than six months before the end of the Term.",
        )),
        ("Termination", (
            "The Authority may terminate this Agreement at any time for any reason by giving the "
            "Contractor 180 days' written notice.",
        )),
        ("Change of control", (
            "The Contractor shall not undergo a change of control without the Authority's prior "
            "written approval, and any breach of this clause entitles the Authority to "
            "terminate this Agreement immediately.",
        )),
        ("Exclusivity", (
            "This Agreement does not confer on the Contractor any exclusive right to supply the "
            "Services to the Authority.",
        )),
        ("Liability", (
            "The Contractor's total liability under this Agreement shall not exceed an amount "
            "equal to twice the Charges paid in the preceding Contract Year.",
        )),
        ("Assignment", (
            "The Contractor shall not assign or sub-contract any part of this Agreement without "
            "the Authority's prior written consent.",
        )),
        ("Governing law", (
            "This Agreement shall be governed by the laws of Scotland and the parties submit to "
            "the exclusive jurisdiction of the Scottish courts.",
        )),
    ),
)

RHEINHAFEN = Contract(
    id="D19",
    folder=F_LEASES,
    name="Gewerbemietvertrag - Lagerhalle Duisburg.docx",
    layout="docx_headings",
    language="de",
    issued=date(2021, 5, 12),
    title="Gewerbemietvertrag",
    preamble=(
        "Zwischen der Rheinhafen Immobilien GmbH, Duisburg (Vermieter), und der Fernhill "
        "Components Ltd, Sheffield (Mieter), wird am 12. Mai 2021 folgender Vertrag geschlossen."
    ),
    sections=(
        ("§ 3 Mietzeit", (
            "Das Mietverhältnis beginnt am 1. Juli 2021 und wird auf die Dauer von fünf Jahren "
            "fest abgeschlossen. Die ordentliche Kündigung ist während der festen Mietzeit "
            "ausgeschlossen.",
        )),
        ("§ 4 Verlängerungsoption", (
            "Der Mieter hat das Recht, das Mietverhältnis einmal um weitere fünf Jahre zu "
            "verlängern (Option). Die Option ist spätestens sechs Monate vor Ablauf der Mietzeit "
            "schriftlich auszuüben.",
        )),
        ("§ 8 Miete", (
            "Die monatliche Nettomiete beträgt EUR 18.500 zuzüglich Umsatzsteuer.",
        )),
        ("§ 12 Untervermietung und Übertragung", (
            "Eine Untervermietung oder eine Übertragung der Rechte aus diesem Vertrag auf Dritte "
            "bedarf der vorherigen schriftlichen Zustimmung des Vermieters.",
        )),
        ("§ 15 Schlussbestimmungen", (
            "Dieser Vertrag unterliegt deutschem Recht.",
        )),
    ),
)

HYDRO_RHONE = Contract(
    id="D20",
    folder=F_SUPPLIERS,
    name="Contrat de maintenance - Hydro Services Rhône SAS.pdf",
    layout="numbered_pdf",
    language="fr",
    issued=date(2022, 9, 14),
    title="CONTRAT DE MAINTENANCE",
    preamble=(
        "Entre les soussignés : Hydro Services Rhône SAS, au capital de 200 000 euros, "
        "immatriculée au RCS de Lyon sous le numéro 821 334 556, ci-après dénommée « le "
        "Prestataire », d'une part, et Fernhill Components Ltd, ci-après dénommée « le Client », "
        "d'autre part. Fait à Lyon, le 14 septembre 2022."
    ),
    sections=(
        ("Article 2 – Durée", (
            "2.1 Le présent contrat est conclu pour une période initiale de trois ans à compter "
            "du 1er octobre 2022. Il est ensuite reconduit tacitement par périodes d'un an, sauf "
            "résiliation notifiée par l'une ou l'autre des parties au moins deux mois avant "
            "l'échéance.",
        )),
        ("Article 7 – Résiliation", (
            "7.1 Le Client peut résilier le présent contrat à tout moment, moyennant le respect "
            "d'un préavis de trois mois.",
        )),
        ("Article 8 – Responsabilité", (
            "8.1 La responsabilité du Prestataire est plafonnée, toutes causes confondues, au "
            "montant des sommes versées par le Client au cours des douze derniers mois.",
        )),
        ("Article 9 – Cession", (
            "9.1 Aucune des parties ne pourra céder le présent contrat sans l'accord écrit "
            "préalable de l'autre partie.",
        )),
        ("Article 11 – Loi applicable", (
            "11.1 Le présent contrat est régi par la loi française.",
        )),
    ),
)

PENNOCK = Contract(
    id="D21",
    folder=F_CUSTOMERS,
    name="Supply Agreement - Pennock Pumps Inc.pdf",
    layout="numbered_pdf",
    language="en",
    issued=date(2024, 3, 15),
    title="SUPPLY AGREEMENT",
    preamble=(
        "This SUPPLY AGREEMENT (this \"Agreement\") is made and entered into effective as of "
        "March 15, 2024 (the \"Effective Date\") by and between PENNOCK PUMPS, INC., a Texas "
        "corporation (\"Buyer\"), and FERNHILL COMPONENTS LTD, a private limited company "
        "organized under the laws of England and Wales (\"Seller\")."
    ),
    sections=(
        ("2. TERM", (
            "2.1 The term of this Agreement shall commence on the Effective Date and continue "
            "for a period of two (2) years (the \"Initial Term\"). Thereafter, this Agreement "
            "shall automatically renew for successive one (1) year periods unless either party "
            "provides written notice of non-renewal at least sixty (60) days prior to the "
            "expiration of the then-current term.",
        )),
        ("3. NON-EXCLUSIVITY", (
            "3.1 Buyer is appointed on a non-exclusive basis, and nothing in this Agreement "
            "restricts Seller from selling the Products to any other person.",
        )),
        ("4. PRICING", (
            "4.1 Prices are as set out in Exhibit B and may be adjusted by Seller on ninety (90) "
            "days' prior written notice.",
        )),
        ("11. TERMINATION", (
            "11.1 Either party may terminate this Agreement for cause upon written notice if the "
            "other party materially breaches this Agreement and fails to cure such breach "
            "within thirty (30) days.",
            "11.2 Buyer may not terminate this Agreement for convenience.",
        )),
        ("12. CHANGE OF CONTROL", (
            "12.1 A Change of Control of either party shall not give rise to any right of "
            "termination under this Agreement.",
        )),
        ("13. LIMITATION OF LIABILITY", (
            "13.2 IN NO EVENT SHALL EITHER PARTY'S AGGREGATE LIABILITY ARISING OUT OF THIS "
            "AGREEMENT EXCEED THE TOTAL AMOUNTS PAID BY BUYER HEREUNDER DURING THE TWELVE (12) "
            "MONTHS PRECEDING THE CLAIM.",
        )),
        ("15. ASSIGNMENT", (
            "15.1 Neither party may assign this Agreement without the prior written consent of "
            "the other party, except that Seller may assign this Agreement to an Affiliate "
            "without consent.",
        )),
        ("18. GOVERNING LAW", (
            "18.1 This Agreement shall be governed by the laws of the State of Texas.",
        )),
    ),
    breaks=("11. TERMINATION",),
)

FERNHILL_HOLDING = Contract(
    id="D22",
    folder=F_FINANCE,
    name="Darlehensvertrag - Fernhill Holding GmbH.pdf",
    layout="numbered_pdf",
    language="de",
    issued=date(2023, 3, 3),
    title="DARLEHENSVERTRAG",
    preamble=(
        "zwischen der Fernhill Holding GmbH, München (Darlehensgeber) und der Fernhill "
        "Components Ltd, Sheffield (Darlehensnehmer), geschlossen am 3. März 2023."
    ),
    sections=(
        ("§ 1 Darlehen", (
            "(1) Der Darlehensgeber gewährt dem Darlehensnehmer ein Darlehen in Höhe von "
            "EUR 1.200.000.",
        )),
        ("§ 3 Laufzeit und Rückzahlung", (
            "(1) Das Darlehen ist am 31. Dezember 2027 in einer Summe zur Rückzahlung fällig.",
            "(2) Der Darlehensnehmer ist berechtigt, das Darlehen jederzeit ganz oder teilweise "
            "vorzeitig zurückzuzahlen.",
        )),
        ("§ 5 Kündigung", (
            "(1) Der Darlehensgeber kann den Vertrag mit einer Frist von drei Monaten zum "
            "Monatsende kündigen, frühestens jedoch zum 31. Dezember 2025.",
            "(2) Das Recht zur außerordentlichen Kündigung aus wichtigem Grund bleibt "
            "unberührt.",
        )),
        ("§ 6 Kontrollwechsel", (
            "(1) Ein Kontrollwechsel beim Darlehensnehmer berechtigt den Darlehensgeber nicht "
            "zur Kündigung.",
        )),
        ("§ 7 Abtretung", (
            "(1) Der Darlehensnehmer darf Ansprüche aus diesem Vertrag nicht abtreten.",
        )),
        ("§ 9 Schlussbestimmungen", (
            "(1) Es gilt deutsches Recht.",
        )),
    ),
)

CALDER_VALLEY = Contract(
    id="D23",
    folder=F_CUSTOMERS,
    name="Component Supply Agreement - Calder Valley Pumps Ltd.docx",
    layout="docx_headings",
    language="en",
    issued=date(2023, 5, 2),
    title="Component Supply Agreement",
    preamble=(
        "This Component Supply Agreement is made on 2 May 2023 between Calder Valley Pumps Ltd, "
        "a company registered in England with number 04418822 (the Customer), and Fernhill "
        "Components Ltd (the Supplier)."
    ),
    sections=(
        ("Supply", (
            "The Supplier shall make and deliver the impellers described in Schedule 1 against "
            "the Customer's call-off orders.",
            "During the Term the Supplier shall supply no other manufacturer of domestic water "
            "pumps in the United Kingdom with the impellers described in Schedule 1.",
        )),
        ("Term", (
            "This Agreement runs for three years from the date of this Agreement.",
            "The Term may be extended by a further period of twelve months if both parties so "
            "agree in writing before it ends.",
        )),
        ("Prices", (
            "The prices in Schedule 2 are fixed for the first year of the Term. The Customer is "
            "not entitled to most favoured customer pricing.",
        )),
        ("Ownership of the Supplier", (
            "The Customer shall not be entitled to terminate this Agreement by reason only of a "
            "change in the ownership or control of the Supplier.",
        )),
        ("Ending the Agreement", (
            "Neither party has any right to end this Agreement for convenience before the end of "
            "the Term.",
            "Either party may terminate this Agreement with immediate effect if the other commits "
            "a material breach of it that is not remedied within 30 days of notice.",
        )),
        ("Liability", (
            "The Supplier's total liability under this Agreement shall not exceed GBP 750,000.",
        )),
        ("Assignment", (
            "Neither party may assign this Agreement without the prior written consent of the "
            "other.",
        )),
        ("Governing law", (
            "This Agreement is governed by the law of England and Wales.",
        )),
    ),
)

ALPENQUELL = Contract(
    id="D24",
    folder=F_CUSTOMERS,
    name="Vertriebsvertrag - Alpenquell Pumpen GmbH.pdf",
    layout="numbered_pdf",
    language="de",
    issued=date(2023, 6, 12),
    title="VERTRIEBSVERTRAG",
    preamble=(
        "zwischen der Fernhill Components Ltd, Sheffield, Vereinigtes Königreich (nachfolgend "
        "Lieferant), und der Alpenquell Pumpen GmbH, Innsbruck, Österreich (nachfolgend "
        "Händler), geschlossen am 12. Juni 2023."
    ),
    sections=(
        ("§ 2 Vertrieb", (
            "(1) Der Lieferant verkauft die Vertragsprodukte während der Vertragslaufzeit an "
            "keinen anderen Händler in Österreich.",
        )),
        ("§ 4 Preise", (
            "(1) Es gelten die Preise der Anlage 2.",
            "(2) Eine Meistbegünstigung des Händlers ist ausgeschlossen.",
        )),
        ("§ 8 Laufzeit", (
            "(1) Der Vertrag tritt am 1. Juli 2023 in Kraft und hat eine Laufzeit von zwei "
            "Jahren.",
            "(2) Er verlängert sich automatisch um jeweils ein weiteres Jahr, sofern er nicht "
            "spätestens drei Monate vor Ablauf von einer Partei gekündigt wird.",
            "(3) Eine ordentliche Kündigung während der Laufzeit ist ausgeschlossen.",
        )),
        ("§ 10 Übertragung", (
            "(1) Keine Partei darf diesen Vertrag ohne schriftliche Zustimmung der anderen Partei "
            "übertragen.",
        )),
        ("§ 12 Schlussbestimmungen", (
            "(1) Es gilt österreichisches Recht.",
        )),
    ),
)

BRENNAN = Contract(
    id="D25",
    folder=F_PEOPLE,
    name="Employment Contract - Production Supervisor.pdf",
    layout="numbered_pdf",
    language="en",
    issued=date(2023, 8, 21),
    title="CONTRACT OF EMPLOYMENT",
    preamble=(
        "Contract of employment, dated 21 August 2023, between Fernhill Components Ltd (the "
        "Company) and Aisling Brennan (the Employee)."
    ),
    sections=(
        ("1. Employment", (
            "1.1 You will work as Production Supervisor at the Sheffield site from 4 September "
            "2023.",
            "1.2 You are employed on a permanent, full-time basis.",
        )),
        ("3. Pay", (
            "3.1 Your salary is GBP 41,500 per year, paid monthly in arrears.",
        )),
        ("5. Notice", (
            "5.1 Either party may end the employment by giving the other four weeks' written "
            "notice.",
        )),
        ("8. Governing law", (
            "8.1 This contract is governed by the law of Northern Ireland.",
        )),
    ),
)

PENNINE_VALLEY = Contract(
    id="D26",
    folder=F_FINANCE,
    name="Revolving Credit Facility - Pennine Valley Bank plc.pdf",
    layout="numbered_pdf",
    language="en",
    issued=date(2024, 2, 19),
    title="REVOLVING CREDIT FACILITY AGREEMENT",
    preamble=(
        "THIS AGREEMENT is dated 19 February 2024 and made between: (1) FERNHILL COMPONENTS LTD "
        "as borrower (the Borrower); and (2) PENNINE VALLEY BANK PLC as lender (the Bank)."
    ),
    sections=(
        ("1. The Facility", (
            "1.1 The Bank makes available to the Borrower a revolving credit facility of GBP "
            "1,500,000.",
        )),
        ("2. Availability", (
            "2.1 The Facility is available until 19 February 2027.",
        )),
        ("4. Cancellation", (
            "4.1 The Borrower may cancel the Facility and repay all outstanding Loans at any "
            "time without penalty.",
        )),
        ("7. Change of control", (
            "7.1 If a change of control of the Borrower occurs, the Bank may cancel the Facility "
            "by notice to the Borrower.",
        )),
        ("9. Transfers", (
            "9.1 The Borrower may not assign any of its rights under this Agreement.",
        )),
        ("10. Governing law", (
            "10.1 This Agreement is governed by the law of England and Wales.",
        )),
    ),
)

DEV_CONTRACTS: tuple[Contract, ...] = (
    HALLAM, CORDOVA, PELLWORTH, HALLAM_VARIATION, KESSLER, TALLIS, BRIGHTSIDE, ODUYA, WIECZOREK,
    NORTHGATE, AQUITAINE, MARSDEN, GREYWELL, HOLT_MERCER, TINSLEY, RAMAN, ASHCOMBE, OLDCASTLE,
    RHEINHAFEN, HYDRO_RHONE, PENNOCK, FERNHILL_HOLDING, CALDER_VALLEY, ALPENQUELL, BRENNAN,
    PENNINE_VALLEY,
)
