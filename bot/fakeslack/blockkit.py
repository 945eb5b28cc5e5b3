"""Slack's Block Kit limits, checked the way Slack does, so the bot's tests fail where Slack would.

Errors read like Slack's own `invalid_blocks` messages: what is wrong and a JSON pointer to it.
"""

from __future__ import annotations

from typing import Any

from slack_sdk.errors import SlackObjectFormationError
from slack_sdk.models.blocks import Block
from slack_sdk.models.views import View

MAX_MESSAGE_BLOCKS = 50
MAX_VIEW_BLOCKS = 100
SECTION_TEXT = 3000
SECTION_FIELDS = 10
FIELD_TEXT = 2000
CONTEXT_ELEMENTS = 10
CONTEXT_TEXT = 3000
ACTIONS_ELEMENTS = 25
BUTTON_TEXT = 75
BUTTON_VALUE = 2000
OVERFLOW_OPTIONS = 5  # https://docs.slack.dev/reference/block-kit/block-elements/overflow-menu-element
OPTION_TEXT = 75  # https://docs.slack.dev/reference/block-kit/composition-objects/option-object
OPTION_VALUE = 150
ACTION_ID = 255
BLOCK_ID = 255
HEADER_TEXT = 150
MARKDOWN_TEXT = 12000
MESSAGE_TEXT = 40000
VIEW_TITLE = 24  # a modal's title, submit and close texts
PRIVATE_METADATA = 3000
CALLBACK_ID = 255
INPUT_LABEL = 2000
# https://docs.slack.dev/reference/block-kit/blocks/table-block: at most 100 rows of at most 20
# cells (raw_text or rich_text), at most 20 column settings; one table a message (Slack answers
# `invalid_attachments` with `only_one_table_allowed` for a second one)
TABLE_ROWS = 100
TABLE_CELLS = 20
TABLE_COLUMN_SETTINGS = 20
TABLE_ALIGN = ("left", "center", "right")
OPTIONS = {"checkboxes": 10, "radio_buttons": 10, "static_select": 100,
           "multi_static_select": 100}  # https://docs.slack.dev/reference/block-kit/block-elements
OPTION_TEXT = 75
OPTION_VALUE = 150
INPUT_ELEMENTS = {
    "plain_text_input", "checkboxes", "static_select", "radio_buttons", "multi_static_select",
    "datepicker", "number_input", "users_select", "conversations_select", "channels_select",
}

KNOWN = {
    "section",
    "context",
    "actions",
    "divider",
    "header",
    "image",
    "rich_text",
    "markdown",
    "input",
    "file",
    "video",
    "table",
}


def validate_blocks(blocks: Any, *, limit: int = MAX_MESSAGE_BLOCKS) -> list[str]:
    """Every way `blocks` breaks Slack's rules; empty when Slack would accept them."""
    if not isinstance(blocks, list):
        return ["[ERROR] blocks must be an array [json-pointer:/blocks]"]
    errors: list[str] = []
    if len(blocks) > limit:
        errors.append(f"[ERROR] no more than {limit} items allowed [json-pointer:/blocks]")
    block_ids: set[str] = set()
    for i, block in enumerate(blocks):
        where = f"/blocks/{i}"
        if not isinstance(block, dict) or block.get("type") not in KNOWN:
            errors.append(f"[ERROR] unsupported block type [json-pointer:{where}/type]")
            continue
        bid = block.get("block_id")
        if bid is not None:
            if bid in block_ids:
                errors.append(f"[ERROR] duplicate block_id [json-pointer:{where}/block_id]")
            if len(str(bid)) > BLOCK_ID:
                errors.append(
                    f"[ERROR] must be less than {BLOCK_ID + 1} characters "
                    f"[json-pointer:{where}/block_id]"
                )
            block_ids.add(bid)
        errors.extend(_check_block(block, where))
        errors.extend(_sdk_check(block, where))
    return errors


def validate_modal(view: dict[str, Any]) -> list[str]:
    """Every way a modal breaks Slack's rules for `views.open`: its own fields, then its blocks.
    https://docs.slack.dev/reference/views/modal-views"""
    errors: list[str] = []
    for name, required in (("title", True), ("submit", False), ("close", False)):
        text = view.get(name)
        if text is None:
            if required:
                errors.append(f"[ERROR] missing required field: {name} [json-pointer:/view/{name}]")
            continue
        errors += _text_object(text, VIEW_TITLE, f"/view/{name}")
        if isinstance(text, dict) and text.get("type") != "plain_text":
            errors.append(f"[ERROR] must be plain_text [json-pointer:/view/{name}/type]")
    blocks = view.get("blocks", [])
    if "submit" not in view and any(isinstance(b, dict) and b.get("type") == "input"
                                    for b in blocks or []):
        errors.append("[ERROR] submit is required with input blocks [json-pointer:/view/submit]")
    if len(str(view.get("private_metadata", ""))) > PRIVATE_METADATA:
        errors.append(f"[ERROR] must be less than {PRIVATE_METADATA + 1} characters "
                      "[json-pointer:/view/private_metadata]")
    if len(str(view.get("callback_id", ""))) > CALLBACK_ID:
        errors.append(f"[ERROR] must be less than {CALLBACK_ID + 1} characters "
                      "[json-pointer:/view/callback_id]")
    errors += validate_blocks(blocks, limit=MAX_VIEW_BLOCKS)
    try:
        View(**{k: v for k, v in view.items() if k != "blocks"}, blocks=blocks).to_dict()
    except (SlackObjectFormationError, KeyError, TypeError, ValueError) as exc:
        errors.append(f"[ERROR] slack_sdk: {exc} [json-pointer:/view]")
    return errors


