/**
 * Escaping by construction: every piece of data reaches the page as a text node or a property
 * (textContent, title), never as markup. Nothing in the inspector uses innerHTML.
 */

export type Child = Node | string | number | null | undefined | false;

export interface Props {
  readonly className?: string;
  readonly title?: string;
  /** Plain attributes (role, aria-*, type, …); never event handlers or styles. */
  readonly attrs?: Readonly<Record<string, string>>;
  readonly dataset?: Readonly<Record<string, string>>;
  readonly onClick?: (event: MouseEvent) => void;
}

/** An element with text children: strings become text nodes, so they render as text. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props?: Props | null, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (props) {
    if (props.className) el.className = props.className;
    if (props.title !== undefined) el.title = props.title;
    if (props.attrs) {
      for (const [name, value] of Object.entries(props.attrs)) {
        if (/^on/i.test(name) || name.toLowerCase() === 'style') throw new Error(`refusing attribute ${name}`);
        el.setAttribute(name, value);
      }
    }
    if (props.dataset) for (const [name, value] of Object.entries(props.dataset)) el.dataset[name] = value;
    if (props.onClick) el.addEventListener('click', props.onClick as EventListener);
  }
  append(el, children);
  return el;
}

export function append(parent: Node, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
}

/** Replaces an element's children. */
export function replaceChildren(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}

export function button(label: string, onClick: () => void, props: Omit<Props, 'onClick'> & { readonly disabled?: boolean } = {}): HTMLButtonElement {
  const b = h('button', { ...props, attrs: { type: 'button', ...props.attrs }, onClick: () => onClick() }, label);
  b.disabled = props.disabled ?? false;
  return b;
}

export function select(
  options: readonly { readonly value: string; readonly label: string }[],
  value: string,
  onChange: (value: string) => void,
  label: string,
): HTMLSelectElement {
  const s = h('select', { attrs: { 'aria-label': label } });
  for (const o of options) {
    const opt = h('option', null, o.label);
    opt.value = o.value;
    s.appendChild(opt);
  }
  s.value = value;
  s.addEventListener('change', () => onChange(s.value));
  return s;
}

export function numberInput(value: number, min: number, max: number, onChange: (value: number) => void, label: string): HTMLInputElement {
  const input = h('input', { className: 'index-input', attrs: { type: 'number', 'aria-label': label } });
  input.min = String(min);
  input.max = String(max);
  input.step = '1';
  input.value = String(value);
  input.addEventListener('change', () => {
    const n = Math.trunc(Number(input.value));
    if (Number.isFinite(n)) onChange(Math.min(max, Math.max(min, n)));
  });
  return input;
}

/** A theme color from VS Code's CSS variables, for canvas drawing. */
export function themeColor(variable: string, fallback: string): string {
  const value = getComputedStyle(document.body).getPropertyValue(variable).trim();
  return value || fallback;
}
