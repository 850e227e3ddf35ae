// What Otterscan shows of the answers where blocktrace follows Erigon rather than anvil (issue 38,
// docs/otterscan.md): the pages as the app walks them on cancun-devnet. The bytes are checked
// against anvil's recordings with each difference applied in test/golden/otterscan.test.ts; this
// file checks the user's view: which transactions a page shows, and what a missing block answers.
import { expect, test } from 'bun:test';
import { join } from 'node:path';
import { dispatch } from '../../src/rpc/dispatch.ts';
import { contextFor } from '../helpers/chainContext.ts';

const FIXTURE = join(import.meta.dir, '../../golden/fixtures/cancun-devnet/fixture.json');

async function call<T>(method: string, params: unknown[]): Promise<{ result?: T; error?: { code: number; message: string } }> {
  return JSON.parse((await dispatch(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }), await contextFor(FIXTURE)))!) as never;
}

interface Tx { readonly blockNumber: string; readonly transactionIndex: string; readonly hash: string }
const at = (tx: Tx): [number, number] => [Number(tx.blockNumber), Number(tx.transactionIndex)];

test('block 10 (200 transactions): page 0 is the last 25 in block order, so Otterscan\'s reversed "page 1" starts with transaction 199; the last page ends with 0', async () => {
  const shown = async (page: number) => (await call<{ fullblock: { transactions: Tx[]; transactionCount: number } }>('ots_getBlockTransactions', [10, page, 25])).result!.fullblock;
  const first = await shown(0);
  expect(first.transactionCount).toBe(200);
  expect(first.transactions.map((tx) => at(tx)[1])).toEqual(Array.from({ length: 25 }, (_, i) => 175 + i));
  expect([...first.transactions].reverse().map((tx) => at(tx)[1])[0]).toBe(199);
  expect((await shown(7)).transactions.map((tx) => at(tx)[1])).toEqual(Array.from({ length: 25 }, (_, i) => i));
  // a page size that does not divide the block: the last page is short, and past it nothing
  const sized = async (page: number) => (await call<{ fullblock: { transactions: Tx[] } }>('ots_getBlockTransactions', [10, page, 67])).result!.fullblock.transactions.map((tx) => at(tx)[1]);
  expect(await sized(2)).toEqual(Array.from({ length: 66 }, (_, i) => i));
  expect(await sized(3)).toEqual([]);
});

test('an address history walked as Otterscan does ("Last", then "<" to newer pages): newest first throughout, each block\'s transactions on one page', async () => {
  // the contract whose block-4 transactions Otterscan split across two pages before
  const contract = '0xcf7ed3acca5a467e9e704c703e8d87f634fb0fc9';
  type Page = { txs: Tx[]; firstPage: boolean; lastPage: boolean };
  // "Last": the oldest page; "<": the page after its newest block
  const pages: Tx[][] = [];
  let page = (await call<Page>('ots_searchTransactionsAfter', [contract, 0, 5])).result!;
  pages.unshift(page.txs);
  while (!page.firstPage && page.txs.length > 0) {
    page = (await call<Page>('ots_searchTransactionsAfter', [contract, Number(page.txs[0]!.blockNumber), 5])).result!;
    pages.unshift(page.txs);
  }
  expect(pages.length).toBeGreaterThan(1);
  const seen = pages.flat().map(at);
  expect(seen).toEqual([...seen].sort((a, b) => b[0] - a[0] || b[1] - a[1]));
  expect(new Set(seen.map(String)).size).toBe(seen.length);
  // no block is on two pages, and block 4 (transactions 0-20 name the contract) is whole on one
  const blocksOf = pages.map((txs) => new Set(txs.map((tx) => at(tx)[0])));
  for (const [i, blocks] of blocksOf.entries()) for (const b of blocks) expect({ b, elsewhere: blocksOf.some((other, j) => j !== i && other.has(b)) }).toEqual({ b, elsewhere: false });
  expect(seen.filter(([b]) => b === 4).length).toBeGreaterThan(7);
});

test('a block past the head is null (Otterscan: "Block not found"); an unknown hash is Erigon\'s error', async () => {
  expect(await call('ots_getBlockDetails', [99])).toMatchObject({ result: null });
  expect(await call('ots_getBlockTransactions', [99, 0, 25])).toMatchObject({ result: null });
  const unknown = `0x${'00'.repeat(31)}01`;
  expect((await call('ots_getBlockDetailsByHash', [unknown])).error).toEqual({ code: -32000, message: `couldn't find block number for hash [${[...Array(31).fill(0), 1].join(' ')}]` });
});

test('a contract whose creation reverted has no creator; one that was made has its creation', async () => {
  expect(await call('ots_getContractCreator', ['0xbc9129dc0487fc2e169941c75aabc539f208fb01'])).toMatchObject({ result: null });
  const made = (await call<{ hash: string; creator: string }>('ots_getContractCreator', ['0xcf7ed3acca5a467e9e704c703e8d87f634fb0fc9'])).result!;
  expect(made.creator).toMatch(/^0x[0-9a-f]{40}$/);
  expect(made.hash).toMatch(/^0x[0-9a-f]{64}$/);
});
