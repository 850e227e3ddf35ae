// Records golden/anvil-vmtrace/edges/: the ways an op can fail or a call can go, which the shipped
// chains do not reach, each in a contract of its own, run by a transaction of its own and all
// together from two callers (one whose last call is into a lone STOP, which empties its whole
// vmTrace: reth's STOP rule). A fresh anvil 1.7.1 (Prague) gets the contracts' code set, mines the
// transactions, answers trace_replayBlockTransactions with vmTrace for every block (its bytes kept,
// then compressed with `gzip -9 -n`) and trace_block and trace_replayBlockTransactions with
// ["trace"] (edges/trace/, the Parity traces of the same failures, kept as sent), and the chain is
// captured as the fixture blocktrace replays.
//
//   bun test/helpers/vmTraceEdges.ts golden/anvil-vmtrace/edges
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../../bench/procs.ts';
import { ANVIL, rpc, waitForRpc } from './anvil.ts';

const at = (n: number): string => '0x' + n.toString(16).padStart(40, '0');
const hex = (n: number, bytes: number): string => n.toString(16).padStart(bytes * 2, '0');
/** CALL(gas, to, value 0, no input, no output), its success flag popped. */
const call = (to: number, gas: number, value = '6000'): string => '6000600060006000' + value + '73' + at(to).slice(2) + '62' + hex(gas, 3) + 'f1' + '50';

/** Each case: its account and runtime code. */
const CASES: [number, string, string][] = [
  [0xa1, 'KECCAK256 of 2^40 bytes: its word cost cannot be paid (all gas), its size left on the stack', '6001' + '64ffffffffff' + '6000' + '20' + '00'],
  [0xa2, 'MLOAD at 2^40: the memory cannot be paid (MemoryOOG: its 3 only)', '6005' + '64ffffffffff' + '51' + '00'],
  [0xa3, 'ADD of one item: stack underflow', '6007' + '01' + '00'],
  [0xa4, 'JUMP to a byte that is no JUMPDEST', '6009' + '6003' + '56' + '00'],
  [0xa5, 'an undefined opcode (0x0c)', '6009' + '0c'],
  [0xa6, 'a loop until out of gas', '5b' + '6000' + '56'],
  [0xa7, 'a lone STOP', '00'],
  [0xaa, 'RETURNDATACOPY past the return data', '6003' + '6004' + '01' + '6000' + '3e' + '00'],
  [0xab, 'CREATE of init code that reverts, then of a lone STOP', '7f' + '60006000fd'.padEnd(64, '0') + '6000' + '52' + '6005' + '6000' + '6000' + 'f0' + '6000' + '6000' + '53' + '6001' + '6000' + '6000' + 'f0' + '00'],
  [0xac, 'SWAP3 of two items: stack underflow of an op with outputs', '6001' + '6002' + '92' + '00'],
  [0xad, 'pushing until the stack overflows', '5b' + '6001' + '6000' + '56'],
  [0xae, 'CALL of two items: stack underflow after its warm access', '6001' + '6002' + 'f1' + '00'],
  [0xaf, 'CALLDATACOPY of 2^40 bytes: its copy cost cannot be paid', '64ffffffffff' + '6000' + '6000' + '37' + '00'],
];
const CALLED = [0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xac, 0xad, 0xae, 0xaf, 0xaa, 0xab];

/** The calls every caller makes: each case, then precompiles and a value transfer it cannot pay. */
const calls = (): string =>
  CALLED.map((t) => call(t, t === 0xab ? 1_000_000 : 60_000)).join('') +
  '6020600060206000' + '6001' + '61ffff' + 'fa' + '50' + // STATICCALL ecrecover (no trace of its own)
  '6020600060206000' + '6001' + '6004' + '61ffff' + 'f1' + '50' + // CALL identity with value 1 (a trace)
  '6020600060206000' + '6002' + '61ffff' + 'f4' + '50' + // DELEGATECALL sha256
  call(0xbeef, 0xffff, '6c0c9f2c9cd04674edea40000000'); // 10^30 wei to an account without code: more than the caller has

const CALLERS: [number, string][] = [
  [0xa8, calls() + call(0xa7, 0xffff) + call(0xa7, 0xffff)], // ends in a lone STOP: ops []
  [0xa9, calls() + '6000600060006000' + '6001' + '73' + at(0xbeef).slice(2) + '61ffff' + 'f1' + '00'],
];

const out = process.argv[2];
if (out === undefined) throw new Error('usage: bun test/helpers/vmTraceEdges.ts OUTDIR');
const replay = join(out, 'replay');
const traces = join(out, 'trace');
if (existsSync(replay) || existsSync(traces)) throw new Error(`${replay} or ${traces} exists; not overwriting`);
mkdirSync(replay, { recursive: true });
mkdirSync(traces, { recursive: true });
const port = await freePort();
const anvil = Bun.spawn([ANVIL, '--port', String(port), '--host', '127.0.0.1', '--hardfork', 'prague', '--silent'], { stdout: 'ignore', stderr: 'ignore' });
const url = `http://127.0.0.1:${port}`;
try {
  await waitForRpc(url, () => anvil.exitCode !== null);
  for (const [n, , code] of CASES) await rpc(url, 'anvil_setCode', [at(n), '0x' + code]);
  for (const [n, code] of CALLERS) {
    await rpc(url, 'anvil_setCode', [at(n), '0x' + code]);
    await rpc(url, 'anvil_setBalance', [at(n), '0x1000']);
  }
  const from = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
  const send = (to: number, gas: number) => rpc(url, 'eth_sendTransaction', [{ from, to: at(to), gas: `0x${gas.toString(16)}` }]);
  for (const [n] of CALLERS) await send(n, 5_000_000);
  for (const t of CALLED) await send(t, t === 0xa6 || t === 0xad ? 80_000 : 100_000);
  await send(0xa7, 50_000);
  const head = Number(await rpc<string>(url, 'eth_blockNumber'));
  const record = async (dir: string, name: string, method: string, params: unknown[]): Promise<void> => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    writeFileSync(join(dir, `${name}.request.json`), body);
    writeFileSync(join(dir, `${name}.response.json`), await res.text());
  };
  for (let n = 1; n <= head; n++) {
    const block = `0x${n.toString(16)}`;
    await record(replay, `trace_replayBlockTransactions.block-${block}.vmTrace`, 'trace_replayBlockTransactions', [block, ['vmTrace']]);
    await record(traces, `trace_block.block-${block}`, 'trace_block', [block]);
    await record(traces, `trace_replayBlockTransactions.block-${block}.trace`, 'trace_replayBlockTransactions', [block, ['trace']]);
  }
  const capture = Bun.spawn([process.execPath, 'src/cli.ts', 'capture', '--rpc', url, '--block', '1', '--to', String(head), '--out', join(out, 'fixture.json')], {
    cwd: join(import.meta.dir, '../..'), stdout: 'inherit', stderr: 'inherit',
  });
  if ((await capture.exited) !== 0) throw new Error('capture failed');
} finally {
  anvil.kill('SIGKILL');
  await anvil.exited;
}
