"""Ground truth of the Segura data room: a Spanish S.L. whose documents are all in Spanish.

Hortícolas del Segura, S.L. ("Proyecto Almendro") grows and exports fresh vegetables from Murcia.
Its ejercicio is the calendar year (ejercicio 2025, comparative 2024); the cuentas anuales are
audited and "expresadas en miles de euros" in Spanish number style (62.480; 10,6 %); the informe
de gestión writes "5,2 millones de euros"; the informe mensual de gestión has Spanish month labels
across the columns (ene-25 … dic-25) and an "Acumulado 2025"; December's figures in it are
preliminary and corrected by the CFO's e-mail (a correction in a later document, not in a file
name); the préstamo sindicado has covenants on Deuda Financiera Neta / EBITDA and a cambio de
control clause; the customer list is a semicolon CSV with decimal commas down to "1,0 %"; the
lista de peticiones has its own Estado column ("Entregado" / "Pendiente"). This room judges the
fourth language, to be added as a vocabulary file alone. Evaluation-only:
`manda.sample.generate.EVAL_ONLY_DEALS`. Conventions are those of `manda.sample.facts` (`stated`
for a sheet cell is the value as an English Excel displays it).
"""

from __future__ import annotations

from datetime import date

from manda.models import DocumentRole
from manda.sample.facts import Fact, IRLItem, Nature, SampleFile, Trap

SEGURA = "segura"
COMPANY = "Hortícolas del Segura, S.L."

# ---------------------------------------------------------------- folders and files

F_FINANCIERA = "1. Información financiera"
F_LEGAL = "2. Legal"
F_COMERCIAL = "3. Comercial"
F_PETICIONES = "4. Peticiones"

CUENTAS = "CCAA 2025 Horticolas del Segura - Informe de auditoria.pdf"
INFORME_MENSUAL = "Informe mensual de gestion dic-2025.xlsx"
CORRECCION = "RE Cifra de negocios diciembre.eml"
SOCIOS = "Libro registro de socios.pdf"
PRESTAMO = "Contrato de prestamo sindicado - Banco Levantino.docx"
CERTIFICADO = "Certificado cumplimiento ratios 31-12-2025.pdf"
CLIENTES = "Listado clientes 2025.csv"
INFORME_LEGAL = "Informe legal DD - Proyecto Almendro.docx"
PETICIONES = "Lista de peticiones de informacion.xlsx"


def _file(name: str, folder: str, issued: date, summary: str) -> SampleFile:
    return SampleFile(SEGURA, name, name.rsplit(".", 1)[1], issued, summary, folder=folder)


FILES: tuple[SampleFile, ...] = (
    _file(CUENTAS, F_FINANCIERA, date(2026, 3, 27),
          "Cuentas anuales 2025 auditadas: informe de auditoría, balance, PyG, memoria, "
          "informe de gestión (miles de euros)"),
    _file(INFORME_MENSUAL, F_FINANCIERA, date(2026, 1, 14),
          "Informe mensual: Spanish month labels across, Acumulado 2025; December preliminary"),
    _file(CORRECCION, F_FINANCIERA, date(2026, 2, 10),
          "E-mail from the CFO correcting December's cifra de negocios and EBITDA"),
    _file(SOCIOS, F_LEGAL, date(2026, 1, 15),
          "Libro registro de socios: participaciones sociales and %"),
    _file(PRESTAMO, F_LEGAL, date(2023, 6, 28),
          "Préstamo sindicado: tramos A, B and C, ratios financieros, cambio de control"),
    _file(CERTIFICADO, F_LEGAL, date(2026, 3, 31),
          "Certificado de cumplimiento de ratios at 31 December 2025"),
    _file(CLIENTES, F_COMERCIAL, date(2026, 2, 2),
          "Top ten customers with % of cifra de negocios, semicolon CSV, decimal commas"),
    _file(INFORME_LEGAL, F_LEGAL, date(2026, 4, 20),
          "Legal due diligence report: contracts, litigation, financing"),
    _file(PETICIONES, F_PETICIONES, date(2026, 4, 22), "Buyer's request list with its Estado"),
)

EXPECTED_ROLES: dict[str, DocumentRole] = {
    CUENTAS: DocumentRole.AUDITED_STATEMENTS,
    INFORME_MENSUAL: DocumentRole.MANAGEMENT_ACCOUNTS,
    CORRECCION: DocumentRole.CORRESPONDENCE,
    SOCIOS: DocumentRole.CAP_TABLE,
    PRESTAMO: DocumentRole.CONTRACT,
    CERTIFICADO: DocumentRole.CONTRACT,
    CLIENTES: DocumentRole.OTHER,
    INFORME_LEGAL: DocumentRole.LEGAL_MEMO,
    PETICIONES: DocumentRole.IRL,
}


