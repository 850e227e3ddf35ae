// The trace viewer in the browser: blocks, a block's transactions, a transaction's call tree
// (collapsible, a gas bar per frame, decoded calls, events and revert reasons) and its prestate
// diff. It only speaks JSON-RPC over POST / (so it works in upstream mode too) and reads the ABIs
// `serve --abi` was given from GET /abi.json. Bundled by esbuild (src/ui/build.ts); no framework.
import type { Artifact } from '../abi/types.ts';
import { AbiDecoder, type Decoded } from '../abi/decoder.ts';
import { formatValue } from '../show/render.ts';

interface Frame {
  type: string;
  from: string;
  to?: string;
  value?: string;
  gas: string;
  gasUsed: string;
  input: string;
  output?: string;
  error?: string;
  revertReason?: string;
  calls?: Frame[];
  logs?: { address: string; topics?: string[]; data: string; position: string }[];
}

let id = 0;
async function rpc<T>(method: string, params: unknown[]): Promise<T> {
  const res = await fetch('/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }) });
  const json = (await res.json()) as { result?: T; error?: { message: string } };
  if (json.error !== undefined) throw new Error(`${method}: ${json.error.message}`);
  return json.result as T;
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  for (const c of children) node.append(c);
  return node;
}

const main = (): HTMLElement => document.getElementById('main')!;
const short = (hex: string, n = 10): string => (hex.length > 2 + 2 * n ? `${hex.slice(0, 2 + n)}…${hex.slice(-4)}` : hex);
const args = (d: Decoded): string => d.args.map(([n, v]) => (n === '' ? formatValue(v) : `${n}: ${formatValue(v)}`)).join(', ');

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

async function showBlocks(): Promise<void> {
  const head = Number(await rpc<string>('eth_blockNumber', []));
  const table = el('table', { class: 'list' }, el('tr', {}, el('th', {}, 'block'), el('th', {}, 'hash'), el('th', {}, 'transactions'), el('th', {}, 'gas used')));
  const numbers: number[] = [];
  for (let n = head; n >= Math.max(0, head - 49); n--) numbers.push(n);
  const blocks = await Promise.all(numbers.map((n) => rpc<{ hash: string; transactions: string[]; gasUsed: string }>('eth_getBlockByNumber', [`0x${n.toString(16)}`, false])));
  for (const [i, b] of blocks.entries()) {
    const n = numbers[i]!;
    table.append(el('tr', {}, el('td', {}, link(String(n), `#/block/${n}`)), el('td', { class: 'mono' }, short(b.hash, 16)), el('td', {}, String(b.transactions.length)), el('td', {}, String(BigInt(b.gasUsed)))));
  }
  main().replaceChildren(el('h2', {}, 'Blocks'), table);
}

async function showBlock(n: number): Promise<void> {
  const hex = `0x${n.toString(16)}`;
  const [block, receipts] = await Promise.all([
    rpc<{ hash: string; transactions: { hash: string; from: string; to: string | null; input: string }[] }>('eth_getBlockByNumber', [hex, true]),
    rpc<{ status?: string; gasUsed: string; contractAddress: string | null }[]>('eth_getBlockReceipts', [hex]),
  ]);
  const table = el('table', { class: 'list' }, el('tr', {}, el('th', {}, '#'), el('th', {}, 'transaction'), el('th', {}, 'call'), el('th', {}, 'status'), el('th', {}, 'gas used')));
  const named: Promise<void>[] = [];
  for (const [i, tx] of block.transactions.entries()) {
    const r = receipts[i]!;
    const ok = r.status === undefined || r.status === '0x1';
    const fn = decoder.call(tx.input)?.name ?? (tx.input === '0x' ? 'transfer' : tx.input.slice(0, 10));
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

function revertText(frame: Frame): string {
  const output = frame.output ?? '0x';
  if (frame.revertReason !== undefined) return frame.revertReason;
  const d = decoder.revert(output);
  if (d !== undefined) return `${d.name}(${args(d)})`;
  return output === '0x' ? '(no data)' : short(output, 32);
}

async function frameNode(frame: Frame, total: bigint, block: string): Promise<HTMLElement> {
  const used = BigInt(frame.gasUsed);
  const width = total === 0n ? 0 : Number((used * 1000n) / total) / 10;
  const callee = frame.type === 'CREATE' || frame.type === 'CREATE2' ? `new ${frame.to !== undefined ? await label(frame.to, block) : 'contract'}` : await label(frame.to, block);
  const decoded = frame.type.startsWith('CREATE') ? undefined : decoder.call(frame.input);
  const fn = decoded !== undefined ? `${decoded.name}(${args(decoded)})` : frame.input === '0x' ? '()' : `${frame.input.slice(0, 10)}(…)`;
  const value = frame.value !== undefined && BigInt(frame.value) !== 0n ? ` {value: ${BigInt(frame.value)}}` : '';
  const summary = el(
    'summary',
    { class: frame.error !== undefined ? 'frame failed' : 'frame' },
    el('span', { class: 'gasbar' }, el('span', { style: `width:${width}%` })),
    el('span', { class: 'gas' }, String(used)),
    el('span', { class: 'kind' }, frame.type),
    el('span', { class: 'callee' }, callee),
    el('span', { class: 'fn' }, frame.type.startsWith('CREATE') ? '' : `::${fn}${value}`),
  );
  const body = el('div', { class: 'children' });
  const logs = [...(frame.logs ?? [])];
  const calls = frame.calls ?? [];
  const emit = (log: (typeof logs)[number]): HTMLElement => {
    const d = decoder.event(log.topics ?? [], log.data);
    return el('div', { class: 'event' }, `emit ${d !== undefined ? `${d.name}(${args(d)})` : `log(${(log.topics ?? []).map((t) => short(t)).join(', ')})`}`);
  };
  for (const [i, call] of calls.entries()) {
    while (logs.length > 0 && Number(logs[0]!.position) <= i) body.append(emit(logs.shift()!));
    body.append(await frameNode(call, total, block));
  }
  for (const log of logs) body.append(emit(log));
  if (frame.error !== undefined) {
    body.append(el('div', { class: 'result failed' }, frame.error === 'execution reverted' ? `← revert: ${revertText(frame)}` : `← ${frame.error}`));
  } else if (frame.output !== undefined && frame.output !== '0x') {
    const r = frame.type.startsWith('CREATE') ? undefined : decoder.result(frame.input, frame.output);
    body.append(el('div', { class: 'result' }, `← ${r !== undefined ? args(r) : short(frame.output, 32)}`));
  }
  const details = el('details', { open: '' }, summary, body);
  return details;
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

async function showTx(hash: string): Promise<void> {
  const started = performance.now();
  const tx = await rpc<{ blockNumber: string; transactionIndex: string; from: string } | null>('eth_getTransactionByHash', [hash]);
  if (tx === null) throw new Error(`transaction ${hash} not found`);
  const receipt = await rpc<{ status?: string; gasUsed: string }>('eth_getTransactionReceipt', [hash]);
  const frame = await rpc<Frame>('debug_traceTransaction', [hash, { tracer: 'callTracer', tracerConfig: { withLog: true } }]);
  const ok = receipt.status === undefined || receipt.status === '0x1';
  const tree = await frameNode(frame, BigInt(frame.gasUsed), tx.blockNumber);
  const n = Number(tx.blockNumber);
  const header = el(
    'div',
    { class: 'txhead' },
    el('p', {}, link(`← block ${n}`, `#/block/${n}`)),
    el('h2', {}, `Transaction ${Number(tx.transactionIndex)} of block ${n}`),
    el('p', { class: 'mono' }, hash),
    el('p', {}, el('span', { class: ok ? 'status ok' : 'status failed', id: 'status' }, ok ? 'success' : 'reverted'), ` · gas used ${BigInt(receipt.gasUsed)} · from ${tx.from}`),
  );
  const diffSection = el('section', { id: 'diff' }, el('h3', {}, 'State changes (prestateTracer, diffMode)'), el('p', {}, 'loading…'));
  main().replaceChildren(header, el('h3', {}, 'Call tree'), el('div', { id: 'tree' }, tree), diffSection);
  document.body.dataset['rendered'] = String(performance.now() - started);
  try {
    const diff = await rpc<{ pre: Record<string, Record<string, unknown>>; post: Record<string, Record<string, unknown>> }>('debug_traceTransaction', [hash, { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }]);
    diffSection.replaceChildren(el('h3', {}, 'State changes (prestateTracer, diffMode)'), diffTable(diff));
  } catch (err) {
    diffSection.replaceChildren(el('p', { class: 'failed' }, (err as Error).message));
  }
}

async function route(): Promise<void> {
  const hash = location.hash.replace(/^#\/?/, '');
  const [kind, arg] = hash.split('/');
  main().replaceChildren(el('p', { class: 'loading' }, 'loading…'));
  try {
    if (kind === 'block' && arg !== undefined) await showBlock(Number(arg));
    else if (kind === 'tx' && arg !== undefined) await showTx(arg);
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
  await route();
}

void start();
