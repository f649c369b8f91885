// Tests of sectioned lists in Sources/WebListRenderer/Resources/list-client.js.
// Run with: node --test Tests/WebListRendererTests/js/

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";

import { applyMessage, ListClient } from "../../../Sources/WebListRenderer/Resources/list-client.js";
import { createDocument } from "./fake-dom.mjs";

const SECTIONED_FIXTURE_URL = new URL("./sectioned-fixtures/swift-sectioned-random.json", import.meta.url);

// ---------------------------------------------------------------------------
// Helpers

function row(id, revision = 0) {
  return { id, html: `<span>${id}</span><em>r${revision}</em>` };
}

/** A sectioned snapshot message: `sections` is [[key, [ids…]], …]; titles are the keys upper-cased. */
function sectionedSnapshot(version, sections) {
  return {
    type: "snapshot",
    version,
    sections: sections.map(([key, ids]) => ({ key, title: key.toUpperCase(), items: ids.map((id) => row(id)) })),
  };
}

function sectionedBatch(from, to, steps) {
  return { type: "batch", from, to, sectioned: true, steps };
}

function setup(options = {}) {
  const doc = createDocument();
  const container = doc.createElement("div");
  const requests = [];
  const errors = [];
  const client = new ListClient(container, {
    document: doc,
    requestSnapshot: (reason) => requests.push(reason),
    onError: (error) => errors.push(error),
    ...options,
  });
  return { doc, container, client, requests, errors };
}

/** The sections as the DOM shows them: key, title, count and rows of each. */
function domSections(container) {
  return container.children.map((section) => {
    const [header, list] = section.children;
    return {
      key: section.getAttribute("data-key"),
      title: header.children[0].textContent,
      count: header.children[1].textContent,
      ids: list.children.map((element) => element.getAttribute("data-id")),
      html: list.children.map((element) => element.innerHTML),
    };
  });
}

/**
 * Checks the DOM, the client's model and its element maps against `expected`
 * ([{key, title, ids, html}]): one section element per section, in order, each
 * with a header (title, count) and a list of the section's rows, and nothing else.
 */
function assertSectionedInSync(client, container, expected, version) {
  if (version !== undefined) assert.equal(client.version, version, "version");
  assert.equal(container.childNodes.length, expected.length, "one node per section in the container");
  assert.deepEqual(
    domSections(container),
    expected.map((section) => ({ key: section.key, title: section.title, count: String(section.ids.length), ids: section.ids, html: section.html })),
    "sections in the DOM",
  );
  for (const [index, element] of container.children.entries()) {
    assert.equal(element.tagName, "SECTION");
    assert.equal(element.childNodes.length, 2, "a section holds a header and a list");
    const [header, list] = element.children;
    assert.equal(header.tagName, "H2");
    assert.equal(header.className, "list-section-header");
    assert.equal(list.tagName, "OL");
    assert.equal(list.childNodes.length, expected[index].ids.length, "no stray nodes in a section's list");
    assert.equal(client.sectionElementFor(expected[index].key), element, "key → section element");
    for (const rowElement of list.children) {
      assert.equal(rowElement.tagName, "LI");
      assert.equal(client.elementFor(rowElement.getAttribute("data-id")), rowElement, "id → element map");
    }
  }
  assert.deepEqual(client.ids(), expected.flatMap((section) => section.ids), "client ids, section after section");
  assert.deepEqual(
    client.sections(),
    expected.map((section) => ({
      key: section.key,
      title: section.title,
      rows: section.ids.map((id, index) => ({ id, html: section.html[index] })),
    })),
    "client sections",
  );
}

/** Expected sections from a sectioned snapshot message. */
function expectedOf(message) {
  return message.sections.map((section) => ({
    key: section.key,
    title: section.title,
    ids: section.items.map((item) => item.id),
    html: section.items.map((item) => item.html),
  }));
}

function elementsById(container) {
  const map = new Map();
  for (const section of container.children) {
    for (const element of section.children[1].children) map.set(element.getAttribute("data-id"), element);
  }
  return map;
}

