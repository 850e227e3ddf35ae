// Writes the trace_replayBlockTransactions request list with vmTrace (NAME BODY lines) recorded from
// anvil into golden/anvil-vmtrace/<chain>/: every block with vmTrace alone (what Otterscan asks, one
// transaction at a time) and with every trace type, but for the blocks named after FIXTURE (their
// vmTrace alone is recorded: cancun-devnet 0xa, whose answer is 32 MB).
//
//   bun test/helpers/vmTraceRequests.ts FIXTURE [BLOCK…] > golden/anvil-vmtrace/<chain>/replay.requests
//
// The answers are recorded with test/helpers/recordAnvil.ts, then each response file is compressed
// with `gzip -9 -n` (anvil's vmTrace repeats the memory at every op: tens of megabytes a chain).
import { readFileSync } from 'node:fs';

const fixture = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as { blocks: { block: { number: string } }[] };
const head = Number(fixture.blocks[fixture.blocks.length - 1]!.block.number);
const alone = new Set(process.argv.slice(3));
const lines: string[] = [];
const sets: [string, string[]][] = [['vmTrace', ['vmTrace']], ['all', ['trace', 'vmTrace', 'stateDiff']]];
for (let n = 0; n <= head; n++) {
  const block = `0x${n.toString(16)}`;
  for (const [label, types] of sets) {
    if (label === 'all' && alone.has(block)) continue;
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'trace_replayBlockTransactions', params: [block, types] });
    lines.push(`trace_replayBlockTransactions.block-${block}.${label} ${body}`);
  }
}
process.stdout.write(`${lines.join('\n')}\n`);
