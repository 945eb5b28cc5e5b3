// Block Kit, mrkdwn and markdown rendered the way Slack shows them, from the blocks the bot sent.
// Pure functions: text in, escaped HTML or DOM nodes out. Nothing here talks to the server.

const EMOJI = {
  "+1": "👍", "-1": "👎", thumbsup: "👍", thumbsdown: "👎", eyes: "👀", white_check_mark: "✅",
  heavy_check_mark: "✔️", x: "❌", warning: "⚠️", memo: "📝", hourglass: "⌛",
  hourglass_flowing_sand: "⏳", page_facing_up: "📄", link: "🔗", tada: "🎉", mag: "🔍",
  rotating_light: "🚨", red_circle: "🔴", large_green_circle: "🟢", bulb: "💡", pushpin: "📌",
  chart_with_upwards_trend: "📈", chart_with_downwards_trend: "📉", information_source: "ℹ️",
  small_red_triangle: "🔺", question: "❓", speech_balloon: "💬", wave: "👋", robot_face: "🤖",
};

export function emoji(name) {
  return EMOJI[name] || `:${name}:`;
}

export function esc(text) {
  return String(text ?? "")
    .replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

// Slack escapes only &, < and > in message text; undo that before escaping for HTML.
export function decode(text) {
  return String(text ?? "").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

function safeUrl(url) {
  return /^(https?:|mailto:)/i.test(url) ? url : null;
}

function userName(ctx, id) {
  const user = ctx.users?.[id];
  return user ? (user.is_bot ? user.real_name : user.real_name || user.name) : id;
}

function angle(inner, ctx) {
  const [target, label] = splitOnce(inner, "|");
  if (target.startsWith("@")) {
    const id = target.slice(1);
    const mine = id === ctx.me ? " mention-me" : "";
    return `<span class="mention${mine}">@${esc(label ? decode(label) : userName(ctx, id))}</span>`;
  }
  if (target.startsWith("#")) {
    const id = target.slice(1);
    const name = label ? decode(label) : ctx.channels?.[id]?.name || id;
    return `<a href="#" class="channel-link" data-channel="${esc(id)}">#${esc(name)}</a>`;
  }
  if (target.startsWith("!")) {
    const special = target.slice(1).split("^")[0];
    if (["here", "channel", "everyone"].includes(special)) {
      return `<span class="mention">@${special}</span>`;
    }
    return esc(label ? decode(label) : special);
  }
  const url = safeUrl(decode(target));
  const text = esc(decode(label || target));
  return url ? `<a href="${esc(url)}" target="_blank" rel="noopener noreferrer">${text}</a>` : text;
}

function splitOnce(text, sep) {
  const at = text.indexOf(sep);
  return at < 0 ? [text, ""] : [text.slice(0, at), text.slice(at + 1)];
}

function withSlots(render) {
  const slots = [];
  const keep = (html) => `\u0000${slots.push(html) - 1}\u0000`;
  const restore = (html) => {
    let out = html;
    while (/\u0000\d+\u0000/.test(out)) {
      out = out.replace(/\u0000(\d+)\u0000/g, (_, i) => slots[Number(i)]);
    }
    return out;
  };
  return restore(render(keep));
}

// Slack mrkdwn: *bold*, _italic_, ~strike~, `code`, ```blocks```, > quotes, <links|and> <@mentions>.
export function mrkdwn(source, ctx = {}) {
  return withSlots((keep) => {
    let s = String(source ?? "");
    s = s.replace(/```\n?([\s\S]*?)\n?```/g, (_, code) => keep(`<pre class="code-block">${esc(decode(code))}</pre>`));
    s = s.replace(/`([^`\n]+)`/g, (_, code) => keep(`<code>${esc(decode(code))}</code>`));
    s = s.replace(/<([^<>\n]+)>/g, (_, inner) => keep(angle(inner, ctx)));
    s = s.replace(/:([a-z0-9_+-]+):/g, (whole, name) => (EMOJI[name] ? EMOJI[name] : whole));
    s = esc(decode(s));
    s = s.replace(/(^|\n)&gt; ?([^\n]*)/g, "$1<blockquote>$2</blockquote>");
    s = s.replace(/(^|[\s(>_~\u0000"“'])\*(?=\S)([^\n]*?\S)\*(?![\w*])/g, "$1<b>$2</b>");
    s = s.replace(/(^|[\s(>*~\u0000"“'])_(?=\S)([^\n]*?\S)_(?![\w])/g, "$1<i>$2</i>");
    s = s.replace(/(^|[\s(>*_\u0000"“'])~(?=\S)([^\n~]*?\S)~(?![\w~])/g, "$1<s>$2</s>");
    s = s.replace(/<\/blockquote>\n/g, "</blockquote>");
    s = s.replace(/\n/g, "<br>");
    return s;
  });
}

// Standard markdown (markdown blocks, streamed answers): headings, lists, tables, code, quotes.
export function markdown(source, ctx = {}) {
  const lines = String(source ?? "").replace(/\r\n/g, "\n").split("\n");
  const out = [];
  let i = 0;
  const inline = (text) => mdInline(text, ctx);
  while (i < lines.length) {
    const line = lines[i];
    if (/^\s*```/.test(line)) {
      const body = [];
      i += 1;
      while (i < lines.length && !/^\s*```/.test(lines[i])) body.push(lines[i++]);
      i += 1;
      out.push(`<pre class="code-block">${esc(decode(body.join("\n")))}</pre>`);
      continue;
    }
    if (line.includes("|") && i + 1 < lines.length && /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/.test(lines[i + 1])) {
      const rows = [cells(line)];
      i += 2;
      while (i < lines.length && lines[i].includes("|") && lines[i].trim()) rows.push(cells(lines[i++]));
      out.push(tableHtml(rows.map((r) => r.map(inline)), true));
      continue;
    }
    const heading = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const level = Math.min(heading[1].length + 2, 6);
      out.push(`<h${level} class="md-h">${inline(heading[2])}</h${level}>`);
      i += 1;
      continue;
    }
    if (/^\s{0,3}([-*_])(\s*\1){2,}\s*$/.test(line)) {
      out.push("<hr>");
      i += 1;
      continue;
    }
    const list = /^\s*([-*+]|\d+[.)])\s+/.exec(line);
    if (list) {
      const ordered = /\d/.test(list[1]);
      const items = [];
      while (i < lines.length && /^\s*([-*+]|\d+[.)])\s+/.test(lines[i])) {
        items.push(`<li>${inline(lines[i].replace(/^\s*([-*+]|\d+[.)])\s+/, ""))}</li>`);
        i += 1;
      }
      const tag = ordered ? "ol" : "ul";
      out.push(`<${tag}>${items.join("")}</${tag}>`);
      continue;
    }
    if (/^\s*>/.test(line)) {
      const quoted = [];
      while (i < lines.length && /^\s*>/.test(lines[i])) quoted.push(lines[i++].replace(/^\s*>\s?/, ""));
      out.push(`<blockquote>${inline(quoted.join("\n")).replace(/\n/g, "<br>")}</blockquote>`);
      continue;
    }
    if (!line.trim()) {
      i += 1;
      continue;
    }
    const para = [];
    while (i < lines.length && lines[i].trim() && !/^\s*(```|#{1,6}\s|>|[-*+]\s|\d+[.)]\s)/.test(lines[i])) {
      para.push(lines[i++]);
    }
    if (!para.length) para.push(lines[i++]);
    out.push(`<p>${inline(para.join("\n")).replace(/\n/g, "<br>")}</p>`);
  }
  return out.join("");
}

function cells(line) {
  let row = line.trim();
  if (row.startsWith("|")) row = row.slice(1);
  if (row.endsWith("|")) row = row.slice(0, -1);
  return row.split("|").map((c) => c.trim());
}

function mdInline(text, ctx) {
  return withSlots((keep) => {
    let s = String(text);
    s = s.replace(/`([^`\n]+)`/g, (_, code) => keep(`<code>${esc(decode(code))}</code>`));
    s = s.replace(/\\([[\]\\|])/g, (_, c) => keep(esc(c))); // CommonMark's escaped brackets
    s = s.replace(/\[([^\]\n]+)\]\(([^)\s]+)\)/g, (whole, label, url) => {
      const safe = safeUrl(url);
      return safe ? keep(`<a href="${esc(safe)}" target="_blank" rel="noopener noreferrer">${esc(label)}</a>`) : whole;
    });
    s = s.replace(/<(@[UWB][A-Z0-9]+|#[CGD][A-Z0-9]+(?:\|[^>]*)?|https?:[^>\s]+)>/g, (_, inner) => keep(angle(inner, ctx)));
    s = esc(decode(s)); // Slack's &amp; &lt; &gt; in message text, shown as the characters
    s = s.replace(/(\*\*|__)(?=\S)(.+?\S)\1/g, "<b>$2</b>");
    s = s.replace(/(^|[^\w*])\*(?=\S)([^*\n]+?\S|\S)\*(?![\w*])/g, "$1<i>$2</i>");
    s = s.replace(/(^|[^\w_])_(?=\S)([^_\n]+?\S|\S)_(?![\w_])/g, "$1<i>$2</i>");
    s = s.replace(/~~(?=\S)(.+?\S)~~/g, "<s>$1</s>");
    return s;
  });
}

function tableHtml(rows, header) {
  const [head, ...body] = rows;
  const numeric = (cell) => /^[-+(]?[€$£¥]?\s?[\d.,]+\s?[%kKmMbBx)]*[A-Z]{0,3}$/.test(cell.replace(/<[^>]+>/g, "").trim());
  const td = (tag, cell) => `<${tag}${numeric(cell) ? ' class="num"' : ""}>${cell}</${tag}>`;
  const headHtml = header && head ? `<thead><tr>${head.map((c) => td("th", c)).join("")}</tr></thead>` : "";
  const bodyRows = header ? body : rows;
  return `<div class="table-wrap"><table>${headHtml}<tbody>${bodyRows
    .map((r) => `<tr>${r.map((c) => td("td", c)).join("")}</tr>`)
    .join("")}</tbody></table></div>`;
}

// ------------------------------------------------------------------ Block Kit

function el(tag, className, html) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (html !== undefined) node.innerHTML = html;
  return node;
}

export function textObject(obj, ctx) {
  if (!obj) return "";
  if (typeof obj === "string") return mrkdwn(obj, ctx);
  if (obj.type === "plain_text") {
    const text = obj.emoji === false ? obj.text : String(obj.text ?? "").replace(/:([a-z0-9_+-]+):/g, (w, n) => EMOJI[n] || w);
    return esc(text).replace(/\n/g, "<br>");
  }
  return mrkdwn(obj.text, ctx);
}

function richElements(elements, ctx) {
  return (elements || []).map((e) => {
    let html;
    switch (e.type) {
      case "text": html = esc(e.text).replace(/\n/g, "<br>"); break;
      case "link": {
        const url = safeUrl(e.url || "");
        html = url ? `<a href="${esc(url)}" target="_blank" rel="noopener noreferrer">${esc(e.text || e.url)}</a>` : esc(e.text || e.url);
        break;
      }
      case "user": html = angle(`@${e.user_id}`, ctx); break;
      case "channel": html = angle(`#${e.channel_id}`, ctx); break;
      case "usergroup": html = `<span class="mention">@group</span>`; break;
      case "broadcast": html = `<span class="mention">@${esc(e.range)}</span>`; break;
      case "emoji": html = e.unicode ? String.fromCodePoint(...e.unicode.split("-").map((h) => parseInt(h, 16))) : emoji(e.name); break;
      case "date": html = esc(e.fallback || ""); break;
      default: html = esc(e.text || "");
    }
    const style = e.style || {};
    if (style.code) html = `<code>${html}</code>`;
    if (style.bold) html = `<b>${html}</b>`;
    if (style.italic) html = `<i>${html}</i>`;
    if (style.strike) html = `<s>${html}</s>`;
    return html;
  }).join("");
}

