// The viewer's transaction page: its facts (amounts in ETH and gwei beside wei), links to its Debug
// view, the call tree, the logs decoded, and the state it changed (prestateTracer in diff mode) as a
// table that stacks on a phone: storage words whole, named and decoded where the contract's storage
// layout says how.
import type { AbiDecoder } from '../abi/decoder.ts';
import { formatArgs } from '../abi/format.ts';
import { addressesIn, SlotNamer, storageValue } from '../abi/slots.ts';
import { frameNode } from './callTree.ts';
import { amount, el, head, link, notFound, price, row, short, stackRow } from './components.ts';
import type { Frame } from './frame.ts';
import { rpc } from './rpc.ts';

interface TxJson {
  blockNumber: string;
  transactionIndex: string;
  from: string;
  to: string | null;
  value: string;
  nonce: string;
  type: string;
  gasPrice: string;
  input: string;
}
interface ReceiptJson {
  status?: string;
  gasUsed: string;
  effectiveGasPrice: string;
  contractAddress: string | null;
  logs: { address: string; topics: string[]; data: string }[];
}
type StateDiff = { pre: Record<string, Record<string, unknown>>; post: Record<string, Record<string, unknown>> };

/** A balance in ETH beside its wei; other fields as short hex. */
const shown = (field: string, value: unknown): string => (field === 'balance' && typeof value === 'string' ? amount(BigInt(value)) : short(String(value), 24));

/** A storage word whole (it wraps on a phone rather than being cut), and what it means when its type is known. */
function word(value: string, type: string | undefined): Node {
  const means = type === undefined ? undefined : storageValue(value, type);
  return means === undefined ? document.createTextNode(value) : el('span', {}, value, el('br'), el('span', { class: 'means' }, `= ${means}`));
}

interface StateContext {
  readonly decoder: AbiDecoder;
  /** The contract name of an address, or the address. */
  readonly label: (address: string) => Promise<string>;
  /** Names mapping entries by the addresses the transaction names. */
  readonly slots: SlotNamer;
}

async function diffTable(diff: StateDiff, ctx: StateContext): Promise<HTMLElement> {
  const table = el('table', { class: 'diff stack' }, head('account', 'field', 'before', 'after'));
  const line = (address: string, field: Node | string, before: Node | string, after: Node | string): HTMLTableRowElement =>
    stackRow([['account', link(short(address, 8), `/address/${address}`), 'mono'], ['field', field, 'mono'], ['before', before, 'mono word'], ['after', after, 'mono word']]);
  const addresses = [...new Set([...Object.keys(diff.pre), ...Object.keys(diff.post)])].sort();
  for (const address of addresses) {
    const pre = diff.pre[address] ?? {};
    const post = diff.post[address] ?? {};
    for (const field of ['balance', 'nonce', 'code']) {
      if (!(field in post)) continue;
      // an omitted field is empty: nonce 0, no code, no balance (go-ethereum omitempty)
      const before = pre[field] ?? (field === 'code' ? '0x' : field === 'nonce' ? 0 : '0x0');
      table.append(line(address, field, shown(field, before), shown(field, post[field])));
    }
    const before = (pre['storage'] ?? {}) as Record<string, string>;
    const after = (post['storage'] ?? {}) as Record<string, string>;
    const slots = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    if (slots.length === 0 || !(address in diff.post)) continue;
    // a state variable or mapping entry by its name in the contract's storage layout, its value by its type
    const name = await ctx.label(address);
    const layout = name.toLowerCase() === address.toLowerCase() ? undefined : ctx.decoder.storage(name);
    for (const slot of slots) {
      const named = ctx.slots.name(slot, layout);
      const field = named === undefined ? `slot ${slot}` : el('span', {}, named.name, el('br'), el('span', { class: 'slot' }, `slot ${slot}`));
      table.append(line(address, field, word(before[slot] ?? '0x0', named?.type), word(after[slot] ?? '0x0', named?.type)));
    }
  }
  return table;
}

