"""The vocabulary's shapes: a deal topic, a line item and one language's words, as read once."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from manda.models import DocumentRole
from manda.vocabulary.cues import Cues

UnitKind = Literal["currency", "percent", "count", "ratio"]


class _File(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# ---------------------------------------------------------------- as the files write them


class TopicRow(_File):
    """One row of topics.yaml: where a topic lives and how each consumer treats it."""

    key: str
    roles: tuple[DocumentRole, ...] = ()
    subjects: tuple[str, ...] = ()
    qa_category: str = "General"
    severity: int | None = None
    amount_leads: bool = False
    timeline: tuple[str, ...] = ()
    composer: str | None = None
    of_metrics: bool = False


class FlagKindRow(_File):
    key: str
    severity: int


class TopicTable(_File):
    topics: tuple[TopicRow, ...]
    red_flag_kinds: tuple[FlagKindRow, ...] = ()


class LineItemRow(_File):
    subject: str
    label: str
    unit: UnitKind
    family: str = ""
    stock: bool = False
    cost: bool = False
    metric: bool = True
    sheet: bool = False
    adjective: bool = False


class LineItemTable(_File):
    line_items: tuple[LineItemRow, ...]


class TopicWords(_File):
    """One language's words for one topic (every field optional outside English)."""

    label: str = ""
    flag: str = ""
    lead: str = ""
    asked: tuple[str, ...] = ()
    terms: tuple[str, ...] = ()
    stated: tuple[str, ...] = ()
    prefer: tuple[str, ...] = ()
    query: str = ""
    question: str = ""


SignalPlace = Literal["text", "opening", "header", "field", "greeting"]


class RoleSignal(_File):
    """How much one kind of evidence counts towards a role (its words are in the language files).

    `where`: text (the body), opening (title and first lines), header (a table's header cells),
    field (a line that starts with the word and a colon: "From:", "Objet :"), greeting (a short
    line that starts with the word and ends with a comma: "Dear Anna,")."""

    where: SignalPlace = "text"
    weight: float
    cap: int = 3  # counted at most this many times


class RoleRow(_File):
    """One row of roles.yaml: what a document of the role is worth and how it is read."""

    role: DocumentRole
    authority: float = Field(ge=0, le=1)  # the confidence a formal statement in it can reach
    authoritative: bool = False  # its figures are the reference (unless it is a draft)
    periodic: bool = False  # it reports periods (a year, a quarter, a month)
    forecast: bool = False  # its figures are plans, not actuals
    request_list: bool = False  # it asks for documents (the IRL): a checklist, not evidence
    as_of: bool = False  # its figures hold on a day (a cap table), not over a period
    signals: dict[str, RoleSignal] = {}


class RoleTable(_File):
    roles: tuple[RoleRow, ...]


Precision = Literal["day", "month", "quarter", "half", "year"]


class EventRow(_File):
    """One row of events.yaml: a kind of dated event the timeline reads from passages."""

    kind: str
    label: str
    topic: str | None = None  # its category and context come from the topic
    about: Literal["terms", "stated"] = "terms"  # which of the topic's words say it
    category: str | None = None
    context: tuple[str, ...] = ()  # named cue sets that also say what the sentence is about
    anywhere: bool = False  # needs no context
    person: bool = False  # a person's name also says it
    future: bool = False
    spans: tuple[Precision, ...] = ("day", "month", "quarter", "half", "year")


class EventTable(_File):
    events: tuple[EventRow, ...]


class RoleWords(_File):
    """One language's words for a document role."""

    label: str = ""  # how the language names the role ("comptes audités"); else its English label
    asked: tuple[str, ...] = ()  # a question whose answer lives in documents of the role
    signals: dict[str, tuple[str, ...]] = {}  # cue phrases by signal of roles.yaml
    names: tuple[str, ...] = ()  # a file name that hints at the role (a weak tie-breaker)
    requested: tuple[str, ...] = ()  # a request (an IRL row) naming a document of the role


