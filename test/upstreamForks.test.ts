// Upstream mode and capture with no genesis file beside nodes that publish none: Hardhat 2 with its
// default hardfork (Osaka), with cancun, shanghai and berlin (the forks come from its headers and
// eth_call probes), and anvil with --hardfork (its anvil_nodeInfo). Each node mines a contract that
// calls another whose code uses an opcode of the node's fork (CLZ, TSTORE/TLOAD, PUSH0): a fork
// guessed too old fails that call, and the replay's check against the node's header says so in one
// line (shown with a --genesis that stops at Prague beside the Osaka node). Every step's gas is
// Hardhat's own (its struct logger). Everything runs through the real CLI: serve over HTTP, the
// harness face, capture and --replay-file. Last, an anvil restarted on the same port: /health and
// the summary follow it, the old chain's traces go, one line says so.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Child, spawnChild } from '../bench/procs.ts';
import { upstreamGenesis } from '../src/upstream/chainConfig.ts';
import { UpstreamClient } from '../src/upstream/client.ts';
import { configUpTo } from '../src/upstream/forkSchedule.ts';
import { BUN, CLI, ROOT, runHarness } from './faces.ts';
import { rpc } from './helpers/anvil.ts';
import { type ForkNode, startAnvilNode, startHardhatNode } from './helpers/forkNodes.ts';

/** Per test and hook: nodes, subprocesses and replays on a loaded 2-core machine. */
const SLOW = 120_000;
/** The nodes' first dev account (mnemonic "test test … junk"), unlocked: it signs. */
const DEV = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const GAS = '0x30000';
const body = (method: string, params: unknown[], id: unknown = 1): string => JSON.stringify({ jsonrpc: '2.0', id, method, params });
const word = (n: bigint): string => `0x${n.toString(16).padStart(64, '0')}`;
const X = 0x100n;

/**
 * The callee: SSTORE(0, x) and LOG0(x) for the calldata word x, then `transform` (x → y on the
 * stack), then RETURN y.
 */
const callee = (transform: string): string => ['6000', '35', '80', '6000', '55', '80', '6000', '52', '6020', '6000', 'a0', transform, '6000', '52', '6020', '6000', 'f3'].join('');
/** The caller: CALL(gas, callee, 0, its calldata) and RETURN the callee's answer word. */
const caller = (address: string): string => ['36', '6000', '6000', '37', '6020', '6000', '36', '6000', '6000', `73${address.slice(2)}`, '5a', 'f1', '50', '6020', '6000', 'f3'].join('');
/** PUSH1 len DUP1 PUSH1 11 PUSH1 0 CODECOPY PUSH1 0 RETURN, then the runtime. */
const initcode = (runtime: string): string => `0x60${(runtime.length / 2).toString(16).padStart(2, '0')}80600b6000396000f3${runtime}`;

interface Case {
  readonly name: string;
  start(): Promise<ForkNode>;
  /** The callee's use of the fork: its code, and what it makes of x. */
  readonly transform: string;
  readonly result: (x: bigint) => bigint;
  /** What the fork schedule rests on, as the summary and the messages say it. */
  readonly forks: string;
  /** The last fork's config key, and the next one's (absent). */
  readonly lastKey: string;
  readonly nextKey: string;
}

const CLZ = { transform: '1e', result: (x: bigint) => 256n - BigInt(x.toString(2).length) };
const TRANSIENT = { transform: '8060005d60005c01', result: (x: bigint) => 2n * x }; // TSTORE(0, x), TLOAD(0), ADD
const PUSH0 = { transform: '5f01', result: (x: bigint) => x }; // PUSH0, ADD

