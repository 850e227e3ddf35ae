// Writes the debug_traceCall request list (NAME BODY lines) recorded from anvil into
// golden/anvil-trace/<chain>/call/: every transaction of the chain asked as a call on the state
// before its block (from, to, input, value and its gas limit), with callTracer, callTracer withLog,
// prestateTracer and its diff mode; a few with state and block overrides.
//
//   bun test/helpers/traceCallRequests.ts FIXTURE > golden/anvil-trace/<chain>/call.requests
import { readFileSync } from 'node:fs';

interface FixtureTx {
  from: string;
  to: string | null;
  input: string;
  value: string;
  gas: string;
}
interface FixtureBlock {
  block: { number: string; transactions: FixtureTx[] };
}

const fixture = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as { blocks: FixtureBlock[] };
const lines: string[] = [];
const add = (name: string, params: unknown[]): void => {
  lines.push(`debug_traceCall.${name} ${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'debug_traceCall', params })}`);
};
const tracers: [string, unknown][] = [
  ['call', { tracer: 'callTracer' }],
  ['withLog', { tracer: 'callTracer', tracerConfig: { withLog: true } }],
  ['prestate', { tracer: 'prestateTracer' }],
  ['diff', { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }],
];
for (const { block } of fixture.blocks) {
  const n = Number(block.number);
  block.transactions.forEach((tx, i) => {
    // a block's first transactions stand for it: the 200-transaction block would make 800 files
    if (i >= 4) return;
    const call = { from: tx.from, ...(tx.to === null ? {} : { to: tx.to }), input: tx.input, value: tx.value, gas: tx.gas };
    for (const [label, options] of tracers) add(`b${n}-t${i}.${label}`, [call, `0x${(n - 1).toString(16)}`, options]);
  });
}
const first = fixture.blocks.flatMap((b) => b.block.transactions).find((t) => t.to !== null)!;
const call = { from: first.from, to: first.to, input: first.input, value: first.value, gas: first.gas };
add('override-balance.call', [{ ...call, value: '0x56bc75e2d63100000' }, 'latest', { tracer: 'callTracer', stateOverrides: { [first.from]: { balance: '0x56bc75e2d631000000' } } }]);
add('override-balance.prestate', [{ ...call, value: '0x1' }, 'latest', { tracer: 'prestateTracer', stateOverrides: { [first.from]: { balance: '0x100000000000000000' } } }]);
add('override-code.call', [{ from: first.from, to: '0x00000000000000000000000000000000000c0de1', gas: '0x30000' }, 'latest', { tracer: 'callTracer', stateOverrides: { '0x00000000000000000000000000000000000c0de1': { code: '0x4360005260206000f3' } } }]);
add('override-time.call', [{ from: first.from, to: '0x00000000000000000000000000000000000c0de1', gas: '0x30000' }, 'latest', { tracer: 'callTracer', stateOverrides: { '0x00000000000000000000000000000000000c0de1': { code: '0x4260005260206000f3' } }, blockOverrides: { time: '0x1234' } }]);
add('override-storage.call', [{ from: first.from, to: '0x00000000000000000000000000000000000c0de1', gas: '0x30000' }, 'latest', { tracer: 'callTracer', stateOverrides: { '0x00000000000000000000000000000000000c0de1': { code: '0x60015460005260206000f3', stateDiff: { '0x0000000000000000000000000000000000000000000000000000000000000001': '0x00000000000000000000000000000000000000000000000000000000000000ff' } } } }]);
add('create.call', [{ from: first.from, input: '0x6001600c60003960016000f3fe', gas: '0x30000' }, 'latest', { tracer: 'callTracer' }]);
add('create.diff', [{ from: first.from, input: '0x6001600c60003960016000f3fe', gas: '0x30000' }, 'latest', { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }]);
add('revert.call', [{ from: first.from, to: '0x00000000000000000000000000000000000c0de1', gas: '0x30000' }, 'latest', { tracer: 'callTracer', stateOverrides: { '0x00000000000000000000000000000000000c0de1': { code: '0x60006000fd' } } }]);
add('default-gas.call', [{ from: first.from, to: first.to, input: first.input }, 'latest', { tracer: 'callTracer' }]);
// an access list (EIP-2930): charged as intrinsic gas, and warm from the start (the SLOAD of a listed
// slot costs 100, not 2100); an address listed but never touched costs its intrinsic gas only
const reader = '0x00000000000000000000000000000000000c0de1';
const readsSlot1 = { [reader]: { code: '0x60015460005260206000f3' } };
const slot1 = '0x0000000000000000000000000000000000000000000000000000000000000001';
add('access-list.call', [{ from: first.from, to: reader, gas: '0x30000', accessList: [{ address: reader, storageKeys: [slot1] }] }, 'latest', { tracer: 'callTracer', stateOverrides: readsSlot1 }]);
add('access-list-untouched.call', [{ from: first.from, to: reader, gas: '0x30000', accessList: [{ address: '0x00000000000000000000000000000000000c0de2', storageKeys: [slot1] }] }, 'latest', { tracer: 'callTracer', stateOverrides: readsSlot1 }]);
add('access-list.prestate', [{ from: first.from, to: reader, gas: '0x30000', accessList: [{ address: reader, storageKeys: [slot1] }] }, 'latest', { tracer: 'prestateTracer', stateOverrides: readsSlot1 }]);
process.stdout.write(`${lines.join('\n')}\n`);
