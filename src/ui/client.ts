// The trace viewer in the browser: blocks, a block's transactions, a transaction's call tree
// (collapsible, a gas bar per frame, decoded calls, events and revert reasons) and its prestate
// diff, its Debug view (source-level, step by step: debugPage.ts), an address and its transactions.
// It only speaks JSON-RPC over POST / (so it works in upstream mode too) and reads the ABIs `serve
// --abi` was given from GET /abi.json. Its pages have the paths explorers write (/tx/0x…, /block/N,
// /address/0x…; and /tx/0x…/debug/STEP), which the server answers with this page; links are
// followed without a reload (history.pushState), and the `#/tx/0x…` links of earlier versions still
// open their page. Bundled by esbuild (src/ui/build.ts); no framework.
import { artifactsFromJson } from '../abi/artifactJson.ts';
import { AbiDecoder } from '../abi/decoder.ts';
import { type AddressPaging, showAddress } from './addressPage.ts';
import { el, head, link, notFound, price, short, stackRow } from './components.ts';
import { showDebug } from './debugPage.ts';
import { rpc } from './rpc.ts';
import { showTx } from './txPage.ts';

const main = (): HTMLElement => document.getElementById('main')!;

let decoder = new AbiDecoder([]);
const labels = new Map<string, Promise<string>>();

async function label(address: string | undefined, block: string): Promise<string> {
  if (address === undefined) return '?';
  const key = address.toLowerCase();
  if (!labels.has(key)) labels.set(key, rpc<string>('eth_getCode', [address, block]).then((code) => decoder.label(code) ?? ''));
  return (await labels.get(key)!) || address;
}

const PAGE = 50;

interface BlockJson {
  hash: string;
  transactions: string[];
  gasUsed: string;
  baseFeePerGas?: string;
}

/** The blocks from `top` down, PAGE of them, with a link to the older ones. */
async function showBlocks(top?: number): Promise<void> {
  const latest = Number(await rpc<string>('eth_blockNumber', []));
  const from = Math.min(top ?? latest, latest);
  const table = el('table', { class: 'list stack' }, head('block', 'hash', 'transactions', 'gas used', 'base fee'));
  const numbers: number[] = [];
  for (let n = from; n >= Math.max(0, from - PAGE + 1); n--) numbers.push(n);
  const blocks = await Promise.all(numbers.map((n) => rpc<BlockJson>('eth_getBlockByNumber', [`0x${n.toString(16)}`, false])));
  for (const [i, b] of blocks.entries()) {
    const n = numbers[i]!;
    table.append(
      stackRow([
        ['block', link(String(n), `/block/${n}`)],
        ['hash', short(b.hash, 16), 'mono'],
        ['transactions', String(b.transactions.length)],
        ['gas used', String(BigInt(b.gasUsed))],
        ['base fee', b.baseFeePerGas === undefined ? '—' : price(BigInt(b.baseFeePerGas)), 'mono'],
      ]),
    );
  }
  const pager = el('p', { class: 'pager' });
  if (from < latest) pager.append(link('← newer', `/blocks/${Math.min(latest, from + PAGE)}`), ' ');
  const older = from - PAGE;
  if (older >= 0) pager.append(link('older →', `/blocks/${older}`));
  main().replaceChildren(el('h2', {}, from === latest ? 'Blocks' : `Blocks ${from} and before`), table, pager);
}

async function showBlock(n: number): Promise<void> {
  const hex = `0x${n.toString(16)}`;
  const block = Number.isSafeInteger(n) && n >= 0
    ? await rpc<{ hash: string; transactions: { hash: string; from: string; to: string | null; input: string }[] } | null>('eth_getBlockByNumber', [hex, true])
    : null;
  if (block === null) return notFound(main(), `Block ${Number.isNaN(n) ? '?' : n} is not on this chain.`);
  const receipts = await rpc<{ status?: string; gasUsed: string; contractAddress: string | null }[]>('eth_getBlockReceipts', [hex]);
  const table = el('table', { class: 'list stack' }, head('#', 'transaction', 'call', 'status', 'gas used'));
  const named: Promise<void>[] = [];
  for (const [i, tx] of block.transactions.entries()) {
    const r = receipts[i]!;
    const ok = r.status === undefined || r.status === '0x1';
    const fn = decoder.call(tx.input)?.name ?? (tx.input === '0x' ? 'fallback' : tx.input.slice(0, 10));
    // first the addresses, then the contract names as their code arrives
    const call = el('span', {}, tx.to === null ? `new contract ${r.contractAddress ?? ''}` : `${tx.to}::${fn}`);
    if (tx.to !== null) named.push(label(tx.to, hex).then((name) => void (call.textContent = `${name}::${fn}`)));
    table.append(
      stackRow(
        [['#', String(i)], ['transaction', link(short(tx.hash, 16), `/tx/${tx.hash}`), 'mono'], ['call', call], ['status', ok ? 'success' : 'reverted', 'status'], ['gas used', String(BigInt(r.gasUsed))]],
        { class: ok ? 'ok' : 'failed' },
      ),
    );
  }
  main().replaceChildren(el('p', {}, link('← blocks', '/')), el('h2', {}, `Block ${n}`), el('p', { class: 'mono' }, block.hash), table);
  await Promise.all(named);
}

