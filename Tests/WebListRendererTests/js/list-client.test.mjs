// Tests of Sources/WebListRenderer/Resources/list-client.js.
// Run with: node --test Tests/WebListRendererTests/js/

import { test } from "node:test";
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";

import { applyMessage, ListClient, connectEventSource } from "../../../Sources/WebListRenderer/Resources/list-client.js";
import { createDocument } from "./fake-dom.mjs";

const CLIENT_SOURCE_URL = new URL("../../../Sources/WebListRenderer/Resources/list-client.js", import.meta.url);
const FIXTURES_URL = new URL("./fixtures/", import.meta.url);

// ---------------------------------------------------------------------------
// Helpers

function html(id, revision = 0) {
  return `<span class="title">${id}</span><em>r${revision}</em>`;
}

function rowsOf(ids, revision = 0) {
  return ids.map((id) => ({ id, html: html(id, revision) }));
}

function snapshot(version, rows) {
  return { type: "snapshot", version, items: rows.map((row) => ({ id: row.id, html: row.html })) };
}

function snapshotOfIds(version, ids) {
  return snapshot(version, rowsOf(ids));
}

function batch(from, to, steps) {
  return { type: "batch", from, to, steps };
}

function setup(options = {}) {
  const doc = createDocument();
  const container = doc.createElement("ul");
  const requests = [];
  const errors = [];
  const changes = [];
  const client = new ListClient(container, {
    document: doc,
    requestSnapshot: (reason) => requests.push(reason),
    onError: (error) => errors.push(error),
    onChange: (change) => changes.push(change),
    ...options,
  });
  return { doc, container, client, requests, errors, changes };
}

function domIds(container) {
  return container.children.map((element) => element.getAttribute("data-id"));
}

function domHTML(container) {
  return container.children.map((element) => element.innerHTML);
}

function elementsById(container) {
  return new Map(container.children.map((element) => [element.getAttribute("data-id"), element]));
}

/** Checks client model, DOM order, DOM content and the id → element map against `rows`. */
function assertInSync(client, container, rows, version) {
  const ids = rows.map((row) => row.id);
  if (version !== undefined) assert.equal(client.version, version, "version");
  assert.deepEqual(client.ids(), ids, "client ids");
  assert.deepEqual(client.rows(), rows.map((row) => ({ id: row.id, html: row.html })), "client rows");
  assert.deepEqual(domIds(container), ids, "DOM order");
  assert.deepEqual(domHTML(container), rows.map((row) => row.html), "DOM html");
  assert.equal(container.childNodes.length, rows.length, "no stray nodes in the container");
  for (const element of container.children) {
    assert.equal(client.elementFor(element.getAttribute("data-id")), element, "id → element map");
    assert.equal(element.dataset.id, element.getAttribute("data-id"));
  }
}

function deepFreeze(value) {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze(value[key]);
  }
  return value;
}

/** Straightforward reference model: one array, one operation at a time. */
function modelApply(rows, steps) {
  let list = rows.map((row) => ({ ...row }));
  for (const step of steps) {
    if (step.op === "remove") {
      list = list.filter((_, index) => index !== step.at);
    } else if (step.op === "insert") {
      list = [...list.slice(0, step.at), { id: step.id, html: step.html }, ...list.slice(step.at)];
    } else if (step.op === "move") {
      const row = list[step.from];
      const rest = list.filter((_, index) => index !== step.from);
      list = [...rest.slice(0, step.to), row, ...rest.slice(step.to)];
    } else if (step.op === "reload") {
      list = list.map((row, index) => (index === step.at ? { id: step.id, html: step.html } : row));
    } else {
      throw new Error(`unknown op ${step.op}`);
    }
  }
  return list;
}

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ---------------------------------------------------------------------------
// applyMessage (pure)

test("applyMessage: snapshot from the initial state", () => {
  const { state, status } = applyMessage({ version: null, rows: [] }, snapshotOfIds(4, ["a", "b"]));
  assert.equal(status, "applied");
  assert.deepEqual(state, { version: 4, rows: rowsOf(["a", "b"]) });
  assert.equal(applyMessage(null, snapshotOfIds(1, [])).status, "applied");
  assert.equal(applyMessage(undefined, JSON.stringify(snapshotOfIds(1, ["x"]))).state.rows[0].id, "x");
});

test("applyMessage: never mutates its input and returns the same state when not applied", () => {
  const state = deepFreeze({ version: 3, rows: rowsOf(["a", "b", "c"]) });
  const copy = structuredClone(state);
  const cases = [
    [batch(3, 4, [{ op: "remove", at: 0 }, { op: "insert", at: 2, id: "d", html: "D" }]), "applied"],
    [batch(3, 4, [{ op: "move", from: 0, to: 2 }, { op: "reload", at: 0, id: "b", html: "B" }]), "applied"],
    [batch(2, 3, []), "ignored"],
    [batch(1, 2, []), "ignored"],
    [batch(4, 5, []), "gap"],
    [batch(2, 4, []), "gap"],
    [batch(3, 4, [{ op: "insert", at: 0, id: "a", html: "" }]), "inconsistent"],
    [batch(3, 4, [{ op: "remove", at: 0 }, { op: "remove", at: 2 }]), "inconsistent"],
    [snapshotOfIds(2, ["z"]), "ignored"],
    [snapshotOfIds(3, ["z"]), "applied"],
    [{ type: "heartbeat" }, "ignored"],
    ["{not json", "inconsistent"],
    [null, "inconsistent"],
  ];
  for (const [message, expected] of cases) {
    const result = applyMessage(state, message);
    assert.equal(result.status, expected, JSON.stringify(message));
    if (expected !== "applied") assert.equal(result.state, state);
    else assert.notEqual(result.state.rows, state.rows);
  }
  assert.deepEqual(state, copy);
});

test("applyMessage: each op, sequential offsets", () => {
  const start = { version: 1, rows: rowsOf(["a", "b", "c", "d"]) };
  const steps = [
    { op: "remove", at: 3 }, // a b c
    { op: "insert", at: 0, id: "x", html: "X" }, // x a b c
    { op: "move", from: 3, to: 1 }, // x c a b
    { op: "reload", at: 2, id: "a", html: "A2" }, // x c a' b
    { op: "insert", at: 4, id: "y", html: "Y" }, // x c a' b y
    { op: "remove", at: 0 }, // c a' b y
  ];
  const { state, status } = applyMessage(start, batch(1, 2, steps));
  assert.equal(status, "applied");
  assert.equal(state.version, 2);
  assert.deepEqual(state.rows.map((row) => row.id), ["c", "a", "b", "y"]);
  assert.equal(state.rows[1].html, "A2");
  assert.deepEqual(state.rows, modelApply(start.rows, steps));
});