class NumberWords(_File):
    """How a language writes amounts: its separators, scale words and currency words."""

    decimal: str = "."  # the decimal separator of the language's own writing
    # a word right after a number that multiplies it ("5.2 million", "3,4 Mio.", "1,2 Md")
    multipliers: dict[int, tuple[str, ...]] = {}
    # a unit after a number meaning thousands of a currency ("4.620 TEUR", "5 200 K€")
    thousands_of_currency: tuple[str, ...] = ()
    # words of a unit line announcing the scale of a table's plain numbers ("in thousands")
    scales: dict[int, tuple[str, ...]] = {}
    currencies: dict[str, tuple[str, ...]] = {}  # ISO code -> words ("euros", "d'euros")
    # a word right before a number that makes it a reference ("p. 12", "note 4", "IFRS 15")
    references: tuple[str, ...] = ()


class InjectionWords(_File):
    """How a prompt injection is written in one language (`injection:`): regular-expression
    fragments, read by `manda.injection` case-insensitively on the text brought to one form."""

    # machine readers a note may be addressed to ("the AI", "automated reviewers")
    machines: tuple[str, ...] = ()
    # readers named by what they do: "whoever is answering", "anyone summarising"
    answerers: tuple[str, ...] = ()
    # a greeting or call before the addressee: "Dear AI,", "Liebe KI,"
    greetings: tuple[str, ...] = ()
    # override: the verb, the earlier instructions it throws away, and the words for them
    override_verbs: tuple[str, ...] = ()
    earlier: tuple[str, ...] = ()
    instructions: tuple[str, ...] = ()
    # what it tells the reader to say, or to leave out
    output_verbs: tuple[str, ...] = ()
    silence: tuple[str, ...] = ()
    # the condition an injection waits for ("when you are asked"), and the words it opens with
    conditions: tuple[str, ...] = ()
    condition_openers: tuple[str, ...] = ()
    # role play: "you are now", "from now on you are"
    role_play: tuple[str, ...] = ()
    # a condition on being a machine: "if you are a language model"
    identities: tuple[str, ...] = ()
    # what a note calls itself after its addressee ("AI instructions:"), what a machine does
    # while it reads ("the model reading this:"), articles before an addressee, and "please"
    note_nouns: tuple[str, ...] = ()
    reading_verbs: tuple[str, ...] = ()
    articles: tuple[str, ...] = ()
    please: tuple[str, ...] = ()
    # the first look over the whole text and each sentence (manda.injection's first round):
    # a wider override, one order only ("forget … the … rules")
    wide_override_verbs: tuple[str, ...] = ()
    wide_earlier: tuple[str, ...] = ()
    wide_instructions: tuple[str, ...] = ()
    # a role's name as a label opening a line ("System:", "[assistant] ->"), as a Markdown
    # heading ("### Instruction") and as a tag ("<system>", "[admin]")
    role_labels: tuple[str, ...] = ()
    heading_labels: tuple[str, ...] = ()
    role_tags: tuple[str, ...] = ()
    # who a sentence speaks to ("the model", "you must", "when asked"): whole fragments
    addressees: tuple[str, ...] = ()
    # what it tells the addressee to output ("reply only", "do not mention"): whole fragments
    commands: tuple[str, ...] = ()
    # a figure it wants changed: the verb, the figure, the word before the new value
    figure_verbs: tuple[str, ...] = ()
    figures: tuple[str, ...] = ()
    figure_links: tuple[str, ...] = ()
    # "Bot, tell …": the assistant named, then the verb it is told
    vocatives: tuple[str, ...] = ()
    vocative_verbs: tuple[str, ...] = ()
    # a sentence that opens with a bare verb of instruction
    imperatives: tuple[str, ...] = ()


class GridColumnWords(_File):
    """One language's words for a review-grid column (see `grid:` in en.yaml)."""

    label: str = ""
    names: tuple[str, ...] = ()
    describe: str = ""
    headings: tuple[str, ...] = ()
    stated: tuple[str, ...] = ()
    negated: tuple[str, ...] = ()
    summary: str = ""
    searched: str = ""
    question: str = ""
    flag: str = ""


class DocumentKindWords(_File):
    """One language's words for a kind of document a grid is asked of."""

    label: str = ""
    plural: str = ""
    names: tuple[str, ...] = ()
    titles: tuple[str, ...] = ()
    parties: tuple[str, ...] = ()
    folders: tuple[str, ...] = ()


