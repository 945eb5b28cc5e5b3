"""The topic questions every analyst asks, and which document roles and findings answer each.

"Who owns the company?", "Who is on the management team?", "Walk me through the P&L", "Tell me
about the company", "Is there any litigation?": each is a *shape* with its own answer (a cap table
with classes and %, people with roles and the key roles missing, periods as columns …). A shape
names the document roles that hold its answer (retrieval favours them), the finding subjects that
feed it and what to search for. The offline planner, the composer and Claude's `topic_brief` tool
all read these same definitions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from manda.finance.facilities import facility_name
from manda.models import DocumentRole

R = DocumentRole
_F = re.IGNORECASE


@dataclass(frozen=True)
class Shape:
    """One topic question and where its answer lives."""

    key: str
    label: str
    asked: re.Pattern[str]
    roles: tuple[DocumentRole, ...]
    subjects: tuple[str, ...]  # finding subjects the plan reads from the knowledge graph
    query: str  # the passage search that finds it in any room
    category: str  # Q&A category when the room does not answer it
    of_metrics: bool = False  # made of metrics: it answers even when the question names one


OWNERSHIP = Shape(
    "ownership", "Ownership",
    re.compile(r"\bwho owns (?:the |this )?(?:company|business|target|group|shares|stock|"
               r"equity|it)\b|\bwho owns (?-i:[A-Z][\w.&-]*)(?: (?-i:[A-Z][\w.&-]*)){0,3}\s*\??$|"
               r"\bowners?(?:hip)?\b(?! of (?:the |its )?(?:ip|intellectual|trade ?marks?|"
               r"patents?|source code|software|brand|domain|data|propert|building|premises))|"
               r"\bshareholders?\b|\bshare ?holdings?\b|\bshare class(?:es)?\b|"
               r"\bclass(?:es)? of shares?\b|\bshare capital\b|\bstock classes\b|"
               r"\bfully diluted\b|\boption pool\b|\besop\b|"
               r"\bcap(?:italis|italiz)?(?:ation)? ?tables?\b|\bequity (?:holders?|structure|"
               r"split)\b|\bstakeholders? in the company\b|"
               r"\bregister of (?:members|shareholders)\b|"
               r"\bwho holds (?:the |its )?(?:[\w-]+ ){0,3}(?:shares|stock|units)\b|"
               r"\b(?:ordinary|preference|preferred|common|growth|"
               r"deferred|class [a-z]|series [a-z]\d?) (?:shares|stock)\b|"
               r"\bgesellschafter\w*\b|\bwho holds the (?:shares|equity)\b|\bstockholders?\b|"
               r"\bliquidation preferences?\b|\b(?:liquidation|preference) stack\b", _F),
    (R.CAP_TABLE,), ("ownership",),
    "shareholder ownership shares class percentage cap table", "Legal",
)
MANAGEMENT = Shape(
    "management", "Management team",
    re.compile(r"\bmanagement(?: team)?\b(?! (?:accounts|report|presentation|estimate|"
               r"expects?|fees?))|\bleadership(?: team)?\b|\bexecutives?\b|\bexecutive team\b|"
               r"\bwho runs\b|\bkey (?:people|personnel|staff|managers)\b|\bsenior team\b|"
               r"\bc-suite\b|\bgeschäftsführ\w*\b|\bboard of directors\b|\bdirectors\b", _F),
    (R.MANAGEMENT_BIOS, R.PRESENTATION, R.EMPLOYEE_CENSUS), ("person",),
    "management team chief executive officer chief financial officer biography joined role",
    "HR",
)
OVERVIEW = Shape(
    "overview", "Business overview",
    re.compile(r"\btell me about (?:the |this )?(?:company|business|target|group)\b|"
               r"\bwhat does (?:the |this )?(?:company|business|target|group|it) do\b|"
               r"\b(?:company|business|target|group) (?:overview|profile|description)\b|"
               r"\bwhat (?:kind of|type of) (?:company|business)\b|"
               r"\bdescribe (?:the |this )?(?:company|business|target)\b|"
               r"\bwho (?:is|are) (?:the target|the company|they)\b", _F),
    (R.PRESENTATION, R.AUDITED_STATEMENTS, R.MANAGEMENT_ACCOUNTS), ("revenue", "headcount"),
    "company business overview products customers markets founded headquartered employees",
    "Commercial",
)
PNL = Shape(
    "pnl", "Profit and loss",
    re.compile(r"\bp\s?(?:&|&amp;|and)\s?l\b|\bprofit (?:and|&) loss\b|\bincome statements?\b|"
               r"\bstatements? of (?:operations|income|comprehensive income)\b|"
               r"\bearnings statement\b|\bguv\b|\bgewinn- und verlustrechnung\b|"
               r"\bwalk (?:me|us) through the (?:financials|numbers|results)\b|"
               r"\b(?:headline|key|main|top[\s-]line) (?:numbers|figures|financials|results)\b|"
               r"\b(?:give|show) (?:me|us) the (?:numbers|financials)\b", _F),
    (R.MANAGEMENT_ACCOUNTS, R.AUDITED_STATEMENTS, R.QOE_REPORT),
    ("revenue", "gross profit", "cost of sales", "ebitda", "adjusted ebitda", "net income",
     "one-time charges"),
    "profit and loss income statement revenue gross profit EBITDA net income", "Financial",
    of_metrics=True,
)
DEBT = Shape(
    "debt", "Balance sheet, cash and debt",
    re.compile(r"\bbalance sheets?\b|\bstatements? of financial position\b|\bbilanz\b|"
               r"\bworking capital\b|\bnet current assets\b|\bnwc\b|"
               r"\b(?:bank|gross|total|financial|external|senior) (?:debt|borrowings?)\b|"
               r"\bdebt (?:facilit\w+|position|structure|maturit\w+|profile|financing|package|"
               r"stack|terms|arrangements?)\b|\b(?:financing|credit) (?:package|arrangements?)\b|"
               r"\b(?:credit|loan|debt|bank|banking|financing|revolving) facilit(?:y|ies)\b|"
               r"\bcredit lines?\b|\blines? of credit\b|\bkreditlinie\w*\b|\bdrawn\b|"
               r"\bfacilit(?:y|ies) (?:agreement|in place)\b|\bborrowings?\b|\blenders?\b|"
               r"\bindebtedness\b|\bcash and debt\b|\bcash position\b|\bnet cash\b|"
               r"\bhow much debt\b|\bterm loans?\b|\brevolving credit\b|\brcf\b|\boverdrafts?\b|"
               r"\b(?:loans?|debt|facilit\w+|borrowings?)\b[^?.]{0,30}\b(?:matur\w+|repa(?:y|id)\w*|"
               r"fall due|expir\w+)\b|\b(?:maturity|repayment) (?:profile|schedule|dates?)\b|"
               r"\bhow is the (?:company|business) (?:financed|funded)\b|\bcapital structure\b|"
               r"\bverbindlichkeiten gegen\w* kreditinstitut\w*\b", _F),
    # statements hold the balances; a facility agreement is found by the query, since a room's
    # contracts are mostly customers' and would otherwise stand in for a missing balance sheet
    (R.AUDITED_STATEMENTS, R.MANAGEMENT_ACCOUNTS, R.QOE_REPORT),
    ("cash", "debt", "revolver", "net debt", "leverage", "net assets", "facility limit",
     "facility headroom"),
    "balance sheet cash bank loans borrowings net debt facility lender term loan revolving "
    "maturity", "Financial", of_metrics=True,
)
CUSTOMERS = Shape(
    "customers", "Customer concentration",
    re.compile(r"\bcustomer concentration\b|\bconcentration of (?:customers|revenue)\b|"
               r"\b(?:largest|biggest|top|main|key|major|principal)(?: \d+| two| three| five|"
               r" ten)? customers?\b|\brevenue by customer\b|\bcustomer (?:base|mix|split|list)\b|"
               r"\bwho are (?:the|its|our) customers\b|\bhow concentrated\b|"
               r"\bdepend\w* on (?:a (?:few|handful of)|one|its|few) (?:large )?customers?\b|"
               r"\bkundenkonzentration\b|\bgrößte\w* kunde\w*\b", _F),
    (R.MANAGEMENT_ACCOUNTS, R.PRESENTATION, R.QOE_REPORT, R.AUDITED_STATEMENTS, R.CONTRACT),
    ("customer concentration",),
    "customer concentration largest customers share of revenue top customers", "Commercial",
    of_metrics=True,
)
COVENANTS = Shape(
    "covenants", "Covenants",
    re.compile(r"\bcovenants?\b|\bheadroom\b|\binterest cover(?:age)?\b|"
               r"\bcompliance certificates?\b|\bfinancial tests?\b|\bleverage tests?\b|"
               r"\bauflagen\b|\bfinancial undertakings\b", _F),
    (R.CONTRACT, R.LEGAL_MEMO, R.QOE_REPORT, R.BOARD_MINUTES, R.AUDITED_STATEMENTS),
    ("leverage", "net debt"),
    "financial covenant leverage net debt to EBITDA interest cover tested headroom complied",
    "Financial", of_metrics=True,
)
KEY_PEOPLE = Shape(
    "key_people", "Key-person dependencies",
    re.compile(r"\bkey[\s-]?(?:person|man)\b|\bkey[\s-]?(?:people|individuals?) (?:risks?|"
               r"dependenc\w*)\b|\bsuccession(?: plan\w*)?\b|"
               r"\bbus factor\b|\b(?:depend\w*|reliance|reliant|relies|rely) (?:heavily |largely )?"
               r"on (?:the |its |a few |one |any |certain )?(?:founders?|ceo|md|managing director|"
               r"owners?|management|individuals?|key (?:staff|people|employees|managers?)|"
               r"(?:one|few|certain) (?:people|person|individuals?))\b|"
               r"\bretention of (?:key )?(?:staff|management|people)\b|"
               r"\bschlüsselpersonen?\b", _F),
    (R.QOE_REPORT, R.MANAGEMENT_BIOS, R.BOARD_MINUTES, R.PRESENTATION, R.LEGAL_MEMO),
    ("person", "key person"),
    "key person dependency founder relationships succession retention", "HR",
)
LITIGATION = Shape(
    "litigation", "Litigation",
    re.compile(r"\blitigations?\b|\blawsuits?\b|\bsued\b|\blegal (?:proceedings|disputes?|"
               r"claims?|cases?)\b|\bdisputes?\b|\bclaims? against\b|\bcourt cases?\b|"
               r"\brechtsstreit\w*\b", _F),
    (R.LEGAL_MEMO, R.BOARD_MINUTES, R.AUDITED_STATEMENTS), ("litigation",),
    "litigation claim court damages proceedings claimant", "Legal",
)
CONTRACTS = Shape(
    "contracts", "Material contracts",
    re.compile(r"\bmaterial contracts?\b|\bkey contracts?\b|\bmajor contracts?\b|"
               r"\bcontracts? with (?:customers|suppliers)\b|\bcustomer contracts?\b|"
               r"\bwhich contracts\b|\bagreements? (?:in place|with)\b|"
               r"\b(?:in|of|across|under) (?:the|its|our) (?:contracts|agreements)\b|"
               r"\bcontract terms\b", _F),
    (R.CONTRACT, R.LEGAL_MEMO), ("contract",),
    "agreement contract term expiry change of control termination counterparty", "Legal",
)
SHAPES: tuple[Shape, ...] = (OWNERSHIP, PNL, KEY_PEOPLE, COVENANTS, CONTRACTS, CUSTOMERS, DEBT,
                             LITIGATION, OVERVIEW, MANAGEMENT)

# A named person's pay (a census or payroll row) and a role held by someone.
PAY = re.compile(r"\b(?:salary|salaries|pay|paid|earns?|earning|compensation|comp|remuneration|"
                 r"wages?|base|bonus|package|gehalt|vergütung)\b", _F)
PAY_HEADER = re.compile(r"salary|pay\b|compensation|remuneration|wage|gehalt|vergütung|"
                        r"total comp|bonus|\bctc\b|\bbase\b", _F)
ROLE_WORDS = re.compile(
    r"\b(?:(?:chief|head|vp|vice president|director|general|managing|finance|sales|operations|"
    r"technical|commercial|marketing|people|hr)[\w ]{0,30}?(?:officer|counsel|director|"
    r"manager|of [a-z&]+(?: [a-z&]+)?)|c[a-z]{1,2}o|ceo|cfo|coo|cto|cro|cmo|cpo|cio|chro|cco|"
    r"chair(?:man|woman|person)?|founders?|auditors?|audits|md|gm|geschäftsführer\w*|"
    r"prokurist\w*|abschlussprüfer\w*|wirtschaftsprüf\w*|"
    r"finance director|financial controller|controller)\b", _F)


def shape_for(question: str) -> Shape | None:
    """The topic shape a question asks for, if any (the first that matches, most specific first).

    A question that names a metric is a metric question, not a topic ("management's EBITDA
    estimate" is EBITDA); the P&L shape is the exception, since it is made of metrics."""
    for shape in SHAPES:
        if shape.asked.search(question):
            if shape is COVENANTS and _FACILITY_HEADROOM.search(question) \
                    and facility_name(question) is not None:
                return DEBT  # "headroom on the RCF" is what is left to draw, not a test
            return shape
    return None


_FACILITY_HEADROOM = re.compile(r"\bheadroom\b|\bundrawn\b|\bavailab\w+\b", _F)


# Key roles a management team is expected to have, with every way a document writes them.
KEY_ROLES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("CEO", re.compile(r"\bceo\b|chief executive|managing director|\bmd\b|geschäftsführer|"
                       r"general manager|president\b(?! of)", _F)),
    ("CFO", re.compile(r"\bcfo\b|chief financial|finance director|director of finance|"
                       r"head of finance|\bvp,? finance|kaufmännische\w* (?:leit|geschäfts)\w*|"
                       r"financial director|finanzgeschäftsführer\w*|geschäftsführer\w*\s*"
                       r"(?:\(\s*)?(?:für\s+)?finanzen", _F)),
)


