// Captures across state edits (issue 39) on a real anvil and a real Hardhat 2 node. Between captured
// blocks the node's own cheatcodes change a balance, a storage slot, a nonce and a contract's code,
// each of an account or slot the next block reads (one account the capture had not touched before,
// one emptied). The nodes show such an edit in their state at the block before it (eth_getProof,
// eth_getStorageAt at N after an edit made between N and N+1), so upstream mode traces the next
// block right; a capture must record the edits ("stateEdits") for its replay to do the same. Through
// the real CLI: `capture`, then `--replay-file`, whose callTracer, prestate diff mode and trace_block
// of every captured block are upstream mode's bytes; without its edits the capture does not load; a
// capture with no edit in its range has no such member.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FixtureError } from '../src/errors/fixtureError.ts';
import { fromCapture } from '../src/fixture/captured.ts';
import { FixtureChain } from '../src/replay/chain.ts';
import { runHarness } from './faces.ts';
import { rpc } from './helpers/anvil.ts';
import { type DevNode, startDevAnvil, startHardhat } from './helpers/devNodes.ts';
import { twoBlockCapture } from './helpers/captureJson.ts';

/** Per test and hook: two nodes, subprocesses and replays on a loaded 2-core machine. */
const SLOW = 120_000;
/** The nodes' first four dev accounts (mnemonic "test test … junk"), unlocked: they sign. */
const DEV = ['0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266', '0x70997970c51812dc3a010c7d01b50e0d17dc79c8', '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc', '0x90f79bf6eb2c4f870365e785982e1f101e93b906'];
/** The callee whose code is set before the capture and changed within it. */
const CALLEE = '0x3333333333333333333333333333333333333333';
/** An account given ether before the capture and emptied within it (an empty account is no account). */
const EMPTIED = '0x4444444444444444444444444444444444444444';
const TOPIC = `0x${'ed'.repeat(32)}`;
/** The callee's code: return one word, 0x11; after the edit, 0x22. */
const returning = (word: string): string => `0x60${word}60005260206000f3`;
/**
 * The contract every call goes to: v = SLOAD(0), SSTORE(0, v + 1), then LOG1(v, the callee's word,
 * BALANCE(CALLER); TOPIC). Each edit shows in the log: a stale slot, code or balance in a replay
 * changes the receipts.
 */
const RUNTIME = [
  '6000', '54', '80', '6001', '01', '6000', '55', '6000', '52',
  '6020', '6020', '6000', '6000', '6000', `73${CALLEE.slice(2)}`, '5a', 'f1', '50',
  '33', '31', '6040', '52',
  `7f${TOPIC.slice(2)}`, '6060', '6000', 'a1', '00',
].join('');
/** PUSH1 len DUP1 PUSH1 11 PUSH1 0 CODECOPY PUSH1 0 RETURN, then the runtime. */
const INITCODE = `0x60${(RUNTIME.length / 2).toString(16)}80600b6000396000f3${RUNTIME}`;
const GAS = '0x40000';
const FEE = { maxFeePerGas: '0xb2d05e00', maxPriorityFeePerGas: '0x3b9aca00' }; // 3 and 1 gwei
const ETHER = 10n ** 18n;
const EDITED_SLOT = `0x${'0'.repeat(61)}100`;
const NONCE_SKIP = 5;

const body = (method: string, params: unknown[], id: unknown = 1): string => JSON.stringify({ jsonrpc: '2.0', id, method, params });
const hex = (n: number | bigint): string => `0x${n.toString(16)}`;
const word = (n: number | bigint): string => `0x${n.toString(16).padStart(64, '0')}`;

interface Receipt { status: string; contractAddress: string | null; logs: { data: string }[] }

/** What a node does, by name: its cheatcodes' prefix, and the arguments naming its fork schedule. */
interface NodeKind {
  readonly name: 'anvil' | 'hardhat';
  start(): Promise<DevNode>;
  readonly prefix: 'anvil' | 'hardhat';
}

const KINDS: readonly NodeKind[] = [
  { name: 'anvil', start: () => startDevAnvil(), prefix: 'anvil' },
  { name: 'hardhat', start: () => startHardhat(), prefix: 'hardhat' },
];


/** The chain each node mines, by block number: `setup` deploys the contract, b[0..4] call it with edits between them. */
interface Scenario {
  readonly setup: number;
  readonly b: readonly number[];
  readonly contract: string;
  /** The nonce DEV[2] was given between b[1] and b[2]. */
  readonly skippedNonce: number;
  /** Each captured block's receipts, as the node gives them. */
  readonly receipts: ReadonlyMap<number, readonly Receipt[]>;
}

