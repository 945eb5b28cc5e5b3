// The playground page: a small Slack client. It shows the local Slack's state (a live event
// stream) and acts as "you" through the local Slack's client API, which sends the bot the same
// signed requests Slack would. It never calls Manda itself.

import { emoji, esc, mrkdwn, renderBlocks } from "./blockkit.js";
import { renderModal } from "./modal.js";

const API = "/client/api";
const HEADERS = { "X-Slack-Client": "1" };


const S = {
  me: null,
  bot: null,
  team: null,
  users: {},
  channels: {},
  messages: new Map(), // "channel:ts" -> message
  statuses: new Map(), // "channel:thread_ts" -> status text
  home: null,
  modal: null, // { view, errors }: the modal the app opened for you
  commands: [],
  commandHints: {}, // from the bot's command table, through the local Slack
  commandExamples: [],
  traffic: [],
  view: { kind: "channel", id: null }, // or { kind: "app", tab: "home" | "messages" }
  thread: null, // { channel, ts }
  unread: {},
  loaded: false,
};

const $ = (id) => document.getElementById(id);
const key = (channel, ts) => `${channel}:${ts}`;

// ------------------------------------------------------------------ helpers

function tsCmp(a, b) {
  const [ai, af = "0"] = a.split(".");
  const [bi, bf = "0"] = b.split(".");
  return Number(ai) - Number(bi) || Number(af) - Number(bf);
}

function ctx() {
  return { users: S.users, channels: S.channels, me: S.me };
}

function user(id) {
  return S.users[id] || { id, name: id, real_name: id, is_bot: false };
}

function displayName(u) {
  return u.id === S.me ? `${u.real_name || u.name}` : u.real_name || u.name;
}

function timeOf(message) {
  const date = new Date((message.posted_at || Number(message.ts.split(".")[0])) * 1000);
  return date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

function hue(text) {
  let h = 0;
  for (const ch of text) h = (h * 31 + ch.codePointAt(0)) % 360;
  return h;
}

function avatar(u) {
  const node = document.createElement("div");
  node.className = "avatar";
  if (u.id === S.bot) {
    node.classList.add("avatar-bot");
    node.innerHTML = '<img src="/static/favicon.svg" alt="">';
    return node;
  }
  if (u.id === "USLACKBOT") {
    node.classList.add("avatar-slackbot");
    node.textContent = "🤖";
    return node;
  }
  const initials = (u.real_name || u.name).split(/\s+/).map((w) => w[0]).join("").slice(0, 2).toUpperCase();
  node.textContent = initials;
  node.style.background = `hsl(${hue(u.name)} 45% 42%)`;
  return node;
}

function toast(text, kind = "error") {
  const node = document.createElement("div");
  node.className = `toast toast-${kind}`;
  node.textContent = text;
  $("toasts").appendChild(node);
  setTimeout(() => node.remove(), 6000);
  return node;
}

async function post(path, body) {
  const init = { method: "POST", headers: { ...HEADERS } };
  if (body instanceof FormData) {
    init.body = body;
  } else {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body || {});
  }
  let response;
  try {
    response = await fetch(`${API}${path}`, init);
  } catch (error) {
    toast("The local Slack is not answering: is `manda playground` still running?");
    throw error;
  }
  const data = await response.json().catch(() => ({}));
  if (!response.ok || data.ok === false) {
    toast(data.detail || data.error || `Request failed (HTTP ${response.status})`);
  }
  return data;
}

// ------------------------------------------------------------------ state updates

function applySnapshot(snap) {
  S.me = snap.me;
  S.bot = snap.bot;
  S.team = snap.team;
  S.users = snap.users;
  S.channels = Object.fromEntries(snap.channels.map((c) => [c.id, c]));
  S.messages = new Map(snap.messages.map((m) => [key(m.channel, m.ts), m]));
  S.statuses = new Map(snap.statuses.map((s) => [key(s.channel, s.thread_ts), s.status]));
  S.home = snap.home;
  S.modal = snap.modal;
  S.commands = snap.commands;
  S.commandHints = snap.command_hints || {};
  S.commandExamples = snap.command_examples || [];
  S.traffic = snap.traffic;
  if (!S.loaded) {
    S.loaded = true;
    const first = S.channels[snap.start_channel] || sortedChannels()[0];
    const wanted = location.hash.slice(1);
    const byName = Object.values(S.channels).find((c) => c.name === wanted);
    if (wanted === "home") {
      S.view = { kind: "app", tab: "home" };
      post("/home");
    } else S.view = { kind: "channel", id: (byName || first)?.id };
  }
  $("workspace-name").textContent = S.team.name;
  $("me-name").textContent = displayName(user(S.me));
  renderAll();
  renderTraffic();
  renderModalLayer();
}