// ---------------------------------------------------------------------------
// applyMessage (pure)

test("sectioned applyMessage: a snapshot with sections makes a sectioned state", () => {
  const { state, status } = applyMessage(null, sectionedSnapshot(3, [["a", ["x", "y"]], ["b", []], ["c", ["z"]]]));
  assert.equal(status, "applied");
  assert.equal(state.version, 3);
  assert.deepEqual(state.rows.map((r) => r.id), ["x", "y", "z"]);
  assert.deepEqual(state.sections.map((s) => [s.key, s.title, s.rows.map((r) => r.id)]), [["a", "A", ["x", "y"]], ["b", "B", []], ["c", "C", ["z"]]]);
  // A flat snapshot state has no `sections`.
  assert.equal("sections" in applyMessage(null, { type: "snapshot", version: 1, items: [] }).state, false);
  const bad = [
    { type: "snapshot", version: 1, sections: [null] },
    { type: "snapshot", version: 1, sections: [{ key: "a", items: [] }] },
    { type: "snapshot", version: 1, sections: [{ key: 1, title: "A", items: [] }] },
    { type: "snapshot", version: 1, sections: [{ key: "a", title: "A" }] },
    sectionedSnapshot(1, [["a", []], ["a", []]]),
    sectionedSnapshot(1, [["a", ["x"]], ["b", ["x"]]]),
    { type: "snapshot", version: 1.5, sections: [] },
  ];
  for (const message of bad) assert.equal(applyMessage(null, message).status, "inconsistent", JSON.stringify(message));
});

test("sectioned applyMessage: each op, sequential section offsets and index paths", () => {
  const start = applyMessage(null, sectionedSnapshot(1, [["a", ["p", "q"]], ["c", ["r"]]])).state;
  const steps = [
    { op: "insertSection", at: 1, key: "b", title: "Bee" }, // a[p q] b[] c[r]
    { op: "move", from: [0, 0], to: [1, 0] }, // a[q] b[p] c[r]
    { op: "remove", at: [0, 0] }, // a[] b[p] c[r]
    { op: "removeSection", at: 0 }, // b[p] c[r]
    { op: "insert", at: [1, 1], id: "s", html: "S" }, // b[p] c[r s]
    { op: "move", from: [1, 0], to: [1, 1] }, // b[p] c[s r]
    { op: "reload", at: [0, 0], id: "p", html: "P2" },
  ];
  const { state, status } = applyMessage(start, sectionedBatch(1, 2, steps));
  assert.equal(status, "applied");
  assert.equal(state.version, 2);
  assert.deepEqual(state.sections.map((s) => [s.key, s.title, s.rows.map((r) => r.id)]), [["b", "Bee", ["p"]], ["c", "C", ["s", "r"]]]);
  assert.equal(state.sections[0].rows[0].html, "P2");
  assert.deepEqual(state.rows.map((r) => r.id), ["p", "s", "r"]);
  // The input state is untouched.
  assert.deepEqual(start.sections.map((s) => s.rows.map((r) => r.id)), [["p", "q"], ["r"]]);
});