/** Opens `path` in the viewer without reloading the page. */
function navigate(path: string): void {
  history.pushState(null, '', path);
  window.scrollTo(0, 0);
  void route();
}

/** The search box: a block number, a block hash, a transaction hash or an address. */
async function search(text: string): Promise<void> {
  const q = text.trim();
  if (/^\d+$/.test(q)) navigate(`/block/${q}`);
  else if (/^0x[0-9a-fA-F]{40}$/.test(q)) navigate(`/address/${q}`);
  else if (/^0x[0-9a-fA-F]{64}$/.test(q)) {
    if ((await rpc<unknown>('eth_getTransactionByHash', [q])) !== null) navigate(`/tx/${q}`);
    else {
      const block = await rpc<{ number: string } | null>('eth_getBlockByHash', [q, false]);
      if (block !== null) navigate(`/block/${Number(block.number)}`);
      else notFound(main(), `${q} is not on this chain.`);
    }
  } else notFound(main(), `"${q}" is not on this chain.`);
}

/** The page's path: the `#/…` of an earlier version's link, else the URL's path. */
const currentPath = (): string => (location.hash.startsWith('#/') ? location.hash.slice(1) : location.pathname);

async function route(): Promise<void> {
  const path = currentPath();
  const parts = path.split('/').filter((p) => p !== '');
  const [kind, arg, direction, block] = parts;
  main().replaceChildren(el('p', { class: 'loading' }, 'loading…'));
  try {
    if (kind === undefined) await showBlocks();
    else if (kind === 'blocks' && parts.length === 2 && /^\d+$/.test(arg!)) await showBlocks(Number(arg));
    else if (kind === 'block' && parts.length === 2) await showBlock(/^\d+$/.test(arg!) ? Number(arg) : Number.NaN);
    else if (kind === 'tx' && parts.length === 2) await showTx(main(), arg!, decoder, label);
    else if (kind === 'tx' && (parts.length === 3 || parts.length === 4) && direction === 'debug') await showDebug(main(), arg!, block);
    else if (kind === 'address' && parts.length === 2 && /^0x[0-9a-fA-F]{40}$/.test(arg!)) await showAddress(main(), arg!, { from: 'newest' }, decoder);
    else if (kind === 'address' && parts.length === 4 && /^0x[0-9a-fA-F]{40}$/.test(arg!) && (direction === 'before' || direction === 'after') && /^\d+$/.test(block!)) {
      const paging: AddressPaging = { from: direction, block: Number(block) };
      await showAddress(main(), arg!, paging, decoder);
    } else if (kind === 'address' && parts.length === 2) notFound(main(), `Address ${arg} is not on this chain.`);
    else notFound(main(), `There is no page ${path} here.`);
  } catch (err) {
    main().replaceChildren(el('p', { class: 'failed' }, (err as Error).message), el('p', {}, link('← blocks', '/')));
  }
}

/** A click on a link inside the viewer (a path, no modifier key) opens its page here. */
function follow(event: MouseEvent): void {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const anchor = (event.target as Element | null)?.closest('a');
  const href = anchor?.getAttribute('href');
  if (href === null || href === undefined || !href.startsWith('/')) return;
  event.preventDefault();
  navigate(href);
}

async function start(): Promise<void> {
  try {
    const response = await fetch('/abi.json');
    decoder = new AbiDecoder(response.ok ? artifactsFromJson(await response.json()) : []);
  } catch {
    decoder = new AbiDecoder([]);
  }
  void Promise.all([rpc<string>('eth_chainId', []).catch(() => '?'), rpc<string>('web3_clientVersion', []).catch(() => '')]).then(([chainId, version]) => {
    document.getElementById('chain')!.textContent = `chain ${chainId === '?' ? '?' : Number(chainId)} · ${version}`;
  });
  window.addEventListener('hashchange', () => void route());
  window.addEventListener('popstate', () => void route());
  document.addEventListener('click', follow);
  const form = document.getElementById('search') as HTMLFormElement | null;
  form?.addEventListener('submit', (event) => {
    event.preventDefault();
    const input = form.querySelector('input')!;
    void search(input.value).catch((err: unknown) => main().replaceChildren(el('p', { class: 'failed' }, (err as Error).message)));
  });
  await route();
}

void start();
