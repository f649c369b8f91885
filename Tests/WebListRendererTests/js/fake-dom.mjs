// A small fake DOM, sufficient for list-client.js under node's test runner.
//
// It does not parse markup: assigning `innerHTML` records the string (and
// counts the assignment) and removes the element's children. Every document
// keeps counters in `document.stats` so tests can check how much DOM work a
// change caused.

export class FakeDOMException extends Error {
  constructor(message, name) {
    super(message);
    this.name = name;
  }
}

function freshStats() {
  return {
    createElement: 0,
    innerHTMLWrites: 0,
    insertions: 0,
    removals: 0,
    replaceChildren: 0,
    /** @type {string[]} every string assigned to innerHTML, in order */
    innerHTMLLog: [],
  };
}

export class FakeNode {
  constructor(ownerDocument, nodeType) {
    this.ownerDocument = ownerDocument;
    this.nodeType = nodeType;
    this.parentNode = null;
    /** @type {FakeNode[]} */
    this._nodes = [];
  }

  get childNodes() {
    return Object.freeze(this._nodes.slice());
  }

  get firstChild() {
    return this._nodes[0] ?? null;
  }

  get lastChild() {
    return this._nodes[this._nodes.length - 1] ?? null;
  }

  get nextSibling() {
    if (this.parentNode === null) return null;
    const siblings = this.parentNode._nodes;
    return siblings[siblings.indexOf(this) + 1] ?? null;
  }

  get previousSibling() {
    if (this.parentNode === null) return null;
    const siblings = this.parentNode._nodes;
    return siblings[siblings.indexOf(this) - 1] ?? null;
  }

  get parentElement() {
    return this.parentNode;
  }

  hasChildNodes() {
    return this._nodes.length > 0;
  }

  contains(node) {
    for (let current = node; current !== null; current = current.parentNode) {
      if (current === this) return true;
    }
    return false;
  }

  appendChild(node) {
    return this.insertBefore(node, null);
  }

  insertBefore(node, reference) {
    if (!(node instanceof FakeNode)) throw new TypeError("insertBefore: node is not a FakeNode");
    if (reference === undefined) throw new TypeError("insertBefore: reference must be a node or null");
    if (reference !== null && reference.parentNode !== this) {
      throw new FakeDOMException("insertBefore: reference is not a child of this node", "NotFoundError");
    }
    if (node.contains(this)) {
      throw new FakeDOMException("insertBefore: node is an ancestor of the parent", "HierarchyRequestError");
    }
    if (reference === node) reference = node.nextSibling;
    if (node.parentNode !== null) node.parentNode._detach(node);
    const index = reference === null ? this._nodes.length : this._nodes.indexOf(reference);
    this._nodes.splice(index, 0, node);
    node.parentNode = this;
    this.ownerDocument.stats.insertions += 1;
    return node;
  }

  removeChild(node) {
    if (!(node instanceof FakeNode) || node.parentNode !== this) {
      throw new FakeDOMException("removeChild: node is not a child of this node", "NotFoundError");
    }
    this._detach(node);
    this.ownerDocument.stats.removals += 1;
    return node;
  }

  remove() {
    if (this.parentNode !== null) this.parentNode.removeChild(this);
  }

  replaceChildren(...nodes) {
    this.ownerDocument.stats.replaceChildren += 1;
    const incoming = nodes.map((node) =>
      node instanceof FakeNode ? node : this.ownerDocument.createTextNode(String(node)),
    );
    for (const child of this._nodes) child.parentNode = null;
    this._nodes = [];
    for (const node of incoming) {
      if (node.parentNode !== null) node.parentNode._detach(node);
      this._nodes.push(node);
      node.parentNode = this;
    }
  }

  _detach(node) {
    const index = this._nodes.indexOf(node);
    if (index >= 0) this._nodes.splice(index, 1);
    node.parentNode = null;
  }
}

export class FakeText extends FakeNode {
  constructor(ownerDocument, data) {
    super(ownerDocument, 3);
    this.data = String(data);
  }

  get nodeName() {
    return "#text";
  }

  get textContent() {
    return this.data;
  }

  set textContent(value) {
    this.data = String(value);
  }
}

function dataAttributeName(key) {
  return "data-" + key.replace(/[A-Z]/g, (letter) => "-" + letter.toLowerCase());
}

function datasetKey(attribute) {
  return attribute.slice(5).replace(/-([a-z])/g, (_, letter) => letter.toUpperCase());
}