def es(amount: float, decimals: int = 0) -> str:
    """Spanish number style: 62.480 / 10,6 / -41.230."""
    text = f"{amount:,.{decimals}f}"
    return text.replace(",", "\0").replace(".", ",").replace("\0", ".")


def _t(subject: str, period: str | None, value: float | str | None, unit: str | None,
       file: str, location: str, stated: str, *, nature: Nature = "actual",
       note: str = "") -> Fact:
    return Fact(SEGURA, subject, period, value, unit, file, location, stated, nature, note)


# ---------------------------------------------------------------- cuentas anuales (miles de euros)

AUDITOR_NAME = "Roldán y Asociados Auditores, S.L.P."
PYG = (  # (line, 2025, 2024) in miles de euros
    ("1. Importe neto de la cifra de negocios", 62_480, 57_310),
    ("4. Aprovisionamientos", -41_230, -38_020),
    ("5. Otros ingresos de explotación", 420, 380),
    ("6. Gastos de personal", -9_870, -9_240),
    ("7. Otros gastos de explotación", -5_160, -4_790),
    ("8. Amortización del inmovilizado", -2_110, -1_980),
    ("A.1) RESULTADO DE EXPLOTACIÓN", 4_530, 3_660),
    ("12. Ingresos financieros", 70, 40),
    ("13. Gastos financieros", -1_050, -1_080),
    ("A.2) RESULTADO FINANCIERO", -980, -1_040),
    ("A.3) RESULTADO ANTES DE IMPUESTOS", 3_550, 2_620),
    ("17. Impuesto sobre beneficios", -870, -640),
    ("A.5) RESULTADO DEL EJERCICIO", 2_680, 1_980),
)
BALANCE = (  # (line, 31/12/2025, 31/12/2024) in miles de euros
    ("Inmovilizado material", 24_600, 25_720),
    ("Existencias", 4_020, 3_750),
    ("Deudores comerciales y otras cuentas a cobrar", 11_340, 10_480),
    ("Efectivo y otros activos líquidos equivalentes", 5_210, 4_130),
    ("TOTAL ACTIVO", 45_170, 44_080),
    ("Patrimonio neto", 19_850, 17_170),
    ("Deudas con entidades de crédito a largo plazo", 18_200, 20_400),
    ("Deudas con entidades de crédito a corto plazo", 3_200, 2_900),
    ("Acreedores comerciales y otras cuentas a pagar", 3_920, 3_610),
    ("TOTAL PATRIMONIO NETO Y PASIVO", 45_170, 44_080),
)
REVENUE_K, REVENUE_PRIOR_K = 62_480, 57_310
EBITDA_K, EBITDA_PRIOR_K = 6_640, 5_640  # resultado de explotación + amortización
CASH_K, BANK_DEBT_K = 5_210, 21_400
TRAMO_A_K, TRAMO_B_K = 13_400, 8_000
NET_DEBT_K = BANK_DEBT_K - CASH_K  # 16.190
FINANCE_COSTS_K = 1_050

CUENTAS_REVENUE = _t("revenue", "FY2025", 62_480_000, "EUR", CUENTAS, "p.2", "62.480",
                     note="importe neto de la cifra de negocios, ejercicio 2025")
CUENTAS_REVENUE_PRIOR = _t("revenue", "FY2024", 57_310_000, "EUR", CUENTAS, "p.2", "57.310",
                           note="comparative column, not a conflict; growth 9,0 %")
CUENTAS_OPERATING_INCOME = _t("operating_income", "FY2025", 4_530_000, "EUR", CUENTAS, "p.2",
                              "4.530")
CUENTAS_NET_INCOME = _t("net_income", "FY2025", 2_680_000, "EUR", CUENTAS, "p.2", "2.680")
CUENTAS_CASH = _t("cash", "as of 2025-12-31", 5_210_000, "EUR", CUENTAS, "p.3", "5.210")
CUENTAS_BANK_DEBT = _t("bank_debt", "as of 2025-12-31", 21_400_000, "EUR", CUENTAS, "p.3",
                       "21.400 miles de euros")
GESTION_EBITDA = _t("ebitda", "FY2025", 6_640_000, "EUR", CUENTAS, "p.4",
                    "6,6 millones de euros", note="informe de gestión; margin 10,6 %")