function onMessage(m) {
  const k = key(m.channel, m.ts);
  const before = S.messages.get(k);
  if (m.deleted) S.messages.delete(k);
  else S.messages.set(k, m);
  const shown = isShown(m.channel);
  if (!before && !m.deleted && !shown && m.user !== S.me) {
    S.unread[m.channel] = (S.unread[m.channel] || 0) + 1;
    renderSidebar();
  }
  if (shown) {
    if (m.thread_ts && m.thread_ts !== m.ts) {
      renderMainMessage(m.channel, m.thread_ts);
    } else {
      renderMainMessage(m.channel, m.ts);
    }
  }
  if (S.thread && S.thread.channel === m.channel && (m.ts === S.thread.ts || m.thread_ts === S.thread.ts)) {
    renderThread();
  }
}

function isShown(channelId) {
  if (S.view.kind === "channel") return S.view.id === channelId;
  return S.view.tab === "messages" && dmChannel()?.id === channelId;
}

function onStatus(s) {
  const k = key(s.channel, s.thread_ts);
  if (s.status) S.statuses.set(k, s.status);
  else S.statuses.delete(k);
  if (isShown(s.channel)) renderMainMessage(s.channel, s.thread_ts);
  renderStatusLines();
}

// ------------------------------------------------------------------ sidebar

function sortedChannels() {
  return Object.values(S.channels)
    .filter((c) => c.kind !== "im" && c.is_member)
    .sort((a, b) => (a.name.startsWith("deal-") === b.name.startsWith("deal-") ? a.name.localeCompare(b.name) : a.name.startsWith("deal-") ? -1 : 1));
}

function dmChannel() {
  return Object.values(S.channels).find((c) => c.kind === "im" && c.user === S.bot);
}

function renderSidebar() {
  const list = $("channel-list");
  list.replaceChildren();
  for (const channel of sortedChannels()) {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = `#${channel.name}`;
    link.className = "nav-item";
    link.dataset.channel = channel.id;
    if (S.view.kind === "channel" && S.view.id === channel.id) link.classList.add("active");
    if (S.unread[channel.id]) link.classList.add("unread");
    link.innerHTML = `<span class="hash">#</span><span class="nav-label">${esc(channel.name)}</span>${
      S.unread[channel.id] ? `<span class="badge">${S.unread[channel.id]}</span>` : ""
    }`;
    link.addEventListener("click", (event) => {
      event.preventDefault();
      showChannel(channel.id);
    });
    item.appendChild(link);
    list.appendChild(item);
  }
  const apps = $("app-list");
  apps.replaceChildren();
  const item = document.createElement("li");
  const link = document.createElement("a");
  link.href = "#home";
  link.className = "nav-item";
  link.id = "open-manda";
  if (S.view.kind === "app") link.classList.add("active");
  const dm = dmChannel();
  const unread = dm ? S.unread[dm.id] : 0;
  if (unread) link.classList.add("unread");
  link.innerHTML = `<img class="nav-app-icon" src="/static/favicon.svg" alt=""><span class="nav-label">Manda</span>${
    unread ? `<span class="badge">${unread}</span>` : ""
  }`;
  link.addEventListener("click", (event) => {
    event.preventDefault();
    showApp("home");
  });
  item.appendChild(link);
  apps.appendChild(item);
}

// ------------------------------------------------------------------ main pane

function showChannel(id) {
  S.view = { kind: "channel", id };
  delete S.unread[id];
  history.replaceState(null, "", `#${S.channels[id].name}`);
  renderAll();
  $("composer-text").focus();
}

function showApp(tab) {
  S.view = { kind: "app", tab };
  S.thread = null;
  history.replaceState(null, "", tab === "home" ? "#home" : "#manda");
  if (tab === "messages") {
    const dm = dmChannel();
    if (dm) delete S.unread[dm.id];
  }
  renderAll();
  if (tab === "home") post("/home"); // Slack sends app_home_opened each time the tab is opened
}

