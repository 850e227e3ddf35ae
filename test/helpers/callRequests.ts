// Writes a request list (NAME BODY lines) recorded from anvil into golden/anvil-eth/<chain>/: every
// transaction of the chain that calls a contract, asked on the state of the block before it, as an
// eth_call (from, to, value, input) or as eth_createAccessList (the same and its gas limit).
//
//   bun test/helpers/callRequests.ts FIXTURE > golden/anvil-eth/<chain>/call.requests
//   bun test/helpers/callRequests.ts FIXTURE eth_createAccessList > golden/anvil-eth/<chain>/access-list.requests
import { readFileSync } from 'node:fs';

interface Tx { hash: string; from: string; to: string | null; input: string; value: string; gas: string }
const fixture = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as { blocks: { block: { number: string; transactions: Tx[] } }[] };
const method = process.argv[3] ?? 'eth_call';
if (method !== 'eth_call' && method !== 'eth_createAccessList') throw new Error(`usage: callRequests.ts FIXTURE [eth_call|eth_createAccessList]`);
const lines: string[] = [];
for (const { block } of fixture.blocks) {
  const parent = `0x${(BigInt(block.number) - 1n).toString(16)}`;
  block.transactions.slice(0, 20).forEach((tx, i) => {
    if (tx.to === null || tx.input === '0x') return;
    const call = { from: tx.from, to: tx.to, value: tx.value, input: tx.input, ...(method === 'eth_createAccessList' ? { gas: tx.gas } : {}) };
    lines.push(`${method}.b${Number(block.number)}-t${i} ${JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: [call, parent] })}`);
  });
}
process.stdout.write(`${lines.join('\n')}\n`);