test("sectioned applyMessage: invalid steps, and batches of the other kind, are inconsistent", () => {
  const state = Object.freeze(applyMessage(null, sectionedSnapshot(5, [["a", ["p", "q"]], ["b", ["r"]]])).state);
  const bad = [
    [{ op: "removeSection", at: 0 }], // not empty
    [{ op: "removeSection", at: 2 }],
    [{ op: "insertSection", at: 3, key: "z", title: "Z" }],
    [{ op: "insertSection", at: 0, key: "a", title: "again" }],
    [{ op: "insertSection", at: 0, key: "z" }],
    [{ op: "remove", at: [0, 2] }],
    [{ op: "remove", at: [2, 0] }],
    [{ op: "remove", at: 0 }],
    [{ op: "remove", at: [0, 0, 0] }],
    [{ op: "insert", at: [0, 3], id: "n", html: "" }],
    [{ op: "insert", at: [1, 0], id: "p", html: "" }],
    [{ op: "move", from: [0, 0], to: [0, 2] }],
    [{ op: "move", from: [0, 0], to: [2, 0] }],
    [{ op: "move", from: [1, 1], to: [0, 0] }],
    [{ op: "reload", at: [0, 0], id: "q", html: "" }],
    [{ op: "jump", at: [0, 0] }],
    [null],
  ];
  for (const steps of bad) {
    const result = applyMessage(state, sectionedBatch(5, 6, steps));
    assert.equal(result.status, "inconsistent", JSON.stringify(steps));
    assert.equal(result.state, state);
  }
  assert.equal(applyMessage(state, { type: "batch", from: 5, to: 6, steps: [] }).status, "inconsistent", "a flat batch");
  const flat = applyMessage(null, { type: "snapshot", version: 5, items: [row("p")] }).state;
  assert.equal(applyMessage(flat, sectionedBatch(5, 6, [])).status, "inconsistent", "a sectioned batch for a flat list");
  // Versions are checked first, as for flat batches.
  assert.equal(applyMessage(state, sectionedBatch(4, 5, [null])).status, "ignored");
  assert.equal(applyMessage(state, sectionedBatch(6, 7, [null])).status, "gap");
  assert.equal(applyMessage(state, sectionedBatch(5, 6, [])).status, "applied");
});

// ---------------------------------------------------------------------------
// ListClient: the sectioned DOM

test("sectioned ListClient: a snapshot renders one section element per section, with header and list", () => {
  const { doc, container, client } = setup();
  container.appendChild(doc.createElement("p")); // initial content goes
  const message = sectionedSnapshot(1, [["gold", ["a", "b"]], ["silver", ["c"]]]);
  message.sections[0].title = `<b>"Gold" & co</b>`;
  assert.equal(client.handle(message), "applied");
  assertSectionedInSync(client, container, expectedOf(message), 1);
  // The title is text: no element was made from it.
  const header = container.children[0].children[0];
  assert.equal(header.children[0].childNodes.length, 1);
  assert.equal(header.children[0].childNodes[0].nodeName, "#text");
  assert.equal(header.children[1].className, "list-section-count");
  assert.equal(container.children[0].children[1].className, "list-section-rows");
});

test("sectioned ListClient: each op updates the DOM minimally and keeps every other element", () => {
  const { doc, container, client } = setup({ sectionClass: "tier" });
  client.handle(sectionedSnapshot(1, [["a", ["p", "q"]], ["c", ["r"]]]));
  const before = elementsById(container);
  const sectionA = client.sectionElementFor("a");
  const sectionC = client.sectionElementFor("c");
  assert.equal(sectionA.className, "tier");
  doc.resetStats();
  const steps = [
    { op: "insertSection", at: 1, key: "b", title: "Bee" },
    { op: "move", from: [0, 0], to: [1, 0] },
    { op: "remove", at: [0, 0] },
    { op: "removeSection", at: 0 },
    { op: "insert", at: [1, 1], id: "s", html: "S" },
    { op: "move", from: [1, 0], to: [1, 1] },
    { op: "reload", at: [0, 0], id: "p", html: "P2" },
  ];
  assert.equal(client.handle(sectionedBatch(1, 2, steps)), "applied");
  assertSectionedInSync(client, container, [
    { key: "b", title: "Bee", ids: ["p"], html: ["P2"] },
    { key: "c", title: "C", ids: ["s", "r"], html: ["S", row("r").html] },
  ], 2);
  // One new section (section, header, title, count, list) and one new row.
  assert.equal(doc.stats.createElement, 5 + 1);
  assert.equal(doc.stats.innerHTMLWrites, 2);
  assert.equal(doc.stats.replaceChildren, 0);
  assert.equal(elementsById(container).get("p"), before.get("p"), "a row moved to another section is the same element");
  assert.equal(elementsById(container).get("r"), before.get("r"));
  assert.equal(client.sectionElementFor("c"), sectionC);
  assert.equal(client.sectionElementFor("a"), undefined);
  assert.equal(sectionA.parentNode, null);
});

