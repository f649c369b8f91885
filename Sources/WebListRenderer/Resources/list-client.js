// list-client.js — browser client for the ListEngine web renderer.
//
// Keeps a keyed DOM list in sync with a stream of messages produced by the
// server:
//
//   {"type":"snapshot","version":7,"items":[{"id":"a","html":"…"}, …]}
//   {"type":"batch","from":7,"to":8,"steps":[…]}
//
// Batch steps form a sequential edit script: every offset refers to the list
// as it stands after the previous steps.
//
//   {"op":"remove","at":3}
//   {"op":"insert","at":0,"id":"x","html":"…"}
//   {"op":"move","from":5,"to":1}       remove at `from`, then insert the same
//                                       row at `to` in the shortened list
//   {"op":"reload","at":2,"id":"y","html":"…"}
//
// A sectioned list sends its rows grouped, and its steps in index paths
// `[section, item]`:
//
//   {"type":"snapshot","version":7,"sections":[{"key":"gold","title":"Gold","items":[…]}, …]}
//   {"type":"batch","from":7,"to":8,"sectioned":true,"steps":[…]}
//
//   {"op":"insertSection","at":1,"key":"gold","title":"Gold"}   an empty section
//   {"op":"removeSection","at":2}                               an empty section
//   {"op":"remove","at":[0,3]}
//   {"op":"insert","at":[1,0],"id":"x","html":"…"}
//   {"op":"move","from":[0,1],"to":[1,0]}   possibly to another section
//   {"op":"reload","at":[1,0],"id":"x","html":"…"}
//
// A sectioned list is shown as one `<section data-key="…">` per section, each
// with a header (title and row count, as text) and a keyed `<ol>` of rows.
//
// `html` is produced (escaped and sanitised) by the server and is set as the
// content of a row element as is. The client never builds markup itself: row
// elements are created with `document.createElement` and their id is stored
// with `setAttribute("data-id", …)`.
//
// ES module without dependencies; runs in browsers and in node ≥ 20 (with an
// injected `document`).

/**
 * One row of the list.
 * @typedef {object} ListRow
 * @property {string} id    Unique id of the row.
 * @property {string} html  Server-provided markup for the row's content.
 */

/**
 * One section of a sectioned list.
 * @typedef {object} ListSection
 * @property {string} key    Unique key of the section.
 * @property {string} title  The section's title, plain text.
 * @property {ReadonlyArray<ListRow>} rows  The section's rows in display order.
 */

/**
 * The state of a list: a version and its rows in display order.
 * `version` is `null` until the first snapshot has been applied. A sectioned
 * list (its last snapshot had `sections`) also has `sections`; its `rows` are
 * every section's rows, section after section.
 * @typedef {object} ListState
 * @property {number|null} version
 * @property {ReadonlyArray<ListRow>} rows
 * @property {ReadonlyArray<ListSection>} [sections]
 */

/**
 * Outcome of {@link applyMessage}:
 * - `"applied"`: the message was applied; `state` is the new state.
 * - `"ignored"`: the message is old (a batch with `to <= version`, a snapshot
 *   older than the current version) or of an unknown type; nothing changes.
 * - `"gap"`: a batch that does not start at the current version (or the version
 *   is still unknown); a snapshot is needed before it can be applied.
 * - `"inconsistent"`: the message is malformed or cannot be applied to the
 *   current rows (offset out of range, duplicate id, reload id mismatch, a
 *   section removed while it holds rows, a flat batch for a sectioned list or
 *   the reverse, …).
 * @typedef {"applied"|"ignored"|"gap"|"inconsistent"} ApplyStatus
 */

/**
 * Options of {@link applyMessage}.
 * @typedef {object} ApplyOptions
 * @property {boolean} [acceptOlderSnapshot=false]  Apply a snapshot even when
 *   its version is lower than the state's (used when a snapshot was requested).
 */

const EMPTY_STATE = Object.freeze({ version: null, rows: Object.freeze([]) });

/**
 * Applies one wire message to a list state, without side effects.
 *
 * The input state is never mutated: when the message is applied a new state
 * (with a new `rows` array) is returned, otherwise the given state itself.
 * A batch is validated as a whole; when any step is invalid nothing of the
 * batch is applied and the status is `"inconsistent"`.
 *
 * @param {ListState|null|undefined} state  Current state (`null`/`undefined`
 *   stands for the initial state `{version: null, rows: []}`).
 * @param {object|string} message  A wire message, or its JSON text.
 * @param {ApplyOptions} [options]
 * @returns {{state: ListState, status: ApplyStatus}}
 */
export function applyMessage(state, message, options = {}) {
  const current = state ?? EMPTY_STATE;
  const msg = typeof message === "string" ? parseJSON(message) : message;
  if (msg === null || typeof msg !== "object" || Array.isArray(msg)) {
    return { state: current, status: "inconsistent" };
  }
  if (msg.type === "snapshot") return applySnapshot(current, msg, options);
  if (msg.type === "batch") return applyBatch(current, msg);
  return { state: current, status: "ignored" };
}

