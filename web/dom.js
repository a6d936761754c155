// Building page elements without a framework.

/**
 * Makes an element. `attributes` maps names to values: "class" and "text" are
 * shortcuts, "on<event>" adds a listener, "dataset" an object of data-* values, false or
 * null leaves the attribute out. Children may be elements, strings, or arrays of them.
 */
export function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) continue;
    if (name === "class") node.className = value;
    else if (name === "text") node.textContent = value;
    else if (name === "dataset") Object.assign(node.dataset, value);
    // The pages' CSP refuses style attributes: set `node.style` after making the node.
    else if (name === "style") throw new Error("element(): no style attribute under the CSP");
    else if (name.startsWith("on") && typeof value === "function") node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : value);
  }
  appendChildren(node, children);
  return node;
}

function appendChildren(node, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) appendChildren(node, child);
    else node.append(child instanceof Node ? child : String(child));
  }
}

/** Replaces everything inside `node` with `children`. */
export function replaceChildren(node, ...children) {
  node.textContent = "";
  appendChildren(node, children);
}

/** "1:05" for 65 seconds; "0:00" when time is up. */
export function clockText(milliseconds) {
  const seconds = Math.max(0, Math.ceil(milliseconds / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}