function richText(block, ctx) {
  return (block.elements || []).map((part) => {
    switch (part.type) {
      case "rich_text_section": return `<div>${richElements(part.elements, ctx)}</div>`;
      case "rich_text_preformatted": return `<pre class="code-block">${richElements(part.elements, ctx)}</pre>`;
      case "rich_text_quote": return `<blockquote>${richElements(part.elements, ctx)}</blockquote>`;
      case "rich_text_list": {
        const tag = part.style === "ordered" ? "ol" : "ul";
        const items = (part.elements || []).map((item) => `<li>${richElements(item.elements, ctx)}</li>`).join("");
        return `<${tag} style="margin-left:${(part.indent || 0) * 18}px">${items}</${tag}>`;
      }
      default: return "";
    }
  }).join("");
}

function tableCell(cell, ctx) {
  if (!cell) return "";
  if (cell.type === "raw_text") return esc(cell.text);
  if (cell.type === "rich_text") return richText(cell, ctx);
  return textObject(cell, ctx);
}

function renderElement(element, ctx, blockId) {
  if (element.type === "button") {
    const button = el("button", `bk-button${element.style ? ` bk-${element.style}` : ""}`, textObject(element.text, ctx));
    button.type = "button";
    button.dataset.actionId = element.action_id || "";
    if (element.url) {
      button.addEventListener("click", () => window.open(safeUrl(element.url) || "about:blank", "_blank", "noopener"));
    } else if (ctx.onAction) {
      button.addEventListener("click", () => ctx.onAction(element, blockId, button));
    }
    return button;
  }
  if (element.type === "overflow") return overflowMenu(element, ctx, blockId);
  if (element.type === "image") {
    const img = el("img", "bk-image-element");
    img.alt = element.alt_text || "";
    img.src = safeUrl(element.image_url || "") || "";
    return img;
  }
  if (element.type === "mrkdwn" || element.type === "plain_text") {
    return el("span", "bk-context-text", textObject(element, ctx));
  }
  const label = element.placeholder ? textObject(element.placeholder, ctx) : esc(element.type);
  const box = el("span", "bk-unsupported", `${label} <span class="dim">(${esc(element.type)} — not in the playground)</span>`);
  return box;
}

