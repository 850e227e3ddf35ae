// The script of the HTML report of `check` and `diff` (src/htmlReport): reads the report's inline
// JSON (src/ui/reportData.ts) and renders it with the viewer's components: a summary and an index
// that says what differs in each section, then each failing case or differing pair as its call trees
// side by side, the frames and fields that differ highlighted, and the tables of differences (the
// characters that differ inside a value marked, gas in decimal with its change); the gas table of
// diff. No request leaves the page.
import { AbiDecoder } from '../abi/decoder.ts';
import { charDiff, elided, hasCommon, type Run, sideRuns } from '../encoding/textDiff.ts';
import { frameNode } from './callTree.ts';
import { el, head, stackRow } from './components.ts';
import type { Frame } from './frame.ts';
import type { GasRow, OneSided, ReportData, ReportDifference, ReportSection, ReportTree } from './reportData.ts';

const data = JSON.parse(document.getElementById('data')!.textContent!) as ReportData;
const decoder = new AbiDecoder(data.abis);
const label = (address: string | undefined): Promise<string> => Promise.resolve(address === undefined ? '?' : (data.labels[address.toLowerCase()] ?? address));

/** A value longer than this shows the long equal runs around its marks cut to their length (the marks whole); one with nothing in common is cut. */
const CELL_UP_TO = 1200;
const NOT_VALUES = new Set(['missing', 'no answer']);

/** One side of a pair of values, the characters that differ marked (`del` on the first side, `ins` on the second), as jest-diff marks a changed line. */
function markedValue(own: string, other: string, side: 'a' | 'b'): Node {
  const parts = NOT_VALUES.has(own) || NOT_VALUES.has(other) ? [] : charDiff(side === 'a' ? own : other, side === 'a' ? other : own);
  if (!hasCommon(parts)) return document.createTextNode(own.length <= CELL_UP_TO ? own : `${own.slice(0, CELL_UP_TO)}… (${own.length.toLocaleString('en')} characters)`);
  const runs: Run[] = own.length <= CELL_UP_TO ? sideRuns(parts, side) : elided(sideRuns(parts, side), 40);
  const span = el('span', {});
  for (const r of runs) {
    if (r.cut !== undefined) span.append(el('span', { class: 'cut' }, `…${r.cut.toLocaleString('en')} equal characters…`));
    else span.append(r.marked ? el(side === 'a' ? 'del' : 'ins', {}, r.text) : r.text);
  }
  return span;
}

/** A gas value: the amount in decimal (with its change on the second side), then the hex as the answer has it. */
function gasValue(gas: readonly [string, string], hex: string, side: 'a' | 'b'): Node {
  const [a, b] = [BigInt(gas[0]), BigInt(gas[1])];
  const delta = b - a;
  const change = side === 'a' ? '' : ` (${delta === 0n ? 'the same' : `${delta > 0n ? '+' : ''}${delta.toLocaleString('en')}`})`;
  return el('span', {}, el('span', { class: 'amount' }, `${(side === 'a' ? a : b).toLocaleString('en')}${change}`), ' ', el('span', { class: 'hex' }, hex));
}

/**
 * The differences: where, the field, then both values one above the other (each side's name beside
 * its value, as jest-diff's - and + lines), so that the marks of a pair line up and a value has the
 * width of the page left of the place and the field.
 */
function differencesTable(differences: readonly ReportDifference[]): HTMLTableElement {
  const [a, b] = data.sides;
  const table = el('table', { class: 'stack differences' }, head('where', 'field', `${a} / ${b}`));
  for (const d of differences) {
    const pair = el('div', { class: 'pair' });
    for (const side of ['a', 'b'] as const) {
      const [own, other] = side === 'a' ? [d.a, d.b] : [d.b, d.a];
      const shown = d.gas !== undefined ? gasValue(d.gas, own, side) : markedValue(own, other, side);
      const means = side === 'a' ? d.aMeans : d.bMeans;
      pair.append(el('span', { class: 'side-name' }, side === 'a' ? a : b), el('span', { class: 'value' }, shown, ...(means === undefined ? [] : [el('br'), el('span', { class: 'means' }, `means ${means}`)])));
    }
    table.append(
      stackRow(
        [
          // the place reads in the width it needs up to a limit, wrapping past it; the values have the rest
          ['where', el('span', { class: 'where', title: d.where }, d.where), 'where'],
          ['field', el('span', {}, d.field, ...(d.note === undefined ? [] : [el('br'), el('span', { class: 'note' }, `(${d.note})`)])), 'mono field'],
          [`${a} / ${b}`, pair, 'mono value'],
        ],
        { class: 'differs', title: d.path },
      ),
    );
  }
  return table;
}