async function buildScenario(kind: NodeKind, node: DevNode): Promise<Scenario> {
  const { url } = node;
  const edit = (what: string, params: unknown[]): Promise<unknown> => rpc(url, `${kind.prefix}_${what}`, params);
  const nonces = new Map<string, number>();
  const send = async (from: string, tx: Record<string, unknown>): Promise<string> => {
    const nonce = nonces.get(from) ?? Number(await rpc<string>(url, 'eth_getTransactionCount', [from, 'latest']));
    nonces.set(from, nonce + 1);
    return rpc<string>(url, 'eth_sendTransaction', [{ from, gas: GAS, ...FEE, ...tx, nonce: hex(nonce) }]);
  };
  const mine = async (): Promise<number> => {
    await rpc(url, 'evm_mine', []);
    return Number(await rpc<string>(url, 'eth_blockNumber', []));
  };
  if (kind.name === 'hardhat') await rpc(url, 'evm_setAutomine', [false]);
  await edit('setCode', [CALLEE, returning('11')]);
  await edit('setBalance', [EMPTIED, hex(ETHER)]);
  const deploy = await send(DEV[0]!, { data: INITCODE });
  const setup = await mine();
  const contract = (await rpc<Receipt>(url, 'eth_getTransactionReceipt', [deploy])).contractAddress!;
  const call = (from: string): Promise<string> => send(from, { to: contract });
  const b: number[] = [];

  await call(DEV[1]!);
  await call(DEV[2]!);
  await send(DEV[0]!, { to: EMPTIED, value: '0x1' });
  b.push(await mine());
  // DEV[1], the contract's slot 0 and EMPTIED, all touched by b[0], edited before b[1] reads them again
  await edit('setBalance', [DEV[1], hex(5n * ETHER)]);
  await edit('setStorageAt', [contract, '0x0', EDITED_SLOT]);
  await edit('setBalance', [EMPTIED, '0x0']);
  await call(DEV[1]!);
  await send(DEV[0]!, { to: EMPTIED, value: '0x1' });
  b.push(await mine());
  // DEV[2] sent in b[0]; its next transaction takes the nonce the edit gave it
  const skippedNonce = nonces.get(DEV[2]!)! + NONCE_SKIP;
  await edit('setNonce', [DEV[2], hex(skippedNonce)]);
  nonces.set(DEV[2]!, skippedNonce);
  // DEV[1] sent in b[1]; the next block it is read by is b[4]
  await edit('setBalance', [DEV[1], hex(3n * ETHER)]);
  await call(DEV[2]!);
  b.push(await mine());
  // the callee's code (called by every block so far); DEV[3], which no block touched before
  await edit('setCode', [CALLEE, returning('22')]);
  await edit('setBalance', [DEV[3], hex(7n * ETHER)]);
  await call(DEV[3]!);
  b.push(await mine());
  // no edit between b[3] and b[4]
  await call(DEV[0]!);
  await call(DEV[1]!);
  b.push(await mine());

  const receipts = new Map<number, Receipt[]>();
  for (const n of [setup, ...b]) {
    const block = await rpc<{ transactions: string[] }>(url, 'eth_getBlockByNumber', [hex(n), false]);
    receipts.set(n, await Promise.all(block.transactions.map((h) => rpc<Receipt>(url, 'eth_getTransactionReceipt', [h]))));
  }
  return { setup, b, contract, skippedNonce, receipts };
}

/** callTracer (with logs), prestate diff mode and trace_block of each block `from`..`to`. */
function traceRequests(from: number, to: number): string[] {
  const out: string[] = [];
  for (let n = from; n <= to; n++) {
    out.push(
      body('debug_traceBlockByNumber', [hex(n), { tracer: 'callTracer', tracerConfig: { withLog: true } }]),
      body('debug_traceBlockByNumber', [hex(n), { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }]),
      body('trace_block', [hex(n)]),
    );
  }
  return out;
}

/** The three words each call logs: the slot before the call, the callee's word, the caller's balance. */
function logged(r: Receipt): bigint[] {
  const data = r.logs[0]!.data.slice(2);
  return [0, 1, 2].map((i) => BigInt(`0x${data.slice(64 * i, 64 * i + 64)}`));
}