// An overflow menu: "⋯" opens its options; choosing one is the click Slack sends the app.
function overflowMenu(element, ctx, blockId) {
  const wrap = el("span", "bk-overflow");
  const toggle = el("button", "bk-button bk-overflow-toggle", "⋯");
  toggle.type = "button";
  toggle.title = "More actions";
  toggle.setAttribute("aria-label", "More actions");
  toggle.setAttribute("aria-haspopup", "menu");
  toggle.setAttribute("aria-expanded", "false");
  toggle.dataset.actionId = element.action_id || "";
  const menu = el("div", "bk-overflow-menu");
  menu.setAttribute("role", "menu");
  menu.hidden = true;
  const close = () => {
    menu.hidden = true;
    toggle.setAttribute("aria-expanded", "false");
  };
  for (const option of element.options || []) {
    const item = el("button", "bk-overflow-item", textObject(option.text, ctx));
    item.type = "button";
    item.setAttribute("role", "menuitem");
    item.addEventListener("click", () => {
      close();
      if (ctx.onAction) ctx.onAction({ ...element, value: option.value, selected_option: option }, blockId, toggle);
    });
    menu.appendChild(item);
  }
  toggle.addEventListener("click", (event) => {
    event.stopPropagation();
    menu.hidden = !menu.hidden;
    toggle.setAttribute("aria-expanded", String(!menu.hidden));
    if (!menu.hidden) document.addEventListener("click", close, { once: true });
  });
  wrap.append(toggle, menu);
  return wrap;
}