def _sdk_check(block: dict[str, Any], where: str) -> list[str]:
    """slack_sdk's own block model: parse the block and let it check its limits, so every
    payload the suite sends through the fake is held to the SDK's reading of Slack's rules too."""
    try:
        parsed = Block.parse(block)
        if parsed is None:
            return [f"[ERROR] slack_sdk cannot parse this block [json-pointer:{where}]"]
        parsed.to_dict()  # validates the block and, through to_dict, every element in it
    except (SlackObjectFormationError, KeyError, TypeError, ValueError) as exc:
        return [f"[ERROR] slack_sdk: {exc} [json-pointer:{where}]"]
    return []


def _too_long(text: Any, limit: int, where: str) -> list[str]:
    if not isinstance(text, str):
        return [f"[ERROR] must be a string [json-pointer:{where}]"]
    if len(text) > limit:
        return [f"[ERROR] must be less than {limit + 1} characters [json-pointer:{where}]"]
    if not text:
        return [f"[ERROR] must be more than 0 characters [json-pointer:{where}]"]
    return []


def _text_object(obj: Any, limit: int, where: str) -> list[str]:
    if not isinstance(obj, dict) or obj.get("type") not in ("mrkdwn", "plain_text"):
        return [f"[ERROR] must provide a text object [json-pointer:{where}]"]
    return _too_long(obj.get("text"), limit, f"{where}/text")


def _check_block(block: dict[str, Any], where: str) -> list[str]:
    kind = block["type"]
    errors: list[str] = []
    if kind == "section":
        if "text" not in block and "fields" not in block:
            errors.append(f"[ERROR] must provide text or fields [json-pointer:{where}]")
        if "text" in block:
            errors += _text_object(block["text"], SECTION_TEXT, f"{where}/text")
        fields = block.get("fields", [])
        if len(fields) > SECTION_FIELDS:
            errors.append(
                f"[ERROR] no more than {SECTION_FIELDS} items allowed [json-pointer:{where}/fields]"
            )
        for j, f in enumerate(fields):
            errors += _text_object(f, FIELD_TEXT, f"{where}/fields/{j}")
        if "accessory" in block:
            errors += _check_element(block["accessory"], f"{where}/accessory")
    elif kind == "context":
        elements = block.get("elements", [])
        if not elements or len(elements) > CONTEXT_ELEMENTS:
            errors.append(
                f"[ERROR] must have 1 to {CONTEXT_ELEMENTS} items [json-pointer:{where}/elements]"
            )
        for j, e in enumerate(elements):
            if isinstance(e, dict) and e.get("type") == "image":
                continue
            errors += _text_object(e, CONTEXT_TEXT, f"{where}/elements/{j}")
    elif kind == "actions":
        elements = block.get("elements", [])
        if not elements or len(elements) > ACTIONS_ELEMENTS:
            errors.append(
                f"[ERROR] must have 1 to {ACTIONS_ELEMENTS} items [json-pointer:{where}/elements]"
            )
        seen: set[str] = set()
        for j, e in enumerate(elements):
            errors += _check_element(e, f"{where}/elements/{j}")
            action_id = e.get("action_id") if isinstance(e, dict) else None
            if action_id in seen:
                errors.append(f"[ERROR] duplicate action_id [json-pointer:{where}/elements/{j}]")
            if action_id:
                seen.add(action_id)
    elif kind == "header":
        errors += _text_object(block.get("text"), HEADER_TEXT, f"{where}/text")
        if isinstance(block.get("text"), dict) and block["text"].get("type") != "plain_text":
            errors.append(f"[ERROR] must be plain_text [json-pointer:{where}/text/type]")
    elif kind == "input":
        errors += _text_object(block.get("label"), INPUT_LABEL, f"{where}/label")
        element = block.get("element")
        if not isinstance(element, dict) or element.get("type") not in INPUT_ELEMENTS:
            errors.append(f"[ERROR] unsupported input element [json-pointer:{where}/element]")
        else:
            errors += _check_options(element, f"{where}/element")
    elif kind == "markdown":
        errors += _too_long(block.get("text"), MARKDOWN_TEXT, f"{where}/text")
    elif kind == "table":
        errors += _check_table(block, where)
    return errors


def tables_in(blocks: Any) -> int:
    """How many table blocks a message holds (Slack takes one)."""
    return sum(1 for b in blocks or [] if isinstance(b, dict) and b.get("type") == "table")


