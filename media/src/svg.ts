/**
 * SVG elements by construction, like ../dom.ts for HTML: attributes are set one by one (never
 * event handlers or styles), and text only ever enters as a text node.
 */
const SVG_NS = 'http://www.w3.org/2000/svg';

export function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Readonly<Record<string, string | number>> = {},
  ...children: (SVGElement | string)[]
): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (/^on/i.test(name) || name.toLowerCase() === 'style') throw new Error(`refusing SVG attribute ${name}`);
    el.setAttribute(name, String(value));
  }
  for (const child of children) el.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  return el;
}
