// A modal the app opened with views.open, drawn as Slack draws one: title, blocks, input blocks
// (plain_text_input, checkboxes, static_select) with the errors the app returned under each, and
// Cancel / submit. Submitting sends {block_id: {action_id: value}} to the local Slack, which posts
// the app the same view_submission Slack would.

import { esc, renderBlocks, textObject } from "./blockkit.js";

function node(tag, className, html) {
  const n = document.createElement(tag);
  if (className) n.className = className;
  if (html !== undefined) n.innerHTML = html;
  return n;
}

function optionValue(option) {
  return String(option.value ?? "");
}

// One input element; returns [DOM node, () => the value to submit].
function inputElement(element, ctx) {
  const id = `modal-${element.action_id}`;
  if (element.type === "checkboxes") {
    const box = node("div", "modal-checkboxes");
    const initial = new Set((element.initial_options || []).map(optionValue));
    const inputs = [];
    for (const option of element.options || []) {
      const label = node("label", "modal-checkbox");
      const input = document.createElement("input");
      input.type = "checkbox";
      input.value = optionValue(option);
      input.checked = initial.has(input.value);
      label.appendChild(input);
      label.appendChild(node("span", "", textObject(option.text, ctx)));
      box.appendChild(label);
      inputs.push(input);
    }
    return [box, () => inputs.filter((i) => i.checked).map((i) => i.value)];
  }
  if (element.type === "static_select" || element.type === "radio_buttons") {
    const select = document.createElement("select");
    select.id = id;
    select.className = "modal-select";
    const addOptions = (parent, options) => {
      for (const option of options || []) {
        const choice = document.createElement("option");
        choice.value = optionValue(option);
        choice.textContent = option.text?.text ?? choice.value;
        if (option.description?.text) choice.title = option.description.text;
        parent.appendChild(choice);
      }
    };
    addOptions(select, element.options);
    for (const group of element.option_groups || []) {  // a select's options in labelled groups
      const optgroup = document.createElement("optgroup");
      optgroup.label = group.label?.text ?? "";
      addOptions(optgroup, group.options);
      select.appendChild(optgroup);
    }
    if (element.initial_option) select.value = optionValue(element.initial_option);
    return [select, () => select.value || null];
  }
  if (element.type === "plain_text_input") {
    const field = document.createElement(element.multiline ? "textarea" : "input");
    field.id = id;
    field.className = "modal-text";
    if (element.max_length) field.maxLength = element.max_length;
    if (element.placeholder) field.placeholder = element.placeholder.text || "";
    field.value = element.initial_value || "";
    if (element.multiline) field.rows = 3;
    return [field, () => field.value];
  }
  const unsupported = node("div", "bk-unsupported", `<span class="dim">(${esc(element.type)} — not in the playground)</span>`);
  return [unsupported, () => null];
}

// The whole modal; `onSubmit(values)` and `onClose()` are the page's calls to the local Slack.
export function renderModal(modal, ctx, { onSubmit, onClose }) {
  const { view, errors = {} } = modal;
  const overlay = node("div", "modal-overlay");
  const dialog = node("div", "modal");
  dialog.setAttribute("role", "dialog");
  dialog.setAttribute("aria-modal", "true");
  dialog.setAttribute("aria-label", view.title?.text || "Modal");
  const head = node("div", "modal-head");
  head.appendChild(node("div", "modal-title", textObject(view.title, ctx)));
  const x = node("button", "icon-button", "✕");
  x.type = "button";
  x.title = "Close";
  x.addEventListener("click", onClose);
  head.appendChild(x);
  dialog.appendChild(head);

  const body = node("div", "modal-body");
  const readers = {};
  for (const block of view.blocks || []) {
    if (block.type !== "input") {
      body.appendChild(renderBlocks([block], ctx));
      continue;
    }
    const group = node("div", "modal-input");
    group.dataset.blockId = block.block_id || "";
    const label = node("label", "modal-label", textObject(block.label, ctx));
    if (block.optional) label.appendChild(node("span", "dim", " (optional)"));
    group.appendChild(label);
    const [field, read] = inputElement(block.element || {}, ctx);
    if (field.id) label.htmlFor = field.id;
    group.appendChild(field);
    if (block.hint) group.appendChild(node("div", "modal-hint dim", textObject(block.hint, ctx)));
    body.appendChild(group);
    readers[block.block_id] = { [block.element?.action_id]: read };
  }
  dialog.appendChild(body);

  const foot = node("div", "modal-foot");
  const cancel = node("button", "bk-button", textObject(view.close || { type: "plain_text", text: "Cancel" }, ctx));
  cancel.type = "button";
  cancel.addEventListener("click", onClose);
  foot.appendChild(cancel);
  if (view.submit) {
    const submit = node("button", "bk-button bk-primary modal-submit", textObject(view.submit, ctx));
    submit.type = "button";
    submit.addEventListener("click", () => {
      submit.disabled = true;
      const values = {};
      for (const [blockId, actions] of Object.entries(readers)) {
        values[blockId] = Object.fromEntries(Object.entries(actions).map(([a, read]) => [a, read()]));
      }
      onSubmit(values).finally(() => {
        submit.disabled = false;
      });
    });
    foot.appendChild(submit);
  }
  dialog.appendChild(foot);
  overlay.appendChild(dialog);
  // Errors from the app's ack go under their fields; what was typed stays, as in Slack.
  overlay.showErrors = (found) => {
    for (const group of body.querySelectorAll(".modal-input")) {
      group.querySelector(".modal-error")?.remove();
      const error = (found || {})[group.dataset.blockId];
      group.classList.toggle("has-error", Boolean(error));
      if (error) group.appendChild(node("div", "modal-error", esc(error)));
    }
  };
  overlay.viewId = view.id;
  overlay.viewHash = view.hash; // a view updated in place (response_action: update) is new content
  overlay.showErrors(errors);
  return overlay;
}
