// The pages issue 38 names, each opened in Otterscan as a person would and checked against what
// the chain (cancun-devnet) holds. A check resolves to its outcome; it never throws for a page that
// is wrong, and a page that never settles fails with what it showed.
import type { Page } from 'playwright-core';
import { type Chain, formatPosition, newerFirst, type Position } from './chain.ts';
import type { Session } from './session.ts';

export interface Outcome {
  readonly pass: boolean;
  readonly detail: string;
}

export interface Check {
  readonly name: string;
  /** The screenshot taken when the check ends (`<shot>.png`). */
  readonly shot: string;
  run(session: Session, chain: Chain): Promise<Outcome>;
}

/** The contract whose history issue 38 pages through (block 4's transactions were split). */
const CONTRACT = '0xcf7ed3acca5a467e9e704c703e8d87f634fb0fc9';
/** Created by block 2's transaction 5, whose creation reverted: no code, no creator. */
const NEVER_CREATED = '0xbc9129dc0487fc2e169941c75aabc539f208fb01';
/** A call that reverts two calls deep: 0xcf7e… → 0x71c9… → 0xcf7e…, each reverting. */
const REVERTED: Position = { block: 4, index: 12 };
/** Seven logs, nested calls (one into a precompile, one failing) and a state diff. */
const WITH_LOGS: Position = { block: 3, index: 0 };
const HEAVY_BLOCK = 10;
const PAST_HEAD = 99;
const WAIT_MS = 20_000;

/** Polls `probe` until it gives a value, for at most `ms`; undefined when it never does. */
async function until<T>(probe: () => Promise<T | undefined>, ms = WAIT_MS): Promise<T | undefined> {
  const deadline = performance.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined || performance.now() > deadline) return value;
    await Bun.sleep(250);
  }
}

/** The transaction hashes of the page's result table once two reads 500 ms apart agree (not `unlike`). */
async function settledRows(page: Page, unlike: readonly string[] = []): Promise<string[] | undefined> {
  let last = '';
  return until(async () => {
    const rows = await page.locator('tbody [data-test="tx-hash"]').allTextContents();
    const key = rows.join();
    const settled = rows.length > 0 && key === last && key !== unlike.join();
    last = key;
    if (settled) return rows;
    await Bun.sleep(250);
    return undefined;
  });
}

/** `0xcf7e…0fc9` for each address or hash in `line`. */
const short = (line: string): string => line.replace(/0x[0-9a-fA-F]{12,}/g, (h) => `${h.slice(0, 6)}…${h.slice(-4)}`);

const text = async (page: Page): Promise<string> => (await page.locator('body').innerText()).toLowerCase();

/** `4:20…4:13, 3:8…3:0`: consecutive transactions of a block as one run, so a split block shows twice. */
function runs(positions: readonly Position[]): string {
  const groups: Position[][] = [];
  for (const p of positions) {
    const group = groups.at(-1);
    if (group !== undefined && group[0]!.block === p.block) group.push(p);
    else groups.push([p]);
  }
  return groups.map((g) => (g.length === 1 ? formatPosition(g[0]!) : `${formatPosition(g[0]!)}…${formatPosition(g.at(-1)!)}`)).join(', ');
}

/** Page text shown in a failure: the main frame's text, whitespace folded, cut to 200 characters. */
async function shown(page: Page): Promise<string> {
  const body = (await page.locator('body').innerText()).replace(/\s+/g, ' ').trim();
  return `the page shows "${body.length > 200 ? `${body.slice(0, 200)}…` : body}"`;
}

const home: Check = {
  name: 'home: the latest block',
  shot: 'home',
  async run({ page, url }, chain) {
    const head = await chain.head();
    await page.goto(url('/'));
    const header = await until(async () => {
      const t = await page.locator('[data-test="home-latest-block-header"]').allInnerTexts();
      return t.length > 0 ? t[0]! : undefined;
    });
    const pass = header?.includes(`Latest block: ${head}`) === true;
    return { pass, detail: header === undefined ? `no latest block after ${WAIT_MS / 1000} s; ${await shown(page)}` : `"${header.split('\n')[0]}" (the head is ${head})` };
  },
};

