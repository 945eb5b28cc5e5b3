"""Segura's files: a Spanish S.L. room (calendar ejercicio, miles de euros, Spanish number style).

PDFs (cuentas anuales auditadas with the informe de gestión, the libro registro de socios, a
certificado de cumplimiento de ratios), workbooks (the informe mensual de gestión with Spanish
month labels across the columns, the lista de peticiones), a Word préstamo sindicado and legal
report, a semicolon CSV customer list and a Spanish `.eml` correcting December. Every document is
in Spanish. Ground truth: `manda.sample.segura_facts`; evaluation-only.
"""

from __future__ import annotations

import csv
import io
from datetime import date
from pathlib import Path

from openpyxl import Workbook
from openpyxl.worksheet.worksheet import Worksheet

from manda.sample._docx import write_sectioned_docx
from manda.sample._paths import room_folder
from manda.sample._pdf import bullets, company_meta, para, spacer, table, write_pdf
from manda.sample._sheets import BOLD, header, number_format, request_list, title
from manda.sample._xlsx import save_workbook
from manda.sample.segura_facts import (
    AGENT,
    AUDITOR_NAME,
    BALANCE,
    BANK_DEBT_K,
    CAPITAL,
    CASH_K,
    CERTIFICADO,
    CLIENTES,
    COMPANY,
    CORRECCION,
    CREDIT_NOTES_K,
    CUENTAS,
    CUSTOMER_SALES_K,
    CUSTOMERS,
    EBITDA_K,
    EBITDA_PRIOR_K,
    F_COMERCIAL,
    F_FINANCIERA,
    F_LEGAL,
    F_PETICIONES,
    FINANCE_COSTS_K,
    HOLDERS,
    INFORME_LEGAL,
    INFORME_MENSUAL,
    IRL_ITEMS,
    MONTH_COLUMNS,
    MONTHLY_EBITDA,
    MONTHLY_REVENUE,
    MONTHS,
    NET_DEBT_K,
    PETICIONES,
    PRESTAMO,
    PYG,
    REVENUE_K,
    REVENUE_PRIOR_K,
    SOCIOS,
    TRAMO_A_K,
    TRAMO_B_K,
    es,
)

MILES = "#,##0;-#,##0"


def write_segura(room: Path) -> list[Path]:
    """Write every Segura file into its folder under `room`; return their paths."""
    return [
        _cuentas(room_folder(room, F_FINANCIERA) / CUENTAS),
        _informe_mensual(room_folder(room, F_FINANCIERA) / INFORME_MENSUAL),
        _correccion(room_folder(room, F_FINANCIERA) / CORRECCION),
        _socios(room_folder(room, F_LEGAL) / SOCIOS),
        _prestamo(room_folder(room, F_LEGAL) / PRESTAMO),
        _certificado(room_folder(room, F_LEGAL) / CERTIFICADO),
        _clientes(room_folder(room, F_COMERCIAL) / CLIENTES),
        _informe_legal(room_folder(room, F_LEGAL) / INFORME_LEGAL),
        _peticiones(room_folder(room, F_PETICIONES) / PETICIONES),
    ]


# ---------------------------------------------------------------- cuentas anuales


