// Impersonated transactions (issue 39) on a real anvil and a real Hardhat 2 node. Each node mines a
// block holding signed transactions and transactions of an impersonated account (calls of every
// type, one that reverts, a CREATE): anvil reports those with an empty signature, Hardhat with a
// fake one. blocktrace takes them as the node says they were sent. Through the real CLI (the
// harness face and `show`, `capture`, `--replay-file`) and a real `serve --upstream` over HTTP:
// callTracer, prestate diff mode and trace_block name the node's sender and hash and agree with the
// node's own receipts; the capture names exactly the impersonated transactions and replays offline
// to the bytes of upstream mode; show prints the same tree both ways.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnChild } from '../bench/procs.ts';
import { FixtureError } from '../src/errors/fixtureError.ts';
import { fromCapture } from '../src/fixture/captured.ts';
import { BUN, CLI, ROOT, runHarness } from './faces.ts';
import { rpc } from './helpers/anvil.ts';
import { type DevNode, startDevAnvil, startHardhat } from './helpers/devNodes.ts';
import { twoBlockCapture } from './helpers/captureJson.ts';

/** Per test and hook: two nodes, subprocesses and replays on a loaded 2-core machine. */
const SLOW = 90_000;
const IMPERSONATED = '0x1111111111111111111111111111111111111111';
/** The nodes' first two dev accounts (mnemonic "test test … junk"), unlocked: they sign. */
const DEV = ['0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266', '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'];
const TOPIC = `0x${'5e'.repeat(32)}`;
/**
 * The contract every call goes to: SSTORE(CALLER, NUMBER) (a slot named by the sender, so a wrong
 * sender shows in the prestate diff), REVERT when the first calldata byte is 0xff, else
 * LOG2(CALLVALUE; TOPIC, CALLER) and a CALL of the identity precompile.
 */
const RUNTIME = ['43', '33', '55', '6000', '35', '60f8', '1c', '60ff', '14', '604a', '57', '34', '6000', '52', '33', `7f${TOPIC.slice(2)}`, '6020', '6000', 'a2', '6020', '6020', '6020', '6000', '6000', '6004', '5a', 'f1', '50', '00', '5b', '6000', '6000', 'fd'].join('');
/** PUSH1 len DUP1 PUSH1 11 PUSH1 0 CODECOPY PUSH1 0 RETURN, then the runtime. */
const INITCODE = `0x605080600b6000396000f3${RUNTIME}`;
const GAS = '0x30000';
const FEE = { maxFeePerGas: '0xb2d05e00', maxPriorityFeePerGas: '0x3b9aca00' }; // 3 and 1 gwei
const GAS_PRICE = '0xb2d05e00';

const body = (method: string, params: unknown[], id: unknown = 1): string => JSON.stringify({ jsonrpc: '2.0', id, method, params });
const hex = (n: number | bigint): string => `0x${n.toString(16)}`;

interface Tx { hash: string; from: string; to: string | null; input: string; type: string; v: string; r: string; s: string; yParity?: string }
interface Log { address: string; topics: string[]; data: string }
interface Receipt { transactionHash: string; from: string; to: string | null; status: string; gasUsed: string; logs: Log[]; contractAddress: string | null }
interface Frame { from: string; to?: string; gasUsed: string; error?: string; logs?: Log[]; calls?: Frame[] }

/** What a node does, by name. */
interface NodeKind {
  readonly name: 'anvil' | 'hardhat';
  start(): Promise<DevNode>;
  readonly impersonate: string;
  readonly setBalance: string;
  /** Arguments naming the fork schedule (anvil reports its own; Hardhat's is given). */
}

const KINDS: readonly NodeKind[] = [
  { name: 'anvil', start: () => startDevAnvil(), impersonate: 'anvil_impersonateAccount', setBalance: 'anvil_setBalance' },
  { name: 'hardhat', start: () => startHardhat(), impersonate: 'hardhat_impersonateAccount', setBalance: 'hardhat_setBalance' },
];