_ROLE_ASK = re.compile(r"\bwho(?:'s| is| are| was)?\b|\bwer\b|\bname of\b|\bbackground\b|"
                       r"\bbio(?:graphy)?\b|\bexperience\b|\bprofile\b|\bwho holds\b", _F)


def asked_role(question: str) -> str | None:
    """The role a "who is the …?" question names ("Head of Sales", "CFO"), if any."""
    if not _ROLE_ASK.search(question):
        return None
    m = ROLE_WORDS.search(question)
    if m is None:
        return None
    role = m.group(0).strip()
    if role.lower() == "audits":  # "who audits the company?" asks for its auditor
        return "auditor"
    return re.sub(r"\s+(?:and|or|at|in|for|of the company)$", "", role, flags=_F)


# Which document roles hold the answer to a question, by what it asks about (any room, any style).
_ROLE_CUES: tuple[tuple[re.Pattern[str], tuple[DocumentRole, ...]], ...] = (
    (re.compile(r"\bbalance sheet|\bnet income|\bprofit|\bincome statement|\bp\s?&\s?l\b|"
                r"\bcash flow|\bnet debt|\bmargins?\b|\brevenue|\bebitda|\bfinancials?\b|"
                r"\baccounts\b|\baudit", _F), (R.AUDITED_STATEMENTS, R.MANAGEMENT_ACCOUNTS)),
    (re.compile(r"\bbudget|\bforecast|\bplan\b|\bprojection|\boutlook|\bguidance|\bnext year",
                _F), (R.BUDGET_FORECAST,)),
    (re.compile(r"\bquality of earnings|\bqoe\b|\badjust|\bnormali[sz]", _F), (R.QOE_REPORT,)),
    (re.compile(r"\bboard\b|\bminutes\b|\bdecisions?\b|\bmeetings?\b|\bresolv", _F),
     (R.BOARD_MINUTES,)),
    (re.compile(r"\brequests?\b|\birl\b|\boutstanding\b|\bopen items?\b", _F), (R.IRL,)),
    (re.compile(r"\bcorrespondence|\be-?mails?\b|\bletters?\b|\bwrote\b", _F),
     (R.CORRESPONDENCE,)),
    (re.compile(r"\bleases?\b|\bsites?\b|\bpremises|\bpropert|\brent\b|\boccup|\boffices?\b",
                _F), (R.LEASE_SCHEDULE,)),
    (re.compile(r"\bcontracts?\b|\bagreements?\b|\bchange[\s-]of[\s-]control|\btermination",
                _F), (R.CONTRACT, R.LEGAL_MEMO)),
    (re.compile(r"\blitigation|\blegal\b|\bclaims?\b|\bdisputes?|\blawsuits?", _F),
     (R.LEGAL_MEMO,)),
    (re.compile(r"\bemployees?\b|\bstaff\b|\bheadcount|\bsalar|\bpay\b|\bcensus", _F),
     (R.EMPLOYEE_CENSUS,)),
    (re.compile(r"\boperat(?:e|es|ing) in\b|\bwhere does\b|\bmarkets?\b|\bproducts?\b|"
                r"\bstrategy\b|\bcompetit|\bwhat does the (?:company|business)", _F),
     (R.PRESENTATION,)),
)


def roles_asked(question: str) -> tuple[DocumentRole, ...]:
    """The document roles a question's answer lives in (a shape's roles first)."""
    out: list[DocumentRole] = []
    shape = shape_for(question)
    if shape is not None:
        out += shape.roles
    if asked_role(question) is not None:
        out += MANAGEMENT.roles
    for pattern, roles in _ROLE_CUES:
        if pattern.search(question):
            out += [r for r in roles if r not in out]
    return tuple(dict.fromkeys(out))