def _cuentas(path: Path) -> Path:
    growth = (REVENUE_K / REVENUE_PRIOR_K - 1) * 100
    pages = [
        [
            para(COMPANY, "Title"),
            para("Cuentas anuales del ejercicio terminado el 31 de diciembre de 2025 e informe "
                 "de gestión", "Heading1"),
            para("Informe de auditoría de cuentas anuales emitido por un auditor independiente",
                 "Heading2"),
            para(f"A los socios de {COMPANY}. Opinión: hemos auditado las cuentas anuales de "
                 f"{COMPANY} (la Sociedad), que comprenden el balance a 31 de diciembre de 2025, "
                 "la cuenta de pérdidas y ganancias y la memoria correspondientes al ejercicio "
                 "terminado en dicha fecha. En nuestra opinión, las cuentas anuales adjuntas "
                 "expresan, en todos los aspectos significativos, la imagen fiel del patrimonio "
                 "y de la situación financiera de la Sociedad a 31 de diciembre de 2025, así "
                 "como de sus resultados correspondientes al ejercicio terminado en dicha fecha, "
                 "de conformidad con el marco normativo de información financiera aplicable."),
            para(f"{AUDITOR_NAME} (ROAC n.º S0847) — Murcia, 27 de marzo de 2026"),
        ],
        [
            para("Cuenta de pérdidas y ganancias", "Heading2"),
            para("Ejercicios terminados el 31 de diciembre · expresada en miles de euros",
                 "Small"),
            table([["Miles de euros", "2025", "2024"],
                   *([line, es(current), es(prior)] for line, current, prior in PYG)],
                  [100, 28, 28], bold_rows=[7, 10, 11, 13]),
        ],
        [
            para("Balance a 31 de diciembre de 2025", "Heading2"),
            para("Expresado en miles de euros", "Small"),
            table([["Miles de euros", "31/12/2025", "31/12/2024"],
                   *([line, es(current), es(prior)] for line, current, prior in BALANCE)],
                  [100, 28, 28], bold_rows=[5, 10]),
            spacer(),
            para("Memoria (extracto) — Nota 9. Deudas con entidades de crédito", "Heading2"),
            para(f"Las deudas con entidades de crédito, por importe de {es(BANK_DEBT_K)} miles "
                 f"de euros, corresponden al préstamo sindicado formalizado el 28 de junio de "
                 f"2023 con {AGENT} como banco agente: {es(TRAMO_A_K)} miles de euros del "
                 f"tramo A y {es(TRAMO_B_K)} miles de euros del tramo B. El tramo C (línea de "
                 "circulante de 4.000 miles de euros) no estaba dispuesto al cierre."),
        ],
        [
            para("Informe de gestión del ejercicio 2025", "Heading2"),
            para(f"El importe neto de la cifra de negocios alcanzó {es(REVENUE_K / 1000, 1)} "
                 f"millones de euros (2024: {es(REVENUE_PRIOR_K / 1000, 1)} millones), un "
                 f"{es(growth, 1)} % más que en el ejercicio anterior, impulsado por las "
                 "exportaciones a Alemania y los Países Bajos."),
            para(f"El EBITDA del ejercicio ascendió a {es(EBITDA_K / 1000, 1)} millones de euros "
                 f"(2024: {es(EBITDA_PRIOR_K / 1000, 1)} millones), con un margen del "
                 f"{es(EBITDA_K / REVENUE_K * 100, 1)} % sobre la cifra de negocios. La tesorería "
                 f"al cierre se situó en {es(CASH_K / 1000, 1)} millones de euros."),
            para("La plantilla media del ejercicio fue de 214 empleados."),
            para("Órgano de administración y dirección", "Heading2"),
            *bullets([
                "D. Javier Pérez Lorca, Consejero Delegado",
                "Dña. Marta Ibáñez Soler, Directora Financiera",
                "D. Andrés Cano Ruiz, Director Comercial",
            ]),
        ],
    ]
    write_pdf(path, pages,
              company_meta(COMPANY, "Cuentas anuales 2025", date(2026, 3, 27), AUDITOR_NAME))
    return path


# ---------------------------------------------------------------- informe mensual