/** The chain each node mines: block `setup` deploys the contract, block `mixed` holds the transactions under test. */
interface Scenario {
  readonly setup: number;
  readonly mixed: number;
  readonly contract: string;
  readonly txs: readonly Tx[];
  readonly receipts: readonly Receipt[];
}

async function mine(node: DevNode): Promise<number> {
  await rpc(node.url, 'evm_mine', []);
  return Number(await rpc<string>(node.url, 'eth_blockNumber', []));
}

async function buildScenario(kind: NodeKind, node: DevNode): Promise<Scenario> {
  const { url } = node;
  if (kind.name === 'hardhat') await rpc(url, 'evm_setAutomine', [false]);
  await rpc(url, kind.impersonate, [IMPERSONATED]);
  await rpc(url, kind.setBalance, [IMPERSONATED, hex(10n ** 20n)]);
  const deploy = await rpc<string>(url, 'eth_sendTransaction', [{ from: DEV[0], data: INITCODE, gas: GAS, ...FEE }]);
  const setup = await mine(node);
  const contract = (await rpc<Receipt>(url, 'eth_getTransactionReceipt', [deploy])).contractAddress!;
  const slot = `0x${IMPERSONATED.slice(2).padStart(64, '0')}`;
  const sends = [
    { from: DEV[0], to: contract, value: '0x1', ...FEE },
    { from: IMPERSONATED, to: contract, value: '0x2', data: '0x01', ...FEE },
    { from: IMPERSONATED, to: contract, value: '0x3', gasPrice: GAS_PRICE },
    { from: IMPERSONATED, to: contract, value: '0x4', gasPrice: GAS_PRICE, accessList: [{ address: contract, storageKeys: [slot] }] },
    { from: IMPERSONATED, to: contract, data: '0xff', ...FEE },
    { from: IMPERSONATED, data: INITCODE, ...FEE },
    { from: DEV[1], to: contract, value: '0x5', ...FEE },
  ];
  const nonces = new Map<string, number>();
  for (const send of sends) {
    const nonce = nonces.get(send.from) ?? Number(await rpc<string>(url, 'eth_getTransactionCount', [send.from, 'latest']));
    nonces.set(send.from, nonce + 1);
    await rpc(url, 'eth_sendTransaction', [{ ...send, gas: GAS, nonce: hex(nonce) }]);
  }
  const mixed = await mine(node);
  const block = await rpc<{ transactions: Tx[] }>(url, 'eth_getBlockByNumber', [hex(mixed), true]);
  const receipts = await Promise.all(block.transactions.map((tx) => rpc<Receipt>(url, 'eth_getTransactionReceipt', [tx.hash])));
  return { setup, mixed, contract, txs: block.transactions, receipts };
}

/** The requests compared between upstream mode and the capture's replay. */
function traceRequests(s: Scenario): string[] {
  const b = hex(s.mixed);
  const impersonated = s.txs.filter((t) => t.from === IMPERSONATED).map((t) => t.hash);
  return [
    body('debug_traceBlockByNumber', [b, { tracer: 'callTracer', tracerConfig: { withLog: true } }]),
    body('debug_traceBlockByNumber', [b, { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }]),
    body('trace_block', [b]),
    body('debug_traceBlockByNumber', [b, { tracer: 'callTracer' }]),
    body('debug_traceBlockByNumber', [hex(s.setup), { tracer: 'callTracer' }]),
    body('trace_block', [hex(s.setup)]),
    ...impersonated.flatMap((hash) => [body('debug_traceTransaction', [hash, { tracer: 'callTracer' }]), body('trace_transaction', [hash])]),
  ];
}

function answers(stdout: string): { result?: unknown; error?: { message: string } }[] {
  return stdout.trimEnd().split('\n').map((line) => JSON.parse(line));
}

interface StructLogs { gas: number; failed: boolean; structLogs: { pc: number; op: string; gas: number; gasCost: number; depth: number; stack?: string[] }[] }
const steps = (t: StructLogs): unknown[] => t.structLogs.map((l) => [l.pc, l.op, l.gas, l.gasCost, l.depth, (l.stack ?? []).map((w) => BigInt(w.startsWith('0x') ? w : `0x${w}`))]);