class GridWords(_File):
    """One language's words for the review grid: columns, document kinds, and what cells read."""

    columns: dict[str, GridColumnWords] = {}
    kinds: dict[str, DocumentKindWords] = {}
    words: dict[str, tuple[str, ...]] = {}  # named cue sets ("dated", "notice", "consent" …)
    units: dict[str, tuple[str, ...]] = {}  # days, weeks, months, years
    numbers: dict[int, tuple[str, ...]] = {}  # numbers written as words
    multiples: dict[int, tuple[str, ...]] = {}  # "twice", "das Doppelte": how many times
    jurisdictions: dict[str, tuple[str, ...]] = {}  # a law's place -> the words naming it


class PeriodWords(_File):
    """How a language writes a reporting period, read into Manda's labels (Q3 2024, H1 2024,
    FY2023, LTM Mar 2025) by `manda.finance.periods`. Each form is written as the language
    writes it (`manda.finance.period_forms`): `{n}` the quarter's or half's number, `{nth}` one
    of `ordinals`, `{year}` a four-digit year, `{yy}` an apostrophe and two digits, `{date}` a
    calendar date, `{month}` a month of a year; `a|b` either word, [words] may be left out."""

    quarters: tuple[str, ...] = ()  # "T{n} {year}", "{nth} trimestre [de] {year}"
    halves: tuple[str, ...] = ()  # "S{n} {year}", "{nth} semestre [de] {year}"
    years: tuple[str, ...] = ()  # "exercice {year}", "ejercicio {year}"
    # a year, quarter or half named by the day it ends: "exercice clos le {date}" is FY of the
    # date's year, "quarter ended {date}" its quarter, "six months ended {date}" H1 or H2
    year_ended: tuple[str, ...] = ()
    quarter_ended: tuple[str, ...] = ()
    half_ended: tuple[str, ...] = ()
    trailing: tuple[str, ...] = ()  # the twelve months to a month: "LTM {month}"
    # a quarter named without its year ("the {nth} quarter", "Q{n}", "three months ended
    # {monthday}"): a quarter of the year its text or document states
    quarter_alone: tuple[str, ...] = ()
    ordinals: dict[str, int] = {}  # premier: 1, troisième: 3, tercer: 3
    # words beside a year in a column header that keep it a year ("Actual 2023", "Ist 2024")
    header_words: tuple[str, ...] = ()
    # words before a bare year that make it the year's figures, in annual text ("in 2023")
    bare_year_leads: tuple[str, ...] = ()


class PluralRule(_File):
    """How a term's plural is formed: the words before its first link word ("ligne de crédit":
    `de`) take the plural, all of them ("dettes financières") or the last one ("credit lines",
    "Kreditlinien")."""

    words: Literal["all", "last"] = "last"
    links: tuple[str, ...] = ()
    # how a noun's ending becomes its plural's, the first that fits: "y>ies", "e>en", ">s"
    forms: tuple[str, ...] = ()


class StatementLineWords(_File):
    """One language's words for a statement line a computed metric reads (`statement_lines:`):
    how an answer names it, and how statements label its row (a label starting with one of
    `rows` states it: "Net cash provided by operating activities", "Umsatzerlöse")."""

    name: str = ""
    rows: tuple[str, ...] = ()


class StatementWords(_File):
    """One language's words for a financial statement (`statements:`, read by
    `manda.finance.statements`): how a question or a caption names it ("balance sheet", "Bilanz"),
    the rows only that statement carries, each a list of its wordings (a page stating enough
    different rows is that statement), and what a question asks that the statement answers
    ("capex" lives in the cash flow statement)."""

    names: tuple[str, ...] = ()
    rows: tuple[tuple[str, ...], ...] = ()
    asks: tuple[str, ...] = ()