def _informe_mensual(path: Path) -> Path:
    """Lines down column A, Spanish month labels across, then the year to date."""
    workbook = Workbook()
    ws = workbook.active
    ws.title = "PyG mensual"
    title(ws, f"{COMPANY} — Informe mensual de gestión, diciembre 2025",
          "Miles de euros · ejercicio 2025 · cifras de diciembre provisionales")
    header(ws, 4, ["Miles de euros", *MONTHS, "Acumulado 2025"])
    revenue = (*MONTHLY_REVENUE[:-1], MONTHLY_REVENUE[-1] + CREDIT_NOTES_K)
    ebitda = (*MONTHLY_EBITDA[:-1], MONTHLY_EBITDA[-1] + CREDIT_NOTES_K)
    supplies = tuple(-round(r * 0.66) for r in MONTHLY_REVENUE)
    staff = (-822,) * 11 + (-828,)
    other_income = (35,) * 12
    # Otros gastos de explotación are what is left between the lines above and EBITDA.
    other_costs = tuple(e - r - s - p - o for e, r, s, p, o in zip(
        ebitda, revenue, supplies, staff, other_income, strict=True))
    lines = {5: ("Cifra de negocios", revenue), 6: ("Aprovisionamientos", supplies),
             8: ("Otros ingresos de explotación", other_income),
             9: ("Gastos de personal", staff), 10: ("Otros gastos de explotación", other_costs)}
    for row, (label, values) in lines.items():
        ws.cell(row=row, column=1, value=label)
        for col, value in zip(MONTH_COLUMNS, values, strict=True):
            ws[f"{col}{row}"] = value
        ws[f"N{row}"] = f"=SUM(B{row}:M{row})"
    ws["A7"], ws["A11"] = "Margen bruto", "EBITDA"
    ws["A5"].font = ws["A7"].font = ws["A11"].font = BOLD
    for col in (*MONTH_COLUMNS, "N"):
        ws[f"{col}7"] = f"={col}5+{col}6"
        ws[f"{col}11"] = f"={col}7+{col}8+{col}9+{col}10"
    number_format(ws, "B5:N11", MILES)
    ws["A13"] = "Diciembre 2025: cifras provisionales, pendientes del cierre contable."
    ws.column_dimensions["A"].width = 30
    save_workbook(workbook, path, issued=date(2026, 1, 14), author=COMPANY)
    return path


def _correccion(path: Path) -> Path:
    text = """From: Marta Ibanez Soler <mibanez@horticolasdelsegura.es>
To: Consejo de Administracion <consejo@horticolasdelsegura.es>
Date: Tue, 10 Feb 2026 12:05:00 +0100
Subject: RE: Cifra de negocios diciembre
Message-ID: <correccion-dic-2025@horticolasdelsegura.es>
MIME-Version: 1.0
Content-Type: text/plain; charset="utf-8"

Buenos días:

Tras el cierre contable hemos registrado abonos por devoluciones y rappels de Grupo
Supermercados Mirasol por 420 miles de euros que corresponden a diciembre de 2025. La cifra
de negocios de diciembre queda corregida en 5.190 miles de euros (el informe mensual de
diciembre indicaba 5.610) y la del ejercicio 2025 en 62.480 miles de euros (antes 62.900).
El EBITDA de diciembre pasa de 640 a 220 miles de euros y el del ejercicio, de 7.060 a 6.640
miles de euros. Las cuentas anuales recogerán las cifras corregidas.

Un saludo,

Marta Ibáñez Soler
Directora Financiera, Hortícolas del Segura, S.L.
"""
    path.write_bytes(text.encode("utf-8"))
    return path


# ---------------------------------------------------------------- socios


def _socios(path: Path) -> Path:
    rows = [["Socio", "Participaciones (numeración)", "Número", "Porcentaje"]]
    for holder, numbers, shares in HOLDERS:
        rows.append([holder, numbers, es(shares), f"{es(shares / CAPITAL * 100, 1)} %"])
    rows.append(["Total capital social", "", es(CAPITAL), "100,0 %"])
    pages = [[
        para("Libro registro de socios", "Title"),
        para(f"{COMPANY} — Registro Mercantil de Murcia, hoja MU-48211", "Heading2"),
        para("Situación a 15 de enero de 2026 · capital social de 3.000.000 euros dividido en "
             "3.000.000 de participaciones sociales de 1 euro de valor nominal cada una"),
        table(rows, [64, 46, 26, 24], bold_rows=[len(rows) - 1]),
        spacer(),
        para("Certifica D. Javier Pérez Lorca, Consejero Delegado — Murcia, 15 de enero de "
             "2026"),
    ]]
    write_pdf(path, pages, company_meta(COMPANY, "Libro registro de socios", date(2026, 1, 15)))
    return path