async function rpcAnswer(url: string, request: string): Promise<{ result?: unknown; error?: { message: string } }> {
  return (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: request })).json() as Promise<{ result?: unknown; error?: { message: string } }>;
}

const frameLogs = (f: Frame): Log[] => [...(f.logs ?? []), ...(f.calls ?? []).flatMap(frameLogs)];
const plainLog = (l: Log): Log => ({ address: l.address.toLowerCase(), topics: l.topics, data: l.data });

for (const kind of KINDS) {
  describe(`impersonated transactions on ${kind.name}`, () => {
    let node: DevNode;
    let s: Scenario;
    let upstream: string;
    let capture: string;

    beforeAll(async () => {
      node = await kind.start();
      s = await buildScenario(kind, node);
      const requests = traceRequests(s);
      const run = await runHarness(['--upstream', node.url], requests.join('\n'));
      expect(run.stderr).toBe('');
      upstream = run.stdout;
      capture = join(mkdtempSync(join(tmpdir(), 'blocktrace-impersonated-')), 'capture.json');
    }, SLOW);

    afterAll(async () => {
      await node?.stop();
    }, SLOW);

    test('the node mined them in one block with the signed ones, with a signature that does not give their sender', () => {
      expect(s.txs.length).toBe(7);
      expect(s.txs.filter((t) => t.from === IMPERSONATED).length).toBe(5);
      // the call with 0xff reverts, every other one succeeds
      expect(s.receipts.map((r) => r.status)).toEqual(s.txs.map((t) => (t.input === '0xff' ? '0x0' : '0x1')));
      for (const tx of s.txs.filter((t) => t.from === IMPERSONATED)) {
        // anvil: an empty signature (r = s = 0); Hardhat: r = s = the sender's address, v = 0x1c in a typed transaction
        if (kind.name === 'anvil') expect([tx.r, tx.s]).toEqual(['0x0', '0x0']);
        else {
          expect([tx.r, tx.s]).toEqual([IMPERSONATED, IMPERSONATED]);
          if (tx.type !== '0x0') expect(tx.v).toBe('0x1c');
        }
      }
    });

    test('upstream mode: callTracer, prestate diff mode and trace_block name the node\'s sender and hash and agree with its receipts', () => {
      const [calls, diffs, flat] = answers(upstream) as [{ result: { txHash: string; result: Frame }[] }, { result: { txHash: string; result: { pre: Record<string, { nonce?: number; storage?: Record<string, string> }>; post: Record<string, { nonce?: number; storage?: Record<string, string> }> } }[] }, { result: { action: { from: string }; result?: { address?: string }; error?: string; transactionHash: string; transactionPosition: number; traceAddress: number[] }[] }];
      expect(calls.result.length).toBe(s.txs.length);
      s.receipts.forEach((receipt, i) => {
        const call = calls.result[i]!;
        expect(call.txHash).toBe(receipt.transactionHash);
        expect(call.result.from).toBe(receipt.from);
        expect(call.result.gasUsed).toBe(receipt.gasUsed);
        expect(call.result.error !== undefined).toBe(receipt.status === '0x0');
        expect(frameLogs(call.result).map(plainLog)).toEqual(receipt.logs.map(plainLog));
        if (receipt.contractAddress !== null) expect(call.result.to).toBe(receipt.contractAddress);

        const diff = diffs.result[i]!;
        expect(diff.txHash).toBe(receipt.transactionHash);
        expect(diff.result.pre[receipt.from]).toBeDefined();
        expect(diff.result.post[receipt.from]!.nonce).toBe((diff.result.pre[receipt.from]!.nonce ?? 0) + 1);
        // the contract keeps the block number under the sender's slot: a sender's first call writes it
        const slot = `0x${receipt.from.slice(2).padStart(64, '0')}`;
        const first = s.receipts.findIndex((r) => r.from === receipt.from && r.to === s.contract && r.status === '0x1') === i;
        if (first) expect(diff.result.post[s.contract]!.storage![slot]).toBe(`0x${hex(s.mixed).slice(2).padStart(64, '0')}`);

        const top = flat.result.filter((t) => t.transactionPosition === i && t.traceAddress.length === 0);
        expect(top.length).toBe(1);
        expect(top[0]!.action.from).toBe(receipt.from);
        expect(top[0]!.transactionHash).toBe(receipt.transactionHash);
        expect(top[0]!.error !== undefined).toBe(receipt.status === '0x0');
        if (receipt.contractAddress !== null) expect(top[0]!.result!.address).toBe(receipt.contractAddress);
      });
      // by hash: each impersonated transaction's own trace is its entry in the block's
      const byHash = answers(upstream).slice(6);
      const plainCalls = answers(upstream)[3] as { result: { txHash: string; result: Frame }[] };
      const impersonated = s.txs.filter((t) => t.from === IMPERSONATED);
      impersonated.forEach((tx, j) => {
        expect(byHash[2 * j]!.result).toEqual(plainCalls.result.find((c) => c.txHash === tx.hash)!.result);
        expect((byHash[2 * j + 1]!.result as { transactionHash: string }[]).every((t) => t.transactionHash === tx.hash)).toBe(true);
      });
    });

    test('serve --upstream over HTTP: each transaction by hash gives the bytes of the harness face', async () => {
      const child = spawnChild('blocktrace serve', [BUN, CLI, 'serve', '--upstream', node.url, '--host', '127.0.0.1', '--port', '0'], ROOT);
      try {
        const url = (await child.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+\/)/, 30_000))[1]!;
        const requests = s.txs.map((tx) => body('debug_traceTransaction', [tx.hash, { tracer: 'callTracer', tracerConfig: { withLog: true } }]));
        const viaHarness = answers((await runHarness(['--upstream', node.url], requests.join('\n'))).stdout);
        const blockEntries = (answers(upstream)[0] as { result: { result: Frame }[] }).result;
        for (const [i, request] of requests.entries()) {
          const text = await (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: request })).text();
          expect(JSON.parse(text)).toEqual(viaHarness[i]!);
          expect(JSON.parse(text).result).toEqual(blockEntries[i]!.result);
        }
      } finally {
        await child.stop();
      }
    }, SLOW);

    test('capture names exactly the impersonated transactions; --replay-file answers the bytes of upstream mode and the node\'s receipts', async () => {
      const run = await runHarness(['capture', '--rpc', node.url, '--block', String(s.setup), '--to', String(s.mixed), '--out', capture]);
      expect(run.stderr).toContain(`captured blocks ${s.setup}..${s.mixed}`);
      expect(run.code).toBe(0);
      const fixture = JSON.parse(readFileSync(capture, 'utf8'));
      expect(fixture.impersonated).toEqual(
        s.txs.flatMap((tx, i) => (tx.from === IMPERSONATED ? [{ blockNumber: hex(s.mixed), transactionIndex: hex(i), from: IMPERSONATED, hash: tx.hash }] : [])),
      );
      const requests = traceRequests(s);
      const replayed = await runHarness(['--replay-file', capture], requests.join('\n'));
      expect(replayed.stderr).toBe('');
      expect(replayed.stdout).toBe(upstream);

      // the replay's own receipts and transactions: the node's
      const reads = s.txs.flatMap((tx) => [body('eth_getTransactionReceipt', [tx.hash]), body('eth_getTransactionByHash', [tx.hash])]);
      const got = answers((await runHarness(['--replay-file', capture], reads.join('\n'))).stdout);
      s.receipts.forEach((receipt, i) => {
        const ours = got[2 * i]!.result as Receipt;
        for (const key of ['transactionHash', 'from', 'to', 'status', 'gasUsed', 'contractAddress'] as const) expect(ours[key]).toEqual(receipt[key]);
        expect(ours.logs.map(plainLog)).toEqual(receipt.logs.map(plainLog));
        const tx = got[2 * i + 1]!.result as Tx;
        expect([tx.hash, tx.from]).toEqual([s.txs[i]!.hash, s.txs[i]!.from]);
      });
    }, SLOW);

    if (kind.name === 'hardhat') {
      test('Hardhat refuses callTracer; its own struct logs hold, step for step, the values of ours for signed, impersonated and reverting calls', async () => {
        const calls = s.txs.filter((t) => t.to === s.contract);
        expect((await rpcAnswer(node.url, body('debug_traceTransaction', [calls[0]!.hash, { tracer: 'callTracer' }]))).error?.message).toContain('only supports the default tracer');
        const requests = calls.map((t) => body('debug_traceTransaction', [t.hash]));
        const ours = answers((await runHarness(['--all-tracers', '--upstream', node.url], requests.join('\n'))).stdout);
        for (const [i, request] of requests.entries()) {
          const theirs = (await rpcAnswer(node.url, request)).result as StructLogs;
          const mine = ours[i]!.result as StructLogs;
          // Hardhat's shape is its own (keys sorted, unprefixed stack words, memory and storage at every step)
          expect(steps(mine)).toEqual(steps(theirs));
          expect([mine.gas, mine.failed]).toEqual([theirs.gas, theirs.failed]);
        }
        expect(ours.filter((a) => (a.result as StructLogs).failed).length).toBe(1);
      }, SLOW);
    }

    test('show: the same tree upstream and from the capture, every transaction under its own hash', async () => {
      const upstreamShow = await runHarness(['show', '--upstream', node.url, String(s.mixed)]);
      expect(upstreamShow.stderr).toBe('');
      expect(upstreamShow.code).toBe(0);
      const offline = await runHarness(['show', capture, String(s.mixed)]);
      expect(offline.code).toBe(0);
      expect(offline.stdout).toBe(upstreamShow.stdout);
      for (const tx of s.txs) expect(upstreamShow.stdout).toContain(tx.hash);
      expect(upstreamShow.stdout.match(/reverted/g)?.length).toBe(1);
      const one = s.txs.find((t) => t.from === IMPERSONATED)!.hash;
      const [txUpstream, txOffline] = await Promise.all([
        runHarness(['show', '--upstream', node.url, one]),
        runHarness(['show', capture, one]),
      ]);
      expect(txUpstream.code).toBe(0);
      expect(txOffline.stdout).toBe(txUpstream.stdout);
    }, SLOW);
  });
}