const RENDERERS = {
  section(block, ctx) {
    const node = el("div", "bk-section");
    const main = el("div", "bk-section-main");
    if (block.text) main.appendChild(el("div", "bk-text", textObject(block.text, ctx)));
    if (block.fields?.length) {
      const grid = el("div", "bk-fields");
      for (const field of block.fields) grid.appendChild(el("div", "bk-field", textObject(field, ctx)));
      main.appendChild(grid);
    }
    node.appendChild(main);
    if (block.accessory) {
      const accessory = el("div", "bk-accessory");
      accessory.appendChild(renderElement(block.accessory, ctx, block.block_id));
      node.appendChild(accessory);
    }
    return node;
  },
  header(block, ctx) {
    return el("div", "bk-header", textObject(block.text, ctx));
  },
  divider() {
    return el("hr", "bk-divider");
  },
  context(block, ctx) {
    const node = el("div", "bk-context");
    for (const element of block.elements || []) node.appendChild(renderElement(element, ctx, block.block_id));
    return node;
  },
  actions(block, ctx) {
    const node = el("div", "bk-actions");
    for (const element of block.elements || []) node.appendChild(renderElement(element, ctx, block.block_id));
    return node;
  },
  markdown(block, ctx) {
    return el("div", "bk-markdown", markdown(block.text, ctx));
  },
  rich_text(block, ctx) {
    return el("div", "bk-rich-text", richText(block, ctx));
  },
  table(block, ctx) {
    const rows = (block.rows || []).map((row) => row.map((cell) => tableCell(cell, ctx)));
    return el("div", "bk-table", tableHtml(rows, true));
  },
  image(block, ctx) {
    const node = el("figure", "bk-image");
    if (block.title) node.appendChild(el("figcaption", "", textObject(block.title, ctx)));
    const img = document.createElement("img");
    img.alt = block.alt_text || "";
    img.src = safeUrl(block.image_url || "") || "";
    node.appendChild(img);
    return node;
  },
};

export function renderBlocks(blocks, ctx = {}) {
  const root = el("div", "blocks");
  for (const block of blocks || []) {
    const render = RENDERERS[block.type];
    const node = render
      ? render(block, ctx)
      : el("div", "bk-unsupported", `<span class="dim">[${esc(block.type)} block — not shown in the playground]</span>`);
    node.dataset.blockType = block.type;
    if (block.block_id) node.dataset.blockId = block.block_id;
    root.appendChild(node);
  }
  return root;
}