# ---------------------------------------------------------------- préstamo sindicado


def _prestamo(path: Path) -> Path:
    sections = {
        "Cláusula 1. Definiciones": [
            "«EBITDA» significa el resultado de explotación más la amortización del "
            "inmovilizado, según las cuentas anuales auditadas. «Deuda Financiera Neta» "
            "significa la deuda con entidades de crédito menos el efectivo y otros activos "
            "líquidos equivalentes.",
        ],
        "Cláusula 2. Importe y tramos": [
            "Las Entidades Acreditantes conceden a la Acreditada una financiación por importe "
            "máximo de 27.000.000 euros, dividida en: (a) Tramo A, préstamo amortizable, por "
            "importe de 15.000.000 euros; (b) Tramo B, préstamo con amortización única al "
            "vencimiento, por importe de 8.000.000 euros; (c) Tramo C, línea de crédito "
            "renovable para circulante, por importe de 4.000.000 euros.",
        ],
        "Cláusula 6. Intereses": [
            "Cada tramo devengará intereses al Euríbor a seis meses más un margen del 2,25 % "
            "(Tramo A), 2,75 % (Tramo B) y 1,95 % (Tramo C) anual.",
        ],
        "Cláusula 7. Amortización": [
            "El Tramo A se amortizará semestralmente hasta el 30 de junio de 2029; el Tramo B "
            "se amortizará en su totalidad el 30 de junio de 2030.",
        ],
        "Cláusula 18. Ratios financieros": [
            "La Acreditada se obliga a mantener, durante toda la vida del préstamo: (a) un "
            "ratio Deuda Financiera Neta / EBITDA no superior a 3,00x; (b) un ratio EBITDA / "
            "Gastos Financieros no inferior a 4,00x.",
            "Los ratios se calcularán anualmente sobre las cuentas anuales auditadas a 31 de "
            "diciembre y se acreditarán mediante certificado del Consejero Delegado.",
        ],
        "Cláusula 20. Amortización anticipada obligatoria por cambio de control": [
            "Si la familia Pérez Lorca dejase de ostentar, directa o indirectamente, más del "
            "50 % del capital social o de los derechos de voto de la Acreditada (cambio de "
            "control), las Entidades Acreditantes podrán exigir la amortización anticipada "
            "total del préstamo y cancelar los importes no dispuestos.",
        ],
        "Cláusula 28. Ley aplicable y jurisdicción": [
            "El presente contrato se rige por la legislación española. Las partes se someten a "
            "los juzgados y tribunales de Madrid capital.",
        ],
    }
    preamble = (f"En Murcia, a 28 de junio de 2023, entre {COMPANY}, como Acreditada, {AGENT}, "
                "como Banco Agente, y Caja Rural del Sureste y Banco Atlántico Mediterráneo, "
                "S.A., como Entidades Acreditantes.")
    return write_sectioned_docx(
        path, "CONTRATO DE PRÉSTAMO SINDICADO", preamble, sections.items(),
        issued=date(2023, 6, 28), author="Banco Levantino",
        title="Contrato de préstamo sindicado")


def _certificado(path: Path) -> Path:
    pages = [[
        para(COMPANY, "Title"),
        para("Certificado de cumplimiento de ratios financieros", "Heading1"),
        para(f"A {AGENT}, como Banco Agente · fecha de cálculo: 31 de diciembre de 2025 · "
             "cláusula 18 del contrato de préstamo sindicado de 28 de junio de 2023"),
        table([
            ["Ratio", "Límite", "Valor a 31/12/2025"],
            ["Deuda Financiera Neta / EBITDA", "no superior a 3,00x", "2,44x"],
            ["EBITDA / Gastos Financieros", "no inferior a 4,00x", "6,32x"],
        ], [70, 45, 40]),
        spacer(),
        para(f"Deuda Financiera Neta: {es(NET_DEBT_K)} miles de euros; EBITDA: "
             f"{es(EBITDA_K)} miles de euros; gastos financieros: {es(FINANCE_COSTS_K)} miles de "
             "euros, según las cuentas anuales auditadas del ejercicio 2025."),
        para("Murcia, 31 de marzo de 2026 — D. Javier Pérez Lorca, Consejero Delegado"),
    ]]
    write_pdf(path, pages,
              company_meta(COMPANY, "Certificado de cumplimiento de ratios", date(2026, 3, 31)))
    return path