GESTION_EBITDA_MARGIN = _t("ebitda_margin", "FY2025", 10.6, "%", CUENTAS, "p.4", "10,6 %")
GESTION_CASH = _t("cash", "as of 2025-12-31", 5_200_000, "EUR", CUENTAS, "p.4",
                  "5,2 millones de euros", note="5.210 miles rounded in the informe de gestión")
AUDITOR = _t("auditor", "FY2025", AUDITOR_NAME, None, CUENTAS, "p.1", AUDITOR_NAME)
OPINION = _t("audit_opinion", "FY2025", "favorable", None, CUENTAS, "p.1",
             "expresan, en todos los aspectos significativos, la imagen fiel",
             note="an unmodified (clean) opinion")
MANAGEMENT = (
    _t("person:javier pérez lorca", None, "Consejero Delegado", None, CUENTAS, "p.4",
       "D. Javier Pérez Lorca, Consejero Delegado"),
    _t("person:marta ibáñez soler", None, "Directora Financiera", None, CUENTAS, "p.4",
       "Dña. Marta Ibáñez Soler, Directora Financiera"),
    _t("person:andrés cano ruiz", None, "Director Comercial", None, CUENTAS, "p.4",
       "D. Andrés Cano Ruiz, Director Comercial"),
)

# ---------------------------------------------------------------- informe mensual (preliminary)

MONTHS = ("ene-25", "feb-25", "mar-25", "abr-25", "may-25", "jun-25",
          "jul-25", "ago-25", "sep-25", "oct-25", "nov-25", "dic-25")
MONTHLY_REVENUE = (4_620, 4_710, 5_030, 5_480, 5_820, 5_560,
                   5_240, 4_690, 5_110, 5_480, 5_550, 5_190)  # corrected December
MONTHLY_EBITDA = (470, 490, 560, 620, 690, 640, 580, 430, 550, 640, 750, 220)
CREDIT_NOTES_K = 420  # rappels and returns booked after the informe mensual
DECEMBER_PRELIMINARY_K = MONTHLY_REVENUE[-1] + CREDIT_NOTES_K  # 5.610
MONTH_COLUMNS = "BCDEFGHIJKLM"

MARCH_REVENUE = _t("revenue", "mar-25", 5_030_000, "EUR", INFORME_MENSUAL, "PyG mensual!D5",
                   "5,030", note="Spanish month labels across the columns, miles de euros")
DECEMBER_REVENUE_PRELIMINARY = _t("revenue", "dic-25", 5_610_000, "EUR", INFORME_MENSUAL,
                                  "PyG mensual!M5", "5,610",
                                  note="preliminary; corrected to 5.190 in the CFO's e-mail")
MENSUAL_REVENUE_TOTAL = _t("revenue", "FY2025", 62_900_000, "EUR", INFORME_MENSUAL,
                           "PyG mensual!N5", "62,900",
                           note="preliminary 'Acumulado 2025'; 62.480 after the correction")
CORRECTED_DECEMBER = _t("correction", "dic-25", 5_190_000, "EUR", CORRECCION, "e-mail body",
                        "queda corregida en 5.190 miles de euros",
                        note="420 miles de euros of credit notes (abonos) booked in December")

# ---------------------------------------------------------------- libro registro de socios

CAPITAL = 3_000_000  # participaciones sociales de 1 €
HOLDERS = (  # (socio, numeración, participaciones)
    ("Pérez Lorca Inversiones, S.L.", "1 a 2.100.000", 2_100_000),
    ("Levante Capital Crecimiento II, FCR", "2.100.001 a 2.850.000", 750_000),
    ("Dña. Marta Ibáñez Soler", "2.850.001 a 2.940.000", 90_000),
    ("D. Andrés Cano Ruiz", "2.940.001 a 3.000.000", 60_000),
)
OWNERSHIP = tuple(
    _t(f"ownership:{holder.casefold()}", "as of 2026-01-15", shares / CAPITAL * 100, "%",
       SOCIOS, "p.1", f"{es(shares / CAPITAL * 100, 1)} %")
    for holder, _, shares in HOLDERS
)

# ---------------------------------------------------------------- préstamo sindicado, certificado

AGENT = "Banco Levantino, S.A."
TRAMO_A = _t("facility_limit:tramo a", None, 15_000_000, "EUR", PRESTAMO,
             "Cláusula 2. Importe y tramos", "15.000.000 euros")