const blockTransactions: Check = {
  name: `block ${HEAVY_BLOCK}'s transactions, page 1: its last transaction first`,
  shot: 'block-10-txs',
  async run({ page, url }, chain) {
    const hashes = await chain.blockHashes(HEAVY_BLOCK);
    await page.goto(url(`/block/${HEAVY_BLOCK}/txs`));
    const rows = await settledRows(page);
    if (rows === undefined) return { pass: false, detail: `no transactions after ${WAIT_MS / 1000} s; ${await shown(page)}` };
    const indexes = rows.map((h) => hashes.indexOf(h));
    const expected = hashes.slice(-rows.length).reverse();
    const pass = rows.length === Math.min(25, hashes.length) && rows.every((h, i) => h === expected[i]);
    return { pass, detail: `${rows.length} rows, transactions ${indexes[0]}→${indexes.at(-1)} of ${hashes.length} (page 1 should be ${hashes.length - 1}→${hashes.length - rows.length})` };
  },
};

const addressHistory: Check = {
  name: `address history of ${CONTRACT.slice(0, 6)}…: "Last" then "<", each block together, newest first`,
  shot: 'address-prev',
  async run(session, chain) {
    const { page, url } = session;
    await page.goto(url(`/address/${CONTRACT}`));
    const first = await settledRows(page);
    if (first === undefined) return { pass: false, detail: `no history after ${WAIT_MS / 1000} s; ${await shown(page)}` };
    await page.locator('[data-test="nav-last"]').first().click();
    const last = await settledRows(page, first);
    await session.screenshot('address-last');
    if (last === undefined) return { pass: false, detail: `"Last" showed no new page after ${WAIT_MS / 1000} s` };
    await page.locator('[data-test="nav-prev"]').first().click();
    const prev = await settledRows(page, last);
    if (prev === undefined) return { pass: false, detail: `"<" showed no new page after ${WAIT_MS / 1000} s` };
    const lastAt = await Promise.all(last.map((h) => chain.position(h)));
    const prevAt = await Promise.all(prev.map((h) => chain.position(h)));
    const both = [...prevAt, ...lastAt];
    const pass = both.every((p, i) => i === 0 || newerFirst(both[i - 1]!, p) < 0);
    return { pass, detail: `"<": ${runs(prevAt)} | "Last": ${runs(lastAt)}` };
  },
};

const pastHead: Check = {
  name: `block ${PAST_HEAD} (past the head): "Block not found"`,
  shot: 'block-99',
  async run({ page, url }) {
    await page.goto(url(`/block/${PAST_HEAD}`));
    const notFound = `Block "${PAST_HEAD}" not found.`;
    const found = await until(async () => ((await page.getByText(notFound).count()) > 0 ? true : undefined));
    return { pass: found === true, detail: found === true ? `"${notFound}"` : `no "${notFound}" after ${WAIT_MS / 1000} s; ${await shown(page)}` };
  },
};

interface VmTrace {
  readonly ops: readonly { readonly pc: number; readonly op?: string; readonly sub?: VmTrace | null }[];
}

/** The exit pc of each call along the revert chain in a vmTrace: the last op, then the last call's. */
function exitPcs(vm: VmTrace | undefined, depth: number): string[] {
  const pcs: string[] = [];
  for (let frame = vm; frame !== undefined && pcs.length < depth; frame = frame.ops.filter((op) => op.sub).at(-1)?.sub ?? undefined) {
    const exit = frame.ops.at(-1);
    pcs.push(exit === undefined ? 'no ops' : `${exit.op ?? 'op'} at pc ${exit.pc}`);
  }
  return pcs;
}

