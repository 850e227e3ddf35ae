// Prints what test/helpers/readsRequests.ts needs to name requests on a fixture chain (hashes, log emitters, topics).
//   bun test/helpers/chainInfo.ts FIXTURE > info.json
import { loadChain } from '../../src/replay/loadChain.ts';
import { bytesToHex } from '@ethereumjs/util';
const chain = await loadChain(process.argv[2]!);
const blocks = [];
const addrs = new Map<string, number>(); const topics = new Map<string, number>();
for (let n = 0n; n <= chain.head.number; n++) {
  const b = chain.blockByNumber(n)!;
  blocks.push({ hash: bytesToHex(b.hash), txs: b.block.transactions.map((t) => bytesToHex(t.hash())) });
  for (const r of chain.receipts(b)) for (const l of r.logs) {
    addrs.set(bytesToHex(l.address), (addrs.get(bytesToHex(l.address)) ?? 0) + 1);
    l.topics.forEach((t, i) => { if (i === 0) topics.set(bytesToHex(t), (topics.get(bytesToHex(t)) ?? 0) + 1); });
  }
}
const top = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).map((e) => e[0]);
console.log(JSON.stringify({ head: Number(chain.head.number), blocks, logAddresses: top(addrs), topics: top(topics) }));