TRAMO_B = _t("facility_limit:tramo b", None, 8_000_000, "EUR", PRESTAMO,
             "Cláusula 2. Importe y tramos", "8.000.000 euros")
TRAMO_C = _t("facility_limit:tramo c", None, 4_000_000, "EUR", PRESTAMO,
             "Cláusula 2. Importe y tramos", "4.000.000 euros", note="línea de circulante")
LEVERAGE_COVENANT = _t("covenant:deuda financiera neta / ebitda", None, 3.0, "x", PRESTAMO,
                       "Cláusula 18. Ratios financieros", "3,00x")
INTEREST_COVER_COVENANT = _t("covenant:ebitda / gastos financieros", None, 4.0, "x", PRESTAMO,
                             "Cláusula 18. Ratios financieros", "4,00x")
LOAN_CHANGE_OF_CONTROL = _t("change_of_control:banco levantino, s.a.", None,
                            "amortización anticipada", None, PRESTAMO,
                            "Cláusula 20. Amortización anticipada obligatoria por cambio de "
                            "control", "cambio de control")
LEVERAGE_ACTUAL = _t("leverage", "as of 2025-12-31", 2.44, "x", CERTIFICADO, "p.1", "2,44x",
                     note="against a maximum of 3,00x: headroom of 0,56x")
INTEREST_COVER_ACTUAL = _t("interest_cover", "as of 2025-12-31", 6.32, "x", CERTIFICADO, "p.1",
                           "6,32x")
CERTIFICADO_NET_DEBT = _t("net_debt", "as of 2025-12-31", 16_190_000, "EUR", CERTIFICADO,
                          "p.1", "16.190 miles de euros")

# ---------------------------------------------------------------- clientes (CSV)

CUSTOMERS = (  # (cliente, país, % sobre cifra de negocios)
    ("Grupo Supermercados Mirasol, S.A.", "ES", 22.4),
    ("Frischkontor Handels GmbH", "DE", 11.8),
    ("Greenhall Produce Ltd", "GB", 8.5),
    ("Coöperatie Noordvers U.A.", "NL", 6.3),
    ("Hipermercados Ibéricos, S.A.", "ES", 5.1),
    ("Scandi Fresh AB", "SE", 3.9),
    ("Distribuciones Alimentarias Levante, S.L.", "ES", 3.2),
    ("Marché Primeur SAS", "FR", 2.7),
    ("Polska Świeżość Sp. z o.o.", "PL", 1.9),
    ("Frutas Cantábricas, S.L.", "ES", 1.0),
)
CUSTOMER_SALES_K = tuple(round(REVENUE_K * share / 100) for _, _, share in CUSTOMERS)
CUSTOMER_SHARES = tuple(
    _t(f"customer_share:{name.casefold()}", "FY2025", share, "%", CLIENTES, f"row {row}",
       f"{es(share, 1)} %")
    for row, (name, _, share) in enumerate(CUSTOMERS, start=2)
)

# ---------------------------------------------------------------- informe legal

LITIGATION = _t("litigation:agrícola campo nubla, s.a.t.", None, 1_400_000, "EUR",
                INFORME_LEGAL, "3. Litigios", "1,4 millones de euros",
                note="Juzgado de lo Mercantil n.º 1 de Murcia; pending")
CUSTOMER_CHANGE_OF_CONTROL = _t("change_of_control:grupo supermercados mirasol, s.a.", None,
                                "resolución, preaviso de 60 días", None, INFORME_LEGAL,
                                "2. Contratos relevantes", "en caso de cambio de control")

FACTS: tuple[Fact, ...] = (
    CUENTAS_REVENUE, CUENTAS_REVENUE_PRIOR, CUENTAS_OPERATING_INCOME, CUENTAS_NET_INCOME,
    CUENTAS_CASH, CUENTAS_BANK_DEBT, GESTION_EBITDA, GESTION_EBITDA_MARGIN, GESTION_CASH,
    AUDITOR, OPINION, *MANAGEMENT,
    MARCH_REVENUE, DECEMBER_REVENUE_PRELIMINARY, MENSUAL_REVENUE_TOTAL, CORRECTED_DECEMBER,
    *OWNERSHIP,
    TRAMO_A, TRAMO_B, TRAMO_C, LEVERAGE_COVENANT, INTEREST_COVER_COVENANT,
    LOAN_CHANGE_OF_CONTROL, LEVERAGE_ACTUAL, INTEREST_COVER_ACTUAL, CERTIFICADO_NET_DEBT,
    *CUSTOMER_SHARES, LITIGATION, CUSTOMER_CHANGE_OF_CONTROL,
)