const revertTrace: Check = {
  name: `"Show Revert Trace" of block ${REVERTED.block}'s transaction ${REVERTED.index}: its chain of reverting calls`,
  shot: 'revert-trace',
  async run({ page, url, events }, chain) {
    const hash = await chain.txHash(REVERTED.block, REVERTED.index);
    const expected = await chain.revertChain(hash);
    await page.goto(url(`/tx/${hash}`));
    await page.getByRole('button', { name: 'Show Revert Trace' }).click({ timeout: WAIT_MS });
    const panel = page.locator('div:has(> div:text-is("Revert trace:"))');
    const links = await until(async () => ((await panel.innerText()).includes('Loading...') ? undefined : (await panel.locator('a').allInnerTexts()).map((a) => a.toLowerCase())));
    const replay = events.rpc.find((c) => c.method === 'trace_replayTransaction' && JSON.stringify(c.params).includes('vmTrace'));
    const vm = replay?.error === undefined ? exitPcs((replay?.result as { vmTrace?: VmTrace } | undefined)?.vmTrace, expected.length).join(', ') : `trace_replayTransaction vmTrace: ${replay.error.code} ${replay.error.message}`;
    const want = `expected ${expected.join(' → ')}`;
    if (links === undefined) return { pass: false, detail: `still "Loading..." after ${WAIT_MS / 1000} s; ${vm}; ${want}` };
    const pass = links.length === expected.length && links.every((a, i) => a === expected[i]);
    return { pass, detail: `${links.join(' → ') || (await panel.innerText()).replace(/\s+/g, ' ')} (${vm}); ${want}` };
  },
};

const noCreator: Check = {
  name: `${NEVER_CREATED.slice(0, 10)}…${NEVER_CREATED.slice(-4)} (its creation reverted): no creator`,
  shot: 'never-created',
  async run({ page, url, events }, chain) {
    const code = await chain.code(NEVER_CREATED);
    await page.goto(url(`/address/${NEVER_CREATED}`));
    const answer = await until(async () => events.rpc.find((c) => c.method === 'ots_getContractCreator' && JSON.stringify(c.params).toLowerCase().includes(NEVER_CREATED)));
    if (answer === undefined) return { pass: false, detail: `the page asked no ots_getContractCreator in ${WAIT_MS / 1000} s; ${await shown(page)}` };
    const creatorRow = page.getByText('Contract creator');
    const said = `ots_getContractCreator answered ${JSON.stringify(answer.error ?? answer.result)}; eth_getCode ${code}`;
    if (answer.result === null || answer.result === undefined) {
      await Bun.sleep(1000);
      const rows = await creatorRow.count();
      return { pass: rows === 0, detail: `${rows === 0 ? 'no "Contract creator" row' : '"Contract creator" shown'} (${said})` };
    }
    await creatorRow.first().waitFor({ timeout: WAIT_MS }).catch(() => undefined);
    return { pass: false, detail: `"Contract creator" ${(await creatorRow.count()) > 0 ? 'shown' : 'not shown yet'} (${said})` };
  },
};

async function withLogs(chain: Chain): Promise<string> {
  return chain.txHash(WITH_LOGS.block, WITH_LOGS.index);
}

/** Waits until every one of `addresses` is in the page's text; the ones still missing otherwise. */
async function missingAddresses(page: Page, addresses: readonly string[]): Promise<string[]> {
  const missing = async (): Promise<string[]> => {
    const body = await text(page);
    return addresses.filter((a) => !body.includes(a));
  };
  return (await until(async () => ((await missing()).length === 0 ? [] : undefined))) ?? missing();
}

const logs: Check = {
  name: `transaction with logs (block ${WITH_LOGS.block}, transaction ${WITH_LOGS.index}): its logs`,
  shot: 'tx-logs',
  async run({ page, url }, chain) {
    const hash = await withLogs(chain);
    const expected = await chain.logIndexes(hash);
    await page.goto(url(`/tx/${hash}/logs`));
    const indexes = await until(async () => {
      const shownIndexes = await page.locator('a.rounded-full').allInnerTexts();
      return shownIndexes.length >= expected.length ? shownIndexes.map(Number) : undefined;
    });
    const pass = indexes !== undefined && indexes.join() === expected.join();
    return { pass, detail: `log indexes ${indexes?.join(', ') ?? 'none'} (the receipt's: ${expected.join(', ')})` };
  },
};