function currentChannel() {
  if (S.view.kind === "channel") return S.channels[S.view.id];
  if (S.view.tab === "messages") return dmChannel();
  return null;
}

function renderAll() {
  renderSidebar();
  renderHeader();
  renderMain();
  renderThread();
  renderSuggestions();
  renderStatusLines();
}

function renderHeader() {
  const header = $("main-header");
  const tabs = $("app-tabs");
  if (S.view.kind === "app") {
    header.innerHTML = `<div class="pane-title"><img class="title-icon" src="/static/favicon.svg" alt="">
      <strong>Manda</strong><span class="app-badge">APP</span></div>
      <div class="pane-topic">Due-diligence analyst — cited answers from your deal's data room</div>`;
    tabs.hidden = false;
    $("tab-home").classList.toggle("active", S.view.tab === "home");
    $("tab-messages").classList.toggle("active", S.view.tab === "messages");
    return;
  }
  tabs.hidden = true;
  const channel = currentChannel();
  if (!channel) {
    header.textContent = "";
    return;
  }
  const people = channel.members.length;
  header.innerHTML = `<div class="pane-title"><span class="hash">#</span><strong>${esc(channel.name)}</strong>
    <span class="members" title="Members">👤 ${people}</span></div>
    <div class="pane-topic">${mrkdwn(channel.topic || "", ctx())}</div>`;
}

function topLevel(channelId) {
  return [...S.messages.values()]
    .filter((m) => m.channel === channelId && (!m.thread_ts || m.thread_ts === m.ts))
    .sort((a, b) => tsCmp(a.ts, b.ts));
}

function repliesOf(channelId, ts) {
  return [...S.messages.values()]
    .filter((m) => m.channel === channelId && m.thread_ts === ts && m.ts !== ts)
    .sort((a, b) => tsCmp(a.ts, b.ts));
}

function renderMain() {
  const messages = $("messages");
  const home = $("home");
  const composer = $("composer");
  if (S.view.kind === "app" && S.view.tab === "home") {
    messages.hidden = true;
    composer.hidden = true;
    home.hidden = false;
    renderHome();
    return;
  }
  home.hidden = true;
  messages.hidden = false;
  composer.hidden = false;
  const channel = currentChannel();
  messages.replaceChildren();
  if (!channel) return;
  const list = topLevel(channel.id);
  messages.appendChild(channelIntro(channel));
  for (const m of list) messages.appendChild(messageNode(m, { inThread: false }));
  $("composer-text").placeholder = channel.kind === "im" ? "Message Manda" : `Message #${channel.name}`;
  scrollToEnd($("main-scroller"), true);
}

function channelIntro(channel) {
  const node = document.createElement("div");
  node.className = "channel-intro";
  if (channel.kind === "im") {
    node.innerHTML = `<h2>This is your direct message with Manda</h2>
      <p>Manda answers here once this conversation is linked to a deal:
      <code>/manda deal targetco</code> links it to TargetCo's data room.</p>`;
  } else {
    node.innerHTML = `<h2>#${esc(channel.name)}</h2><p>${mrkdwn(channel.topic || "", ctx())}</p>`;
  }
  return node;
}

function renderMainMessage(channelId, ts) {
  if (!isShown(channelId)) return;
  const container = $("messages");
  const scroller = $("main-scroller");
  const atEnd = nearEnd(scroller);
  const m = S.messages.get(key(channelId, ts));
  const existing = container.querySelector(`.msg[data-ts="${CSS.escape(ts)}"]`);
  if (!m) {
    existing?.remove();
    return;
  }
  if (m.thread_ts && m.thread_ts !== m.ts) return;
  const node = messageNode(m, { inThread: false });
  if (existing) {
    existing.replaceWith(node);
  } else {
    const after = [...container.querySelectorAll(".msg")].find((n) => tsCmp(n.dataset.ts, ts) > 0);
    container.insertBefore(node, after || null);
  }
  const mine = !existing && m.user === S.me; // what you just sent is always brought into view
  if (atEnd || mine) scrollToEnd(scroller, true);
}

function nearEnd(scroller) {
  return scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 120;
}

function scrollToEnd(scroller, force = false) {
  if (force || nearEnd(scroller)) {
    requestAnimationFrame(() => {
      scroller.scrollTop = scroller.scrollHeight;
    });
  }
}