test("applyMessage: move is remove at `from`, then insert at `to` in the shortened list", () => {
  const ids = ["a", "b", "c", "d", "e"];
  const cases = [
    [1, 3, ["a", "c", "d", "b", "e"]],
    [3, 1, ["a", "d", "b", "c", "e"]],
    [0, 4, ["b", "c", "d", "e", "a"]],
    [4, 0, ["e", "a", "b", "c", "d"]],
    [2, 2, ["a", "b", "c", "d", "e"]],
    [1, 2, ["a", "c", "b", "d", "e"]],
    [2, 1, ["a", "c", "b", "d", "e"]],
  ];
  for (const [from, to, expected] of cases) {
    const { state, status } = applyMessage({ version: 0, rows: rowsOf(ids) }, batch(0, 1, [{ op: "move", from, to }]));
    assert.equal(status, "applied", `move ${from}→${to}`);
    assert.deepEqual(state.rows.map((row) => row.id), expected, `move ${from}→${to}`);
  }
  // `to` may not be the length of the original list (only of the shortened one).
  assert.equal(applyMessage({ version: 0, rows: rowsOf(ids) }, batch(0, 1, [{ op: "move", from: 0, to: 5 }])).status, "inconsistent");
});

test("applyMessage: inconsistent batches", () => {
  const state = deepFreeze({ version: 5, rows: rowsOf(["a", "b", "c"]) });
  const bad = [
    [{ op: "insert", at: 1, id: "b", html: "" }],
    [{ op: "insert", at: 4, id: "z", html: "" }],
    [{ op: "insert", at: -1, id: "z", html: "" }],
    [{ op: "insert", at: 0, id: 7, html: "" }],
    [{ op: "insert", at: 0, id: "z" }],
    [{ op: "remove", at: 3 }],
    [{ op: "remove", at: 1.5 }],
    [{ op: "remove" }],
    [{ op: "move", from: 3, to: 0 }],
    [{ op: "move", from: 0, to: 3 }],
    [{ op: "move", from: "0", to: 1 }],
    [{ op: "reload", at: 0, id: "b", html: "" }],
    [{ op: "reload", at: 3, id: "c", html: "" }],
    [{ op: "reload", at: 0, id: "a" }],
    [{ op: "explode", at: 0 }],
    [null],
    // valid prefix, then an invalid step: nothing of the batch applies
    [{ op: "remove", at: 0 }, { op: "insert", at: 0, id: "x", html: "" }, { op: "reload", at: 1, id: "x", html: "" }],
    [{ op: "remove", at: 2 }, { op: "remove", at: 2 }],
  ];
  for (const steps of bad) {
    const result = applyMessage(state, batch(5, 6, steps));
    assert.equal(result.status, "inconsistent", JSON.stringify(steps));
    assert.equal(result.state, state);
  }
  assert.equal(applyMessage(state, { type: "batch", from: 5, to: 6 }).status, "inconsistent");
  assert.equal(applyMessage(state, batch(5, 5, [])).status, "inconsistent");
  assert.equal(applyMessage(state, batch("5", 6, [])).status, "inconsistent");
  // remove then re-insert the same id is fine
  assert.equal(applyMessage(state, batch(5, 6, [{ op: "remove", at: 0 }, { op: "insert", at: 2, id: "a", html: "" }])).status, "applied");
});

test("applyMessage: snapshots", () => {
  const state = { version: 5, rows: rowsOf(["a"]) };
  assert.equal(applyMessage(state, snapshotOfIds(4, ["b"])).status, "ignored");
  assert.equal(applyMessage(state, snapshotOfIds(4, ["b"]), { acceptOlderSnapshot: true }).status, "applied");
  assert.equal(applyMessage(state, snapshotOfIds(5, ["b"])).status, "applied");
  assert.equal(applyMessage(state, snapshotOfIds(9, ["a", "a"])).status, "inconsistent");
  assert.equal(applyMessage(state, { type: "snapshot", version: 9 }).status, "inconsistent");
  assert.equal(applyMessage(state, { type: "snapshot", version: 9, items: [{ id: "a" }] }).status, "inconsistent");
  assert.equal(applyMessage(state, { type: "snapshot", version: null, items: [] }).status, "inconsistent");
  assert.equal(applyMessage({ version: null, rows: [] }, batch(0, 1, [])).status, "gap");
});

// ---------------------------------------------------------------------------
// ListClient

test("ListClient: snapshot renders one keyed element per row", () => {
  const { doc, container, client, changes } = setup({ rowTag: "div", rowClass: "row item" });
  assert.equal(client.version, null);
  assert.equal(client.handle(snapshotOfIds(7, ["a", "b", "c"])), "applied");
  assertInSync(client, container, rowsOf(["a", "b", "c"]), 7);
  for (const element of container.children) {
    assert.equal(element.tagName, "DIV");
    assert.equal(element.className, "row item");
    assert.equal(element.innerHTMLWrites, 1);
  }
  assert.equal(doc.stats.innerHTMLWrites, 3);
  assert.deepEqual(changes.map((change) => [change.type, change.version]), [["snapshot", 7]]);
});

test("ListClient: default row tag is li and JSON text is accepted", () => {
  const { container, client } = setup();
  assert.equal(client.handle(JSON.stringify(snapshotOfIds(1, ["a"]))), "applied");
  assert.equal(client.handle(JSON.stringify(batch(1, 2, [{ op: "insert", at: 1, id: "b", html: "B" }]))), "applied");
  assert.deepEqual(domIds(container), ["a", "b"]);
  assert.equal(container.children[0].tagName, "LI");
});