for (const kind of KINDS) {
  describe(`a capture across state edits on ${kind.name}`, () => {
    let node: DevNode;
    let s: Scenario;
    let dir: string;
    let capture: string;

    beforeAll(async () => {
      node = await kind.start();
      s = await buildScenario(kind, node);
      dir = mkdtempSync(join(tmpdir(), 'blocktrace-capture-edits-'));
      capture = join(dir, 'capture.json');
    }, SLOW);

    afterAll(async () => {
      await node?.stop();
    }, SLOW);

    test('the node ran each block on the edited state (its own receipts show every edit)', () => {
      const [b0, b1, b2, b3, b4] = s.b.map((n) => s.receipts.get(n)!);
      for (const receipts of [b0, b1, b2, b3, b4]) for (const r of receipts!) expect(r.status).toBe('0x1');
      expect(b0!.slice(0, 2).map((r) => logged(r)[0])).toEqual([0n, 1n]);
      // the slot as edited, and DEV[1]'s balance from the edited 5 ether
      expect(logged(b1![0]!)[0]).toBe(0x100n);
      expect(logged(b1![0]!)[2]).toBeLessThan(5n * ETHER);
      expect(logged(b1![0]!)[2]).toBeGreaterThan(4n * ETHER);
      // the callee's edited code, and DEV[3]'s balance from the edited 7 ether
      expect(logged(b2![0]!)[1]).toBe(0x11n);
      expect(logged(b3![0]!)[1]).toBe(0x22n);
      expect(logged(b3![0]!)[2]).toBeLessThan(7n * ETHER);
      expect(logged(b3![0]!)[2]).toBeGreaterThan(6n * ETHER);
      // DEV[1]'s balance from the 3 ether it was given between b[1] and b[2]
      expect(logged(b4![1]!)[2]).toBeLessThan(3n * ETHER);
      expect(logged(b4![1]!)[2]).toBeGreaterThan(2n * ETHER);
    });

    test('capture records the edits; --replay-file answers callTracer, prestate diff mode and trace_block with upstream mode\'s bytes', async () => {
      const run = await runHarness(['capture', '--rpc', node.url, '--block', String(s.setup), '--to', String(s.b[4]), '--out', capture]);
      expect(run.stderr).toMatch(new RegExp(`^blocktrace: captured blocks ${s.setup}\\.\\.${s.b[4]} \\(\\d+ accounts, \\d+ slots; state edited before 4 blocks\\) to `));
      expect(run.code).toBe(0);
      const fixture = JSON.parse(readFileSync(capture, 'utf8'));
      const [, b1, b2, b3, b4] = s.b;
      expect(fixture.stateEdits).toEqual({
        [hex(b1!)]: { [DEV[1]!]: { balance: hex(5n * ETHER) }, [EMPTIED]: { balance: '0x0' }, [s.contract]: { storage: { [word(0)]: EDITED_SLOT } } },
        [hex(b2!)]: { [DEV[2]!]: { nonce: hex(s.skippedNonce) } },
        [hex(b3!)]: { [CALLEE]: { code: returning('22') }, [DEV[3]!]: { balance: hex(7n * ETHER) } },
        // made between b[1] and b[2], recorded before the first block that reads it
        [hex(b4!)]: { [DEV[1]!]: { balance: hex(3n * ETHER) } },
      });

      const requests = traceRequests(s.setup, s.b[4]!).join('\n');
      const [upstream, replayed] = await Promise.all([runHarness(['--upstream', node.url], requests), runHarness(['--replay-file', capture], requests)]);
      expect(upstream.stderr).toBe('');
      expect(replayed.stderr).toBe('');
      expect(replayed.stdout.split('\n').length).toBe(3 * (s.b[4]! - s.setup + 1) + 1);
      expect(replayed.stdout).not.toContain('"error"');
      expect(replayed.stdout).toBe(upstream.stdout);
      // that run kept a replay snapshot (the edited states' roots and nodes among it); this one starts from it
      const again = await runHarness(['--replay-file', capture], requests);
      expect(again.stderr).toBe('');
      expect(again.stdout).toBe(upstream.stdout);
    }, SLOW);

    test('the replay applies the edits before each block: without them the capture does not load', async () => {
      const fixture = JSON.parse(readFileSync(capture, 'utf8'));
      // its own load checks each block's receipts root, logs bloom and gas used against the header
      await FixtureChain.load(fromCapture('with edits', fixture));
      const { stateEdits, ...without } = fixture;
      expect(stateEdits).toBeDefined();
      const error = await FixtureChain.load(fromCapture('without edits', without)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(FixtureError);
      // the first block after an edit: its logs hold the edited slot and balance
      expect((error as Error).message).toMatch(new RegExp(`^without edits: block ${s.b[1]} \\(0x[0-9a-f]{64}\\) receiptsRoot mismatch`));
    }, SLOW);

    test('reads at the block before an edit show it, in the replay as on the node', async () => {
      const [b0, b1, b2] = s.b;
      const reads = [
        body('eth_getBalance', [DEV[1], hex(b0!)]),
        body('eth_getStorageAt', [s.contract, '0x0', hex(b0!)]),
        body('eth_getTransactionCount', [DEV[2], hex(b1!)]),
        body('eth_getCode', [CALLEE, hex(b2!)]),
        body('eth_getBalance', [DEV[3], hex(b2!)]),
        body('eth_getCode', [CALLEE, hex(b1!)]),
        body('eth_getBalance', [EMPTIED, hex(b0!)]),
        body('eth_getBalance', [EMPTIED, hex(b1!)]),
      ];
      const replayed = (await runHarness(['--replay-file', capture], reads.join('\n'))).stdout.trimEnd().split('\n').map((line) => JSON.parse(line).result);
      const fromNode = await Promise.all(reads.map(async (r) => {
        const { method, params } = JSON.parse(r) as { method: string; params: unknown[] };
        return rpc(node.url, method, params);
      }));
      expect(replayed).toEqual(fromNode);
      expect(replayed.slice(0, 5)).toEqual([hex(5n * ETHER), EDITED_SLOT, hex(s.skippedNonce), returning('22'), hex(7n * ETHER)]);
    }, SLOW);

    test('a range with no edit in it: no "stateEdits" member, and edits before its first block are in its prestate', async () => {
      const out = join(dir, 'no-edits.json');
      const run = await runHarness(['capture', '--rpc', node.url, '--block', String(s.b[3]), '--to', String(s.b[4]), '--out', out]);
      expect(run.code).toBe(0);
      expect(run.stderr).toMatch(/ \(\d+ accounts, \d+ slots\) to /);
      const fixture = JSON.parse(readFileSync(out, 'utf8'));
      expect(Object.keys(fixture)).toEqual(['format', 'source', 'config', 'parentHeader', 'prestate', 'ancestorHashes', 'blocks']);
      expect(fixture.prestate[CALLEE].code).toBe(returning('22'));
      expect(fixture.prestate[DEV[3]!].balance).toBe(hex(7n * ETHER));
      const requests = traceRequests(s.b[3]!, s.b[4]!).join('\n');
      const [upstream, replayed] = await Promise.all([runHarness(['--upstream', node.url], requests), runHarness(['--replay-file', out], requests)]);
      expect(replayed.stdout).toBe(upstream.stdout);
    }, SLOW);
  });
}

describe('a capture\'s "stateEdits"', () => {
  const ADDRESS = '0x1111111111111111111111111111111111111111';
  const capture = (stateEdits: unknown): Record<string, unknown> => twoBlockCapture({ stateEdits });

  test('by block index (from the block after parentHeader); each account with the fields given', () => {
    const spec = fromCapture('c.json', capture({ '0x6': { [ADDRESS]: { balance: '0x10', storage: { '0x1': '0x2a', [word(2)]: word(0) } }, [CALLEE]: { nonce: '0x0', code: '0x' } } }));
    const edits = spec.partial!.edits!;
    expect([...edits.keys()]).toEqual([1]);
    const [one, two] = edits.get(1)!;
    expect(one).toEqual({ address: Buffer.from(ADDRESS.slice(2), 'hex'), balance: 16n, storage: [[Buffer.from(word(1).slice(2), 'hex'), Uint8Array.of(0x2a)], [Buffer.from(word(2).slice(2), 'hex'), new Uint8Array()]] } as never);
    expect(two).toEqual({ address: Buffer.from(CALLEE.slice(2), 'hex'), nonce: 0n, code: new Uint8Array(), storage: [] } as never);
    expect(fromCapture('c.json', capture(undefined)).partial!.edits).toBeUndefined();
  });

  test.each([
    ['not an object', [], '"stateEdits" must map block numbers'],
    ['a decimal block number', { '6': {} }, 'stateEdits.6: "6" is not a hex block number'],
    ['the first block', { '0x5': {} }, 'stateEdits.0x5: not a block of the capture after its first'],
    ['a block after the capture', { '0x7': {} }, 'stateEdits.0x7: not a block of the capture after its first'],
    ['a short address', { '0x6': { '0x1111': {} } }, 'stateEdits.0x6.0x1111: not an address'],
    ['an unknown field', { '0x6': { [ADDRESS]: { codeHash: '0x00' } } }, `stateEdits.0x6.${ADDRESS}: unknown field "codeHash"`],
    ['a padded balance', { '0x6': { [ADDRESS]: { balance: '0x01' } } }, `stateEdits.0x6.${ADDRESS}.balance must be a hex quantity`],
    ['a slot value over 32 bytes', { '0x6': { [ADDRESS]: { storage: { '0x1': `0x${'00'.repeat(33)}` } } } }, `stateEdits.0x6.${ADDRESS}.storage.0x1 is not a word (up to 32 bytes of 0x hex)`],
    ['odd hex code', { '0x6': { [ADDRESS]: { code: '0x600' } } }, `stateEdits.0x6.${ADDRESS}.code is not 0x hex`],
  ])('refused: %s', (_, value, message) => {
    expect(() => fromCapture('c.json', capture(value))).toThrow(FixtureError);
    expect(() => fromCapture('c.json', capture(value))).toThrow(`c.json: ${message}`);
  });
});