# ---------------------------------------------------------------- clientes (CSV)


def _clientes(path: Path) -> Path:
    """A Spanish Excel export: semicolons between fields, decimal commas, thousands dots."""
    rows = [["Cliente", "País", "Ventas 2025 (miles de euros)", "% sobre cifra de negocios"]]
    for (name, country, share), sales in zip(CUSTOMERS, CUSTOMER_SALES_K, strict=True):
        rows.append([name, country, es(sales), f"{es(share, 1)} %"])
    others = REVENUE_K - sum(CUSTOMER_SALES_K)
    rows.append(["Resto de clientes", "", es(others),
                 f"{es(100 - sum(s for _, _, s in CUSTOMERS), 1)} %"])
    buffer = io.StringIO()
    csv.writer(buffer, delimiter=";", lineterminator="\n").writerows(rows)
    path.write_bytes(buffer.getvalue().encode("utf-8"))
    return path


# ---------------------------------------------------------------- informe legal


def _informe_legal(path: Path) -> Path:
    sections = {
        "1. Información societaria": [
            f"{COMPANY} es una sociedad de responsabilidad limitada con domicilio en Murcia y un "
            "capital social de 3.000.000 euros. Su socio mayoritario es Pérez Lorca "
            "Inversiones, S.L.",
        ],
        "2. Contratos relevantes": [
            "El contrato marco de suministro con Grupo Supermercados Mirasol, S.A. (22,4 % de "
            "la cifra de negocios) vence el 31 de diciembre de 2027 y permite al cliente "
            "resolverlo en caso de cambio de control de la Sociedad, con un preaviso de 60 "
            "días.",
        ],
        "3. Litigios": [
            "Agrícola Campo Nubla, S.A.T., antiguo proveedor de la Sociedad, presentó en "
            "septiembre de 2025 una demanda ante el Juzgado de lo Mercantil n.º 1 de Murcia en "
            "la que reclama 1,4 millones de euros por la resolución anticipada de un contrato "
            "de suministro. El procedimiento está pendiente de sentencia; la audiencia previa "
            "se celebró en febrero de 2026. La Sociedad no ha dotado provisión.",
        ],
        "4. Financiación": [
            f"El préstamo sindicado con {AGENT} como banco agente permite a las entidades "
            "acreditantes exigir la amortización anticipada total en caso de cambio de control "
            "(cláusula 20).",
        ],
    }
    preamble = "Bufete Carrasco & Medina Abogados, Madrid · 20 de abril de 2026 · confidencial"
    return write_sectioned_docx(
        path, "Proyecto Almendro — Informe de due diligence legal", preamble, sections.items(),
        issued=date(2026, 4, 20), author="Bufete Carrasco & Medina Abogados",
        title="Informe de due diligence legal")


# ---------------------------------------------------------------- lista de peticiones


def _peticiones(path: Path) -> Path:
    workbook = Workbook()
    ws: Worksheet = workbook.active
    ws.title = "Peticiones"
    title(ws, "Proyecto Almendro — Lista de peticiones de información",
          "Comprador: Meseta Partners Capital · actualizada a 22 de abril de 2026")
    request_list(ws, ["Ref.", "Área", "Documentación solicitada", "Prioridad", "Estado",
                      "Observaciones"], IRL_ITEMS,
                 {"FIN-3": "Pendiente de la asesoría fiscal", "SEG-1": "Se solicitó al corredor"})
    save_workbook(workbook, path, issued=date(2026, 4, 22), author="Meseta Partners Capital")
    return path