function messageNode(m, { inThread }) {
  const author = user(m.user);
  const node = document.createElement("article");
  node.className = "msg";
  node.dataset.ts = m.ts;
  node.dataset.user = m.user || "";
  if (m.ephemeral) node.classList.add("ephemeral");
  if (m.streaming) node.classList.add("streaming");
  if (author.id === S.bot) node.classList.add("from-bot");
  if (m.ephemeral) {
    const note = document.createElement("div");
    note.className = "ephemeral-note";
    note.innerHTML = "👁 <span>Only visible to you</span>";
    node.appendChild(note);
  }
  const row = document.createElement("div");
  row.className = "msg-row";
  row.appendChild(avatar(author));
  const body = document.createElement("div");
  body.className = "msg-body";
  const meta = document.createElement("div");
  meta.className = "msg-meta";
  meta.innerHTML = `<span class="author">${esc(displayName(author))}</span>${
    author.is_bot ? '<span class="app-badge">APP</span>' : ""
  }<time>${esc(timeOf(m))}</time>${m.edited && !m.streaming ? '<span class="dim">(edited)</span>' : ""}${
    m.streaming ? '<span class="writing">writing…</span>' : ""
  }`;
  body.appendChild(meta);
  const content = document.createElement("div");
  content.className = "msg-content";
  if (m.blocks && m.blocks.length) {
    content.appendChild(renderBlocks(m.blocks, { ...ctx(), onAction: (element, blockId, button) => clickAction(m, element, blockId, button) }));
  } else if (m.text) {
    content.innerHTML = `<div class="bk-text">${mrkdwn(m.text, ctx())}</div>`;
  }
  body.appendChild(content);
  if (m.files?.length) body.appendChild(filesNode(m.files));
  if (m.reactions?.length) {
    const reactions = document.createElement("div");
    reactions.className = "reactions";
    for (const r of m.reactions) {
      const chip = document.createElement("span");
      chip.className = "reaction";
      chip.title = r.users.map((u) => displayName(user(u))).join(", ");
      chip.textContent = `${emoji(r.name)} ${r.count}`;
      reactions.appendChild(chip);
    }
    body.appendChild(reactions);
  }
  if (!inThread && !m.ephemeral) {
    const replies = repliesOf(m.channel, m.ts);
    const status = S.statuses.get(key(m.channel, m.ts));
    if (replies.length) {
      const link = document.createElement("button");
      link.type = "button";
      link.className = "thread-link";
      const people = [...new Set(replies.map((r) => r.user))].slice(0, 4);
      link.append(...people.map((p) => {
        const small = avatar(user(p));
        small.classList.add("avatar-small");
        return small;
      }));
      const label = document.createElement("span");
      label.className = "thread-count";
      label.textContent = `${replies.length} ${replies.length === 1 ? "reply" : "replies"}`;
      link.appendChild(label);
      const last = document.createElement("span");
      last.className = "dim";
      last.textContent = `Last reply ${timeOf(replies[replies.length - 1])}`;
      link.appendChild(last);
      link.addEventListener("click", () => openThread(m.channel, m.ts));
      body.appendChild(link);
    }
    if (status) body.appendChild(statusNode(status));
  }
  row.appendChild(body);
  node.appendChild(row);
  if (!inThread && !m.ephemeral) {
    const hover = document.createElement("div");
    hover.className = "msg-actions";
    const reply = document.createElement("button");
    reply.type = "button";
    reply.title = "Reply in thread";
    reply.className = "reply-button";
    reply.textContent = "💬 Reply in thread";
    reply.addEventListener("click", () => openThread(m.channel, m.ts));
    hover.appendChild(reply);
    node.appendChild(hover);
  }
  node.querySelectorAll("a.channel-link").forEach((a) =>
    a.addEventListener("click", (event) => {
      event.preventDefault();
      if (S.channels[a.dataset.channel]) showChannel(a.dataset.channel);
    }),
  );
  return node;
}

function statusNode(status) {
  const node = document.createElement("div");
  node.className = "assistant-status";
  node.innerHTML = `<span class="dots"><i></i><i></i><i></i></span> <b>Manda</b> ${esc(status)}`;
  return node;
}