const CASES: readonly Case[] = [
  { name: 'Hardhat 2, its default hardfork', start: () => startHardhatNode(undefined), ...CLZ, forks: 'osaka from genesis, inferred from the headers (prague fields), eth_call: CLZ (EIP-7939)', lastKey: 'osakaTime', nextKey: 'bpo1Time' },
  { name: 'Hardhat 2, hardfork cancun', start: () => startHardhatNode('cancun'), ...TRANSIENT, forks: 'cancun from genesis, inferred from the headers (cancun fields)', lastKey: 'cancunTime', nextKey: 'pragueTime' },
  { name: 'Hardhat 2, hardfork shanghai', start: () => startHardhatNode('shanghai'), ...PUSH0, forks: 'shanghai from genesis, inferred from the headers (shanghai fields)', lastKey: 'shanghaiTime', nextKey: 'cancunTime' },
  // before London no header field tells: the probes do (gas costs of Berlin's cold SLOAD)
  { name: 'Hardhat 2, hardfork berlin', start: () => startHardhatNode('berlin'), transform: '', result: (x: bigint) => x, forks: 'berlin from genesis, inferred from eth_call: a cold SLOAD costs 2,100 (EIP-2929)', lastKey: 'berlinBlock', nextKey: 'londonBlock' },
  { name: 'anvil --hardfork cancun', start: () => startAnvilNode(['--hardfork', 'cancun']), ...TRANSIENT, forks: 'Cancun from genesis (anvil_nodeInfo)', lastKey: 'cancunTime', nextKey: 'pragueTime' },
  { name: 'anvil --hardfork osaka', start: () => startAnvilNode(['--hardfork', 'osaka']), ...CLZ, forks: 'Osaka from genesis (anvil_nodeInfo)', lastKey: 'osakaTime', nextKey: 'bpo1Time' },
];

interface Receipt { transactionHash: string; blockNumber: string; status: string; gasUsed: string; contractAddress: string | null }
interface Frame { from: string; to: string; gas: string; gasUsed: string; input: string; output?: string; error?: string; calls?: Frame[]; type: string; value: string }
interface StructLogs { gas: number; failed: boolean; structLogs: { pc: number; op: string; gas: number; gasCost: number; depth: number }[] }

/** Sends from the dev account (the node mines it at once) and waits for its receipt. */
async function send(url: string, tx: Record<string, string>): Promise<Receipt> {
  const hash = await rpc<string>(url, 'eth_sendTransaction', [{ from: DEV, gas: GAS, ...tx }]);
  for (let i = 0; ; i++) {
    const receipt = await rpc<Receipt | null>(url, 'eth_getTransactionReceipt', [hash]);
    if (receipt !== null) return receipt;
    if (i > 200) throw new Error(`no receipt for ${hash}`);
    await Bun.sleep(50);
  }
}

/** Blocks 1 and 2 deploy the callee and the caller, block 3 calls the caller with x. */
async function mine(url: string, transform: string): Promise<{ callee: string; caller: string; call: Receipt }> {
  const b = await send(url, { data: initcode(callee(transform)) });
  const a = await send(url, { data: initcode(caller(b.contractAddress!)) });
  const call = await send(url, { to: a.contractAddress!, data: word(X) });
  for (const r of [b, a, call]) expect(r.status).toBe('0x1');
  expect(call.blockNumber).toBe('0x3');
  return { callee: b.contractAddress!, caller: a.contractAddress!, call };
}

async function post(url: string, request: string): Promise<string> {
  return (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: request })).text();
}

/** `blocktrace serve --upstream URL` on a free port; its URL once it listens. */
async function serve(upstream: string, ...args: string[]): Promise<{ child: Child; url: string }> {
  const child = spawnChild('blocktrace serve', [BUN, CLI, 'serve', '--upstream', upstream, '--host', '127.0.0.1', '--port', '0', ...args], ROOT);
  const url = (await child.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)\//, 30_000))[1]!;
  return { child, url };
}

/** The steps of a struct log as every client gives them (the stack and memory formats differ). */
const steps = (log: StructLogs) => ({ gas: log.gas, failed: log.failed, steps: log.structLogs.map(({ pc, op, gas, gasCost, depth }) => ({ pc, op, gas, gasCost, depth })) });