test("ListClient: each op updates the DOM minimally", () => {
  const { doc, container, client, requests } = setup();
  client.handle(snapshotOfIds(1, ["a", "b", "c", "d"]));
  let rows = rowsOf(["a", "b", "c", "d"]);
  let version = 1;
  const cases = [
    { steps: [{ op: "remove", at: 1 }], creates: 0, writes: 0 },
    { steps: [{ op: "insert", at: 0, id: "x", html: "<b>x</b>" }], creates: 1, writes: 1 },
    { steps: [{ op: "insert", at: 4, id: "y", html: "<b>y</b>" }], creates: 1, writes: 1 },
    { steps: [{ op: "move", from: 0, to: 3 }], creates: 0, writes: 0 },
    { steps: [{ op: "move", from: 4, to: 0 }], creates: 0, writes: 0 },
    { steps: [{ op: "reload", at: 3, id: "d", html: "<b>d2</b>" }], creates: 0, writes: 1 },
  ];
  for (const { steps, creates, writes } of cases) {
    const before = elementsById(container);
    doc.resetStats();
    assert.equal(client.handle(batch(version, version + 1, steps)), "applied");
    version += 1;
    rows = modelApply(rows, steps);
    assertInSync(client, container, rows, version);
    const stats = doc.stats;
    assert.equal(stats.createElement, creates, JSON.stringify(steps));
    assert.equal(stats.innerHTMLWrites, writes, JSON.stringify(steps));
    assert.equal(stats.replaceChildren, 0);
    const inserted = new Set(steps.filter((step) => step.op === "insert").map((step) => step.id));
    for (const [id, element] of elementsById(container)) {
      if (!inserted.has(id)) assert.equal(element, before.get(id), `element of ${id} kept`);
    }
  }
  assert.deepEqual(requests, []);
});

test("ListClient: move semantics in the DOM (remove, then insert at `to` in the shortened list)", () => {
  for (const [from, to] of [[1, 3], [3, 1], [0, 4], [4, 0], [2, 2], [0, 1], [1, 0], [3, 4]]) {
    const { doc, container, client } = setup();
    client.handle(snapshotOfIds(0, ["a", "b", "c", "d", "e"]));
    const before = elementsById(container);
    doc.resetStats();
    client.handle(batch(0, 1, [{ op: "move", from, to }]));
    const expected = modelApply(rowsOf(["a", "b", "c", "d", "e"]), [{ op: "move", from, to }]);
    assertInSync(client, container, expected, 1);
    assert.ok(doc.stats.insertions <= 1, "a move is at most one node insertion");
    assert.equal(doc.stats.createElement, 0);
    for (const [id, element] of elementsById(container)) assert.equal(element, before.get(id));
  }
});

test("ListClient: a reload assigns innerHTML once and keeps every element", () => {
  const { doc, container, client } = setup();
  const ids = Array.from({ length: 20 }, (_, index) => `r${index}`);
  client.handle(snapshotOfIds(10, ids));
  const before = container.children.slice();
  doc.resetStats();
  assert.equal(client.handle(batch(10, 11, [{ op: "reload", at: 7, id: "r7", html: "<i>new</i>" }])), "applied");
  assert.equal(doc.stats.innerHTMLWrites, 1);
  assert.deepEqual(doc.stats.innerHTMLLog, ["<i>new</i>"]);
  assert.equal(doc.stats.createElement, 0);
  assert.equal(doc.stats.insertions, 0);
  assert.equal(doc.stats.removals, 0);
  assert.equal(doc.stats.replaceChildren, 0);
  assert.deepEqual(container.children, before);
  assert.equal(before[7].innerHTMLWrites, 2);
  assert.equal(before[7].innerHTML, "<i>new</i>");
  for (const [index, element] of before.entries()) if (index !== 7) assert.equal(element.innerHTMLWrites, 1);
});

test("ListClient: ids are set as attributes, never as markup", () => {
  const { doc, container, client } = setup();
  const nasty = `"><img src=x onerror=alert(1)>&amp;`;
  client.handle(snapshot(1, [{ id: nasty, html: "&lt;safe&gt;" }]));
  client.handle(batch(1, 2, [{ op: "insert", at: 0, id: "<b>", html: "" }]));
  assert.deepEqual(domIds(container), ["<b>", nasty]);
  assert.equal(container.children[1].dataset.id, nasty);
  assert.deepEqual(doc.stats.innerHTMLLog, ["&lt;safe&gt;", ""]);
});

test("ListClient: duplicate and old batches are ignored without DOM work", () => {
  const { doc, container, client, requests } = setup();
  client.handle(snapshotOfIds(1, ["a", "b"]));
  const step = batch(1, 2, [{ op: "insert", at: 0, id: "c", html: "C" }]);
  assert.equal(client.handle(step), "applied");
  doc.resetStats();
  assert.equal(client.handle(step), "ignored");
  assert.equal(client.handle(batch(0, 1, [{ op: "remove", at: 0 }])), "ignored");
  assert.deepEqual(doc.stats, { createElement: 0, innerHTMLWrites: 0, insertions: 0, removals: 0, replaceChildren: 0, innerHTMLLog: [] });
  assert.deepEqual(domIds(container), ["c", "a", "b"]);
  assert.equal(client.version, 2);
  assert.deepEqual(requests, []);
});

test("ListClient: a gap requests one snapshot; buffered batches apply after it", () => {
  const { container, client, requests } = setup();
  client.handle(snapshotOfIds(1, ["a", "b"]));
  // 1→2 lost; server list after it: [a, b, c]
  assert.equal(client.handle(batch(2, 3, [{ op: "insert", at: 0, id: "d", html: html("d") }])), "gap");
  assert.deepEqual(requests, ["gap"]);
  assert.equal(client.awaitingSnapshot, true);
  assert.deepEqual(domIds(container), ["a", "b"], "list untouched by the gap");
  assert.equal(client.handle(batch(3, 4, [{ op: "move", from: 0, to: 3 }])), "buffered");
  assert.equal(client.handle(batch(4, 5, [{ op: "reload", at: 0, id: "a", html: "A5" }])), "buffered");
  assert.deepEqual(requests, ["gap"], "requestSnapshot called once while outstanding");
  assert.equal(client.bufferedCount, 3);

  // snapshot taken at version 3: the 2→3 batch is older and skipped
  assert.equal(client.handle(snapshotOfIds(3, ["d", "a", "b", "c"])), "applied");
  assert.equal(client.awaitingSnapshot, false);
  assert.equal(client.bufferedCount, 0);
  assertInSync(client, container, [{ id: "a", html: "A5" }, ...rowsOf(["b", "c", "d"])], 5);
  assert.deepEqual(requests, ["gap"]);

  // a later gap requests again
  assert.equal(client.handle(batch(9, 10, [])), "gap");
  assert.deepEqual(requests, ["gap", "gap"]);
});