function filesNode(files) {
  const wrap = document.createElement("div");
  wrap.className = "files";
  for (const f of files) {
    const card = document.createElement("a");
    card.className = "file-card";
    card.href = f.url;
    card.download = f.name;
    const kb = f.size < 1024 ? `${f.size} B` : f.size < 1048576 ? `${(f.size / 1024).toFixed(1)} KB` : `${(f.size / 1048576).toFixed(1)} MB`;
    card.innerHTML = `<span class="file-icon file-${esc(f.filetype)}">${esc(f.filetype.toUpperCase().slice(0, 4))}</span>
      <span class="file-meta"><span class="file-name">${esc(f.name)}</span><span class="dim">${esc(kb)}</span></span>`;
    wrap.appendChild(card);
  }
  return wrap;
}

// ------------------------------------------------------------------ buttons

async function clickAction(message, element, blockId, button, home = false) {
  button.disabled = true;
  button.classList.add("busy");
  try {
    const body = home
      ? { home: true, action_id: element.action_id, value: element.value ?? null, block_id: blockId }
      : { channel: message.channel, ts: message.ts, action_id: element.action_id, value: element.value ?? null, block_id: blockId };
    const result = await post("/click", body);
    if (result.status && result.status !== 200) toast(`Manda did not accept the click (HTTP ${result.status}).`);
  } finally {
    // the bot usually rewrites the message; if not, the button works again
    setTimeout(() => {
      button.disabled = false;
      button.classList.remove("busy");
    }, 1500);
  }
}

// ------------------------------------------------------------------ thread pane

function openThread(channel, ts) {
  const main = $("main-scroller");
  const atEnd = nearEnd(main);
  S.thread = { channel, ts };
  renderThread();
  if (atEnd) scrollToEnd(main, true); // the narrower channel keeps its latest messages in view
  $("thread-text").focus();
}

function renderThread() {
  const pane = $("thread");
  if (!S.thread || !S.messages.get(key(S.thread.channel, S.thread.ts))) {
    pane.hidden = true;
    $("app").classList.remove("with-thread");
    return;
  }
  pane.hidden = false;
  $("app").classList.add("with-thread");
  const { channel, ts } = S.thread;
  const where = S.channels[channel];
  $("thread-where").textContent = where ? (where.kind === "im" ? "· Manda" : `· #${where.name}`) : "";
  const scroller = $("thread-scroller");
  const atEnd = nearEnd(scroller);
  const list = $("thread-messages");
  list.replaceChildren();
  const parent = S.messages.get(key(channel, ts));
  list.appendChild(messageNode(parent, { inThread: true }));
  const replies = repliesOf(channel, ts);
  const divider = document.createElement("div");
  divider.className = "thread-divider";
  divider.textContent = `${replies.length} ${replies.length === 1 ? "reply" : "replies"}`;
  list.appendChild(divider);
  for (const r of replies) list.appendChild(messageNode(r, { inThread: true }));
  renderStatusLines();
  if (atEnd) scrollToEnd(scroller, true);
}

function renderStatusLines() {
  const thread = $("thread-status");
  const status = S.thread ? S.statuses.get(key(S.thread.channel, S.thread.ts)) : null;
  thread.hidden = !status;
  if (status) thread.replaceChildren(statusNode(status));
}

// ------------------------------------------------------------------ modals

function renderModalLayer() {
  const root = $("modal-root");
  const shown = root.firstElementChild;
  if (!S.modal) {
    root.replaceChildren();
    return;
  }
  // the same view, kept open with the app's errors; a views.update (a new hash) is drawn again
  if (shown && shown.viewId === S.modal.view.id && shown.viewHash === S.modal.view.hash) {
    shown.showErrors(S.modal.errors);
    return;
  }
  root.replaceChildren(renderModal(S.modal, ctx(), {
    onSubmit: (values) => post("/view", { values }),
    onClose: () => post("/view/close"),
  }));
}

// ------------------------------------------------------------------ App Home

function renderHome() {
  const home = $("home");
  home.replaceChildren();
  if (!S.home) {
    home.innerHTML = '<div class="home-loading">Opening Manda\'s Home… (Slack sent <code>app_home_opened</code>; waiting for <code>views.publish</code>)</div>';
    return;
  }
  const card = document.createElement("div");
  card.className = "home-view";
  card.appendChild(renderBlocks(S.home.blocks, {
    ...ctx(),
    onAction: (element, blockId, button) => clickAction(null, element, blockId, button, true),
  }));
  card.querySelectorAll("a.channel-link").forEach((a) =>
    a.addEventListener("click", (event) => {
      event.preventDefault();
      if (S.channels[a.dataset.channel]) showChannel(a.dataset.channel);
    }),
  );
  home.appendChild(card);
}

