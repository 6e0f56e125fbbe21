// DOM building without markup strings: text always becomes text nodes, so
// nothing that came from a person (a nickname) or the server can become markup.

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  append(node, children);
  return node;
}

export function append(node, children) {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** An element holding one of our own trusted SVG strings (cards, suits). */
export function svgBox(tag, attrs, svg) {
  const node = el(tag, attrs);
  node.innerHTML = svg; // only ever the output of cards.js, built from whitelisted parts
  return node;
}

export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

export const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

/** Animation pauses; tests speed them up with ?speed=0.1. */
const speed = Number(new URLSearchParams(location.search).get("speed") || "1");
export const scaled = (ms) => ms * (Number.isFinite(speed) ? speed : 1);
export function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, scaled(ms)));
}

export function toast(message) {
  const box = document.getElementById("toast");
  box.textContent = message;
  box.classList.add("show");
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => box.classList.remove("show"), 4000);
}

/** ``data`` saved as a JSON file named ``filename`` (the browser's download). */
export function downloadJSON(filename, data) {
  const blob = new Blob([JSON.stringify(data, null, 1)], { type: "application/json" });
  const link = el("a", { href: URL.createObjectURL(blob), download: filename });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}
