// The viewer's address page: balance (ETH beside wei), nonce, code, and the address's transactions,
// newest first, a page at a time, from the chain index through the Otterscan searches
// (ots_searchTransactionsBefore/After: a page ends with a whole block; `firstPage` and `lastPage`
// say whether it reached the head or block 1). Paths: /address/0x…, then …/before/N (the page of
// blocks below N) and …/after/N (above N).
import type { AbiDecoder } from '../abi/decoder.ts';
import { amount, el, head, link, row, short, stackRow } from './components.ts';
import { rpc } from './rpc.ts';

/** Transactions asked for a page (a page ends with a whole block, so it may hold more). */
export const ADDRESS_PAGE = 25;

interface OtsPage {
  txs: { hash: string; blockNumber: string; from: string; to: string | null; value: string; input: string }[];
  receipts: { status: string; contractAddress?: string | null }[];
  firstPage: boolean;
  lastPage: boolean;
}

/** Which page: the newest, or the one before or after a block. */
export type AddressPaging = { readonly from: 'newest' } | { readonly from: 'before' | 'after'; readonly block: number };

function history(address: string, page: OtsPage, decoder: AbiDecoder): HTMLElement {
  const table = el('table', { class: 'list stack', id: 'history' }, head('block', 'transaction', 'from', 'to', 'call', 'value', 'status'));
  for (const [i, tx] of page.txs.entries()) {
    const ok = page.receipts[i]?.status !== '0x0';
    const other = (who: string | null): Node | string => (who === null ? `new contract ${page.receipts[i]?.contractAddress ?? ''}` : who.toLowerCase() === address.toLowerCase() ? 'this address' : link(short(who, 8), `/address/${who}`));
    const fn = tx.to === null ? 'create' : (decoder.call(tx.input)?.name ?? (tx.input === '0x' ? 'transfer' : tx.input.slice(0, 10)));
    table.append(
      stackRow(
        [
          ['block', link(String(Number(tx.blockNumber)), `/block/${Number(tx.blockNumber)}`)],
          ['transaction', link(short(tx.hash, 12), `/tx/${tx.hash}`), 'mono'],
          ['from', other(tx.from), 'mono'],
          ['to', other(tx.to), 'mono'],
          ['call', fn],
          ['value', amount(BigInt(tx.value)), 'mono'],
          ['status', ok ? 'success' : 'reverted', 'status'],
        ],
        { class: ok ? 'ok' : 'failed' },
      ),
    );
  }
  const newest = page.txs[0];
  const oldest = page.txs.at(-1);
  const pager = el('p', { class: 'pager', id: 'history-pager' });
  if (!page.firstPage && newest !== undefined) pager.append(link('← newer', `/address/${address}/after/${Number(newest.blockNumber)}`), ' ');
  if (!page.lastPage && oldest !== undefined) pager.append(link('older →', `/address/${address}/before/${Number(oldest.blockNumber)}`));
  return el('section', {}, el('h3', {}, page.txs.length === 0 ? 'No transactions on this page' : `Transactions (${page.txs.length}, newest first)`), table, pager);
}

export async function showAddress(main: HTMLElement, address: string, paging: AddressPaging, decoder: AbiDecoder): Promise<void> {
  const [balance, nonce, code] = await Promise.all([rpc<string>('eth_getBalance', [address, 'latest']), rpc<string>('eth_getTransactionCount', [address, 'latest']), rpc<string>('eth_getCode', [address, 'latest'])]);
  const name = decoder.label(code);
  const list = el('section', { id: 'txs' }, el('p', { class: 'loading' }, 'loading transactions…'));
  main.replaceChildren(
    el('p', {}, link('← blocks', '/')),
    el('h2', {}, name !== undefined ? `${name} (contract)` : code === '0x' ? 'Account' : 'Contract'),
    el('p', { class: 'mono' }, address),
    el('table', { class: 'facts' }, row('balance', amount(BigInt(balance))), row('nonce', String(BigInt(nonce))), row('code', `${(code.length - 2) / 2} bytes`)),
    list,
  );
  try {
    const page =
      paging.from === 'newest' ? await rpc<OtsPage>('ots_searchTransactionsBefore', [address, 0, ADDRESS_PAGE])
      : await rpc<OtsPage>(paging.from === 'before' ? 'ots_searchTransactionsBefore' : 'ots_searchTransactionsAfter', [address, paging.block, ADDRESS_PAGE]);
    list.replaceChildren(history(address, page, decoder));
  } catch (err) {
    // upstream mode has no chain index here: the list is left out, saying why
    list.replaceChildren(el('p', { class: 'failed' }, (err as Error).message));
  }
}
