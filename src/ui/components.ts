// The viewer's small parts, shared with the HTML report of `check` and `diff`: the element helper,
// short hex, amounts in ETH and gwei beside wei, links, and table rows that stack on a phone.
// Browser code, no I/O.
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  for (const c of children) node.append(c);
  return node;
}

export const short = (hex: string, n = 10): string => (hex.length > 2 + 2 * n ? `${hex.slice(0, 2 + n)}…${hex.slice(-4)}` : hex);

/** `1.5` from 1.5·10^decimals: whole, then the fraction without trailing zeros. */
function units(amount: bigint, decimals: number): string {
  const sign = amount < 0n ? '-' : '';
  const abs = amount < 0n ? -amount : amount;
  const base = 10n ** BigInt(decimals);
  const frac = (abs % base).toString().padStart(decimals, '0').replace(/0+$/, '');
  return `${sign}${abs / base}${frac === '' ? '' : `.${frac}`}`;
}

export const eth = (wei: bigint): string => `${units(wei, 18)} ETH`;
const gwei = (wei: bigint): string => `${units(wei, 9)} gwei`;

/** An amount in ETH with the exact wei beside it. */
export const amount = (wei: bigint): string => (wei === 0n ? '0 ETH' : `${eth(wei)} (${wei} wei)`);

/** A gas price in gwei with the exact wei beside it. */
export const price = (wei: bigint): string => `${gwei(wei)} (${wei} wei)`;

/** A link inside the viewer, to a path as explorers write them (`/tx/0x…`); the viewer's script follows it without reloading. */
export function link(text: string, path: string): HTMLAnchorElement {
  return el('a', { href: path }, text);
}

/** A name and its value, as a row of a facts table. */
export function row(name: string, value: Node | string): HTMLTableRowElement {
  return el('tr', {}, el('th', {}, name), el('td', { class: 'mono' }, value));
}

/** The header row of a table whose rows stack on a narrow screen. */
export function head(...names: string[]): HTMLTableRowElement {
  return el('tr', { class: 'head' }, ...names.map((n) => el('th', {}, n)));
}

/** A row whose cells carry their column's name, so that a narrow screen stacks them (`table.stack`). */
export function stackRow(cells: readonly [string, Node | string, string?][], attrs: Record<string, string> = {}): HTMLTableRowElement {
  return el('tr', attrs, ...cells.map(([name, value, cls]) => el('td', { 'data-label': name, ...(cls === undefined ? {} : { class: cls }) }, value)));
}


/** A page for what is not there (a block, a transaction, a path the viewer has no page for), instead of an error or the block list. */
export function notFound(main: HTMLElement, sentence: string): void {
  main.replaceChildren(el('h2', { id: 'notfound' }, 'Not found'), el('p', {}, sentence), el('p', {}, link('← blocks', '/')));
}