/** Links to the Debug view: its first step, and for a failed transaction the step where it reverts (found by the view). */
function debugLinks(hash: string, ok: boolean): HTMLElement {
  const links = el('p', { class: 'debug-links' }, link('Debug', `/tx/${hash}/debug`));
  if (!ok) links.append(' · ', link('Debug the revert', `/tx/${hash}/debug#revert`));
  return links;
}

export async function showTx(main: HTMLElement, hash: string, decoder: AbiDecoder, label: (address: string | undefined, block: string) => Promise<string>): Promise<void> {
  const started = performance.now();
  const tx = /^0x[0-9a-fA-F]{64}$/.test(hash) ? await rpc<TxJson | null>('eth_getTransactionByHash', [hash]) : null;
  if (tx === null) return notFound(main, `Transaction ${hash} is not on this chain.`);
  const receipt = await rpc<ReceiptJson>('eth_getTransactionReceipt', [hash]);
  const frame = await rpc<Frame>('debug_traceTransaction', [hash, { tracer: 'callTracer', tracerConfig: { withLog: true } }]);
  const ok = receipt.status === undefined || receipt.status === '0x1';
  const tree = await frameNode(frame, { decoder, label: (address) => label(address, tx.blockNumber), total: BigInt(frame.gasUsed) });
  const n = Number(tx.blockNumber);
  const decoded = tx.to === null ? undefined : decoder.call(tx.input);
  const gasUsed = BigInt(receipt.gasUsed);
  const gasPrice = BigInt(receipt.effectiveGasPrice ?? tx.gasPrice);
  const facts = el(
    'table',
    { class: 'facts', id: 'facts' },
    row('status', el('span', { class: ok ? 'status ok' : 'status failed', id: 'status' }, ok ? 'success' : 'reverted')),
    row('from', link(tx.from, `/address/${tx.from}`)),
    row('to', tx.to === null ? `new contract ${receipt.contractAddress ?? ''}` : link(tx.to, `/address/${tx.to}`)),
    row('value', amount(BigInt(tx.value))),
    row('nonce', String(BigInt(tx.nonce))),
    row('type', String(Number(tx.type))),
    row('gas price', price(gasPrice)),
    row('gas used', String(gasUsed)),
    row('fee', amount(gasUsed * gasPrice)),
    row('input', decoded !== undefined ? `${decoded.name}(${formatArgs(decoded)})` : short(tx.input, 64)),
  );
  const logs = el('ol', { id: 'logs' });
  for (const log of receipt.logs) {
    const d = decoder.event(log.topics, log.data);
    logs.append(el('li', { class: 'mono' }, `${short(log.address, 8)} ${d !== undefined ? `${d.name}(${formatArgs(d)})` : `log(${log.topics.map((t) => short(t)).join(', ')})`}`));
  }
  const header = el('div', { class: 'txhead' }, el('p', {}, link(`← block ${n}`, `/block/${n}`)), el('h2', {}, `Transaction ${Number(tx.transactionIndex)} of block ${n}`), el('p', { class: 'mono' }, hash), debugLinks(hash, ok), facts);
  const diffSection = el('section', { id: 'diff' }, el('h3', {}, 'State changes (prestateTracer, diffMode)'), el('p', {}, 'loading…'));
  main.replaceChildren(header, el('h3', {}, 'Call tree'), el('div', { id: 'tree' }, tree), el('h3', {}, `Logs (${receipt.logs.length})`), logs, diffSection);
  document.body.dataset['rendered'] = String(performance.now() - started);
  try {
    const diff = await rpc<StateDiff>('debug_traceTransaction', [hash, { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }]);
    // mapping keys: the addresses the transaction names, its sender and callees first
    const slots = new SlotNamer(addressesIn([JSON.stringify([tx.from, tx.to, receipt.contractAddress]), JSON.stringify(frame), JSON.stringify(receipt.logs), JSON.stringify(diff)], true));
    const table = await diffTable(diff, { decoder, label: (address) => label(address, tx.blockNumber), slots });
    diffSection.replaceChildren(el('h3', {}, 'State changes (prestateTracer, diffMode)'), table);
  } catch (err) {
    diffSection.replaceChildren(el('p', { class: 'failed' }, (err as Error).message));
  }
}