export class FakeElement extends FakeNode {
  constructor(ownerDocument, tagName) {
    super(ownerDocument, 1);
    this.localName = String(tagName).toLowerCase();
    this.tagName = this.localName.toUpperCase();
    /** @type {Map<string, string>} */
    this._attributes = new Map();
    /** markup last assigned to innerHTML, or null */
    this._html = null;
    /** how often innerHTML was assigned on this element */
    this.innerHTMLWrites = 0;
    const element = this;
    this.dataset = new Proxy(
      {},
      {
        get(_, key) {
          if (typeof key !== "string") return undefined;
          return element.getAttribute(dataAttributeName(key)) ?? undefined;
        },
        set(_, key, value) {
          element.setAttribute(dataAttributeName(String(key)), value);
          return true;
        },
        has(_, key) {
          return typeof key === "string" && element.hasAttribute(dataAttributeName(key));
        },
        deleteProperty(_, key) {
          element.removeAttribute(dataAttributeName(String(key)));
          return true;
        },
        ownKeys() {
          return [...element._attributes.keys()].filter((name) => name.startsWith("data-")).map(datasetKey);
        },
        getOwnPropertyDescriptor(_, key) {
          if (typeof key !== "string" || !element.hasAttribute(dataAttributeName(key))) return undefined;
          return { value: element.getAttribute(dataAttributeName(key)), writable: true, enumerable: true, configurable: true };
        },
      },
    );
    this.classList = {
      add: (...names) => this._setClasses([...new Set([...this._classes(), ...names])]),
      remove: (...names) => this._setClasses(this._classes().filter((name) => !names.includes(name))),
      contains: (name) => this._classes().includes(name),
      toggle: (name, force) => {
        const present = this._classes().includes(name);
        const wanted = force === undefined ? !present : Boolean(force);
        if (wanted && !present) this.classList.add(name);
        if (!wanted && present) this.classList.remove(name);
        return wanted;
      },
      get length() {
        return element._classes().length;
      },
      get value() {
        return element.className;
      },
    };
  }

  get nodeName() {
    return this.tagName;
  }

  get children() {
    return Object.freeze(this._nodes.filter((node) => node instanceof FakeElement));
  }

  get childElementCount() {
    return this.children.length;
  }

  get firstElementChild() {
    return this.children[0] ?? null;
  }

  setAttribute(name, value) {
    this._attributes.set(String(name).toLowerCase(), String(value));
  }

  getAttribute(name) {
    return this._attributes.get(String(name).toLowerCase()) ?? null;
  }

  hasAttribute(name) {
    return this._attributes.has(String(name).toLowerCase());
  }

  removeAttribute(name) {
    this._attributes.delete(String(name).toLowerCase());
  }

  getAttributeNames() {
    return [...this._attributes.keys()];
  }

  get id() {
    return this.getAttribute("id") ?? "";
  }

  set id(value) {
    this.setAttribute("id", value);
  }

  get className() {
    return this.getAttribute("class") ?? "";
  }

  set className(value) {
    this.setAttribute("class", value);
  }

  _classes() {
    return this.className.split(/\s+/).filter(Boolean);
  }

  _setClasses(names) {
    this.className = names.join(" ");
  }

  /** Records the markup (no parsing) and counts the assignment. */
  set innerHTML(value) {
    const html = String(value);
    for (const child of this._nodes) child.parentNode = null;
    this._nodes = [];
    this._html = html;
    this.innerHTMLWrites += 1;
    this.ownerDocument.stats.innerHTMLWrites += 1;
    this.ownerDocument.stats.innerHTMLLog.push(html);
  }

  get innerHTML() {
    if (this._nodes.length === 0) return this._html ?? "";
    return this._nodes.map((node) => serialize(node)).join("");
  }

  get textContent() {
    if (this._nodes.length === 0) return this._html ?? "";
    return this._nodes.map((node) => node.textContent).join("");
  }

  set textContent(value) {
    for (const child of this._nodes) child.parentNode = null;
    this._nodes = [];
    this._html = null;
    const text = String(value ?? "");
    if (text !== "") {
      const node = this.ownerDocument.createTextNode(text);
      this._nodes.push(node);
      node.parentNode = this;
    }
  }

  get outerHTML() {
    return serialize(this);
  }
}

function escapeText(text) {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function serialize(node) {
  if (node instanceof FakeText) return escapeText(node.data);
  const attributes = [...node._attributes]
    .map(([name, value]) => ` ${name}="${escapeText(value).replace(/"/g, "&quot;")}"`)
    .join("");
  return `<${node.localName}${attributes}>${node.innerHTML}</${node.localName}>`;
}

export class FakeDocument {
  constructor() {
    this.stats = freshStats();
    this.body = this.createElement("body");
    this.stats = freshStats();
  }

  createElement(tagName) {
    this.stats.createElement += 1;
    return new FakeElement(this, tagName);
  }

  createTextNode(data) {
    return new FakeText(this, data);
  }

  /** Resets the counters and returns the previous ones. */
  resetStats() {
    const previous = this.stats;
    this.stats = freshStats();
    return previous;
  }
}

/** @returns {FakeDocument} */
export function createDocument() {
  return new FakeDocument();
}
