// The script of the HTML report of `check` and `diff` (src/htmlReport): reads the report's inline
// JSON (src/ui/reportData.ts) and renders it with the viewer's components: a summary, then each
// failing case or differing pair as its call trees side by side, the frames and fields that differ
// highlighted, and the tables of differences; the gas table of diff. No request leaves the page.
import { AbiDecoder } from '../abi/decoder.ts';
import { frameNode } from './callTree.ts';
import { el, head, stackRow } from './components.ts';
import type { Frame } from './frame.ts';
import type { GasRow, OneSided, ReportData, ReportDifference, ReportSection, ReportTree } from './reportData.ts';

const data = JSON.parse(document.getElementById('data')!.textContent!) as ReportData;
const decoder = new AbiDecoder(data.abis);
const label = (address: string | undefined): Promise<string> => Promise.resolve(address === undefined ? '?' : (data.labels[address.toLowerCase()] ?? address));

function differencesTable(differences: readonly ReportDifference[]): HTMLTableElement {
  const [a, b] = data.sides;
  const table = el('table', { class: 'stack differences' }, head('where', 'field', a, b));
  for (const d of differences) {
    const means = (value: string, m: string | undefined): Node => (m === undefined ? document.createTextNode(value) : el('span', {}, value, el('br'), el('span', { class: 'means' }, `means ${m}`)));
    table.append(
      stackRow(
        [
          ['where', d.where],
          ['field', `${d.field}${d.note === undefined ? '' : ` (${d.note})`}`, 'mono field'],
          [a, means(d.a, d.aMeans), 'mono value'],
          [b, means(d.b, d.bMeans), 'mono value'],
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

/** The sections' links; with what differs in each and the gas change when the sections say (diff's pairs). */
function index(sections: readonly ReportSection[]): HTMLElement {
  if (!sections.some((s) => s.kind !== undefined)) return el('ol', { class: 'index' }, ...sections.map((s) => el('li', {}, el('a', { href: `#${s.id}` }, s.title))));
  const [a, b] = data.sides;
  const table = el('table', { class: 'stack index' }, head('transaction', 'what differs', `gas used (${a} → ${b})`));
  for (const s of sections) table.append(stackRow([['transaction', el('a', { href: `#${s.id}` }, s.title)], ['what differs', s.kind ?? ''], [`gas used (${a} → ${b})`, s.gas ?? '', 'mono']]));
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
