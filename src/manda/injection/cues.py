"""The words a prompt injection is written with, per language, as data: the detector
(`manda.injection`) builds its patterns from these tables. A new language is one more entry.

English is also read by the detector's first-round patterns; these tables carry what is shared
by every language: who an injection speaks to, how it overrides earlier instructions, what it
tells the reader to output or hide, and the condition it waits for.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class InjectionCues:
    """One language's words (regular-expression fragments, matched case-insensitively on the
    normalised text; `manda.text_forms.matching_form`)."""

    language: str
    # machine readers a note may be addressed to ("the AI", "automated reviewers")
    machines: tuple[str, ...]
    # readers named by what they do: "whoever is answering", "anyone summarising"
    answerers: tuple[str, ...]
    # a greeting or call before the addressee: "Dear AI,", "Liebe KI,"
    greetings: tuple[str, ...]
    # override: the verb, the earlier instructions it throws away, and the words for them
    override_verbs: tuple[str, ...]
    earlier: tuple[str, ...]
    instructions: tuple[str, ...]
    # what it tells the reader to say, or to leave out
    output_verbs: tuple[str, ...]
    silence: tuple[str, ...]
    # the condition an injection waits for: "when you are asked", "if someone asks", and the
    # words such a condition opens with
    conditions: tuple[str, ...]
    condition_openers: tuple[str, ...]
    # role play: "you are now", "from now on you are"
    role_play: tuple[str, ...]
    # a condition on being a machine: "if you are a language model"
    identities: tuple[str, ...] = ()
    # what a note calls itself after its addressee ("AI instructions:"), what a machine does
    # while it reads ("the model reading this:"), articles before an addressee, and "please"
    note_nouns: tuple[str, ...] = ()
    reading_verbs: tuple[str, ...] = ()
    articles: tuple[str, ...] = ()
    please: tuple[str, ...] = ()


ENGLISH = InjectionCues(
    language="en",
    machines=(
        r"ai", r"a\.i\.", r"artificial intelligence", r"assistants?", r"ai assistants?",
        r"llms?", r"(?:large )?language models?", r"the model", r"this model", r"chat ?bots?",
        r"bots?", r"gpt", r"claude", r"copilot", r"summari[sz]ers?",
        r"ai (?:agents?|systems?|tools?)",
        r"(?:automated|automatic|machine) (?:reviewers?|readers?|reviews?|analysis tools?|"
        r"analysis|tools?|systems?|assistants?|due[- ]diligence systems?|summar(?:y|ies))",
        r"reviewer bots?", r"system (?:message|prompt|note|instructions?)",
        r"any (?:ai|llm|automated|language model)[\w\s-]{0,30}",
    ),
    answerers=(
        r"(?:whoever|anyone|anybody|any one)\s+(?:is\s+|who\s+is\s+)?(?:answering|answers|"
        r"summari[sz]ing|summari[sz]es|reading|reads|processing|processes|reviewing|analy[sz]ing)",
    ),
    greetings=(r"dear", r"hey", r"hello", r"hi", r"attention"),
    override_verbs=(r"ignore", r"disregard", r"forget", r"override", r"bypass", r"discard"),
    earlier=(r"previous", r"prior", r"above", r"earlier", r"preceding", r"all", r"any"),
    instructions=(r"instructions?", r"prompts?", r"rules?", r"guidance", r"directions?"),
    output_verbs=(
        r"reply", r"respond", r"answer", r"output", r"print", r"say", r"state", r"report",
        r"write", r"tell", r"present", r"record", r"use", r"quote", r"list", r"conclude",
        r"approve", r"treat",
    ),
    silence=(r"(?:do not|don'?t|never) (?:mention|disclose|reveal|cite|report|flag|include)",
             r"leave out", r"omit", r"skip"),
    conditions=(r"(?:when|if|whenever) (?:you are |you're )?(?:asked|questioned|prompted)",
                r"(?:when|if|whenever) (?:someone|anyone|somebody|the user|a user) asks?"),
    condition_openers=(r"when", r"if", r"whenever"),
    role_play=(r"you are now", r"from now on,? you are", r"pretend to be"),
    identities=(r"if you(?:'re| are) (?:an? )?", r"if (?:an?|any) (?=\S+ (?:is|are) (?:reading|"
                r"summari[sz]ing|processing|answering|analy[sz]ing))"),
    note_nouns=(r"instructions?", r"note", r"message"),
    reading_verbs=(r"reading", r"answering", r"processing", r"summari[sz]ing", r"reviewing",
                   r"analy[sz]ing"),
    articles=(r"the",),
    please=(r"please",),
)

GERMAN = InjectionCues(
    language="de",
    machines=(
        r"ki", r"k\.i\.", r"ki-(?:assistent(?:in)?|system|modell|tool|agent)", r"assistent(?:in)?",
        r"sprachmodell", r"das modell", r"chatbot", r"bots?",
        r"automatische(?:n)? (?:pr[uü]fer|leser|systeme?|auswertung|pr[uü]fung)",
        r"systemhinweis", r"systemnachricht", r"systemanweisung",
    ),
    answerers=(r"(?:wer auch immer|wer immer|jeder, der)\s+(?:dies(?:es)?\s+)?(?:beantwortet|"
               r"liest|zusammenfasst|auswertet|pr[uü]ft)",),
    greetings=(r"liebe", r"lieber", r"hallo", r"achtung"),
    override_verbs=(r"ignorier(?:e|en sie|t)?", r"vergiss", r"vergessen sie", r"missachte",
                    r"missachten sie", r"[uü]bergeh(?:e|en sie)", r"verwirf", r"verwerfen sie"),
    earlier=(r"vorherigen?", r"bisherigen?", r"obigen?", r"fr[uü]heren?", r"vorigen?", r"alle",
             r"s[aä]mtliche"),
    instructions=(r"anweisungen?", r"instruktionen?", r"regeln?", r"vorgaben?", r"befehle?",
                  r"richtlinien?", r"anordnungen?"),
    output_verbs=(r"antworte", r"antworten sie", r"gib", r"geben sie", r"sage", r"sag",
                  r"sagen sie", r"nenne", r"nennen sie", r"berichte", r"melde", r"schreibe",
                  r"stelle", r"behaupte", r"gib\b.{0,40}\baus"),
    silence=(r"erw[aä]hne\b.{0,40}\bnicht", r"erw[aä]hnen sie\b.{0,40}\bnicht", r"verschweige",
             r"verschweigen sie", r"lass\b.{0,30}\bweg", r"nenne\b.{0,40}\bnicht"),
    conditions=(r"wenn (?:du|sie|dich jemand|man dich|jemand)\b.{0,40}\b(?:gefragt wirst|"
                r"gefragt werden|fragt)", r"falls (?:du|sie|jemand)\b.{0,40}\b(?:gefragt wirst|"
                r"gefragt werden|fragt)"),
    condition_openers=(r"wenn", r"falls"),
    role_play=(r"du bist (?:jetzt|ab sofort|nun)", r"sie sind (?:jetzt|ab sofort|nun)",
               r"ab sofort bist du"),
    identities=(r"(?:wenn|falls) du (?:eine?|ein) ",),
    note_nouns=(r"hinweis", r"nachricht", r"anweisungen?"),
    articles=(r"die", r"das", r"den"),
    please=(r"bitte",),
)

FRENCH = InjectionCues(
    language="fr",
    machines=(
        r"ia", r"i\.a\.", r"intelligence artificielle", r"assistant(?:e)?(?: ia| virtuel(?:le)?)?",
        r"mod[eè]le de langage", r"le mod[eè]le", r"l'ia", r"chatbot", r"agent conversationnel",
        r"robots?", r"(?:relecteurs?|lecteurs?|outils?|syst[eè]mes?|correcteurs?) automatis[ée]s?",
        r"message syst[eè]me", r"consigne syst[eè]me",
    ),
    answerers=(r"(?:quiconque|qui que ce soit qui)\s+(?:r[ée]pond|lit|r[ée]sume|analyse)",),
    greetings=(r"ch[eè]re?", r"bonjour", r"attention"),
    override_verbs=(r"ignore[sz]?", r"oublie[sz]?", r"ne (?:tiens|tenez) pas compte",
                    r"(?:fais|faites) abstraction", r"n[ée]glige[sz]?", r"ecarte[sz]?",
                    r"[ée]carte[sz]?"),
    earlier=(r"pr[ée]c[ée]dent(?:e|es|s)?", r"ci-dessus", r"ant[ée]rieur(?:e|es|s)?",
             r"initiales?", r"toutes? les", r"tous les"),
    instructions=(r"instructions?", r"consignes?", r"r[eè]gles?", r"directives?",
                  r"indications?", r"ordres?"),
    output_verbs=(r"r[ée]ponds", r"r[ée]pondez", r"dis", r"dites", r"indique", r"indiquez",
                  r"affirme", r"affirmez", r"[ée]cris", r"[ée]crivez", r"d[ée]clare",
                  r"d[ée]clarez", r"approuvez", r"approuve"),
    silence=(r"ne (?:mentionne|mentionnez|signale|signalez|cite|citez|r[ée]v[eè]le|r[ée]v[ée]lez)"
             r"\b.{0,20}\bpas", r"passe[sz]? sous silence", r"omet[sz]?"),
    conditions=(r"(?:si|lorsqu'|quand|lorsque) ?(?:on|l'on) (?:te|vous) (?:demande|interroge)",
                r"si (?:quelqu'un|un utilisateur) (?:te |vous )?(?:demande|interroge)"),
    condition_openers=(r"si", r"lorsqu'?", r"lorsque", r"quand"),
    role_play=(r"tu es d[ée]sormais", r"vous [eê]tes d[ée]sormais", r"[àa] partir de maintenant,? "
               r"(?:tu es|vous [eê]tes)"),
    identities=(r"si (?:tu es|vous [eê]tes) (?:une?) ",),
    note_nouns=(r"consignes?", r"message"),
    articles=(r"le", r"la", r"l'"),
    please=(r"s'il (?:te|vous) pla[iî]t,?",),
)

SPANISH = InjectionCues(
    language="es",
    machines=(
        r"ia", r"i\.a\.", r"inteligencia artificial", r"asistente(?: de ia| virtual)?",
        r"modelo de lenguaje", r"el modelo", r"chatbot", r"bots?",
        r"(?:revisores?|lectores?|herramientas?|sistemas?) autom[aá]tic(?:o|a|os|as)",
        r"mensaje del sistema", r"instrucci[oó]n del sistema",
    ),
    answerers=(r"(?:quienquiera que|quien|cualquiera que)\s+(?:responda|lea|resuma|analice)",),
    greetings=(r"querid[oa]", r"estimad[oa]", r"hola", r"atenci[oó]n"),
    override_verbs=(r"ignora", r"ignore", r"olvida", r"olvide", r"omite", r"omita", r"descarta",
                    r"descarte", r"no hagas caso", r"no haga caso"),
    earlier=(r"anteriores", r"previas", r"precedentes", r"de arriba", r"todas las", r"todos los"),
    instructions=(r"instrucciones", r"indicaciones", r"reglas", r"directrices", r"[oó]rdenes",
                  r"normas"),
    output_verbs=(r"responde", r"responda", r"di", r"diga", r"indica", r"indique", r"afirma",
                  r"afirme", r"escribe", r"escriba", r"informa", r"aprueben?", r"aprueba"),
    silence=(r"no (?:menciones|mencione|informes|informe|cites|cite|reveles|revele)",
             r"omite", r"omita"),
    conditions=(r"(?:si|cuando) (?:te|le|les) (?:preguntan|pregunten)",
                r"si (?:alguien|un usuario) (?:te |le )?pregunta"),
    condition_openers=(r"si", r"cuando"),
    role_play=(r"(?:ahora|a partir de ahora) eres", r"ahora es usted"),
    identities=(r"si (?:eres|es usted) (?:una?) ",),
    note_nouns=(r"instrucciones", r"mensaje", r"nota"),
    articles=(r"el", r"la"),
    please=(r"por favor,?",),
)

LANGUAGES: tuple[InjectionCues, ...] = (ENGLISH, GERMAN, FRENCH, SPANISH)