class LanguageFile(_File):
    """One languages/<code>.yaml."""

    code: str = Field(pattern=r"^[a-z]{2}$")
    name: str
    topics: dict[str, TopicWords] = {}
    red_flags: dict[str, str] = {}
    searches: dict[str, str] = {}  # named passage searches of mechanisms that are no topic
    line_items: dict[str, tuple[str, ...]] = {}
    # the statement lines computed metrics read (manda.finance.derived), by their key
    statement_lines: dict[str, StatementLineWords] = {}
    # the financial statements, by their kind ("income statement", "balance sheet" …)
    statements: dict[str, StatementWords] = {}
    # a computed metric's name in an answer ("free cash flow" → "flux de trésorerie disponible")
    computed_metrics: dict[str, str] = {}
    # how a question names a computed metric (whole words, any case), by its name in en.yaml's
    # `computed_asked:` (manda.finance.derived: DERIVED); every language's names are read
    computed_asked: dict[str, tuple[str, ...]] = {}
    # a language's wordings of a line item the English equivalents list names that is no line
    # item of line_items.yaml (manda.finance.equivalents: "r&d", "tax rate", "eps"), by the
    # list's key: a question in the language reaches the document's words for it
    equivalents: dict[str, tuple[str, ...]] = {}
    cues: dict[str, tuple[str, ...]] = {}
    document_roles: dict[DocumentRole, RoleWords] = {}
    events: dict[str, tuple[str, ...]] = {}  # trigger words by kind of event (events.yaml)
    key_dates: dict[str, tuple[str, ...]] = {}  # a legal text's dates, by what they date
    numbers: NumberWords = NumberWords()
    periods: PeriodWords = PeriodWords()
    # reading a question: number words ("three" → 3), month names by number, the words that ask
    # for an event of a kind ("when does … expire")
    number_words: dict[str, int] = {}
    months: dict[int, tuple[str, ...]] = {}
    event_kinds: dict[str, tuple[str, ...]] = {}
    # writing an answer: the composers' sentences, `{name}` for what they fill in
    answers: dict[str, str] = {}
    grid: GridWords = GridWords()
    # how a prompt injection is written (manda.injection)
    injection: InjectionWords = InjectionWords()
    # reading a question's words (manda.agent.relevance): the endings a word is stemmed of, and
    # the words a deal team uses for the same thing, by concept (its key is its own noun)
    stem_suffixes: tuple[str, ...] = ()
    # the endings two forms of one word take after their shared root ("employe" / "employment"):
    # stems that begin alike and end otherwise are two words ("currenc" / "current")
    root_endings: tuple[str, ...] = ()
    # the endings one word family's stems take in keyword search's (Snowball) stemmer, verb and
    # noun ("acquir" / "acquisit", "reduc" / "reduct"): a question's word finds both
    stem_families: tuple[tuple[str, str], ...] = ()
    concepts: dict[str, tuple[str, ...]] = {}
    # words one another's in a question and a passage, none a topic of its own ("held" of
    # "hold", "role" for "job"), by the word they are read as
    word_forms: dict[str, tuple[str, ...]] = {}
    # a deal team's phrases read in a filing's words ("each quarter" is quarterly), by the
    # filing's words: cue phrases a question says, the key what a passage says for them
    asked_as: dict[str, tuple[str, ...]] = {}
    # a name and its initials ("United States", "U.S.", "US"), by the name: a question's words
    # and a passage's read each as one word, so "the U.S." asks for the "United States" row and
    # "the United Kingdom" for a "U.K." one
    initials: dict[str, tuple[str, ...]] = {}
    # the endings of a plural noun ("overdrafts", "facilities", "Kreditlinien"): a facility
    # named in the plural is a balance of several, not one facility sized
    plural_endings: tuple[str, ...] = ()
    # the qualifiers that name one measure of a thing among its siblings ("grant-date" /
    # "vesting-date" fair value, "federal" / "state" / "foreign" taxes, "operating" / "finance"
    # lease cost): a question that puts one on its line item is not answered by a sibling's
    # figure; `whole_measures` name the sum of every sibling ("total income taxes paid")
    sibling_measures: tuple[tuple[str, ...], ...] = ()
    whole_measures: tuple[str, ...] = ()
    # the measures of one amount that name the amount themselves ("fair value" / "carrying
    # amount" / "face value" of the debt), each a member's wordings joined by "|": siblings as
    # above, but no qualifier where they follow another ("grant-date fair value")
    value_measures: tuple[tuple[str, ...], ...] = ()
    # the measure a statement's row states where it names none ("carrying amount")
    stated_measures: tuple[str, ...] = ()
    # which words of a topic's term take the plural (manda.vocabulary.plurals)
    plural: PluralRule = PluralRule()
    # where a noun phrase puts its head: last ("operating loss carryforwards" is carryforwards,
    # "Umsatzerlöse" Erlöse) or first ("report de perte d'exploitation" is a report): how a row
    # label names its line item (manda.finance.label_heads)
    noun_head: Literal["first", "last"] = "last"