/** The frames of Otterscan's trace tree as its text shows them: `staticcall 0x…` (lowercase), in order. */
const FRAME = /\b(call|staticcall|delegatecall|callcode|create2?|selfdestruct)\s+(0x[0-9a-f]{40})\b/g;

const trace: Check = {
  name: 'its trace tab: every frame of the call tree, in order',
  shot: 'tx-trace',
  async run({ page, url }, chain) {
    const hash = await withLogs(chain);
    const expected = await chain.frames(hash);
    await page.goto(url(`/tx/${hash}/trace`));
    const frames = async (): Promise<string[]> => [...(await text(page)).matchAll(FRAME)].map((m) => `${m[1]} ${m[2]}`);
    const tree = (await until(async () => ((await frames()).length >= expected.length ? frames() : undefined))) ?? (await frames());
    const pass = tree.join() === expected.join();
    return { pass, detail: `${tree.length} frames${pass ? ` as debug_traceTransaction's callTracer has them` : `: ${short(tree.join(', '))}; callTracer: ${short(expected.join(', '))}`}` };
  },
};

const stateDiff: Check = {
  name: 'its state diff tab: every changed account',
  shot: 'tx-state-diff',
  async run({ page, url }, chain) {
    const hash = await withLogs(chain);
    const accounts = await chain.stateDiffAccounts(hash);
    await page.goto(url(`/tx/${hash}/statediff`));
    const missing = await missingAddresses(page, accounts);
    return { pass: missing.length === 0, detail: missing.length === 0 ? `the ${accounts.length} accounts of trace_replayTransaction's stateDiff shown` : `missing ${missing.join(', ')}; ${await shown(page)}` };
  },
};

const blocksList: Check = {
  name: 'blocks list (/special/liveBlocks): the latest blocks, newest first',
  shot: 'blocks-list',
  async run({ page, url }, chain) {
    const head = await chain.head();
    await page.goto(url('/special/liveBlocks'));
    const expected = Array.from({ length: Math.min(head, 15) + 1 }, (_, i) => head - i);
    const numbers = await until(async () => {
      const links = await page.locator('a[href^="/block/"]').evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
      const blocks = [...new Set(links.map((h) => Number(h.slice('/block/'.length))))];
      return blocks.length >= expected.length ? blocks : undefined;
    });
    const pass = numbers !== undefined && numbers.join() === expected.join();
    return { pass, detail: `blocks ${numbers?.join(', ') ?? 'not all shown'} (expected ${expected.join(', ')})` };
  },
};

const search: Check = {
  name: 'search: a transaction hash, a block number and an address',
  shot: 'search',
  async run({ page, url }, chain) {
    const hash = await withLogs(chain);
    const queries = [
      { q: hash, path: `/tx/${hash}`, shows: '[data-test="tx-hash"]' },
      { q: String(HEAVY_BLOCK), path: `/block/${HEAVY_BLOCK}`, shows: '[data-test="block-number"]' },
      { q: CONTRACT, path: `/address/${CONTRACT}`, shows: '[data-test="address"]' },
    ];
    const results: string[] = [];
    for (const { q, path, shows } of queries) {
      await page.goto(url('/'));
      await page.locator('[data-test="home-search-input"]').fill(q);
      await page.keyboard.press('Enter');
      const landed = await until(async () => (new URL(page.url()).pathname.toLowerCase() === path.toLowerCase() && (await page.locator(shows).count()) > 0 ? true : undefined));
      results.push(short(`${q} → ${landed === true ? path : `stayed at ${new URL(page.url()).pathname}`}`));
      if (landed !== true) return { pass: false, detail: results.join('; ') };
    }
    return { pass: true, detail: results.join('; ') };
  },
};

export const CHECKS: readonly Check[] = [home, blockTransactions, addressHistory, pastHead, revertTrace, noCreator, logs, trace, stateDiff, blocksList, search];
