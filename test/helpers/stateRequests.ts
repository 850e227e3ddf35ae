// Writes the state-read request list (NAME BODY lines) recorded from anvil into
// golden/anvil-eth/<chain>/state/: balance, nonce, code and storage of the chain's senders and
// contracts at several blocks, named every way go-ethereum accepts (number, tag, hash, EIP-1898).
//
//   bun test/helpers/stateRequests.ts FIXTURE > golden/anvil-eth/<chain>/state.requests
import { readFileSync } from 'node:fs';

interface FixtureBlock {
  hash: string;
  block: { number: string; transactions: { from: string; to: string | null }[] };
}

const fixture = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as { blocks: FixtureBlock[] };
const blocks = fixture.blocks;
const senders = [...new Set(blocks.flatMap((b) => b.block.transactions.map((t) => t.from.toLowerCase())))].slice(0, 2);
const contracts = [...new Set(blocks.flatMap((b) => b.block.transactions.flatMap((t) => (t.to === null ? [] : [t.to.toLowerCase()]))))].filter((a) => !senders.includes(a)).slice(0, 2);
const mid = blocks[blocks.length >> 1]!;
const at: [string, unknown][] = [
  ['latest', 'latest'],
  ['earliest', 'earliest'],
  ['pending', 'pending'],
  ['n1', '0x1'],
  [`n${Number(mid.block.number)}`, mid.block.number],
  ['hash', mid.hash],
  ['eip1898-hash', { blockHash: mid.hash }],
  ['eip1898-canonical', { blockHash: mid.hash, requireCanonical: true }],
  ['eip1898-number', { blockNumber: '0x1' }],
];
const lines: string[] = [];
const add = (name: string, method: string, params: unknown[]): void => {
  lines.push(`${method}.${name} ${JSON.stringify({ jsonrpc: '2.0', id: 1, method, params })}`);
};
[...senders, ...contracts, '0x0000000000000000000000000000000000000000'].forEach((address, i) => {
  for (const [label, block] of at) {
    add(`a${i}.${label}`, 'eth_getBalance', [address, block]);
    add(`a${i}.${label}`, 'eth_getTransactionCount', [address, block]);
  }
  add(`a${i}.latest`, 'eth_getCode', [address, 'latest']);
  add(`a${i}.n1`, 'eth_getCode', [address, '0x1']);
  for (const slot of ['0x0', '0x1', '0x0000000000000000000000000000000000000000000000000000000000000002', '0x3']) {
    add(`a${i}.${slot.length > 10 ? 'padded2' : slot}.latest`, 'eth_getStorageAt', [address, slot, 'latest']);
  }
  add(`a${i}.0x0.n1`, 'eth_getStorageAt', [address, '0x0', '0x1']);
});
process.stdout.write(`${lines.join('\n')}\n`);
