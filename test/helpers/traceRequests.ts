// Writes the trace_replayBlockTransactions / trace_filter request list (NAME BODY lines) recorded
// from anvil into golden/anvil-trace/<chain>/: every block with each trace-type set, and filters by
// range, address, mode and page.
//
//   bun test/helpers/traceRequests.ts FIXTURE > golden/anvil-trace/<chain>/trace.requests
import { readFileSync } from 'node:fs';

interface FixtureBlock {
  block: { number: string; transactions: { from: string; to: string | null }[] };
}

const fixture = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as { blocks: FixtureBlock[] };
const blocks = fixture.blocks;
const head = Number(blocks[blocks.length - 1]!.block.number);
const senders = [...new Set(blocks.flatMap((b) => b.block.transactions.map((t) => t.from.toLowerCase())))].slice(0, 2);
const contracts = [...new Set(blocks.flatMap((b) => b.block.transactions.flatMap((t) => (t.to === null ? [] : [t.to.toLowerCase()]))))]
  .filter((a) => !senders.includes(a))
  .slice(0, 3);
const lines: string[] = [];
const add = (name: string, method: string, params: unknown[]): void => {
  lines.push(`${method}.${name} ${JSON.stringify({ jsonrpc: '2.0', id: 1, method, params })}`);
};
const hex = (n: number): string => `0x${n.toString(16)}`;
const sets: [string, string[]][] = [['trace', ['trace']], ['stateDiff', ['stateDiff']], ['both', ['trace', 'stateDiff']], ['none', []]];
for (let n = 0; n <= head; n++) {
  for (const [label, types] of sets) add(`block-${hex(n)}.${label}`, 'trace_replayBlockTransactions', [hex(n), types]);
}
add('latest.both', 'trace_replayBlockTransactions', ['latest', ['stateDiff', 'trace']]);
add('all', 'trace_filter', [{ fromBlock: '0x0', toBlock: hex(head) }]);
add('open', 'trace_filter', [{}]);
for (let n = 1; n <= head; n++) add(`block-${hex(n)}`, 'trace_filter', [{ fromBlock: hex(n), toBlock: hex(n) }]);
[...senders, ...contracts].forEach((a, i) => {
  add(`from-a${i}`, 'trace_filter', [{ fromBlock: '0x1', toBlock: hex(head), fromAddress: [a] }]);
  add(`to-a${i}`, 'trace_filter', [{ fromBlock: '0x1', toBlock: hex(head), toAddress: [a] }]);
});
if (senders.length > 0 && contracts.length > 0) {
  const [s, c] = [senders[0]!, contracts[0]!];
  add('union', 'trace_filter', [{ fromBlock: '0x1', toBlock: hex(head), fromAddress: [s], toAddress: [c] }]);
  add('intersection', 'trace_filter', [{ fromBlock: '0x1', toBlock: hex(head), fromAddress: [s], toAddress: [c], mode: 'intersection' }]);
  add('intersection-to-only', 'trace_filter', [{ fromBlock: '0x1', toBlock: hex(head), toAddress: [c], mode: 'intersection' }]);
}
add('after-3', 'trace_filter', [{ fromBlock: '0x1', toBlock: hex(head), after: 3 }]);
add('count-2', 'trace_filter', [{ fromBlock: '0x1', toBlock: hex(head), count: 2 }]);
add('after-2-count-5', 'trace_filter', [{ fromBlock: '0x1', toBlock: hex(head), after: 2, count: 5 }]);
add('after-beyond', 'trace_filter', [{ fromBlock: '0x1', toBlock: hex(head), after: 100000 }]);
add('count-0', 'trace_filter', [{ fromBlock: '0x1', toBlock: hex(head), count: 0 }]);
process.stdout.write(`${lines.join('\n')}\n`);