test("ListClient: a snapshot at the gap batch's `from` applies the buffered gap batch", () => {
  const { container, client, requests } = setup();
  client.handle(snapshotOfIds(1, ["a"]));
  client.handle(batch(2, 3, [{ op: "insert", at: 2, id: "c", html: html("c") }]));
  client.handle(snapshotOfIds(2, ["a", "b"]));
  assertInSync(client, container, rowsOf(["a", "b", "c"]), 3);
  assert.deepEqual(requests, ["gap"]);
});

test("ListClient: batches spanning the current version are a gap", () => {
  const { container, client, requests } = setup();
  client.handle(snapshotOfIds(5, ["a"]));
  assert.equal(client.handle(batch(4, 6, [{ op: "remove", at: 0 }])), "gap");
  assert.deepEqual(requests, ["gap"]);
  assert.deepEqual(domIds(container), ["a"]);
});

test("ListClient: a buffered batch that does not follow the snapshot requests again", () => {
  const { container, client, requests } = setup();
  client.handle(snapshotOfIds(1, ["a"]));
  client.handle(batch(3, 4, [{ op: "remove", at: 0 }]));
  assert.deepEqual(requests, ["gap"]);
  client.handle(snapshotOfIds(2, ["a", "b"]));
  assert.deepEqual(requests, ["gap", "gap"], "still a gap after the snapshot");
  assert.equal(client.awaitingSnapshot, true);
  assert.equal(client.bufferedCount, 1);
  assertInSync(client, container, rowsOf(["a", "b"]), 2);
  client.handle(snapshotOfIds(3, ["b", "a"]));
  assertInSync(client, container, rowsOf(["a"]), 4);
});

test("ListClient: batches before the first snapshot are buffered and a snapshot is requested", () => {
  const { container, client, requests } = setup();
  assert.equal(client.handle(batch(3, 4, [{ op: "insert", at: 0, id: "z", html: "Z" }])), "gap");
  assert.equal(client.handle(batch(4, 5, [{ op: "remove", at: 1 }])), "buffered");
  assert.deepEqual(requests, ["no-snapshot"]);
  assert.deepEqual(domIds(container), []);
  client.handle(snapshotOfIds(3, ["a", "b"]));
  assertInSync(client, container, [{ id: "z", html: "Z" }, ...rowsOf(["b"])], 5);
});

test("ListClient: inconsistent batches leave the list unchanged and request a snapshot", () => {
  const bad = [
    [{ op: "insert", at: 0, id: "b", html: "dup" }],
    [{ op: "reload", at: 1, id: "c", html: "mismatch" }],
    [{ op: "remove", at: 3 }],
    [{ op: "move", from: 3, to: 0 }],
    [{ op: "move", from: 0, to: 3 }],
    [{ op: "insert", at: 5, id: "z", html: "" }],
    [{ op: "remove", at: 0 }, { op: "move", from: 0, to: 1 }, { op: "insert", at: 0, id: "x", html: "" }, { op: "reload", at: 0, id: "a", html: "" }],
  ];
  for (const steps of bad) {
    const { doc, container, client, requests } = setup();
    client.handle(snapshotOfIds(1, ["a", "b", "c"]));
    const before = container.children.slice();
    doc.resetStats();
    assert.equal(client.handle(batch(1, 2, steps)), "inconsistent", JSON.stringify(steps));
    assertInSync(client, container, rowsOf(["a", "b", "c"]), 1);
    assert.deepEqual(container.children, before);
    assert.deepEqual(doc.stats, { createElement: 0, innerHTMLWrites: 0, insertions: 0, removals: 0, replaceChildren: 0, innerHTMLLog: [] });
    assert.deepEqual(requests, ["inconsistent"]);
    // a second bad message while awaiting does not request again
    assert.equal(client.handle(batch(1, 2, steps)), "buffered");
    assert.equal(client.handle("{garbage"), "inconsistent");
    assert.deepEqual(requests, ["inconsistent"]);
    // recovery
    client.handle(snapshotOfIds(2, ["c", "a"]));
    assertInSync(client, container, rowsOf(["c", "a"]), 2);
  }
});

test("ListClient: malformed messages request a snapshot, unknown types are ignored", () => {
  const { client, requests } = setup();
  client.handle(snapshotOfIds(1, ["a"]));
  assert.equal(client.handle({ type: "heartbeat" }), "ignored");
  assert.deepEqual(requests, []);
  assert.equal(client.handle("not json"), "inconsistent");
  assert.deepEqual(requests, ["malformed"]);
});

test("ListClient: an older snapshot is ignored unless one was requested", () => {
  const { doc, container, client } = setup();
  client.handle(snapshotOfIds(5, ["a", "b"]));
  doc.resetStats();
  assert.equal(client.handle(snapshotOfIds(4, ["z"])), "ignored");
  assert.deepEqual(domIds(container), ["a", "b"]);
  assert.equal(doc.stats.innerHTMLWrites, 0);
  client.handle(batch(5, 6, [{ op: "insert", at: 9, id: "q", html: "" }]));
  assert.equal(client.awaitingSnapshot, true);
  assert.equal(client.handle(snapshotOfIds(4, ["z"])), "applied");
  assertInSync(client, container, rowsOf(["z"]), 4);
});

test("ListClient: a rejected snapshot keeps the request outstanding", () => {
  const { client, requests } = setup();
  client.handle(batch(1, 2, []));
  assert.deepEqual(requests, ["no-snapshot"]);
  assert.equal(client.handle(snapshotOfIds(1, ["a", "a"])), "inconsistent");
  assert.equal(client.awaitingSnapshot, true);
  assert.deepEqual(requests, ["no-snapshot"]);
  assert.equal(client.handle(snapshotOfIds(1, ["a"])), "applied");
  assert.equal(client.version, 2);
});

test("ListClient: snapshots reuse elements and rewrite only changed rows", () => {
  const { doc, container, client } = setup();
  container.appendChild(doc.createTextNode("Loading…"));
  container.appendChild(doc.createElement("p"));
  client.handle(snapshotOfIds(1, ["a", "b", "c", "d"]));
  assertInSync(client, container, rowsOf(["a", "b", "c", "d"]), 1);
  const before = elementsById(container);
  doc.resetStats();
  const next = [...rowsOf(["d", "b"]), { id: "a", html: "changed" }, ...rowsOf(["e"])];
  client.handle(snapshot(9, next));
  assertInSync(client, container, next, 9);
  assert.equal(doc.stats.createElement, 1);
  assert.deepEqual(doc.stats.innerHTMLLog.slice().sort(), ["changed", html("e")].sort());
  assert.equal(doc.stats.innerHTMLWrites, 2);
  assert.equal(doc.stats.replaceChildren, 0);
  for (const id of ["a", "b", "d"]) assert.equal(client.elementFor(id), before.get(id));
  assert.equal(client.elementFor("c"), undefined);
  assert.equal(before.get("c").parentNode, null);
});