// ------------------------------------------------------------------ composers

function renderSuggestions() {
  const box = $("suggestions");
  box.replaceChildren();
  const channel = currentChannel();
  if (!channel) return;
  let tries;
  if (channel.kind === "im") tries = ["/manda deal targetco", "What was Q3 2024 revenue?", "/manda help"];
  else if (channel.name.startsWith("deal-")) {
    tries = channel.name === "deal-northwind"
      ? ["@Manda What was Q3 2024 revenue?", "/manda gaps", "/manda docs"]
      : channel.name === "deal-pennine"
      ? ["@Manda Who owns the company?", "@Manda What was revenue for the year ended 31 March 2024?", "@Manda Is there any litigation?", "/manda gaps", "/manda docs"]
      : ["@Manda What was Q3 2024 revenue?", "@Manda What are the red flags?", "/manda gaps", "/manda review", "/manda qa", "/redflags"];
  } else tries = ["@Manda hello", "/manda deal", "/manda help"];
  const label = document.createElement("span");
  label.className = "dim";
  label.textContent = "Try:";
  box.appendChild(label);
  for (const text of tries) {
    const chip = document.createElement("button");
    chip.type = "button";
    chip.className = "chip";
    chip.textContent = text;
    chip.addEventListener("click", () => {
      const area = $("composer-text");
      area.value = text;
      area.focus();
      autosize(area);
      updatePopup(area, $("popup"));
    });
    box.appendChild(chip);
  }
}

function autosize(area) {
  area.style.height = "auto";
  area.style.height = `${Math.min(area.scrollHeight, 180)}px`;
}

function popupItems(text) {
  if (/^\/[\w-]*$/.test(text)) {
    const typed = text.toLowerCase();
    const commands = S.commands.filter((c) => c.startsWith(typed));
    const examples = S.commandExamples.filter((e) => e.startsWith(typed) && !commands.includes(e));
    return [
      ...commands.map((c) => ({ insert: `${c} `, label: c, hint: S.commandHints[c] || "" })),
      ...examples.slice(0, 6).map((e) => ({ insert: e, label: e, hint: "" })),
    ];
  }
  const at = /(^|\s)@([\w.-]*)$/.exec(text);
  if (at) {
    const typed = at[2].toLowerCase();
    return Object.values(S.users)
      .filter((u) => u.id !== "USLACKBOT" && (u.name.startsWith(typed) || u.real_name.toLowerCase().startsWith(typed)))
      .sort((a, b) => (b.id === S.bot) - (a.id === S.bot))
      .map((u) => ({
        insert: text.slice(0, text.length - at[2].length - 1) + `@${u.id === S.bot ? "Manda" : u.name} `,
        label: `@${u.id === S.bot ? "Manda" : u.name}`,
        hint: u.is_bot ? "app" : u.real_name,
      }));
  }
  return [];
}

function updatePopup(area, popup) {
  const items = popupItems(area.value);
  popup.replaceChildren();
  popup.hidden = !items.length;
  for (const item of items) {
    const option = document.createElement("button");
    option.type = "button";
    option.className = "popup-item";
    option.setAttribute("role", "option");
    option.innerHTML = `<b>${esc(item.label)}</b> <span class="dim">${esc(item.hint)}</span>`;
    option.addEventListener("mousedown", (event) => {
      event.preventDefault();
      area.value = item.insert;
      popup.hidden = true;
      area.focus();
      autosize(area);
    });
    popup.appendChild(option);
  }
}

async function send(area, popup, threadTs) {
  const text = area.value.trim();
  const channel = threadTs ? S.channels[S.thread.channel] : currentChannel();
  if (!text || !channel) return;
  area.value = "";
  autosize(area);
  popup.hidden = true;
  const result = await post("/messages", { channel: channel.id, text, thread_ts: threadTs || null });
  if (result.ok === false) area.value = text;
}