function parseJSON(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isVersion(value) {
  return Number.isSafeInteger(value);
}

function isOffset(value, max) {
  return Number.isInteger(value) && value >= 0 && value <= max;
}

function isSectioned(state) {
  return Array.isArray(state.sections);
}

/** Reads row objects into `rows`, checking ids against `ids`; `false` when one is invalid. */
function readRows(items, ids, rows) {
  for (const item of items) {
    if (item === null || typeof item !== "object") return false;
    const { id, html } = item;
    if (typeof id !== "string" || typeof html !== "string" || ids.has(id)) return false;
    ids.add(id);
    rows.push({ id, html });
  }
  return true;
}

function applySnapshot(state, msg, options) {
  // A snapshot whose `sections` is an array is a sectioned one.
  const sectioned = Array.isArray(msg.sections);
  if (!isVersion(msg.version) || (!sectioned && !Array.isArray(msg.items))) {
    return { state, status: "inconsistent" };
  }
  if (state.version !== null && msg.version < state.version && !options.acceptOlderSnapshot) {
    return { state, status: "ignored" };
  }
  const rows = [];
  const ids = new Set();
  if (!sectioned) {
    if (!readRows(msg.items, ids, rows)) return { state, status: "inconsistent" };
    return { state: { version: msg.version, rows }, status: "applied" };
  }
  const sections = [];
  const keys = new Set();
  for (const section of msg.sections) {
    if (section === null || typeof section !== "object") return { state, status: "inconsistent" };
    const { key, title, items } = section;
    if (typeof key !== "string" || typeof title !== "string" || !Array.isArray(items) || keys.has(key)) {
      return { state, status: "inconsistent" };
    }
    keys.add(key);
    const sectionRows = [];
    if (!readRows(items, ids, sectionRows)) return { state, status: "inconsistent" };
    for (const row of sectionRows) rows.push(row);
    sections.push({ key, title, rows: sectionRows });
  }
  return { state: { version: msg.version, rows, sections }, status: "applied" };
}

function applyBatch(state, msg) {
  if (!isVersion(msg.from) || !isVersion(msg.to) || msg.to <= msg.from || !Array.isArray(msg.steps)) {
    return { state, status: "inconsistent" };
  }
  if (state.version === null) return { state, status: "gap" };
  if (msg.to <= state.version) return { state, status: "ignored" };
  if (msg.from !== state.version) return { state, status: "gap" };
  // A sectioned batch applies to a sectioned list only, a flat one to a flat list.
  const sectioned = msg.sectioned === true;
  if (sectioned !== isSectioned(state)) return { state, status: "inconsistent" };
  if (sectioned) {
    const sections = applySectionedSteps(state.sections, msg.steps);
    if (sections === null) return { state, status: "inconsistent" };
    const rows = [];
    for (const section of sections) for (const row of section.rows) rows.push(row);
    return { state: { version: msg.to, rows, sections }, status: "applied" };
  }
  const rows = applySteps(state.rows, msg.steps);
  if (rows === null) return { state, status: "inconsistent" };
  return { state: { version: msg.to, rows }, status: "applied" };
}

function isPath(value) {
  return Array.isArray(value) && value.length === 2 && Number.isInteger(value[0]) && Number.isInteger(value[1]);
}

/**
 * Applies a sectioned edit script to a copy of `sections` (a section's rows are
 * copied when a step first touches them).
 * @param {ReadonlyArray<ListSection>} sections
 * @param {ReadonlyArray<object>} steps
 * @returns {ListSection[]|null} the new sections, or `null` when a step is invalid.
 */
function applySectionedSteps(sections, steps) {
  const out = sections.slice();
  const copied = new Set();
  const ids = new Set();
  const keys = new Set();
  for (const section of out) {
    keys.add(section.key);
    for (const row of section.rows) ids.add(row.id);
  }
  const writable = (index) => {
    let section = out[index];
    if (!copied.has(section)) {
      section = { key: section.key, title: section.title, rows: section.rows.slice() };
      out[index] = section;
      copied.add(section);
    }
    return section;
  };
  // A row at `path`, or (`end`) a place to insert one.
  const isRowPath = (path, end = 0) =>
    isPath(path) && isOffset(path[0], out.length - 1) && isOffset(path[1], out[path[0]].rows.length - 1 + end);
  for (const step of steps) {
    if (step === null || typeof step !== "object") return null;
    switch (step.op) {
      case "insertSection": {
        if (!isOffset(step.at, out.length)) return null;
        if (typeof step.key !== "string" || typeof step.title !== "string" || keys.has(step.key)) return null;
        const section = { key: step.key, title: step.title, rows: [] };
        copied.add(section);
        out.splice(step.at, 0, section);
        keys.add(step.key);
        break;
      }
      case "removeSection": {
        if (!isOffset(step.at, out.length - 1) || out[step.at].rows.length !== 0) return null;
        const [removed] = out.splice(step.at, 1);
        keys.delete(removed.key);
        break;
      }
      case "remove": {
        if (!isRowPath(step.at)) return null;
        const [removed] = writable(step.at[0]).rows.splice(step.at[1], 1);
        ids.delete(removed.id);
        break;
      }
      case "insert": {
        if (!isRowPath(step.at, 1)) return null;
        if (typeof step.id !== "string" || typeof step.html !== "string" || ids.has(step.id)) return null;
        writable(step.at[0]).rows.splice(step.at[1], 0, { id: step.id, html: step.html });
        ids.add(step.id);
        break;
      }
      case "move": {
        // `to` is a place in the list after the removal, possibly in another section.
        if (!isRowPath(step.from) || !isPath(step.to)) return null;
        const [moved] = writable(step.from[0]).rows.splice(step.from[1], 1);
        if (!isRowPath(step.to, 1)) return null;
        writable(step.to[0]).rows.splice(step.to[1], 0, moved);
        break;
      }
      case "reload": {
        if (!isRowPath(step.at)) return null;
        const section = writable(step.at[0]);
        if (typeof step.html !== "string" || section.rows[step.at[1]].id !== step.id) return null;
        section.rows[step.at[1]] = { id: step.id, html: step.html };
        break;
      }
      default:
        return null;
    }
  }
  return out;
}

/**
 * Applies an edit script to a copy of `rows`.
 * @param {ReadonlyArray<ListRow>} rows
 * @param {ReadonlyArray<object>} steps
 * @returns {ListRow[]|null} the new rows, or `null` when a step is invalid.
 */
function applySteps(rows, steps) {
  const out = rows.slice();
  const ids = new Set();
  for (const row of out) ids.add(row.id);
  for (const step of steps) {
    if (step === null || typeof step !== "object") return null;
    switch (step.op) {
      case "remove": {
        if (!isOffset(step.at, out.length - 1)) return null;
        const [removed] = out.splice(step.at, 1);
        ids.delete(removed.id);
        break;
      }
      case "insert": {
        if (!isOffset(step.at, out.length)) return null;
        if (typeof step.id !== "string" || typeof step.html !== "string" || ids.has(step.id)) return null;
        out.splice(step.at, 0, { id: step.id, html: step.html });
        ids.add(step.id);
        break;
      }
      case "move": {
        // `to` is an offset in the list after the removal, whose last valid
        // insertion offset is its length, i.e. out.length - 1.
        if (!isOffset(step.from, out.length - 1) || !isOffset(step.to, out.length - 1)) return null;
        const [moved] = out.splice(step.from, 1);
        out.splice(step.to, 0, moved);
        break;
      }
      case "reload": {
        if (!isOffset(step.at, out.length - 1)) return null;
        if (typeof step.html !== "string" || out[step.at].id !== step.id) return null;
        out[step.at] = { id: step.id, html: step.html };
        break;
      }
      default:
        return null;
    }
  }
  return out;
}

/**
 * Status returned by {@link ListClient#handle}: an {@link ApplyStatus}, or
 * `"buffered"` when a batch was kept until the awaited snapshot arrives.
 * @typedef {ApplyStatus|"buffered"} HandleStatus
 */

/**
 * Describes an applied change, passed to `onChange`.
 * @typedef {object} ListChange
 * @property {"snapshot"|"batch"} type
 * @property {number} version  The version after the change.
 * @property {object} message  The applied wire message.
 */

/**
 * Options of {@link ListClient}.
 * @typedef {object} ListClientOptions
 * @property {(reason?: string) => void} [requestSnapshot]  Called when the
 *   client needs a snapshot (no snapshot yet, a gap, an inconsistent batch).
 *   It is called at most once while a request is outstanding; the request is
 *   satisfied when a snapshot is passed to `handle` and accepted. The reason is
 *   one of `"no-snapshot"`, `"gap"`, `"inconsistent"`, `"malformed"` or the
 *   string given to {@link ListClient#requestResync}.
 * @property {string} [rowTag="li"]  Tag name of row elements.
 * @property {string} [rowClass]  Class name(s) set on every row element.
 * @property {string} [sectionTag="section"]  Tag name of section elements
 *   (sectioned lists).
 * @property {string} [sectionClass]  Class name(s) set on every section element.
 * @property {string} [headerTag="h2"]  Tag name of a section's header, which
 *   holds a `.list-section-title` and a `.list-section-count` span.
 * @property {string} [listTag="ol"]  Tag name of a section's list of rows
 *   (class `list-section-rows`).
 * @property {(change: ListChange) => void} [onChange]  Called after each
 *   applied snapshot or batch.
 * @property {(error: unknown) => void} [onError]  Receives errors thrown by
 *   callbacks or by the DOM; defaults to `reportError` (or a rethrow on a timer).
 * @property {number} [maxBuffer=1000]  Maximum number of batches kept while a
 *   snapshot is awaited; when it would be exceeded the buffer is dropped.
 * @property {Document} [document]  Document used to create elements; defaults
 *   to the container's `ownerDocument`, then `globalThis.document`.
 */

/**
 * Keeps a container element in sync with a list published as snapshots and
 * change batches. Each row is one child element carrying `data-id`; batches
 * are applied by removing, inserting and moving the actual nodes, and a reload
 * only replaces the content of the existing node.
 *
 * A sectioned list is shown as one child element per section carrying
 * `data-key`, holding a header (the title and the number of rows, as text) and
 * a list element whose children are the section's rows. A snapshot decides
 * which kind the list is.
 *
 * Batches that cannot be applied (a version gap, or an inconsistent edit
 * script) leave the list untouched and make the client ask for a snapshot;
 * batches arriving while the snapshot is awaited are buffered and replayed
 * after it.
 */
export class ListClient {
  #container;
  #document;
  #rowTag;
  #rowClass;
  #sectionTag;
  #sectionClass;
  #headerTag;
  #listTag;
  /**
   * The section views of a sectioned list, in order (empty for a flat list).
   * @type {{key: string, element: Element, title: Element, count: Element, list: Element, shownTitle: string, shownCount: number}[]}
   */
  #sectionViews = [];
  #onChange;
  #onError;
  #requestSnapshot;
  #maxBuffer;
  /** @type {ListState} */
  #state = EMPTY_STATE;
  /** @type {Map<string, Element>} */
  #elements = new Map();
  #awaitingSnapshot = false;
  /** @type {object[]} */
  #buffer = [];

  /**
   * @param {Element} container  Element whose children are the rows (the
   *   section elements, for a sectioned list). Its existing children are
   *   removed by the first snapshot.
   * @param {ListClientOptions} [options]
   */
  constructor(container, options = {}) {
    if (container === null || typeof container !== "object") {
      throw new TypeError("ListClient: a container element is required");
    }
    const {
      requestSnapshot,
      rowTag = "li",
      rowClass,
      sectionTag = "section",
      sectionClass,
      headerTag = "h2",
      listTag = "ol",
      onChange,
      onError,
      maxBuffer = 1000,
      document: doc = container.ownerDocument ?? globalThis.document,
    } = options;
    if (doc === null || typeof doc !== "object" || typeof doc.createElement !== "function") {
      throw new TypeError("ListClient: no document available; pass options.document");
    }
    this.#container = container;
    this.#document = doc;
    this.#rowTag = rowTag;
    this.#rowClass = rowClass;
    this.#sectionTag = sectionTag;
    this.#sectionClass = sectionClass;
    this.#headerTag = headerTag;
    this.#listTag = listTag;
    this.#onChange = onChange;
    this.#onError = onError ?? reportError;
    this.#requestSnapshot = requestSnapshot;
    this.#maxBuffer = Math.max(1, Math.floor(maxBuffer));
  }

  /**
   * The current version, or `null` before the first snapshot.
   * @returns {number|null}
   */
  get version() {
    return this.#state.version;
  }

  /**
   * Whether a snapshot has been requested and not received yet.
   * @returns {boolean}
   */
  get awaitingSnapshot() {
    return this.#awaitingSnapshot;
  }

  /**
   * Number of batches buffered while awaiting a snapshot.
   * @returns {number}
   */
  get bufferedCount() {
    return this.#buffer.length;
  }

  /**
   * The ids of the rows, in display order.
   * @returns {string[]}
   */
  ids() {
    return this.#state.rows.map((row) => row.id);
  }

  /**
   * A copy of the rows, in display order.
   * @returns {ListRow[]}
   */
  rows() {
    return this.#state.rows.map((row) => ({ id: row.id, html: row.html }));
  }

  /**
   * The sections of a sectioned list, in display order, each with a copy of
   * its rows; `null` for a flat list.
   * @returns {{key: string, title: string, rows: ListRow[]}[]|null}
   */
  sections() {
    if (!isSectioned(this.#state)) return null;
    return this.#state.sections.map((section) => ({
      key: section.key,
      title: section.title,
      rows: section.rows.map((row) => ({ id: row.id, html: row.html })),
    }));
  }

  /**
   * The element showing the section with the given key.
   * @param {string} key
   * @returns {Element|undefined}
   */
  sectionElementFor(key) {
    return this.#sectionViews.find((view) => view.key === key)?.element;
  }

  /**
   * The element showing the row with the given id.
   * @param {string} id
   * @returns {Element|undefined}
   */
  elementFor(id) {
    return this.#elements.get(id);
  }

  /**
   * Asks for a snapshot (for instance after a reconnection) unless one is
   * already outstanding.
   * @param {string} [reason="resync"]  Passed to `requestSnapshot`.
   * @returns {boolean} whether `requestSnapshot` was called.
   */
  requestResync(reason = "resync") {
    return this.#request(reason);
  }

  /**
   * Handles one wire message.
   * @param {object|string} message  A message object, or its JSON text.
   * @returns {HandleStatus}
   */
  handle(message) {
    const msg = typeof message === "string" ? parseJSON(message) : message;
    if (msg === null || typeof msg !== "object" || Array.isArray(msg)) {
      this.#request("malformed");
      return "inconsistent";
    }
    if (msg.type === "snapshot") return this.#handleSnapshot(msg);
    if (msg.type === "batch") return this.#handleBatch(msg);
    return "ignored";
  }

  #handleSnapshot(msg) {
    const { state, status } = applyMessage(this.#state, msg, { acceptOlderSnapshot: this.#awaitingSnapshot });
    if (status === "ignored") return status;
    if (status !== "applied") {
      // A rejected snapshot does not satisfy an outstanding request.
      this.#request("inconsistent");
      return status;
    }
    this.#renderSnapshot(this.#state, state);
    this.#state = state;
    this.#awaitingSnapshot = false;
    this.#notify({ type: "snapshot", version: state.version, message: msg });
    const pending = this.#buffer;
    this.#buffer = [];
    for (const batch of pending) this.#handleBatch(batch);
    return "applied";
  }

  #handleBatch(msg) {
    if (this.#awaitingSnapshot) {
      this.#bufferBatch(msg);
      return "buffered";
    }
    const { state, status } = applyMessage(this.#state, msg);
    switch (status) {
      case "applied":
        this.#renderBatch(this.#state, state, msg.steps);
        this.#state = state;
        this.#notify({ type: "batch", version: state.version, message: msg });
        break;
      case "gap":
        // Kept: it applies if the snapshot ends up at its `from` version.
        this.#bufferBatch(msg);
        this.#request(this.#state.version === null ? "no-snapshot" : "gap");
        break;
      case "inconsistent":
        this.#request("inconsistent");
        break;
      default:
        break;
    }
    return status;
  }

  #bufferBatch(msg) {
    if (this.#buffer.length >= this.#maxBuffer) this.#buffer = [];
    this.#buffer.push(msg);
  }

  #request(reason) {
    if (this.#awaitingSnapshot) return false;
    this.#awaitingSnapshot = true;
    if (typeof this.#requestSnapshot === "function") {
      try {
        this.#requestSnapshot(reason);
      } catch (error) {
        // The request did not go out: allow the next trigger to retry.
        this.#awaitingSnapshot = false;
        this.#onError(error);
      }
    }
    return true;
  }

  #notify(change) {
    if (typeof this.#onChange !== "function") return;
    try {
      this.#onChange(change);
    } catch (error) {
      this.#onError(error);
    }
  }

  #createRow(id, html) {
    const element = this.#document.createElement(this.#rowTag);
    if (this.#rowClass) element.className = this.#rowClass;
    element.setAttribute("data-id", id);
    element.innerHTML = html;
    return element;
  }

  #renderBatch(oldState, newState, steps) {
    if (isSectioned(newState)) {
      this.#renderSectionedBatch(oldState, newState, steps);
      return;
    }
    const container = this.#container;
    const elements = this.#elements;
    try {
      const order = oldState.rows.map((row) => row.id);
      for (const step of steps) {
        switch (step.op) {
          case "remove": {
            const [id] = order.splice(step.at, 1);
            const element = elements.get(id);
            elements.delete(id);
            container.removeChild(element);
            break;
          }
          case "insert": {
            const element = this.#createRow(step.id, step.html);
            const reference = step.at < order.length ? elements.get(order[step.at]) : null;
            container.insertBefore(element, reference);
            order.splice(step.at, 0, step.id);
            elements.set(step.id, element);
            break;
          }
          case "move": {
            if (step.from === step.to) break;
            const [id] = order.splice(step.from, 1);
            const reference = step.to < order.length ? elements.get(order[step.to]) : null;
            container.insertBefore(elements.get(id), reference);
            order.splice(step.to, 0, id);
            break;
          }
          case "reload": {
            const html = step.html;
            elements.get(step.id).innerHTML = html;
            break;
          }
          default:
            break;
        }
      }
    } catch (error) {
      // The DOM was changed behind the client's back; rebuild it from the model.
      this.#onError(error);
      this.#rebuild(newState);
    }
  }

  #renderSnapshot(oldState, newState) {
    if (isSectioned(newState)) {
      this.#renderSectionedSnapshot(oldState, newState);
      return;
    }
    const container = this.#container;
    const elements = this.#elements;
    this.#sectionViews = [];
    try {
      const oldHTML = new Map();
      for (const row of oldState.rows) oldHTML.set(row.id, row.html);
      const wanted = new Set();
      for (const row of newState.rows) wanted.add(row.id);
      for (const id of elements.keys()) {
        if (!wanted.has(id)) elements.delete(id);
      }
      const ordered = newState.rows.map((row) => {
        let element = elements.get(row.id);
        if (element === undefined) {
          element = this.#createRow(row.id, row.html);
          elements.set(row.id, element);
        } else if (oldHTML.get(row.id) !== row.html) {
          const html = row.html;
          element.innerHTML = html;
        }
        return element;
      });
      // Drop every node that is not a wanted row (stale rows, initial content).
      const keep = new Set(ordered);
      for (const node of Array.from(container.childNodes)) {
        if (!keep.has(node)) container.removeChild(node);
      }
      // Put the rows in order, moving only nodes that are out of place.
      let cursor = container.firstChild;
      for (const element of ordered) {
        if (cursor === element) {
          cursor = cursor.nextSibling;
        } else {
          container.insertBefore(element, cursor);
        }
      }
    } catch (error) {
      this.#onError(error);
      this.#rebuild(newState);
    }
  }

  #createSection(key, title) {
    const doc = this.#document;
    const element = doc.createElement(this.#sectionTag);
    if (this.#sectionClass) element.className = this.#sectionClass;
    element.setAttribute("data-key", key);
    const header = doc.createElement(this.#headerTag);
    header.className = "list-section-header";
    const titleElement = doc.createElement("span");
    titleElement.className = "list-section-title";
    titleElement.textContent = title;
    const count = doc.createElement("span");
    count.className = "list-section-count";
    count.textContent = "0";
    header.appendChild(titleElement);
    header.appendChild(count);
    const list = doc.createElement(this.#listTag);
    list.className = "list-section-rows";
    element.appendChild(header);
    element.appendChild(list);
    return { key, element, title: titleElement, count, list, shownTitle: title, shownCount: 0 };
  }

  #showCount(view, count) {
    if (view.shownCount === count) return;
    view.count.textContent = String(count);
    view.shownCount = count;
  }

  #renderSectionedBatch(oldState, newState, steps) {
    const container = this.#container;
    const elements = this.#elements;
    try {
      const views = this.#sectionViews.slice();
      const orders = oldState.sections.map((section) => section.rows.map((row) => row.id));
      // The element a row inserted at `item` of section `index` goes before.
      const before = (index, item) => (item < orders[index].length ? elements.get(orders[index][item]) : null);
      for (const step of steps) {
        switch (step.op) {
          case "insertSection": {
            const view = this.#createSection(step.key, step.title);
            container.insertBefore(view.element, step.at < views.length ? views[step.at].element : null);
            views.splice(step.at, 0, view);
            orders.splice(step.at, 0, []);
            break;
          }
          case "removeSection": {
            const [view] = views.splice(step.at, 1);
            orders.splice(step.at, 1);
            container.removeChild(view.element);
            break;
          }
          case "remove": {
            const [section, item] = step.at;
            const [id] = orders[section].splice(item, 1);
            const element = elements.get(id);
            elements.delete(id);
            views[section].list.removeChild(element);
            break;
          }
          case "insert": {
            const [section, item] = step.at;
            const element = this.#createRow(step.id, step.html);
            views[section].list.insertBefore(element, before(section, item));
            orders[section].splice(item, 0, step.id);
            elements.set(step.id, element);
            break;
          }
          case "move": {
            const [fromSection, fromItem] = step.from;
            const [toSection, toItem] = step.to;
            if (fromSection === toSection && fromItem === toItem) break;
            const [id] = orders[fromSection].splice(fromItem, 1);
            views[toSection].list.insertBefore(elements.get(id), before(toSection, toItem));
            orders[toSection].splice(toItem, 0, id);
            break;
          }
          case "reload": {
            const html = step.html;
            elements.get(step.id).innerHTML = html;
            break;
          }
          default:
            break;
        }
      }
      this.#sectionViews = views;
      views.forEach((view, index) => this.#showCount(view, orders[index].length));
    } catch (error) {
      // The DOM was changed behind the client's back; rebuild it from the model.
      this.#onError(error);
      this.#rebuild(newState);
    }
  }

  #renderSectionedSnapshot(oldState, newState) {
    const container = this.#container;
    const elements = this.#elements;
    try {
      const oldHTML = new Map();
      for (const row of oldState.rows) oldHTML.set(row.id, row.html);
      const wanted = new Set();
      for (const row of newState.rows) wanted.add(row.id);
      for (const id of elements.keys()) {
        if (!wanted.has(id)) elements.delete(id);
      }
      const oldViews = new Map(this.#sectionViews.map((view) => [view.key, view]));
      const views = newState.sections.map((section) => {
        let view = oldViews.get(section.key);
        if (view === undefined) {
          view = this.#createSection(section.key, section.title);
        } else if (view.shownTitle !== section.title) {
          view.title.textContent = section.title;
          view.shownTitle = section.title;
        }
        return view;
      });
      this.#sectionViews = views;
      // Put the sections in order, then drop every other node (stale sections, the
      // rows of a flat list, initial content); wanted rows among them are moved below.
      placeInOrder(container, views.map((view) => view.element));
      newState.sections.forEach((section, index) => {
        const view = views[index];
        const ordered = section.rows.map((row) => {
          let element = elements.get(row.id);
          if (element === undefined) {
            element = this.#createRow(row.id, row.html);
            elements.set(row.id, element);
          } else if (oldHTML.get(row.id) !== row.html) {
            const html = row.html;
            element.innerHTML = html;
          }
          return element;
        });
        placeInOrder(view.list, ordered);
        this.#showCount(view, section.rows.length);
      });
    } catch (error) {
      this.#onError(error);
      this.#rebuild(newState);
    }
  }

  #rebuild(state) {
    const container = this.#container;
    this.#elements.clear();
    this.#sectionViews = [];
    const createRows = (rows) =>
      rows.map((row) => {
        const element = this.#createRow(row.id, row.html);
        this.#elements.set(row.id, element);
        return element;
      });
    let fresh;
    if (isSectioned(state)) {
      fresh = state.sections.map((section) => {
        const view = this.#createSection(section.key, section.title);
        for (const element of createRows(section.rows)) view.list.appendChild(element);
        this.#showCount(view, section.rows.length);
        this.#sectionViews.push(view);
        return view.element;
      });
    } else {
      fresh = createRows(state.rows);
    }
    // Cleared, then filled one row at a time: spreading the rows into one call would
    // pass one argument per row, past the engine's limit on large lists.
    if (typeof container.replaceChildren === "function") {
      container.replaceChildren();
    } else {
      while (container.firstChild) container.removeChild(container.firstChild);
    }
    for (const element of fresh) container.appendChild(element);
  }
}

