// The trace viewer in the browser: blocks, a block's transactions, a transaction's call tree
// (collapsible, a gas bar per frame, decoded calls, events and revert reasons) and its prestate
// diff. It only speaks JSON-RPC over POST / (so it works in upstream mode too) and reads the ABIs
// `serve --abi` was given from GET /abi.json. Bundled by esbuild (src/ui/build.ts); no framework.
import type { Artifact } from '../abi/types.ts';
import { AbiDecoder } from '../abi/decoder.ts';
import { formatArgs } from '../abi/format.ts';
import { el, eth, frameNode, short } from './callTree.ts';
import type { Frame } from './frame.ts';

let id = 0;
async function rpc<T>(method: string, params: unknown[]): Promise<T> {
  const res = await fetch('/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }) });
  const json = (await res.json()) as { result?: T; error?: { message: string } };
  if (json.error !== undefined) throw new Error(`${method}: ${json.error.message}`);
  return json.result as T;
}

const main = (): HTMLElement => document.getElementById('main')!;
const args = formatArgs;

let decoder = new AbiDecoder([]);
const labels = new Map<string, Promise<string>>();

async function label(address: string | undefined, block: string): Promise<string> {
  if (address === undefined) return '?';
  const key = address.toLowerCase();
  if (!labels.has(key)) labels.set(key, rpc<string>('eth_getCode', [address, block]).then((code) => decoder.label(code) ?? ''));
  return (await labels.get(key)!) || address;
}

function link(text: string, hash: string): HTMLAnchorElement {
  return el('a', { href: hash }, text);
}

const PAGE = 50;

/** The blocks from `top` down, PAGE of them, with a link to the older ones. */
async function showBlocks(top?: number): Promise<void> {
  const head = Number(await rpc<string>('eth_blockNumber', []));
  const from = Math.min(top ?? head, head);
  const table = el('table', { class: 'list' }, el('tr', {}, el('th', {}, 'block'), el('th', {}, 'hash'), el('th', {}, 'transactions'), el('th', {}, 'gas used')));
  const numbers: number[] = [];
  for (let n = from; n >= Math.max(0, from - PAGE + 1); n--) numbers.push(n);
  const blocks = await Promise.all(numbers.map((n) => rpc<{ hash: string; transactions: string[]; gasUsed: string }>('eth_getBlockByNumber', [`0x${n.toString(16)}`, false])));
  for (const [i, b] of blocks.entries()) {
    const n = numbers[i]!;
    table.append(el('tr', {}, el('td', {}, link(String(n), `#/block/${n}`)), el('td', { class: 'mono' }, short(b.hash, 16)), el('td', {}, String(b.transactions.length)), el('td', {}, String(BigInt(b.gasUsed)))));
  }
  const pager = el('p', { class: 'pager' });
  if (from < head) pager.append(link('← newer', `#/blocks/${Math.min(head, from + PAGE)}`), ' ');
  const older = from - PAGE;
  if (older >= 0) pager.append(link('older →', `#/blocks/${older}`));
  main().replaceChildren(el('h2', {}, from === head ? 'Blocks' : `Blocks ${from} and before`), table, pager);
}

/** A page for what is not on the chain, instead of an error. */
function notFound(what: string): void {
  main().replaceChildren(el('h2', { id: 'notfound' }, 'Not found'), el('p', {}, `${what} is not on this chain.`), el('p', {}, link('← blocks', '#/')));
}

async function showBlock(n: number): Promise<void> {
  const hex = `0x${n.toString(16)}`;
  const block = Number.isSafeInteger(n) && n >= 0
    ? await rpc<{ hash: string; transactions: { hash: string; from: string; to: string | null; input: string }[] } | null>('eth_getBlockByNumber', [hex, true])
    : null;
  if (block === null) return notFound(`Block ${Number.isNaN(n) ? '?' : n}`);
  const receipts = await rpc<{ status?: string; gasUsed: string; contractAddress: string | null }[]>('eth_getBlockReceipts', [hex]);
  const table = el('table', { class: 'list' }, el('tr', {}, el('th', {}, '#'), el('th', {}, 'transaction'), el('th', {}, 'call'), el('th', {}, 'status'), el('th', {}, 'gas used')));
  const named: Promise<void>[] = [];
  for (const [i, tx] of block.transactions.entries()) {
    const r = receipts[i]!;
    const ok = r.status === undefined || r.status === '0x1';
    const fn = decoder.call(tx.input)?.name ?? (tx.input === '0x' ? 'fallback' : tx.input.slice(0, 10));
    // first the addresses, then the contract names as their code arrives
    const call = el('td', {}, tx.to === null ? `new contract ${r.contractAddress ?? ''}` : `${tx.to}::${fn}`);
    if (tx.to !== null) named.push(label(tx.to, hex).then((name) => void (call.textContent = `${name}::${fn}`)));
    table.append(
      el('tr', { class: ok ? 'ok' : 'failed' }, el('td', {}, String(i)), el('td', { class: 'mono' }, link(short(tx.hash, 16), `#/tx/${tx.hash}`)), call, el('td', { class: 'status' }, ok ? 'success' : 'reverted'), el('td', {}, String(BigInt(r.gasUsed)))),
    );
  }
  main().replaceChildren(el('p', {}, link('← blocks', '#/')), el('h2', {}, `Block ${n}`), el('p', { class: 'mono' }, block.hash), table);
  await Promise.all(named);
}

function diffTable(diff: { pre: Record<string, Record<string, unknown>>; post: Record<string, Record<string, unknown>> }): HTMLElement {
  const table = el('table', { class: 'diff' }, el('tr', {}, el('th', {}, 'account'), el('th', {}, 'field'), el('th', {}, 'before'), el('th', {}, 'after')));
  const addresses = [...new Set([...Object.keys(diff.pre), ...Object.keys(diff.post)])].sort();
  for (const address of addresses) {
    const pre = diff.pre[address] ?? {};
    const post = diff.post[address] ?? {};
    for (const field of ['balance', 'nonce', 'code']) {
      if (!(field in post)) continue;
      // an omitted field is empty: nonce 0, no code, no balance (go-ethereum omitempty)
      const before = pre[field] ?? (field === 'code' ? '0x' : field === 'nonce' ? 0 : '0x0');
      table.append(el('tr', {}, el('td', { class: 'mono' }, short(address, 8)), el('td', {}, field), el('td', { class: 'mono' }, short(String(before), 24)), el('td', { class: 'mono' }, short(String(post[field]), 24))));
    }
    const before = (pre['storage'] ?? {}) as Record<string, string>;
    const after = (post['storage'] ?? {}) as Record<string, string>;
    for (const slot of [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()) {
      if (!(address in diff.post)) continue;
      table.append(el('tr', {}, el('td', { class: 'mono' }, short(address, 8)), el('td', { class: 'mono' }, `slot ${short(slot, 8)}`), el('td', { class: 'mono' }, short(before[slot] ?? '0x0', 24)), el('td', { class: 'mono' }, short(after[slot] ?? '0x0', 24))));
    }
  }
  return table;
}

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

function row(name: string, value: Node | string): HTMLTableRowElement {
  return el('tr', {}, el('th', {}, name), el('td', { class: 'mono' }, value));
}

async function showTx(hash: string): Promise<void> {
  const started = performance.now();
  const tx = /^0x[0-9a-fA-F]{64}$/.test(hash) ? await rpc<TxJson | null>('eth_getTransactionByHash', [hash]) : null;
  if (tx === null) return notFound(`Transaction ${hash}`);
  const receipt = await rpc<ReceiptJson>('eth_getTransactionReceipt', [hash]);
  const frame = await rpc<Frame>('debug_traceTransaction', [hash, { tracer: 'callTracer', tracerConfig: { withLog: true } }]);
  const ok = receipt.status === undefined || receipt.status === '0x1';
  const tree = await frameNode(frame, { decoder, label: (address) => label(address, tx.blockNumber), total: BigInt(frame.gasUsed) });
  const n = Number(tx.blockNumber);
  const decoded = tx.to === null ? undefined : decoder.call(tx.input);
  const gasUsed = BigInt(receipt.gasUsed);
  const price = BigInt(receipt.effectiveGasPrice ?? tx.gasPrice);
  const facts = el(
    'table',
    { class: 'facts', id: 'facts' },
    row('status', el('span', { class: ok ? 'status ok' : 'status failed', id: 'status' }, ok ? 'success' : 'reverted')),
    row('from', link(tx.from, `#/address/${tx.from}`)),
    row('to', tx.to === null ? `new contract ${receipt.contractAddress ?? ''}` : link(tx.to, `#/address/${tx.to}`)),
    row('value', eth(BigInt(tx.value))),
    row('nonce', String(BigInt(tx.nonce))),
    row('type', String(Number(tx.type))),
    row('gas price', `${price} wei`),
    row('gas used', String(gasUsed)),
    row('fee', eth(gasUsed * price)),
    row('input', decoded !== undefined ? `${decoded.name}(${args(decoded)})` : short(tx.input, 64)),
  );
  const logs = el('ol', { id: 'logs' });
  for (const log of receipt.logs) {
    const d = decoder.event(log.topics, log.data);
    logs.append(el('li', { class: 'mono' }, `${short(log.address, 8)} ${d !== undefined ? `${d.name}(${args(d)})` : `log(${log.topics.map((t) => short(t)).join(', ')})`}`));
  }
  const header = el(
    'div',
    { class: 'txhead' },
    el('p', {}, link(`← block ${n}`, `#/block/${n}`)),
    el('h2', {}, `Transaction ${Number(tx.transactionIndex)} of block ${n}`),
    el('p', { class: 'mono' }, hash),
    facts,
  );
  const diffSection = el('section', { id: 'diff' }, el('h3', {}, 'State changes (prestateTracer, diffMode)'), el('p', {}, 'loading…'));
  main().replaceChildren(header, el('h3', {}, 'Call tree'), el('div', { id: 'tree' }, tree), el('h3', {}, `Logs (${receipt.logs.length})`), logs, diffSection);
  document.body.dataset['rendered'] = String(performance.now() - started);
  try {
    const diff = await rpc<{ pre: Record<string, Record<string, unknown>>; post: Record<string, Record<string, unknown>> }>('debug_traceTransaction', [hash, { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }]);
    diffSection.replaceChildren(el('h3', {}, 'State changes (prestateTracer, diffMode)'), diffTable(diff));
  } catch (err) {
    diffSection.replaceChildren(el('p', { class: 'failed' }, (err as Error).message));
  }
}

async function showAddress(address: string): Promise<void> {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) return notFound(`Address ${address}`);
  const [balance, nonce, code] = await Promise.all([rpc<string>('eth_getBalance', [address, 'latest']), rpc<string>('eth_getTransactionCount', [address, 'latest']), rpc<string>('eth_getCode', [address, 'latest'])]);
  const name = decoder.label(code);
  main().replaceChildren(
    el('p', {}, link('← blocks', '#/')),
    el('h2', {}, name !== undefined ? `${name} (contract)` : code === '0x' ? 'Account' : 'Contract'),
    el('p', { class: 'mono' }, address),
    el('table', { class: 'facts' }, row('balance', eth(BigInt(balance))), row('nonce', String(BigInt(nonce))), row('code', `${(code.length - 2) / 2} bytes`)),
  );
}

/** The search box: a block number, a block hash, a transaction hash or an address. */
async function search(text: string): Promise<void> {
  const q = text.trim();
  if (/^\d+$/.test(q)) location.hash = `#/block/${q}`;
  else if (/^0x[0-9a-fA-F]{40}$/.test(q)) location.hash = `#/address/${q}`;
  else if (/^0x[0-9a-fA-F]{64}$/.test(q)) {
    if ((await rpc<unknown>('eth_getTransactionByHash', [q])) !== null) location.hash = `#/tx/${q}`;
    else {
      const block = await rpc<{ number: string } | null>('eth_getBlockByHash', [q, false]);
      if (block !== null) location.hash = `#/block/${Number(block.number)}`;
      else notFound(q);
    }
  } else notFound(`"${q}"`);
}

async function route(): Promise<void> {
  const hash = location.hash.replace(/^#\/?/, '');
  const [kind, arg] = hash.split('/');
  main().replaceChildren(el('p', { class: 'loading' }, 'loading…'));
  try {
    if (kind === 'block' && arg !== undefined) await showBlock(/^\d+$/.test(arg) ? Number(arg) : Number.NaN);
    else if (kind === 'tx' && arg !== undefined) await showTx(arg);
    else if (kind === 'address' && arg !== undefined) await showAddress(arg);
    else if (kind === 'blocks' && arg !== undefined && /^\d+$/.test(arg)) await showBlocks(Number(arg));
    else await showBlocks();
  } catch (err) {
    main().replaceChildren(el('p', { class: 'failed' }, (err as Error).message), el('p', {}, link('← blocks', '#/')));
  }
}

async function start(): Promise<void> {
  try {
    const response = await fetch('/abi.json');
    decoder = new AbiDecoder(response.ok ? ((await response.json()) as Artifact[]) : []);
  } catch {
    decoder = new AbiDecoder([]);
  }
  void Promise.all([rpc<string>('eth_chainId', []).catch(() => '?'), rpc<string>('web3_clientVersion', []).catch(() => '')]).then(([chainId, version]) => {
    document.getElementById('chain')!.textContent = `chain ${chainId === '?' ? '?' : Number(chainId)} · ${version}`;
  });
  window.addEventListener('hashchange', () => void route());
  const form = document.getElementById('search') as HTMLFormElement | null;
  form?.addEventListener('submit', (event) => {
    event.preventDefault();
    const input = form.querySelector('input')!;
    void search(input.value).catch((err: unknown) => main().replaceChildren(el('p', { class: 'failed' }, (err as Error).message)));
  });
  await route();
}

void start();