def _check_table(block: dict[str, Any], where: str) -> list[str]:
    rows = block.get("rows")
    if not isinstance(rows, list) or not rows or len(rows) > TABLE_ROWS:
        return [f"[ERROR] must have 1 to {TABLE_ROWS} items [json-pointer:{where}/rows]"]
    errors: list[str] = []
    for r, row in enumerate(rows):
        at = f"{where}/rows/{r}"
        if not isinstance(row, list) or not row or len(row) > TABLE_CELLS:
            errors.append(f"[ERROR] must have 1 to {TABLE_CELLS} items [json-pointer:{at}]")
            continue
        for c, cell in enumerate(row):
            kind = cell.get("type") if isinstance(cell, dict) else None
            if kind == "raw_text":
                errors += _too_long(cell.get("text"), MESSAGE_TEXT, f"{at}/{c}/text")
            elif kind == "rich_text":
                if not isinstance(cell.get("elements"), list) or not cell["elements"]:
                    errors.append(f"[ERROR] must provide elements [json-pointer:{at}/{c}]")
            else:
                errors.append(f"[ERROR] a table cell must be raw_text or rich_text "
                              f"[json-pointer:{at}/{c}/type]")
    settings = block.get("column_settings", [])
    if not isinstance(settings, list) or len(settings) > TABLE_COLUMN_SETTINGS:
        errors.append(f"[ERROR] no more than {TABLE_COLUMN_SETTINGS} items allowed "
                      f"[json-pointer:{where}/column_settings]")
    else:
        for c, setting in enumerate(settings):
            if not isinstance(setting, dict) or setting.get("align", "left") not in TABLE_ALIGN \
                    or not isinstance(setting.get("is_wrapped", False), bool):
                errors.append(f"[ERROR] invalid column setting "
                              f"[json-pointer:{where}/column_settings/{c}]")
    return errors


def _check_options(element: dict[str, Any], where: str) -> list[str]:
    """Option lists: how many an element holds, and each option's text and value. A select
    takes `options` or `option_groups` (each a label and its options), never both
    (https://docs.slack.dev/reference/block-kit/block-elements/select-menu-element)."""
    limit = OPTIONS.get(str(element.get("type")))
    if limit is None:
        return []
    groups = element.get("option_groups")
    if groups is not None and element.get("type") in ("static_select", "multi_static_select"):
        if "options" in element:
            return [f"[ERROR] options and option_groups cannot both be given "
                    f"[json-pointer:{where}]"]
        if not isinstance(groups, list) or not groups or len(groups) > limit:
            return [f"[ERROR] must have 1 to {limit} items [json-pointer:{where}/option_groups]"]
        errors: list[str] = []
        for g, group in enumerate(groups):
            at = f"{where}/option_groups/{g}"
            errors += _text_object(group.get("label") if isinstance(group, dict) else None,
                                   OPTION_TEXT, f"{at}/label")
            errors += _option_list(group.get("options") if isinstance(group, dict) else None,
                                   limit, at)
        return errors
    return _option_list(element.get("options"), limit, where)


def _option_list(options: Any, limit: int, where: str) -> list[str]:
    options = options or []
    errors = []
    if not options or len(options) > limit:
        errors.append(f"[ERROR] must have 1 to {limit} items [json-pointer:{where}/options]")
    for j, option in enumerate(options):
        at = f"{where}/options/{j}"
        if not isinstance(option, dict):
            errors.append(f"[ERROR] must be an object [json-pointer:{at}]")
            continue
        errors += _text_object(option.get("text"), OPTION_TEXT, f"{at}/text")
        errors += _too_long(option.get("value"), OPTION_VALUE, f"{at}/value")
    return errors


def _check_element(element: Any, where: str) -> list[str]:
    if not isinstance(element, dict):
        return [f"[ERROR] must be an object [json-pointer:{where}]"]
    errors: list[str] = []
    if element.get("type") == "button":
        errors += _text_object(element.get("text"), BUTTON_TEXT, f"{where}/text")
        if "value" in element:
            errors += _too_long(element["value"], BUTTON_VALUE, f"{where}/value")
        if len(str(element.get("action_id", ""))) > ACTION_ID:
            errors.append(
                f"[ERROR] must be less than {ACTION_ID + 1} characters "
                f"[json-pointer:{where}/action_id]"
            )
        if element.get("style") not in (None, "primary", "danger"):
            errors.append(f"[ERROR] must be primary or danger [json-pointer:{where}/style]")
    elif element.get("type") == "overflow":
        options = element.get("options") or []
        if not 1 <= len(options) <= OVERFLOW_OPTIONS:
            errors.append(f"[ERROR] must have 1 to {OVERFLOW_OPTIONS} items "
                          f"[json-pointer:{where}/options]")
        for j, option in enumerate(options):
            at = f"{where}/options/{j}"
            errors += _text_object(option.get("text") if isinstance(option, dict) else None,
                                   OPTION_TEXT, f"{at}/text")
            errors += _too_long(option.get("value") if isinstance(option, dict) else None,
                                OPTION_VALUE, f"{at}/value")
    return errors