test("sectioned ListClient: snapshots reuse sections and rows, and switch between flat and sectioned", () => {
  const { doc, container, client } = setup();
  client.handle({ type: "snapshot", version: 1, items: [row("p"), row("q"), row("r")] });
  const flatP = client.elementFor("p");
  client.handle(sectionedSnapshot(2, [["a", ["r"]], ["b", ["p", "n"]]]));
  assertSectionedInSync(client, container, expectedOf(sectionedSnapshot(2, [["a", ["r"]], ["b", ["p", "n"]]])), 2);
  assert.equal(client.elementFor("p"), flatP, "a row kept across kinds is the same element");
  const sectionB = client.sectionElementFor("b");
  doc.resetStats();
  const next = sectionedSnapshot(3, [["b", ["n", "p"]], ["c", ["r"]]]);
  next.sections[0].title = "Bee";
  client.handle(next);
  assertSectionedInSync(client, container, expectedOf(next), 3);
  assert.equal(client.sectionElementFor("b"), sectionB, "a section kept is the same element");
  assert.equal(doc.stats.innerHTMLWrites, 0, "rows whose content is the same are not rewritten");
  assert.equal(doc.stats.createElement, 5, "only the new section is created");
  // Back to flat: the container holds rows again.
  client.handle({ type: "snapshot", version: 4, items: [row("r"), row("p")] });
  assert.equal(client.sections(), null);
  assert.deepEqual(container.children.map((element) => element.getAttribute("data-id")), ["r", "p"]);
  assert.equal(container.childNodes.length, 2);
  assert.equal(client.elementFor("p"), flatP);
});

test("sectioned ListClient: gaps request a snapshot, inconsistent batches change nothing", () => {
  const { container, client, requests } = setup();
  client.handle(sectionedSnapshot(1, [["a", ["p"]]]));
  const expected = expectedOf(sectionedSnapshot(1, [["a", ["p"]]]));
  assert.equal(client.handle(sectionedBatch(1, 2, [{ op: "removeSection", at: 0 }])), "inconsistent");
  assertSectionedInSync(client, container, expected, 1);
  assert.deepEqual(requests, ["inconsistent"]);
  const { client: other, container: otherContainer, requests: otherRequests } = setup();
  other.handle(sectionedSnapshot(1, [["a", ["p"]]]));
  assert.equal(other.handle(sectionedBatch(2, 3, [{ op: "remove", at: [0, 0] }, { op: "removeSection", at: 0 }])), "gap");
  assert.deepEqual(otherRequests, ["gap"]);
  assert.equal(other.handle(sectionedSnapshot(2, [["a", ["p"]], ["b", ["q"]]])), "applied");
  // The buffered batch from 2 applies after the snapshot at 2.
  assertSectionedInSync(other, otherContainer, expectedOf(sectionedSnapshot(3, [["b", ["q"]]])), 3);
});

test("sectioned ListClient: a DOM changed behind the client's back is rebuilt from the model", () => {
  const { container, client, errors } = setup();
  client.handle(sectionedSnapshot(1, [["a", ["p", "q"]], ["b", ["r"]]]));
  // Someone removes a row element behind the client's back.
  const list = client.sectionElementFor("a").children[1];
  list.removeChild(client.elementFor("p"));
  assert.equal(client.handle(sectionedBatch(1, 2, [{ op: "remove", at: [0, 0] }, { op: "move", from: [0, 0], to: [1, 1] }])), "applied");
  assert.equal(errors.length, 1);
  assertSectionedInSync(client, container, [
    { key: "a", title: "A", ids: [], html: [] },
    { key: "b", title: "B", ids: ["r", "q"], html: [row("r").html, row("q").html] },
  ], 2);
});

// ---------------------------------------------------------------------------
// Random sequences exported from Swift