async function upload(input, threadTs, textArea) {
  const channel = threadTs ? S.channels[S.thread.channel] : currentChannel();
  if (!input.files.length || !channel) return;
  const form = new FormData();
  form.append("channel", channel.id);
  if (threadTs) form.append("thread_ts", threadTs);
  form.append("text", textArea.value.trim());
  const names = [...input.files].map((f) => f.name);
  for (const file of input.files) form.append("file", file, file.name);
  textArea.value = "";
  input.value = "";
  const note = toast(`Uploading ${names.join(", ")}…`, "info");
  try {
    await post("/files", form);
  } finally {
    note.remove();
  }
}

function wireComposer(formId, areaId, popupId, fileId, threadTs) {
  const form = $(formId);
  const area = $(areaId);
  const popup = $(popupId);
  area.addEventListener("input", () => {
    autosize(area);
    updatePopup(area, popup);
  });
  area.addEventListener("keydown", (event) => {
    if (event.key === "Tab" && !popup.hidden && popup.firstChild) {
      event.preventDefault();
      popup.firstChild.dispatchEvent(new MouseEvent("mousedown"));
    } else if (event.key === "Escape") {
      popup.hidden = true;
    } else if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      send(area, popup, threadTs());
    }
  });
  area.addEventListener("blur", () => setTimeout(() => (popup.hidden = true), 150));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    send(area, popup, threadTs());
  });
  $(fileId).addEventListener("change", (event) => upload(event.target, threadTs(), area));
}

// ------------------------------------------------------------------ Slack traffic log

function renderTraffic() {
  $("traffic-count").textContent = String(S.traffic.length);
  const list = $("traffic-list");
  if ($("traffic").hidden) return;
  list.replaceChildren();
  for (const t of S.traffic.slice(-200)) list.appendChild(trafficNode(t));
  list.scrollTop = list.scrollHeight;
}

function trafficNode(t) {
  const item = document.createElement("li");
  item.className = t.ok ? "ok" : "failed";
  const inbound = t.direction.startsWith("slack");
  item.innerHTML = `<span class="dir ${inbound ? "to-app" : "to-slack"}">${inbound ? "Slack → app" : "app → Slack"}</span>
    <code>${esc(t.what)}</code> <span class="dim">${esc(t.detail || (t.ok ? "ok" : ""))}</span>`;
  return item;
}

function onTraffic(t) {
  S.traffic.push(t);
  if (S.traffic.length > 300) S.traffic.shift();
  $("traffic-count").textContent = String(S.traffic.length);
  if (!$("traffic").hidden) {
    const list = $("traffic-list");
    list.appendChild(trafficNode(t));
    list.scrollTop = list.scrollHeight;
  }
}

// ------------------------------------------------------------------ live connection

function connect() {
  const live = $("live");
  const source = new EventSource(`${API}/events`);
  const on = (name, handler) =>
    source.addEventListener(name, (event) => handler(JSON.parse(event.data)));
  on("snapshot", (snap) => {
    applySnapshot(snap);
    live.dataset.state = "live";
    live.textContent = "live";
    document.body.dataset.ready = "1";
  });
  on("message", onMessage);
  on("status", onStatus);
  on("channel", (c) => {
    S.channels[c.id] = c;
    renderSidebar();
    if (isShown(c.id)) renderHeader();
  });
  on("user", (u) => {
    S.users[u.id] = u;
  });
  on("home", (view) => {
    S.home = view;
    if (S.view.kind === "app" && S.view.tab === "home") renderHome();
  });
  on("modal", (modal) => {
    S.modal = modal;
    renderModalLayer();
  });
  on("traffic", onTraffic);
  source.onerror = () => {
    live.dataset.state = "down";
    live.textContent = "reconnecting…";
  };
}

function init() {
  wireComposer("composer", "composer-text", "popup", "file-input", () => null);
  wireComposer("thread-composer", "thread-text", "thread-popup", "thread-file-input", () => S.thread?.ts || null);
  $("thread-close").addEventListener("click", () => {
    S.thread = null;
    renderThread();
  });
  $("tab-home").addEventListener("click", () => showApp("home"));
  $("tab-messages").addEventListener("click", () => showApp("messages"));
  const toggleTraffic = () => {
    const panel = $("traffic");
    panel.hidden = !panel.hidden;
    $("traffic-toggle").setAttribute("aria-expanded", String(!panel.hidden));
    renderTraffic();
  };
  $("traffic-toggle").addEventListener("click", toggleTraffic);
  $("traffic-close").addEventListener("click", toggleTraffic);
  connect();
}

init();