# ---------------------------------------------------------------- as the code reads them


@dataclass(frozen=True)
class Topic:
    """A deal topic, with its words in every language the product reads."""

    key: str
    roles: tuple[DocumentRole, ...]
    subjects: tuple[str, ...]
    category: str  # the Q&A category
    severity: int | None  # red flags: 1 is the most serious; None: no red flag
    amount_leads: bool
    timeline: tuple[str, ...]
    composer: str | None
    of_metrics: bool
    asked: Cues  # a question about it
    terms: Cues  # its own words: a question or passage that uses them touches it
    stated: Cues  # a sentence that states an item of it
    prefer: Cues  # wording that makes such a sentence the better statement
    words: dict[str, TopicWords] = field(compare=False, repr=False)  # by language code

    def _word(self, name: str, language: str) -> str:
        own = getattr(self.words.get(language), name, "") if language in self.words else ""
        return own or getattr(self.words["en"], name)

    def label_in(self, language: str = "en") -> str:
        return self._word("label", language)

    def query_in(self, language: str = "en") -> str:
        return self._word("query", language)

    def question_in(self, language: str = "en") -> str:
        return self._word("question", language)

    @property
    def label(self) -> str:
        return self.label_in()

    @property
    def flag_label(self) -> str:
        return self._word("flag", "en") or self.label

    @property
    def lead(self) -> str:
        return self.lead_in()

    def lead_in(self, language: str = "en") -> str:
        """How a red-flag lead names it: in `language` where its file gives a lead, else in
        English."""
        own = self.words.get(language)
        if own is not None and own.lead:
            return own.lead
        return self._word("lead", "en") or self.label.lower()

    @property
    def query(self) -> str:
        return self.query_in()

    def queries(self, languages: tuple[str, ...] = ("en",)) -> str:
        """The passage search for it in the languages a room is written in."""
        return " ".join(dict.fromkeys(self.query_in(code) for code in languages or ("en",)))

    @property
    def question(self) -> str:
        return self.question_in()

    @property
    def is_red_flag(self) -> bool:
        return self.severity is not None


@dataclass(frozen=True)
class Signal:
    """A role's weighted, capped count of cue phrases in one place of a document."""

    key: str
    where: SignalPlace
    weight: float
    cap: int
    cues: Cues


@dataclass(frozen=True)
class RoleSpec:
    """What a document is to a deal team (its role), what that makes it worth, and how each
    language names it: the one document classification (roles.yaml and the language files)."""

    role: DocumentRole
    authority: float
    authoritative: bool
    periodic: bool
    forecast: bool
    request_list: bool
    as_of: bool
    signals: tuple[Signal, ...]
    names: Cues  # in a file name
    requested: Cues  # in a request of an IRL
    asked: Cues  # in a question


@dataclass(frozen=True)
class EventKind:
    """A kind of dated event: the words that make a nearby date one, and what the sentence must
    be about (its topic's terms and named cue sets; a person's name where `person`)."""

    kind: str
    label: str
    category: str
    words: Cues
    context: Cues | None  # None: anywhere
    person: bool
    future: bool
    spans: tuple[Precision, ...]


@dataclass(frozen=True)
class LineItem:
    """A metric: its canonical subject, how to name it, what kind of number it takes."""

    subject: str
    label: str
    unit_kind: UnitKind
    synonyms: tuple[str, ...]  # every language's wordings
    family: str = ""
    stock: bool = False
    cost: bool = False
    metric: bool = True  # extracted as findings; else only read where a statement names it
    sheet: bool = False  # a balance-sheet line
    # its wordings qualify what they name ("non-recurring", "one-off"): a label they touch is one
    # ("Non-recurring legal settlement"), wherever they stand in it
    adjective: bool = False

    @property
    def group(self) -> str:
        return self.family or self.subject