async function tree(t: ReportTree): Promise<HTMLElement> {
  const marks = new Map(Object.entries(t.marks));
  const side = async (name: string, frame: Frame | null): Promise<HTMLElement> =>
    el('div', { class: 'side' }, el('h4', {}, name), frame === null ? el('p', { class: 'failed' }, 'no call tree here') : await frameNode(frame, { decoder, label, total: BigInt(frame.gasUsed), marks }));
  return el('div', {}, el('h3', {}, t.title), el('div', { class: 'sides' }, await side(data.sides[0], t.sides[0]), await side(data.sides[1], t.sides[1])));
}

async function section(s: ReportSection): Promise<HTMLElement> {
  const node = el('section', { class: 'case', id: s.id }, el('h2', {}, s.title), ...s.lines.map((line) => el('p', { class: 'mono' }, line)));
  for (const t of s.trees) node.append(await tree(t));
  for (const t of s.tables) node.append(el('h3', {}, t.title), differencesTable(t.differences));
  return node;
}

function gasTable(rows: readonly GasRow[]): HTMLElement {
  const [a, b] = data.sides;
  const table = el('table', { class: 'stack gas' }, head('transaction', a, b, 'change'));
  for (const g of rows) {
    const delta = g.a !== undefined && g.b !== undefined ? BigInt(g.b) - BigInt(g.a) : undefined;
    const change = delta === undefined ? '—' : delta === 0n ? 'the same' : `${delta > 0n ? '+' : ''}${delta.toLocaleString('en')} (${delta > 0n ? '+' : ''}${((Number(delta) / Number(g.a)) * 100).toFixed(3)}%)`;
    const amount = (v: string | undefined): string => (v === undefined ? '—' : BigInt(v).toLocaleString('en'));
    table.append(stackRow([['transaction', g.label], [a, amount(g.a), 'mono'], [b, amount(g.b), 'mono'], ['change', change, 'mono']], delta === undefined || delta === 0n ? {} : { class: 'differs' }));
  }
  return el('section', { id: 'gas' }, el('h2', {}, `Gas used (${a} → ${b})`), table);
}

/** The sections' links; with what differs in each (check's cases, diff's pairs) and the gas change when the sections say (diff's pairs). */
function index(sections: readonly ReportSection[]): HTMLElement {
  if (!sections.some((s) => s.kind !== undefined)) return el('ol', { class: 'index' }, ...sections.map((s) => el('li', {}, el('a', { href: `#${s.id}` }, s.title))));
  const [a, b] = data.sides;
  const item = data.indexHeading ?? 'transaction';
  const gas = `gas used (${a} → ${b})`;
  const withGas = sections.some((s) => s.gas !== undefined);
  const table = el('table', { class: 'stack index' }, head(item, 'what differs', ...(withGas ? [gas] : [])));
  for (const s of sections) {
    table.append(stackRow([[item, el('a', { href: `#${s.id}` }, s.title)], ['what differs', s.kind ?? ''], ...(withGas ? [[gas, s.gas ?? '', 'mono'] as [string, string, string]] : [])]));
  }
  return table;
}

function oneSidedTable(list: OneSided): HTMLElement {
  const table = el('table', { class: 'stack one-sided' }, head('transaction', 'hash', 'sender, nonce', 'gas used'));
  for (const r of list.rows) table.append(stackRow([['transaction', r.place], ['hash', r.hash, 'mono'], ['sender, nonce', r.sender, 'mono'], ['gas used', r.gas, 'mono']]));
  return el('section', { class: 'one-sided' }, el('h2', {}, list.title), table);
}

async function render(): Promise<void> {
  const main = document.getElementById('main')!;
  const summary = el('table', { class: 'summary facts' }, ...data.summary.map((r) => el('tr', {}, el('th', {}, r.name), el('td', { class: 'mono' }, r.value))));
  main.replaceChildren(el('h1', { class: 'headline', id: 'headline' }, data.headline), summary, index(data.sections));
  for (const s of data.sections) main.append(await section(s));
  for (const list of data.oneSided ?? []) main.append(oneSidedTable(list));
  if (data.gas !== undefined) main.append(gasTable(data.gas));
  document.body.dataset['rendered'] = 'yes';
}

void render();