test("ListClient: buffer overflow drops the buffer", () => {
  const { container, client, requests } = setup({ maxBuffer: 3 });
  client.handle(snapshotOfIds(0, []));
  client.handle(batch(5, 6, []));
  client.handle(batch(6, 7, []));
  client.handle(batch(7, 8, []));
  assert.equal(client.bufferedCount, 3);
  client.handle(batch(8, 9, [{ op: "insert", at: 0, id: "n", html: "N" }]));
  assert.equal(client.bufferedCount, 1);
  client.handle(snapshotOfIds(8, ["m"]));
  assertInSync(client, container, [{ id: "n", html: "N" }, ...rowsOf(["m"])], 9);
  assert.deepEqual(requests, ["gap"]);
});

test("ListClient: requestSnapshot may deliver the snapshot synchronously", () => {
  const doc = createDocument();
  const container = doc.createElement("ol");
  const server = { version: 3, rows: rowsOf(["a", "b", "c"]) };
  let calls = 0;
  const client = new ListClient(container, {
    document: doc,
    requestSnapshot: () => {
      calls += 1;
      client.handle(snapshot(server.version, server.rows));
    },
  });
  assert.equal(client.handle(batch(3, 4, [{ op: "remove", at: 0 }])), "gap");
  assert.equal(calls, 1);
  assert.equal(client.awaitingSnapshot, false);
  assertInSync(client, container, rowsOf(["b", "c"]), 4);
});

test("ListClient: callback errors are reported and do not break the client", () => {
  const errors = [];
  let failRequest = true;
  const { container, client } = setup({
    onError: (error) => errors.push(error.message),
    onChange: () => {
      throw new Error("onChange failed");
    },
    requestSnapshot: () => {
      if (failRequest) throw new Error("request failed");
    },
  });
  client.handle(snapshotOfIds(1, ["a"]));
  assert.deepEqual(errors, ["onChange failed"]);
  client.handle(batch(2, 3, []));
  assert.deepEqual(errors, ["onChange failed", "request failed"]);
  assert.equal(client.awaitingSnapshot, false, "a failed request can be retried");
  failRequest = false;
  assert.equal(client.requestResync("manual"), true);
  assert.equal(client.requestResync("manual"), false);
  client.handle(snapshotOfIds(2, ["b"]));
  assertInSync(client, container, rowsOf(["b"]), 3);
});

test("ListClient: a DOM changed behind the client's back is rebuilt from the model", () => {
  const { container, client, errors } = setup();
  client.handle(snapshotOfIds(1, ["a", "b", "c"]));
  container.removeChild(client.elementFor("b"));
  client.handle(batch(1, 2, [{ op: "remove", at: 1 }, { op: "insert", at: 0, id: "d", html: html("d") }]));
  assert.equal(errors.length, 1);
  assertInSync(client, container, rowsOf(["d", "a", "c"]), 2);
});

test("ListClient: a large list changed behind the client's back is rebuilt too", () => {
  // One argument per row would pass the engine's limit on arguments (node: under 200,000).
  const count = 200_000;
  const { container, client, errors } = setup();
  const ids = Array.from({ length: count }, (_, index) => `r${index}`);
  assert.equal(client.handle(snapshotOfIds(1, ids)), "applied");
  container.removeChild(client.elementFor("r0"));
  assert.equal(client.handle(batch(1, 2, [{ op: "remove", at: 0 }])), "applied");
  assert.equal(errors.length, 1);
  assert.equal(client.version, 2);
  assert.equal(container.children.length, count - 1);
  assert.equal(client.elementFor("r1"), container.children[0]);
});

test("ListClient: ids are compared exactly; a row whose id is re-spelled arrives as remove and insert", () => {
  // What the server sends when an item's id is re-added in another Unicode normalization
  // ("\u00e9" and "e\u0301" are one id to Swift): the reload becomes a remove and an insert.
  const start = [snapshot(0, []), batch(0, 1, [{ op: "insert", at: 0, id: "\u00e9", html: "NFC" }, { op: "insert", at: 1, id: "z", html: "Z" }])];
  const reloadUnderTheOtherSpelling = batch(1, 2, [{ op: "move", from: 0, to: 1 }, { op: "reload", at: 1, id: "e\u0301", html: "NFD" }]);
  const strict = setup().client;
  for (const message of start) assert.equal(strict.handle(message), "applied");
  assert.equal(strict.handle(reloadUnderTheOtherSpelling), "inconsistent");

  const { container, client, requests } = setup();
  for (const message of start) assert.equal(client.handle(message), "applied");
  const sent = batch(1, 2, [{ op: "move", from: 0, to: 1 }, { op: "remove", at: 1 }, { op: "insert", at: 1, id: "e\u0301", html: "NFD" }]);
  assert.equal(client.handle(sent), "applied");
  assert.deepEqual(domIds(container), ["z", "e\u0301"]);
  assert.deepEqual(requests, []);
});

test("ListClient: requires a document", () => {
  const doc = createDocument();
  const detached = { childNodes: [] };
  assert.throws(() => new ListClient(detached, {}), TypeError);
  assert.throws(() => new ListClient(null, { document: doc }), TypeError);
  // the container's ownerDocument is used when no document is given
  const container = doc.createElement("ul");
  const client = new ListClient(container);
  client.handle(snapshotOfIds(1, ["a"]));
  assert.deepEqual(domIds(container), ["a"]);
});

// ---------------------------------------------------------------------------
// Randomized comparison against the reference model

function randomInt(random, bound) {
  return Math.floor(random() * bound);
}

const ODD_IDS = [`"q"`, "<i>", "a&b", "x y", "", "ü", "id'1"];