# ---------------------------------------------------------------- lista de peticiones

ENTREGADO, PENDIENTE = "Entregado", "Pendiente"
IRL_ITEMS: tuple[IRLItem, ...] = (
    IRLItem("FIN-1", "Financiera", "Cuentas anuales auditadas de 2024 y 2025", "Alta",
            ENTREGADO, (CUENTAS,)),
    IRLItem("FIN-2", "Financiera", "Informes mensuales de gestión de 2025", "Alta", ENTREGADO,
            (INFORME_MENSUAL,)),
    IRLItem("FIN-3", "Financiera", "Declaraciones del Impuesto sobre Sociedades (modelo 200) "
            "de los tres últimos ejercicios", "Alta", PENDIENTE),
    IRLItem("FIN-4", "Financiera", "Detalle de la deuda financiera y certificados de "
            "cumplimiento de ratios", "Alta", ENTREGADO, (PRESTAMO, CERTIFICADO)),
    IRLItem("COM-1", "Comercial", "Ventas por cliente del ejercicio 2025", "Alta", ENTREGADO,
            (CLIENTES,)),
    IRLItem("COM-2", "Comercial", "Contratos con los diez principales clientes", "Alta",
            PENDIENTE),
    IRLItem("LEG-1", "Legal", "Libro registro de socios", "Alta", ENTREGADO, (SOCIOS,)),
    IRLItem("LEG-2", "Legal", "Informe sobre litigios y reclamaciones en curso", "Alta",
            ENTREGADO, (INFORME_LEGAL,)),
    IRLItem("LEG-3", "Legal", "Licencias de actividad, concesiones de agua y autorizaciones "
            "ambientales", "Media", PENDIENTE),
    IRLItem("LAB-1", "Laboral", "Relación de empleados con salarios y convenio colectivo "
            "aplicable", "Media", PENDIENTE),
    IRLItem("SEG-1", "Seguros", "Pólizas de seguro en vigor", "Media", PENDIENTE),
    IRLItem("INM-1", "Inmuebles", "Notas simples registrales de las fincas y naves", "Media",
            PENDIENTE),
)
UNCOVERED_IRL = tuple(item for item in IRL_ITEMS if not item.covered)

# ---------------------------------------------------------------- traps

TRAPS: tuple[Trap, ...] = (
    Trap(SEGURA, "supersedes",
         "The informe mensual (14 January 2026) gives December 2025 cifra de negocios 5.610 "
         "and a preliminary year of 62.900; the CFO's e-mail of 10 February 2026 corrects "
         "December to 5.190 and the year to 62.480 (credit notes), as the audited accounts say.",
         "Answer 5.190 for December 2025 and say the informe mensual's figure was corrected.",
         (INFORME_MENSUAL, CORRECCION, CUENTAS),
         (DECEMBER_REVENUE_PRELIMINARY, CORRECTED_DECEMBER, MENSUAL_REVENUE_TOTAL,
          CUENTAS_REVENUE)),
    Trap(SEGURA, "red_flag",
         "A former supplier, Agrícola Campo Nubla, claims 1,4 millones de euros before the "
         "Juzgado de lo Mercantil; pending, no provision.",
         "Flag the claim with amount, court and status.", (INFORME_LEGAL,), (LITIGATION,)),
    Trap(SEGURA, "red_flag",
         "Cambio de control: Grupo Supermercados Mirasol (22,4 % of sales) may terminate on "
         "60 days' notice; the lenders may demand prepayment.",
         "Flag both change-of-control consequences.", (INFORME_LEGAL, PRESTAMO),
         (CUSTOMER_CHANGE_OF_CONTROL, LOAN_CHANGE_OF_CONTROL)),
    Trap(SEGURA, "red_flag",
         "Grupo Supermercados Mirasol is 22,4 % of the cifra de negocios; the top three 42,7 %.",
         "Flag the concentration with the share.", (CLIENTES,), CUSTOMER_SHARES),
    Trap(SEGURA, "uncovered_irl",
         "Requests marked Pendiente, with no document in the room: " + ", ".join(
             item.ref for item in UNCOVERED_IRL) + ".",
         "List them as gaps by area and offer to add them to the Q&A list.", (PETICIONES,)),
)

DISTINCTIVE_TERMS: tuple[str, ...] = (
    "Segura", "Almendro", "Banco Levantino", "Mirasol", "Campo Nubla", "Roldán y Asociados",
    "Pérez Lorca",
)
