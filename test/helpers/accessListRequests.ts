// Writes the eth_createAccessList request list (NAME BODY lines) recorded from anvil into
// golden/anvil-eth/<chain>/access-list*/: every transaction of the chain that calls a contract,
// asked as eth_createAccessList (from, to, value, input, its gas limit) on the state of the block
// before it.
//
//   bun test/helpers/accessListRequests.ts FIXTURE > golden/anvil-eth/<chain>/access-list.requests
import { readFileSync } from 'node:fs';

interface Tx { hash: string; from: string; to: string | null; input: string; value: string; gas: string }
const fixture = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as { blocks: { block: { number: string; transactions: Tx[] } }[] };
const lines: string[] = [];
for (const { block } of fixture.blocks) {
  const parent = `0x${(BigInt(block.number) - 1n).toString(16)}`;
  block.transactions.slice(0, 20).forEach((tx, i) => {
    if (tx.to === null || tx.input === '0x') return;
    const call = { from: tx.from, to: tx.to, value: tx.value, input: tx.input, gas: tx.gas };
    lines.push(`eth_createAccessList.b${Number(block.number)}-t${i} ${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_createAccessList', params: [call, parent] })}`);
  });
}
process.stdout.write(`${lines.join('\n')}\n`);