function makeGenerator(random) {
  let counter = 0;
  let revision = 0;
  const newId = () => {
    if (random() < 0.05) {
      const id = ODD_IDS[randomInt(random, ODD_IDS.length)] + `#${counter}`;
      counter += 1;
      return id;
    }
    counter += 1;
    return `n${counter}`;
  };
  const newHTML = (id) => {
    revision += 1;
    return `<p data-r="${revision}">${id.replace(/[<&"]/g, "")}</p>`;
  };
  /** Random valid steps for `rows`; returns {steps, rows} with the rows after them. */
  const steps = (rows) => {
    let list = rows;
    const out = [];
    const removed = [];
    const count = randomInt(random, 7);
    for (let index = 0; index < count; index += 1) {
      const choice = list.length === 0 ? 1 : randomInt(random, 4);
      let step;
      if (choice === 0) {
        step = { op: "remove", at: randomInt(random, list.length) };
        removed.push(list[step.at].id);
      } else if (choice === 1) {
        const present = new Set(list.map((row) => row.id));
        const reusable = removed.filter((id) => !present.has(id));
        const id = reusable.length > 0 && random() < 0.5 ? reusable[randomInt(random, reusable.length)] : newId();
        step = { op: "insert", at: randomInt(random, list.length + 1), id, html: newHTML(id) };
      } else if (choice === 2) {
        step = { op: "move", from: randomInt(random, list.length), to: randomInt(random, list.length) };
      } else {
        const at = randomInt(random, list.length);
        step = { op: "reload", at, id: list[at].id, html: newHTML(list[at].id) };
      }
      out.push(step);
      list = modelApply(list, [step]);
    }
    return { steps: out, rows: list };
  };
  /** An invalid step for `rows` (the list after the valid prefix). */
  const invalidStep = (rows) => {
    const length = rows.length;
    const options = [
      { op: "remove", at: length },
      { op: "move", from: length, to: 0 },
      { op: "move", from: 0, to: length },
      { op: "insert", at: length + 1, id: newId(), html: "" },
      { op: "reload", at: length, id: "nope", html: "" },
    ];
    if (length > 0) {
      options.push({ op: "insert", at: randomInt(random, length + 1), id: rows[randomInt(random, length)].id, html: "" });
      const at = randomInt(random, length);
      options.push({ op: "reload", at, id: rows[at].id + "-other", html: "" });
    }
    return options[randomInt(random, options.length)];
  };
  return { newId, newHTML, steps, invalidStep };
}

function runScenario(seed) {
  const random = mulberry32(seed);
  const generator = makeGenerator(random);
  const doc = createDocument();
  const container = doc.createElement("ul");
  let requests = 0;
  const client = new ListClient(container, { document: doc, requestSnapshot: () => (requests += 1) });

  let version = randomInt(random, 50);
  let rows = [];
  for (let index = randomInt(random, 12); index > 0; index -= 1) {
    const id = generator.newId();
    rows.push({ id, html: generator.newHTML(id) });
  }
  /** server history: version → rows */
  const history = new Map([[version, rows]]);
  let pure = deepFreeze(applyMessage(null, snapshot(version, rows)).state);
  assert.equal(client.handle(snapshot(version, rows)), "applied");
  assertInSync(client, container, rows, version);

  const nextBatch = () => {
    const generated = generator.steps(rows);
    const from = version;
    const to = version + 1 + (random() < 0.2 ? randomInt(random, 3) : 0);
    const message = deepFreeze(batch(from, to, generated.steps));
    rows = generated.rows;
    version = to;
    history.set(version, rows);
    const result = applyMessage(pure, message);
    assert.equal(result.status, "applied", `seed ${seed}`);
    pure = deepFreeze(result.state);
    assert.deepEqual(pure.rows, rows, `seed ${seed}: pure model`);
    assert.equal(pure.version, version);
    return message;
  };

  const rounds = 1 + randomInt(random, 20);
  for (let round = 0; round < rounds; round += 1) {
    const scenario = random();
    if (scenario < 0.7) {
      // plain delivery, possibly duplicated
      const message = nextBatch();
      const before = elementsById(container);
      doc.resetStats();
      assert.equal(client.handle(message), "applied", `seed ${seed}`);
      assertInSync(client, container, rows, version);
      const inserts = message.steps.filter((step) => step.op === "insert");
      const reloads = message.steps.filter((step) => step.op === "reload");
      assert.equal(doc.stats.createElement, inserts.length);
      assert.equal(doc.stats.innerHTMLWrites, inserts.length + reloads.length);
      assert.equal(doc.stats.replaceChildren, 0);
      const inserted = new Set(inserts.map((step) => step.id));
      for (const [id, element] of elementsById(container)) {
        if (!inserted.has(id)) assert.equal(element, before.get(id), `seed ${seed}: element of ${id} kept`);
      }
      if (random() < 0.15) {
        doc.resetStats();
        assert.equal(client.handle(message), "ignored");
        assert.equal(doc.stats.insertions + doc.stats.removals + doc.stats.innerHTMLWrites, 0);
        assertInSync(client, container, rows, version);
      }
    } else if (scenario < 0.85) {
      // an inconsistent batch: valid prefix, then an invalid step
      const base = { version, rows };
      const prefix = generator.steps(rows);
      const corrupted = deepFreeze(batch(version, version + 1, [...prefix.steps, generator.invalidStep(prefix.rows)]));
      const pureResult = applyMessage(pure, corrupted);
      assert.equal(pureResult.status, "inconsistent", `seed ${seed}`);
      assert.equal(pureResult.state, pure);
      const before = container.children.slice();
      doc.resetStats();
      const requestsBefore = requests;
      assert.equal(client.handle(corrupted), "inconsistent", `seed ${seed}`);
      assert.equal(requests, requestsBefore + 1);
      assert.deepEqual(container.children, before);
      assert.equal(doc.stats.insertions + doc.stats.removals + doc.stats.innerHTMLWrites + doc.stats.createElement, 0);
      assertInSync(client, container, base.rows, base.version);
      // the server goes on; the snapshot is taken at some version up to the latest
      const later = 1 + randomInt(random, 3);
      for (let index = 0; index < later; index += 1) assert.equal(client.handle(nextBatch()), "buffered");
      const versions = [...history.keys()].filter((v) => v >= base.version);
      const at = versions[randomInt(random, versions.length)];
      assert.equal(client.handle(snapshot(at, history.get(at))), "applied");
      assert.equal(requests, requestsBefore + 1);
      assertInSync(client, container, rows, version);
    } else {
      // a lost batch: the next ones arrive after a gap
      nextBatch(); // lost
      const lostTo = version;
      const requestsBefore = requests;
      const first = nextBatch();
      assert.equal(client.handle(first), "gap", `seed ${seed}`);
      assert.equal(requests, requestsBefore + 1);
      const more = randomInt(random, 3);
      for (let index = 0; index < more; index += 1) assert.equal(client.handle(nextBatch()), "buffered");
      assert.equal(requests, requestsBefore + 1, "one request while outstanding");
      const versions = [...history.keys()].filter((v) => v >= lostTo);
      const at = versions[randomInt(random, versions.length)];
      assert.equal(client.handle(snapshot(at, history.get(at))), "applied");
      assert.equal(client.awaitingSnapshot, false);
      assertInSync(client, container, rows, version);
    }
    assert.deepEqual(client.ids(), pure.rows.map((row) => row.id), `seed ${seed}: DOM order equals the pure model`);
  }
}