async function sequences() {
  const fixture = JSON.parse(await readFile(SECTIONED_FIXTURE_URL, "utf8"));
  assert.ok(Array.isArray(fixture.sequences));
  return fixture.sequences;
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

test("sectioned fixtures: ≥ 200 random Swift sequences replayed in order give the final sections, with minimal DOM work", async () => {
  const all = await sequences();
  assert.ok(all.length >= 200, `${all.length} sequences`);
  for (const sequence of all) {
    const label = `seed ${sequence.seed}`;
    const { doc, container, client, requests, errors } = setup();
    let pure = null; // the state by applyMessage alone, which never touches a DOM
    for (const [index, message] of sequence.messages.entries()) {
      const before = elementsById(container);
      doc.resetStats();
      const status = client.handle(message);
      assert.equal(status, "applied", `${label}: message ${index} was ${status}`);
      pure = applyMessage(pure, message).state;
      const shown = pure.sections.map((section) => ({
        key: section.key, title: section.title, ids: section.rows.map((r) => r.id), html: section.rows.map((r) => r.html),
      }));
      assertSectionedInSync(client, container, shown, pure.version);
      if (message.type === "batch") {
        const inserts = message.steps.filter((step) => step.op === "insert");
        const reloads = message.steps.filter((step) => step.op === "reload");
        const sections = message.steps.filter((step) => step.op === "insertSection");
        assert.equal(doc.stats.createElement, inserts.length + 5 * sections.length, `${label}: message ${index} creates only new rows and sections`);
        assert.equal(doc.stats.innerHTMLWrites, inserts.length + reloads.length, `${label}: message ${index}`);
        assert.equal(doc.stats.replaceChildren, 0);
        const inserted = new Set(inserts.map((step) => step.id));
        for (const [id, element] of elementsById(container)) {
          if (!inserted.has(id) && before.has(id)) assert.equal(element, before.get(id), `${label}: element of ${id} kept`);
        }
      }
    }
    assert.deepEqual(errors, []);
    assert.deepEqual(requests, []);
    assertSectionedInSync(client, container, sequence.expected.sections, sequence.expected.version);
    assert.deepEqual(expectedOf(sequence.snapshot), sequence.expected.sections, `${label}: the final snapshot`);
  }
});

test("sectioned fixtures: with a batch lost, the client detects the gap, resyncs from a snapshot and ends with the final sections", async () => {
  const all = await sequences();
  let gaps = 0;
  for (const sequence of all) {
    const label = `seed ${sequence.seed}`;
    const random = mulberry32(sequence.seed);
    const batches = sequence.messages.map((message, index) => [message, index]).filter(([message]) => message.type === "batch" && message.steps.length > 0);
    if (batches.length === 0) continue;
    const lost = batches[Math.floor(random() * batches.length)][1];
    const { container, client, requests, errors } = setup();
    // Snapshots are served by a server whose list is at the final version; the
    // stream's own snapshots are delivered as they come.
    let caughtUp = false; // a snapshot of the stream came after the lost batch
    for (const [index, message] of sequence.messages.entries()) {
      if (index === lost) continue;
      const status = client.handle(message);
      assert.notEqual(status, "inconsistent", `${label}: message ${index}`);
      if (index > lost && message.type === "snapshot") caughtUp = true;
      if (index > lost && message.type === "batch" && requests.length === 0 && !caughtUp) {
        assert.equal(status, "gap", `${label}: the batch after the lost one reveals the gap`);
      }
    }
    if (requests.length > 0) {
      gaps += 1;
      assert.deepEqual(requests, ["gap"], `${label}: one snapshot request`);
      if (client.awaitingSnapshot) assert.equal(client.handle(sequence.snapshot), "applied", `${label}: the resync snapshot`);
    } else if (client.version !== sequence.expected.version) {
      // The lost batch was the last change: the client is behind until it resyncs.
      assert.equal(client.requestResync("reconnected"), true);
      assert.equal(client.handle(sequence.snapshot), "applied");
    }
    assert.equal(client.awaitingSnapshot, false);
    assert.deepEqual(errors, []);
    assertSectionedInSync(client, container, sequence.expected.sections, sequence.expected.version);
  }
  assert.ok(gaps >= 100, `${gaps} sequences detected a gap`);
});
