/**
 * The browser side of the page for people: the script every form page runs, after the form's
 * generated validator `V`, the field checks `C` and the page data `D` (see `script.ts`). It
 * instantiates the templates of `controls.ts`, builds the value from the controls, validates it
 * with `V` (the same generated code the address runs on POST), shows each error at its field,
 * POSTs the exact JSON with `fetch` to the page's own address, keeps a JSON view in step with
 * the form, and registers the address as a WebMCP tool.
 *
 * Plain JavaScript in a string (no template literal inside it), shipped as is inside an inline
 * module script allowed by its hash. No `eval`, no inline handlers, nothing loaded.
 *
 * Errors: besides the validator's own failure, every field that fails its check and every
 * required member missing from an object the value reaches (in an `anyOf`, the alternative the
 * discriminator names, else the first one whose field check passes or that lacks no required
 * member): so when the validator fails at an `anyOf`, the empty field that makes the chosen
 * alternative fail is flagged in its place, not the whole alternative. An empty field is told
 * "must be filled in", whatever keyword refused `""`.
 *
 * Times (`data-f`): a `time` or `datetime-local` input gives "14:30" or "2025-06-01T14:30"; the
 * form wants RFC 3339 (§5.6), with seconds and an offset. The script adds ":00" when the input
 * left the seconds out, then the offset of this browser's time zone at that local date and time
 * (for a time alone, today's), so the person's wall-clock time is what is sent. A value loaded
 * from JSON is shown in local time, and sent exactly as it came unless the person edits it.
 *
 * @module
 */

/**
 * The page script: one function, `gptAddressPage(V, C, D)`, called by the generated part of the
 * module after it (so that this text comes first and is the same in every page). `D.s` is read
 * from the page's own JSON Schema element, so the form is not shipped twice.
 */