test("randomized: ListClient and applyMessage match a reference model (500 seeds)", () => {
  for (let seed = 1; seed <= 500; seed += 1) runScenario(seed);
});

// ---------------------------------------------------------------------------
// connectEventSource

function makeEventSourceClass() {
  return class FakeEventSource {
    static instances = [];
    constructor(url, init) {
      this.url = String(url);
      this.init = init;
      this.readyState = 0;
      this.listeners = new Map();
      this.closed = false;
      FakeEventSource.instances.push(this);
    }
    addEventListener(type, listener) {
      if (!this.listeners.has(type)) this.listeners.set(type, []);
      this.listeners.get(type).push(listener);
    }
    close() {
      this.readyState = 2;
      this.closed = true;
    }
    emit(type, event = {}) {
      for (const listener of this.listeners.get(type) ?? []) listener({ type, target: this, ...event });
    }
    open() {
      this.readyState = 1;
      this.emit("open");
    }
    send(message) {
      this.emit("message", { data: typeof message === "string" ? message : JSON.stringify(message) });
    }
    fail(readyState) {
      this.readyState = readyState;
      this.emit("error");
    }
  };
}

function makeServer() {
  const server = {
    state: { version: 1, rows: rowsOf(["a", "b"]) },
    calls: [],
    failures: 0,
    async fetch(url, init) {
      server.calls.push({ url: String(url), init });
      if (server.failures > 0) {
        server.failures -= 1;
        return { ok: false, status: 503, json: async () => ({}) };
      }
      const body = snapshot(server.state.version, server.state.rows);
      return { ok: true, status: 200, json: async () => body };
    },
  };
  return server;
}

const settle = async (rounds = 10) => {
  for (let index = 0; index < rounds; index += 1) await new Promise((resolve) => setImmediate(resolve));
};

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

test("connectEventSource: snapshotURL is required", () => {
  const doc = createDocument();
  const EventSource = makeEventSourceClass();
  assert.throws(() => connectEventSource(doc.createElement("ul"), "/events", { document: doc, EventSource, fetch: async () => {} }), TypeError);
  assert.equal(EventSource.instances.length, 0);
});

test("connectEventSource: initial snapshot, stream messages, gap recovery, close", async () => {
  const doc = createDocument();
  const container = doc.createElement("ul");
  const EventSource = makeEventSourceClass();
  const server = makeServer();
  const connection = connectEventSource(container, "/events", {
    document: doc,
    EventSource,
    fetch: server.fetch,
    snapshotURL: "/list/snapshot",
    eventSourceInit: { withCredentials: true },
    retryDelay: 1,
  });
  const { client } = connection;
  assert.equal(EventSource.instances.length, 1);
  const source = EventSource.instances[0];
  assert.equal(source.url, "/events");
  assert.deepEqual(source.init, { withCredentials: true });
  source.open();
  await settle();
  assert.equal(server.calls.length, 1);
  assert.equal(server.calls[0].url, "/list/snapshot");
  assert.equal(server.calls[0].init.headers.Accept, "application/json");
  assertInSync(client, container, rowsOf(["a", "b"]), 1);

  source.send(batch(1, 2, [{ op: "insert", at: 2, id: "c", html: html("c") }]));
  assertInSync(client, container, rowsOf(["a", "b", "c"]), 2);

  // 2→3 is lost; the server is now at 3
  server.state = { version: 3, rows: rowsOf(["b", "c"]) };
  source.send(batch(3, 4, [{ op: "insert", at: 0, id: "z", html: html("z") }]));
  assert.equal(client.awaitingSnapshot, true);
  await settle();
  assert.equal(server.calls.length, 2);
  assertInSync(client, container, rowsOf(["z", "b", "c"]), 4);

  connection.close();
  assert.equal(source.closed, true);
  source.send(batch(4, 5, [{ op: "remove", at: 0 }]));
  assert.equal(client.version, 4);
});

test("connectEventSource: after a stream error a snapshot is requested once reconnected", async () => {
  const doc = createDocument();
  const container = doc.createElement("ul");
  const EventSource = makeEventSourceClass();
  const server = makeServer();
  const connection = connectEventSource(container, "/events", {
    document: doc, EventSource, fetch: server.fetch, snapshotURL: "/snap", initialSnapshot: false, retryDelay: 1,
  });
  const source = EventSource.instances[0];
  source.open();
  source.send(snapshot(1, rowsOf(["a", "b"])));
  assert.equal(server.calls.length, 0);
  source.fail(0); // CONNECTING: the browser reconnects by itself
  await settle();
  assert.equal(server.calls.length, 0, "no request before the stream is back");
  server.state = { version: 6, rows: rowsOf(["q"]) };
  source.open();
  await settle();
  assert.equal(server.calls.length, 1);
  assertInSync(connection.client, container, rowsOf(["q"]), 6);
  connection.close();
});

test("connectEventSource: a closed stream is reopened; failed snapshot requests are retried", async () => {
  const doc = createDocument();
  const container = doc.createElement("ul");
  const EventSource = makeEventSourceClass();
  const server = makeServer();
  const errors = [];
  server.failures = 2;
  const connection = connectEventSource(container, "/events", {
    document: doc, EventSource, fetch: server.fetch, snapshotURL: "/snap", retryDelay: 1, maxRetryDelay: 4,
    onError: (error) => errors.push(error),
  });
  await sleep(30);
  await settle();
  assert.equal(server.calls.length, 3, "two failures, then success");
  assert.equal(errors.length, 2);
  assertInSync(connection.client, container, rowsOf(["a", "b"]), 1);

  EventSource.instances[0].fail(2); // CLOSED: the browser gave up
  assert.equal(EventSource.instances[0].closed, true);
  await sleep(20);
  assert.equal(EventSource.instances.length, 2, "reopened");
  server.state = { version: 2, rows: rowsOf(["b"]) };
  EventSource.instances[1].open();
  await settle();
  assertInSync(connection.client, container, rowsOf(["b"]), 2);
  // events of the old stream are ignored
  EventSource.instances[0].send(batch(2, 3, [{ op: "remove", at: 0 }]));
  assert.equal(connection.client.version, 2);
  connection.close();
  assert.equal(EventSource.instances[1].closed, true);
});