/**
 * Makes `nodes` the children of `parent`, in order, moving only nodes that are
 * out of place, and removes every other child.
 */
function placeInOrder(parent, nodes) {
  let cursor = parent.firstChild;
  for (const node of nodes) {
    if (cursor === node) {
      cursor = cursor.nextSibling;
    } else {
      parent.insertBefore(node, cursor);
    }
  }
  while (cursor !== null) {
    const next = cursor.nextSibling;
    parent.removeChild(cursor);
    cursor = next;
  }
}

function reportError(error) {
  if (typeof globalThis.reportError === "function") {
    globalThis.reportError(error);
  } else {
    setTimeout(() => {
      throw error;
    }, 0);
  }
}

/**
 * Options of {@link connectEventSource}: the {@link ListClientOptions} (except
 * `requestSnapshot`, which is provided by the connection) and the following.
 * @typedef {object} EventSourceConnectionOptions
 * @property {string|URL|(() => string|URL)} snapshotURL  Where a snapshot is
 *   fetched (GET, JSON body in the snapshot wire format); a function is asked at
 *   every request. Required.
 * @property {Object<string, (event: MessageEvent) => void>} [events]  Handlers of
 *   named events (`event: NAME` in the stream), by name, on every stream opened.
 * @property {EventSourceInit} [eventSourceInit]  Passed to `EventSource`.
 * @property {RequestInit} [fetchInit]  Merged into the snapshot request.
 * @property {boolean} [initialSnapshot=true]  Fetch a snapshot right away,
 *   without waiting for the stream to deliver one.
 * @property {number} [retryDelay=1000]  First delay (ms) before retrying a
 *   failed snapshot request or reopening a closed stream; doubles per failure.
 * @property {number} [maxRetryDelay=30000]  Upper bound of the retry delay.
 * @property {typeof EventSource} [EventSource]  Defaults to `globalThis.EventSource`.
 * @property {typeof fetch} [fetch]  Defaults to `globalThis.fetch`.
 */

