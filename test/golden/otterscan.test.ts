// The Otterscan API (ots_*, erigon_getHeaderByNumber) against anvil 1.7.1 serving the shipped
// fixture chains (golden/anvil-ots/README.md):
// - <chain>/ots: anvil's answers, byte for byte;
// - <chain>/ots-anvil-differs: anvil's answers where blocktrace follows Otterscan's spec and Erigon
//   instead (docs/otterscan.md), compared with that one difference applied to anvil's own bytes
//   (test/helpers/otsDifferences.ts): logsBloom, logs and the block's transactionCount in the block
//   methods, Erigon's pages of a block's transactions (counted from its last), null for a block past
//   the head, newest first within a block in ots_searchTransactionsAfter, no creator for an address
//   without code, a header for erigon_getHeaderByNumber, Erigon's internal operations and its
//   creation and self-destruct entries in ots_traceTransaction.
import { describe, expect, test } from 'bun:test';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readGolden } from '../../src/golden/layouts.ts';
import { checkExchange } from '../../src/golden/run.ts';
import { dispatch } from '../../src/rpc/dispatch.ts';
import { AnvilRecords, withDifferences } from '../helpers/otsDifferences.ts';
import { contextFor } from '../helpers/chainContext.ts';

const GOLDEN = join(import.meta.dir, '../../golden');
const SLOW = 60_000;


/** The recorded folders of a chain: `ots` (and on cancun-devnet `params`, malformed parameters), each with its `-anvil-differs`. */
const folders = (chain: string): string[] => readdirSync(join(GOLDEN, 'anvil-ots', chain)).filter((f) => !f.includes('.') && !f.endsWith('-anvil-differs'));

for (const chain of ['cancun-devnet', 'prague-devnet']) {
  const fixture = join(GOLDEN, 'fixtures', chain, 'fixture.json');
  const records = new AnvilRecords(GOLDEN, chain);
  const read = (folder: string) => (existsSync(join(GOLDEN, 'anvil-ots', chain, folder)) ? readGolden(join(GOLDEN, 'anvil-ots', chain, folder)).exchanges : []);

  test(`anvil ${chain}: every Otterscan method recorded, 50 and more requests`, () => {
    const all = folders(chain).flatMap((f) => [...read(f), ...read(`${f}-anvil-differs`)]);
    const methods = new Set(all.map((e) => (JSON.parse(e.request) as { method: string }).method));
    expect([...methods].sort()).toEqual([
      'erigon_getHeaderByNumber', 'ots_getApiLevel', 'ots_getBlockDetails', 'ots_getBlockDetailsByHash', 'ots_getBlockTransactions',
      'ots_getContractCreator', 'ots_getInternalOperations', 'ots_getTransactionBySenderAndNonce', 'ots_getTransactionError',
      'ots_hasCode', 'ots_searchTransactionsAfter', 'ots_searchTransactionsBefore', 'ots_traceTransaction',
    ]);
    expect(all.length).toBeGreaterThan(50);
  });

  for (const folder of folders(chain)) {
    describe(`anvil ${chain} ${folder}: Otterscan API (bytes)`, () => {
      for (const exchange of read(folder)) {
        test(exchange.name, async () => expect(await checkExchange(await contextFor(fixture), exchange, 'bytes')).toBeUndefined(), SLOW);
      }
    });

    describe(`anvil ${chain} ${folder}: Otterscan API, anvil's bytes with the documented difference applied`, () => {
      for (const exchange of read(`${folder}-anvil-differs`)) {
        test(exchange.name, async () => {
          const expected = withDifferences(records, exchange.request, exchange.response ?? '');
          expect(expected).not.toBe(exchange.response);
          expect(await dispatch(exchange.request, await contextFor(fixture))).toBe(expected);
        }, SLOW);
      }
    });
  }
}