test("connectEventSource: a URL function is asked for every stream, named events reach their handlers, and a broken stream is reopened at the URL it gives", async () => {
  const doc = createDocument();
  const container = doc.createElement("ul");
  const EventSource = makeEventSourceClass();
  const server = makeServer();
  let token = null;
  const asked = [];
  const connection = connectEventSource(container, async () => {
    const target = token === null ? "/events" : `/events?resume=${token}`;
    asked.push(target);
    return target;
  }, {
    document: doc, EventSource, fetch: server.fetch, snapshotURL: () => `/snap?window=${token}`, initialSnapshot: false, retryDelay: 1,
    events: { window: (event) => { token = JSON.parse(event.data).id; } },
  });
  await settle();
  assert.deepEqual(asked, ["/events"]);
  const first = EventSource.instances[0];
  assert.equal(first.url, "/events");
  first.open();
  first.emit("window", { data: JSON.stringify({ type: "window", id: "T0k3n" }) });
  assert.equal(token, "T0k3n");
  first.send(snapshot(1, rowsOf(["a", "b"])));
  assertInSync(connection.client, container, rowsOf(["a", "b"]), 1);

  // CONNECTING: the browser would reconnect to "/events" (a new resource); the
  // connection closes it and opens the URL the function gives now.
  first.fail(0);
  assert.equal(first.closed, true);
  await sleep(20);
  assert.deepEqual(asked, ["/events", "/events?resume=T0k3n"]);
  const second = EventSource.instances[1];
  assert.equal(second.url, "/events?resume=T0k3n");
  server.state = { version: 3, rows: rowsOf(["b", "c"]) };
  second.open();
  await settle();
  assert.equal(server.calls.at(-1).url, "/snap?window=T0k3n", "the snapshot URL is asked at each request");
  assertInSync(connection.client, container, rowsOf(["b", "c"]), 3);
  // A named event of the old stream is ignored.
  first.emit("window", { data: JSON.stringify({ type: "window", id: "old" }) });
  assert.equal(token, "T0k3n");

  // A URL function that fails is asked again after the retry delay.
  let failing = 1;
  const errors = [];
  const other = connectEventSource(doc.createElement("ul"), () => {
    if (failing > 0) { failing -= 1; throw new Error("no URL yet"); }
    return "/later";
  }, { document: doc, EventSource, fetch: server.fetch, snapshotURL: "/snap", initialSnapshot: false, retryDelay: 1, onError: (error) => errors.push(error) });
  await sleep(20);
  assert.equal(errors.length, 1);
  assert.equal(EventSource.instances.at(-1).url, "/later");
  other.close();
  connection.close();
  assert.equal(second.closed, true);
});

test("connectEventSource: close() stops pending retries", async () => {
  const doc = createDocument();
  const EventSource = makeEventSourceClass();
  const server = makeServer();
  server.failures = 100;
  const connection = connectEventSource(doc.createElement("ul"), "/events", {
    document: doc, EventSource, fetch: server.fetch, snapshotURL: "/snap", retryDelay: 5, onError: () => {},
  });
  await settle();
  const calls = server.calls.length;
  connection.close();
  await sleep(30);
  assert.equal(server.calls.length, calls);
});

// ---------------------------------------------------------------------------
// Source rules

test("the client never builds markup from strings", async () => {
  const source = await readFile(CLIENT_SOURCE_URL, "utf8");
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  assert.doesNotMatch(code, /insertAdjacentHTML|outerHTML|document\.write|createContextualFragment|DOMParser/);
  const assignments = [...code.matchAll(/\.innerHTML\s*([+]?=)\s*([^;]*);/g)];
  assert.ok(assignments.length > 0);
  for (const [statement, operator, value] of assignments) {
    assert.equal(operator, "=", statement);
    assert.match(value.trim(), /^[A-Za-z_$][\w$]*$/, `innerHTML is assigned a plain value: ${statement}`);
  }
  assert.doesNotMatch(code, /\bimport\b[^(]/, "no dependencies");
});

// ---------------------------------------------------------------------------
// Fixture replay

async function fixtureFiles() {
  try {
    return (await readdir(FIXTURES_URL)).filter((name) => name.endsWith(".json")).sort();
  } catch (error) {
    if (error.code === "ENOENT") return [];
    throw error;
  }
}

test("replays fixtures from Tests/WebListRendererTests/js/fixtures/", async (t) => {
  const files = await fixtureFiles();
  if (files.length === 0) {
    t.skip("no *.json fixtures in Tests/WebListRendererTests/js/fixtures/");
    return;
  }
  for (const file of files) {
    await t.test(file, async () => {
      const fixture = JSON.parse(await readFile(new URL(file, FIXTURES_URL), "utf8"));
      assert.ok(Array.isArray(fixture.messages), `${file}: "messages" must be an array`);
      const expected = fixture.expected;
      assert.ok(expected && typeof expected === "object", `${file}: "expected" is missing`);
      assert.ok(Array.isArray(expected.ids) && Array.isArray(expected.html), `${file}: expected.ids and expected.html must be arrays`);
      assert.equal(expected.ids.length, expected.html.length, `${file}: expected.ids and expected.html differ in length`);

      const { container, client, requests, errors } = setup();
      for (const [index, message] of fixture.messages.entries()) {
        const status = client.handle(message);
        assert.notEqual(status, "inconsistent", `${file}: message ${index} is inconsistent`);
      }
      assert.deepEqual(errors, []);
      const expectedRequests = expected.snapshotRequests ?? 0;
      assert.equal(requests.length, expectedRequests, `${file}: snapshot requests (${requests.join(", ")})`);
      if (expectedRequests === 0) assert.equal(client.awaitingSnapshot, false);
      const rows = expected.ids.map((id, index) => ({ id, html: expected.html[index] }));
      assertInSync(client, container, rows, expected.version);
    });
  }
});