/**
 * Connects a container to a server-sent event stream of wire messages.
 *
 * Every `message` event's `data` is passed to a {@link ListClient}. When the
 * client needs a snapshot, `snapshotURL` is fetched (retried with backoff until
 * a snapshot is accepted) and passed to the client. After a stream error the
 * browser's automatic reconnection is awaited and, once the stream is open
 * again, a snapshot is requested; if the browser gives up (the stream is
 * closed), the stream is reopened after a delay.
 *
 * When `url` is a function, it is asked for the URL of every stream opened (it
 * may return a promise), and after any stream error the connection closes the
 * stream and opens a new one at the URL it then gives, after the retry delay,
 * instead of letting the browser reconnect to the same URL: a server that names
 * each stream's resource (a window token sent in a named event) is reconnected
 * to that resource, for instance with `?resume=TOKEN`.
 *
 * @param {Element} container  Element whose children are the rows (or sections).
 * @param {string|URL|(() => string|URL|Promise<string|URL>)} url  URL of the
 *   event stream, or a function that gives it for each stream opened.
 * @param {EventSourceConnectionOptions} options
 * @returns {{client: ListClient, close: () => void}}
 */
export function connectEventSource(container, url, options = {}) {
  const {
    snapshotURL,
    events = {},
    eventSourceInit,
    fetchInit,
    initialSnapshot = true,
    retryDelay = 1000,
    maxRetryDelay = 30000,
    EventSource: EventSourceClass = globalThis.EventSource,
    fetch: fetchFunction = globalThis.fetch,
    requestSnapshot: _ignored,
    ...clientOptions
  } = options;
  if (snapshotURL === undefined || snapshotURL === null || snapshotURL === "") {
    throw new TypeError("connectEventSource: options.snapshotURL is required");
  }
  if (typeof EventSourceClass !== "function") {
    throw new TypeError("connectEventSource: EventSource is not available");
  }
  if (typeof fetchFunction !== "function") {
    throw new TypeError("connectEventSource: fetch is not available");
  }

  let closed = false;
  let source = null;
  let connectionLost = false;
  let reopenFailures = 0;
  let reopenTimer = null;
  let fetching = false;
  let abortController = null;
  let wakeUp = null;
  let waitTimer = null;

  const client = new ListClient(container, {
    ...clientOptions,
    requestSnapshot: () => {
      void loadSnapshot();
    },
  });
  const onError = clientOptions.onError ?? reportError;

  const backoff = (failures) => Math.min(maxRetryDelay, retryDelay * 2 ** Math.max(0, failures - 1));

  const wait = (ms) =>
    new Promise((resolve) => {
      wakeUp = resolve;
      waitTimer = setTimeout(resolve, ms);
    });

  async function loadSnapshot() {
    if (closed || fetching) return;
    fetching = true;
    let failures = 0;
    try {
      while (!closed && client.awaitingSnapshot) {
        try {
          abortController = typeof AbortController === "function" ? new AbortController() : null;
          const target = typeof snapshotURL === "function" ? snapshotURL() : snapshotURL;
          const response = await fetchFunction(target, {
            cache: "no-store",
            ...fetchInit,
            headers: { Accept: "application/json", ...fetchInit?.headers },
            signal: abortController?.signal,
          });
          if (closed) return;
          if (!response.ok) throw new Error(`snapshot request failed with HTTP status ${response.status}`);
          const body = await response.json();
          if (closed) return;
          const status = client.handle(body);
          if (status === "inconsistent") throw new Error("snapshot rejected by the list client");
          // Still awaiting: the snapshot was older than a buffered batch; wait
          // a little before asking again.
          if (client.awaitingSnapshot) {
            failures += 1;
            await wait(backoff(failures));
          }
        } catch (error) {
          if (closed) return;
          onError(error);
          failures += 1;
          await wait(backoff(failures));
        }
      }
    } finally {
      fetching = false;
      abortController = null;
    }
  }

  // With a URL function, the connection reopens every broken stream itself.
  const reopensItself = typeof url === "function";

  function scheduleReopen() {
    reopenFailures += 1;
    reopenTimer = setTimeout(() => {
      reopenTimer = null;
      if (!closed) open();
    }, backoff(reopenFailures));
  }

  function open() {
    if (!reopensItself) {
      start(url);
      return;
    }
    let target;
    try {
      target = url();
    } catch (error) {
      onError(error);
      scheduleReopen();
      return;
    }
    if (target !== null && typeof target === "object" && typeof target.then === "function") {
      target.then(
        (value) => {
          if (!closed) start(value);
        },
        (error) => {
          if (closed) return;
          onError(error);
          scheduleReopen();
        },
      );
    } else {
      start(target);
    }
  }

  function start(target) {
    const eventSource = new EventSourceClass(target, eventSourceInit);
    source = eventSource;
    eventSource.addEventListener("message", (event) => {
      if (closed || eventSource !== source) return;
      client.handle(event.data);
    });
    for (const [type, handler] of Object.entries(events)) {
      eventSource.addEventListener(type, (event) => {
        if (closed || eventSource !== source) return;
        handler(event);
      });
    }
    eventSource.addEventListener("open", () => {
      if (closed || eventSource !== source) return;
      reopenFailures = 0;
      if (connectionLost) {
        connectionLost = false;
        client.requestResync("reconnected");
      }
    });
    eventSource.addEventListener("error", () => {
      if (closed || eventSource !== source) return;
      connectionLost = true;
      // CLOSED (2): the browser will not reconnect by itself. With a URL function
      // the connection does not let it reconnect to the same URL.
      if (eventSource.readyState === 2 || reopensItself) {
        eventSource.close();
        source = null;
        scheduleReopen();
      }
    });
  }

  open();
  if (initialSnapshot && client.version === null) client.requestResync("initial");

  return {
    client,
    close() {
      if (closed) return;
      closed = true;
      if (source !== null) source.close();
      source = null;
      if (reopenTimer !== null) clearTimeout(reopenTimer);
      if (waitTimer !== null) clearTimeout(waitTimer);
      abortController?.abort();
      wakeUp?.();
    },
  };
}