export const RUNTIME: string = String.raw`function gptAddressPage(V, C, D) {
D.s = JSON.parse(document.getElementById("gpt-schema").textContent);
const form = document.getElementById("gpt-form");
const root = form.querySelector("[data-k]");
const status = document.getElementById("gpt-status");
const details = document.getElementById("gpt-json-mode");
const box = document.getElementById("gpt-json");
const boxMessage = document.getElementById("gpt-json-error");
let serial = 0;
const uid = (p) => "gpt-" + p + ++serial;
const isObject = (x) => typeof x === "object" && x !== null && !Array.isArray(x);
const token = (t) => String(t).replace(/~/g, "~0").replace(/\//g, "~1");
const same = (a, b) => canonical(a) === canonical(b);
function canonical(x) {
  if (Array.isArray(x)) return "[" + x.map(canonical).join(",") + "]";
  if (isObject(x)) return "{" + Object.keys(x).sort().map((k) => JSON.stringify(k) + ":" + canonical(x[k])).join(",") + "}";
  return JSON.stringify(x);
}
const kids = (el) => [...el.querySelectorAll("[data-k]")].filter((x) => x.parentElement.closest("[data-k]") === el);
const control = (el) => el.querySelector("input,select,textarea");
const own = (el, selector) => el.querySelector(":scope > " + selector);
const values = (el) => JSON.parse(el.dataset.v);
const leaf = (el) => !/^(object|array|choice|optional|set)$/.test(el.dataset.k);
const pad = (n) => String(n).padStart(2, "0");

/** This browser's RFC 3339 offset at d: "+05:45". */
function zone(d) {
  const m = -Math.round(d.getTimezoneOffset());
  const a = Math.abs(m);
  return (m < 0 ? "-" : "+") + pad(Math.floor(a / 60)) + ":" + pad(a % 60);
}

/** A time or datetime-local input's value as RFC 3339: seconds, then the offset there. */
function wire(f, s) {
  if (s.length === 5 || s.length === 16) s += ":00";
  return s + zone(f === "time" ? new Date() : new Date(s));
}

/** The inverse of wire, in local time; "" if unreadable. */
function local(f, v) {
  const d = new Date(f === "time" ? new Date().toISOString().slice(0, 11) + v : v);
  if (typeof v !== "string" || isNaN(d)) return "";
  const t = pad(d.getHours()) + ":" + pad(d.getMinutes()) + (d.getSeconds() || d.getMilliseconds() ? ":" + pad(d.getSeconds()) : "");
  return f === "time" ? t : String(d.getFullYear()).padStart(4, "0") + "-" + pad(d.getMonth() + 1) + "-" + pad(d.getDate()) + "T" + t;
}

function describe(el, id, on) {
  const ids = (el.getAttribute("aria-describedby") || "").split(" ").filter((x) => x && x !== id);
  if (on) ids.push(id);
  if (ids.length) el.setAttribute("aria-describedby", ids.join(" "));
  else el.removeAttribute("aria-describedby");
}

function make(id) {
  const part = document.getElementById(id).content.cloneNode(true);
  prepare(part);
  return part;
}

function prepare(part) {
  for (const help of part.querySelectorAll("[data-help]")) {
    help.id = uid("h");
    const owner = help.parentElement;
    describe(leaf(owner) ? control(owner) : owner, help.id, true);
  }
  const lists = [...part.querySelectorAll("[data-k=array]")];
  const choices = [...part.querySelectorAll("[data-k=choice]")];
  for (const list of lists) {
    while (own(list, "ol").children.length < +list.dataset.min) addItem(list);
    update(list);
  }
  for (const choice of choices) choose(choice, 0, false);
}

function addItem(list) {
  own(list, "ol").append(make(list.dataset.t));
  update(list);
  return own(list, "ol").lastElementChild;
}

function update(list) {
  const items = [...own(list, "ol").children];
  own(list, "[data-add]").disabled = list.dataset.max !== undefined && items.length >= +list.dataset.max;
  items.forEach((item, i) => {
    const remove = own(item, "[data-remove]");
    remove.disabled = items.length <= +list.dataset.min;
    const legend = item.firstElementChild.querySelector(":scope > legend > [data-n]");
    for (const n of [legend, own(remove, "[data-n]")]) if (n) n.textContent = String(i + 1);
  });
}

function choose(choice, index, keep) {
  const slot = own(choice, "[data-slot]");
  const old = kids(choice)[0];
  const value = keep && old ? collect(old, "", new Map(), []) : undefined;
  choice.querySelector("select").value = String(index);
  slot.replaceChildren(make(JSON.parse(choice.dataset.t)[index]));
  if (value !== undefined) load(kids(choice)[0], value);
}

function setOptional(el, on) {
  const slot = own(el, "[data-slot]");
  if (on && !slot.firstElementChild) slot.append(make(el.dataset.t));
  if (!on) slot.replaceChildren();
  own(el, "[data-add]").hidden = on;
}

/** The value the controls under el show; records each instance location's element in at. */
function collect(el, pointer, at, bad) {
  at.set(pointer, el);
  const kind = el.dataset.k;
  const required = el.hasAttribute("data-r");
  if (kind === "object") {
    const out = {};
    for (const x of kids(el)) {
      const v = collect(x, pointer + "/" + token(x.dataset.p), at, bad);
      if (v !== undefined) out[x.dataset.p] = v;
    }
    return out;
  }
  if (kind === "array") {
    const out = kids(el).map((x, i) => collect(x, pointer + "/" + i, at, bad));
    return out.length || required ? out : undefined;
  }
  if (kind === "choice" || kind === "optional") {
    const x = kids(el)[0];
    return x && collect(x, pointer, at, bad);
  }
  if (kind === "const") return values(el);
  if (kind === "set") {
    const boxes = el.querySelectorAll("input");
    const out = values(el).filter((_, i) => boxes[i].checked);
    return out.length || required ? out : undefined;
  }
  const c = control(el);
  const s = c.value;
  if (kind === "enum") return s === "" ? undefined : values(el)[+s];
  if (kind === "boolean") return c.type === "checkbox" ? c.checked : s === "" ? undefined : s === "true";
  if (kind === "number") return s === "" ? undefined : Number(s);
  if (kind === "json") {
    if (s.trim() === "") return undefined;
    try {
      return JSON.parse(s);
    } catch {
      bad.push(pointer);
      return undefined;
    }
  }
  // Unedited since load: exactly as it came.
  if (el.dataset.f && s !== "") return s === el.dataset.shown ? el.dataset.raw : wire(el.dataset.f, s);
  return s === "" && !required ? undefined : s;
}

/** Shows value v in the controls under el (the inverse of collect, for what the form can show). */
function load(el, v) {
  const kind = el.dataset.k;
  if (kind === "object") for (const x of kids(el)) load(x, isObject(v) ? v[x.dataset.p] : undefined);
  else if (kind === "array") {
    own(el, "ol").replaceChildren();
    for (const x of Array.isArray(v) ? v : []) load(addItem(el).querySelector("[data-k]"), x);
    while (own(el, "ol").children.length < +el.dataset.min) addItem(el);
    update(el);
  } else if (kind === "choice") {
    const tags = JSON.parse(el.dataset.tags);
    const i = tags.findIndex((t) => t && isObject(v) && same(v[t[0]], t[1]));
    choose(el, Math.max(i, 0), false);
    load(kids(el)[0], v);
  } else if (kind === "optional") {
    setOptional(el, v !== undefined);
    if (v !== undefined) load(kids(el)[0], v);
  } else if (kind === "set") {
    const list = values(el);
    el.querySelectorAll("input").forEach((b, i) => {
      b.checked = Array.isArray(v) && v.some((x) => same(x, list[i]));
    });
  } else if (kind !== "const") {
    const c = control(el);
    if (kind === "enum") c.value = String(values(el).findIndex((x) => same(x, v)));
    else if (kind === "boolean" && c.type === "checkbox") c.checked = v === true;
    else if (kind === "json") c.value = v === undefined ? "" : JSON.stringify(v);
    else if (el.dataset.f) {
      c.value = local(el.dataset.f, v);
      el.dataset.raw = v;
      el.dataset.shown = c.value;
    } else c.value = v === undefined || v === null ? "" : String(v);
    if (c.selectedIndex === -1) c.value = "";
  }
}

function node(pointer) {
  let n = D.s;
  for (const t of pointer.split("/").slice(1))
    n = typeof n === "object" && n !== null ? n[t.replace(/~1/g, "/").replace(/~0/g, "~")] : undefined;
  return n;
}

/** Whether v may be the alternative at sp: its field check passes, or it lacks no required member. */
function fits(v, sp) {
  for (let i = 0; i < 64 && D.refs[sp] !== undefined; i++) sp = D.refs[sp];
  const n = node(sp);
  const c = C[D.fields[sp]];
  if (c) return c.validate(v);
  return isObject(n) && !(isObject(v) && Array.isArray(n.required) && n.required.some((m) => !Object.hasOwn(v, m)));
}

/** Every (instance location, schema location) pair the value reaches, following the form. */
function walk(v, sp, ip, out) {
  const n = node(sp);
  if (!isObject(n)) return;
  out.push({ v, sp, ip });
  if (D.refs[sp] !== undefined) walk(v, D.refs[sp], ip, out);
  (n.allOf || []).forEach((_, i) => walk(v, sp + "/allOf/" + i, ip, out));
  for (const k of ["anyOf", "oneOf"]) {
    if (!Array.isArray(n[k])) continue;
    let pick = -1;
    n[k].forEach((_, i) => {
      const tag = D.tags[sp + "/" + k + "/" + i];
      if (tag && isObject(v) && same(v[tag[0]], tag[1])) pick = i;
    });
    if (pick < 0) pick = Math.max(0, n[k].findIndex((_, i) => fits(v, sp + "/" + k + "/" + i)));
    walk(v, sp + "/" + k + "/" + pick, ip, out);
  }
  if (isObject(v) && isObject(n.properties))
    for (const m of Object.keys(v))
      if (Object.hasOwn(n.properties, m)) walk(v[m], sp + "/properties/" + token(m), ip + "/" + token(m), out);
  if (Array.isArray(v)) {
    const prefix = n.prefixItems || [];
    v.forEach((x, i) => {
      if (i < prefix.length) walk(x, sp + "/prefixItems/" + i, ip + "/" + i, out);
      else if (n.items !== undefined) walk(x, sp + "/items", ip + "/" + i, out);
    });
  }
}

function failure(pointer, keywordLocation, member, v) {
  const keyword = keywordLocation.slice(keywordLocation.lastIndexOf("/") + 1);
  const words = v === "" ? "must be filled in" : D.words[keywordLocation] || "does not match the form";
  return { pointer, keyword, keywordLocation, message: (member === undefined ? "" : member + " ") + words };
}

/**
 * Why value does not match the form: the generated validator's keywordLocation first, at the
 * instance location it belongs to, then every field that fails its own check and every missing
 * member. [] when valid.
 */
function explain(value) {
  if (V.validate(value)) return [];
  const failed = V.lastFailure();
  const visits = [];
  walk(value, "", "", visits);
  const errors = [];
  for (const x of visits) {
    const c = C[D.fields[x.sp]];
    if (c !== undefined && x.v !== undefined && !c.validate(x.v)) errors.push(failure(x.ip, x.sp + c.lastFailure(), undefined, x.v));
    const n = node(x.sp);
    if (isObject(x.v) && Array.isArray(n.required))
      for (const m of n.required) {
        const p = x.ip + "/" + token(m);
        if (!Object.hasOwn(x.v, m) && !errors.some((e) => e.pointer === p)) errors.push(failure(p, x.sp + "/required", m));
      }
  }
  const first = errors.findIndex((e) => e.keywordLocation === failed);
  if (first >= 0) errors.unshift(errors.splice(first, 1)[0]);
  else {
    const cut = failed.lastIndexOf("/");
    const at = failed.slice(0, cut);
    const keyword = failed.slice(cut + 1);
    const candidates = visits.filter((x) => x.sp === at || (x.sp === failed && keyword !== "required"));
    if (keyword === "anyOf" || keyword === "oneOf")
      for (const x of candidates) {
        const i = errors.findIndex((e) => (e.pointer + "/").startsWith(x.ip + "/"));
        if (i >= 0) {
          errors.unshift(errors.splice(i, 1)[0]);
          return errors;
        }
      }
    let hit = candidates[0];
    let member;
    if (keyword === "required" || keyword === "additionalProperties") {
      const n = node(at);
      for (const x of candidates) {
        if (!isObject(x.v)) continue;
        member =
          keyword === "required"
            ? (n.required || []).find((m) => !Object.hasOwn(x.v, m))
            : Object.keys(x.v).find((m) => !(isObject(n.properties) && Object.hasOwn(n.properties, m)));
        if (member !== undefined) {
          hit = x;
          break;
        }
      }
    }
    const pointer = hit ? hit.ip + (member === undefined ? "" : "/" + token(member)) : "";
    errors.unshift(failure(pointer, failed, member));
  }
  return errors;
}

const line = (e) => (e.pointer || "(the whole value)") + ": " + e.keyword + ": " + e.message + " (schema " + e.keywordLocation + ")";

function clearErrors() {
  for (const p of form.querySelectorAll("[data-error]")) p.remove();
  for (const el of form.querySelectorAll("[aria-invalid]")) {
    if (el === box) continue;
    el.removeAttribute("aria-invalid");
    el.removeAttribute("aria-errormessage");
  }
  for (const el of form.querySelectorAll("[aria-describedby]"))
    if (el !== box) describe(el, el.getAttribute("aria-describedby").split(" ").find((x) => x.startsWith("gpt-e")), false);
}

function showErrors(errors, at) {
  let focus;
  for (const e of errors) {
    let p = e.pointer;
    while (!at.has(p) && p !== "") p = p.slice(0, p.lastIndexOf("/"));
    let el = at.get(p) || root;
    while (el.hidden && el !== root) el = el.parentElement.closest("[data-k]");
    const target = (leaf(el) && control(el)) || el;
    const message = document.createElement("p");
    message.className = "error";
    message.dataset.error = "";
    message.id = uid("e");
    message.textContent = (p === e.pointer ? "" : e.pointer.slice(p.length + 1) + ": ") + e.message + ".";
    if (target !== el) el.append(message);
    else (own(el, "legend") || el.firstChild).after(message);
    if (target.getAttribute("aria-invalid") !== "true") {
      target.setAttribute("aria-invalid", "true");
      if (target !== el) target.setAttribute("aria-errormessage", message.id);
    }
    describe(target, message.id, true);
    focus = focus || target;
  }
  if (focus) focus.focus();
}

function say(...parts) {
  status.replaceChildren(...parts.map((x) => (typeof x === "string" ? Object.assign(document.createElement("p"), { textContent: x }) : x)));
}

/** The MCP Apps bridge (the mcp-app page only): tool input fills the form. */
const bridge = D.app ? gptAddressBridge(D, (value) => {
  load(root, value);
  changed();
}) : undefined;

/**
 * POSTs the exact JSON text of value to this address; in the mcp-app page, asks the host to
 * call the tool instead (a tool error is a refusal: status 0 and its text as refused).
 */
async function send(value) {
  if (bridge) {
    const r = await bridge.callTool(value);
    const text = (r && Array.isArray(r.content) ? r.content : []).map((x) => (x && x.type === "text" ? x.text : "")).join("\n");
    return r && r.isError ? { status: 0, text, refused: text } : { status: 200, text, json: r && r.structuredContent };
  }
  const response = await fetch(location.pathname + location.search, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(value),
  });
  const text = await response.text();
  let json;
  try {
    json = text === "" ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, text, json };
}

function publishedUrl(json) {
  if (!isObject(json) || typeof json.url !== "string") return undefined;
  try {
    const url = new URL(json.url, bridge ? undefined : location.href);
    return /^https?:$/.test(url.protocol) ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function current() {
  const at = new Map();
  const bad = [];
  const value = collect(root, "", at, bad);
  return { value, at, bad };
}

let shown = false;
function check(move) {
  clearErrors();
  const { value, at, bad } = current();
  const errors = bad.length
    ? bad.map((pointer) => ({ pointer, keyword: "JSON", keywordLocation: "", message: "is not valid JSON" }))
    : explain(value);
  shown = errors.length > 0;
  if (shown) {
    if (move) showErrors(errors, at);
    else {
      const active = document.activeElement;
      showErrors(errors, at);
      if (active) active.focus();
    }
  }
  return shown ? undefined : value;
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  submit();
});

// A host's sandbox may lack allow-forms, where no submit event fires: the mcp-app page acts on
// the Submit button's click (also the implicit submission by Enter), and cancels the submission.
if (bridge)
  form.addEventListener("click", (event) => {
    if (!event.target.closest("button[type=submit]")) return;
    event.preventDefault();
    submit();
  });

async function submit() {
  const value = check(true);
  if (value === undefined) {
    say("Not sent: the form shows what to correct.");
    return;
  }
  say("Sending…");
  try {
    const answer = await send(value);
    if (answer.status === 200) {
      const url = publishedUrl(answer.json);
      const pre = Object.assign(document.createElement("pre"), { textContent: answer.text });
      if (url) {
        const a = Object.assign(document.createElement("a"), { href: url, textContent: url });
        const p = document.createElement("p");
        p.append("Accepted. Published at ", a);
        say(p, pre);
      } else say("Accepted.", pre);
    } else if (answer.status === 204) say("Not accepted: the address answered 204 No Content, and nothing happened.");
    else if (answer.refused !== undefined) say("Not accepted: " + answer.refused);
    else say("Failed: the address answered HTTP " + answer.status + ".");
  } catch {
    say("Failed: the address could not be reached.");
  }
}

status.addEventListener("click", (event) => {
  const a = bridge && event.target.closest("a");
  if (!a) return;
  event.preventDefault();
  bridge.openLink(a.href).catch(() => say("The host did not open " + a.href + "."));
});

form.addEventListener("click", (event) => {
  const button = event.target.closest("button[type=button]");
  if (!button) return;
  const holder = button.parentElement;
  if (button.hasAttribute("data-add")) {
    if (holder.dataset.k === "optional") {
      setOptional(holder, true);
      control(own(holder, "[data-slot]"))?.focus();
    } else {
      const item = addItem(holder);
      (control(item) || own(item, "[data-remove]")).focus();
    }
  } else if (button.hasAttribute("data-remove")) {
    const owner = holder.closest("[data-k]");
    if (owner.dataset.k === "optional") {
      setOptional(owner, false);
      own(owner, "[data-add]").focus();
    } else {
      holder.remove();
      update(owner);
      own(owner, "[data-add]").focus();
    }
  }
  changed();
});

form.addEventListener("change", (event) => {
  const select = event.target;
  if (select.tagName === "SELECT" && select.parentElement.parentElement.dataset.k === "choice") {
    choose(select.parentElement.parentElement, +select.value, true);
    changed();
  }
});

form.addEventListener("input", (event) => {
  if (event.target !== box) changed();
});

function changed() {
  if (shown) check(false);
  if (details.open && document.activeElement !== box) showJson();
}

function showJson() {
  box.value = JSON.stringify(current().value, null, 2);
  checkJson();
}

function checkJson() {
  let value;
  let text = "";
  try {
    value = JSON.parse(box.value);
  } catch (error) {
    text = "Not JSON: " + error.message;
  }
  const errors = text === "" ? explain(value) : [];
  if (errors.length) text = errors.map(line).join("\n");
  boxMessage.textContent = text === "" ? "Matches the form." : text;
  if (text === "") box.removeAttribute("aria-invalid");
  else box.setAttribute("aria-invalid", "true");
  return text === "" ? value : undefined;
}

details.addEventListener("toggle", () => {
  if (details.open) showJson();
});

box.addEventListener("input", () => {
  const value = checkJson();
  if (value === undefined) return;
  load(root, value);
  if (!same(current().value, value)) boxMessage.textContent = "Matches the form, but the form cannot show all of it.";
  if (shown) check(false);
});

/** The WebMCP tool: the same validation, the same POST; a refusal is returned, never thrown. */
async function execute(input) {
  const result = (text, isError, structuredContent) => ({ content: [{ type: "text", text }], isError, structuredContent });
  try {
    const value = typeof input === "string" ? JSON.parse(input) : input;
    const errors = explain(value);
    if (errors.length) return result("Not sent: the value does not match the form.\n" + errors.map(line).join("\n"), true, { errors });
    const answer = await send(value);
    if (answer.status === 200) return result(answer.text, false, isObject(answer.json) ? answer.json : { result: answer.json });
    if (answer.status === 204) return result("Not accepted: the address answered 204 No Content, and nothing happened.", true, { status: 204 });
    return result("Failed: the address answered HTTP " + answer.status + ".", true, { status: answer.status });
  } catch (error) {
    return result("Failed: " + (error && error.message ? error.message : String(error)), true, {});
  }
}

const context = document.modelContext || navigator.modelContext;
if (!bridge && context && typeof context.registerTool === "function") {
  try {
    Promise.resolve(
      context.registerTool({
        name: D.name,
        title: D.title,
        description: D.description,
        inputSchema: D.s,
        execute,
        annotations: { readOnlyHint: false },
      }),
    ).catch((error) => console.warn("gpt-address: WebMCP registerTool refused the tool", error));
  } catch (error) {
    console.warn("gpt-address: WebMCP registerTool failed", error);
  }
}

prepare(form);
for (const el of document.querySelectorAll("[data-js]")) el.hidden = !el.hidden;
}
`;