describe('a capture\'s "impersonated"', () => {
  const capture = (impersonated: unknown): Record<string, unknown> => twoBlockCapture({ impersonated });
  const entry = { blockNumber: '0x5', transactionIndex: '0x1', from: IMPERSONATED, hash: `0x${'ab'.repeat(32)}` };

  test('by block index (from the block after parentHeader), then transaction index', () => {
    const spec = fromCapture('c.json', capture([entry, { ...entry, blockNumber: '0x6', transactionIndex: '0x0' }]));
    expect([...spec.sentAs!.keys()]).toEqual([0, 1]);
    expect(spec.sentAs!.get(0)!.get(1)!.from).toEqual(Buffer.from(IMPERSONATED.slice(2), 'hex'));
    expect(fromCapture('c.json', capture(undefined)).sentAs).toBeUndefined();
  });

  test.each([
    ['not an array', {}, '"impersonated" must be an array'],
    ['a block before the capture', [{ ...entry, blockNumber: '0x4' }], 'impersonated[0].blockNumber 0x4 is not a block of the capture'],
    ['a block after it', [{ ...entry, blockNumber: '0x7' }], 'impersonated[0].blockNumber 0x7 is not a block of the capture'],
    ['a short sender', [{ ...entry, from: '0x1111' }], 'impersonated[0].from must be 20 bytes of 0x hex'],
    ['a decimal index', [{ ...entry, transactionIndex: '1' }], 'impersonated[0].transactionIndex must be a hex quantity'],
    ['one transaction twice', [entry, entry], 'impersonated[1] names transaction 0x1 of block 0x5 again'],
  ])('refused: %s', (_, value, message) => {
    expect(() => fromCapture('c.json', capture(value))).toThrow(FixtureError);
    expect(() => fromCapture('c.json', capture(value))).toThrow(`c.json: ${message}`);
  });
});