for (const c of CASES) {
  describe(`${c.name}, no --genesis`, () => {
    let node: ForkNode;
    let chain: Awaited<ReturnType<typeof mine>>;
    let blockTrace = '';
    const dir = mkdtempSync(join(tmpdir(), 'blocktrace-forks-'));

    beforeAll(async () => {
      node = await c.start();
      chain = await mine(node.url, c.transform);
    }, SLOW);
    afterAll(async () => {
      await node?.stop();
    }, SLOW);

    test(`the forks: ${c.forks}`, async () => {
      const { genesis, source } = await upstreamGenesis(new UpstreamClient(node.url), 31337n, undefined);
      expect(source).toBe(c.forks);
      expect(genesis.config[c.lastKey]).toBe(0);
      expect(genesis.config[c.nextKey]).toBeUndefined();
    }, SLOW);

    test('serve --upstream: the summary names the forks; /health the head; callTracer and the struct logger agree with the node', async () => {
      const { child, url } = await serve(node.url, '--all-tracers');
      try {
        const summary = (await child.waitFor(/chain upstream .*\n/, 30_000))[0];
        expect(summary).toBe(`chain upstream ${node.url}: chainId 31337, head 3 (blocks and state fetched on demand); forks: ${c.forks}\n`);
        expect(await (await fetch(`${url}/health`)).text()).toBe('{"status":"ready","head":"0x3"}\n');

        const tx = chain.call.transactionHash;
        const frame = JSON.parse(await post(url, body('debug_traceTransaction', [tx, { tracer: 'callTracer' }]))).result as Frame;
        const y = word(c.result(X));
        expect(frame).toEqual({
          from: DEV, gas: GAS, gasUsed: chain.call.gasUsed, to: chain.caller, input: word(X), output: y, value: '0x0', type: 'CALL',
          calls: [{ from: chain.caller, gas: expect.any(String), gasUsed: expect.any(String), to: chain.callee, input: word(X), output: y, value: '0x0', type: 'CALL' }],
        });
        const own = JSON.parse(await post(node.url, body('debug_traceTransaction', [tx, { tracer: 'callTracer' }])));
        if (c.name.startsWith('Hardhat')) {
          // Hardhat 2 has the struct logger alone
          expect(own.error.message).toStartWith('Hardhat currently only supports the default tracer');
        } else {
          // anvil's top frame counts the gas after the intrinsic gas (docs/methods.md); the rest is ours
          expect({ ...own.result, gas: GAS }).toEqual(frame);
        }
        blockTrace = await post(url, body('debug_traceBlockByNumber', ['0x3', { tracer: 'callTracer' }]));
        expect(JSON.parse(blockTrace).result).toEqual([{ txHash: tx, result: frame }]);

        // every step's gas and cost as the node ran it (the fork's gas schedule at work), where it says
        const ours = JSON.parse(await post(url, body('debug_traceTransaction', [tx]))).result as StructLogs;
        const theirs = JSON.parse(await post(node.url, body('debug_traceTransaction', [tx]))).result as StructLogs;
        expect(ours.structLogs.length).toBeGreaterThan(25);
        if (c.name.startsWith('Hardhat')) {
          expect(steps(ours)).toEqual(steps(theirs));
        } else {
          // anvil 1.7.1's struct logger gives the totals and no steps
          expect(theirs.structLogs).toEqual([]);
          expect({ gas: ours.gas, failed: ours.failed }).toEqual({ gas: theirs.gas, failed: theirs.failed });
        }
      } finally {
        await child.stop();
      }
    }, SLOW);

    test('capture, no --genesis: blocks 1..3 replay offline to the bytes serve gave', async () => {
      const out = join(dir, 'capture.json');
      const run = await runHarness(['capture', '--rpc', node.url, '--block', '1', '--to', '3', '--out', out]);
      expect(run.stderr).toContain('captured blocks 1..3');
      expect(run.code).toBe(0);
      const replayed = await runHarness(['--replay-file', out], body('debug_traceBlockByNumber', ['0x3', { tracer: 'callTracer' }]));
      expect(replayed.stdout).toBe(`${blockTrace}\n`);
    }, SLOW);

    if (c.forks.startsWith('osaka from genesis, inferred')) {
      test('a wrong fork (a --genesis that stops at Prague): one line naming the block, the gas and the forks used', async () => {
        const genesis = join(dir, 'prague.json');
        writeFileSync(genesis, JSON.stringify({ config: configUpTo(31337n, 'prague'), alloc: {} }));
        const traced = await runHarness(['--upstream', node.url, '--genesis', genesis], body('trace_block', ['0x3']));
        expect(traced.code).toBe(0);
        const error = JSON.parse(traced.stdout).error;
        expect(error.code).toBe(-32000);
        expect(error.message).toMatch(
          new RegExp(`^upstream ${node.url}: block 3 replayed here disagrees with the node \\(gasUsed \\d+ here, ${BigInt(chain.call.gasUsed)} in the header\\): the fork rules used \\(from --genesis ${genesis}\\) are not the node's\\? check that file$`),
        );
        // blocks that do not reach for Osaka's rules replay as the node ran them
        expect(JSON.parse((await runHarness(['--upstream', node.url, '--genesis', genesis], body('trace_block', ['0x2']))).stdout).result).toHaveLength(1);

        const out = join(dir, 'wrong.json');
        const captured = await runHarness(['capture', '--rpc', node.url, '--genesis', genesis, '--block', '3', '--out', out]);
        expect(captured.code).toBe(2);
        expect(captured.stderr.trimEnd().split('\n')).toHaveLength(1);
        expect(captured.stderr).toMatch(/^blocktrace: capture failed: .*block 3 .*mismatch: expected .*; the fork rules used \(from --genesis .*\) are not the node's\? check that file\n$/);
      }, SLOW);
    }
  });
}

describe('an upstream restarted on the same port', () => {
  let node: ForkNode | undefined;
  afterAll(async () => {
    await node?.stop();
  }, SLOW);

  test('/health and the summary follow its head; after the restart, one line, and the old chain\'s traces are gone', async () => {
    node = await startAnvilNode([]);
    await rpc(node.url, 'anvil_mine', ['0x10']);
    const { child, url } = await serve(node.url);
    try {
      expect(await child.waitFor(/chain upstream .*head 16 .*\n/, 30_000)).toBeDefined();
      const health = async (): Promise<string> => JSON.parse(await (await fetch(`${url}/health`)).text()).head;
      expect(await health()).toBe('0x10');
      const before = JSON.parse(await post(url, body('debug_traceBlockByNumber', ['0x1', { tracer: 'prestateTracer' }])));
      expect(before.result).toEqual([]);
      const oldOne = await rpc<{ hash: string }>(node.url, 'eth_getBlockByNumber', ['0x1', false]);

      // the head moves: /health follows within the poll
      await rpc(node.url, 'evm_mine');
      const waitFor = async (head: string): Promise<void> => {
        for (let i = 0; (await health()) !== head; i++) {
          if (i > 100) throw new Error(`/health did not reach ${head}: ${await health()}`);
          await Bun.sleep(100);
        }
      };
      await waitFor('0x11');

      // another anvil on the same port, with another block 1
      await node.stop();
      node = await startAnvilNode([], node.port);
      const fresh = await send(node.url, { to: '0x00000000000000000000000000000000000feed1', value: '0x1' });
      expect(fresh.blockNumber).toBe('0x1');
      await waitFor('0x1');
      const newOne = await rpc<{ hash: string }>(node.url, 'eth_getBlockByNumber', ['0x1', false]);
      expect(newOne.hash).not.toBe(oldOne.hash);

      // one line says so, with the chain's summary
      const line = (await child.waitFor(/blocktrace: upstream \S+ restarted .*\n/, 10_000))[0];
      expect(line).toMatch(new RegExp(`^blocktrace: upstream ${node.url} restarted \\(head 17 → [01], genesis 0x[0-9a-f]{8}… → 0x[0-9a-f]{8}…\\): the old chain's blocks and traces are dropped; chain upstream ${node.url}: chainId 31337, head [01] \\(blocks and state fetched on demand\\); forks: \\S+ from genesis \\(anvil_nodeInfo\\)\\n$`));
      expect(child.output().match(/restarted/g)).toHaveLength(1);

      // block 1 is the new chain's: its transfer, under its hash
      const after = JSON.parse(await post(url, body('trace_block', ['0x1'])));
      expect(after.result.map((t: { blockHash: string }) => t.blockHash)).toEqual([newOne.hash]);
      expect(after.result[0].transactionHash).toBe(fresh.transactionHash);
      expect(JSON.parse(await post(url, body('debug_traceBlockByNumber', ['0x1', { tracer: 'prestateTracer' }]))).result).toHaveLength(1);
    } finally {
      await child.stop();
    }
  }, SLOW);
});
