// eth_getLogs over a fixture chain with go-ethereum's rules (eth/filters/api.go GetLogs,
// eth/filters/filter.go Logs, resolveSpecial, rangeLogs/updateChainView): the range checks and
// their texts in go-ethereum's order, then the indexed logs of the range.
import { InvalidParamsError, ServerError } from '../../errors/rpcErrors.ts';
import type { ChainView } from '../../replay/chainView.ts';
import type { RpcContext } from '../context.ts';
import type { FilterCriteria } from '../filterParams.ts';
import type { BlockSelector } from '../schemas.ts';
import { LogIndex } from './logIndex.ts';

/** rpc.BlockNumber values of the tags (rpc/types.go). */
/** eth/ethconfig/config.go Defaults.LogQueryLimit. */
const LOG_QUERY_LIMIT = 1000;
const TAG_NUMBER = { earliest: -5n, safe: -4n, finalized: -3n, latest: -2n, pending: -1n } as const;

const asInt64 = (selector: BlockSelector | undefined): bigint =>
  selector === undefined ? TAG_NUMBER.latest : 'number' in selector ? selector.number : TAG_NUMBER[selector.tag];

/** eth/filters/filter.go resolveSpecial; `latest` stays open (undefined) until the head is read. */
function resolveEnd(chain: ChainView, n: bigint): bigint | undefined {
  switch (n) {
    case TAG_NUMBER.latest:
      return undefined;
    case TAG_NUMBER.finalized:
      return chain.finalized.number;
    case TAG_NUMBER.safe:
      return chain.safe.number;
    case TAG_NUMBER.earliest:
      return chain.genesis.number;
    default:
      return n;
  }
}

export function ethGetLogs([crit]: [FilterCriteria], ctx: RpcContext): Record<string, unknown>[] {
  const { chain } = ctx;
  // eth/ethconfig Defaults.LogQueryLimit; go-ethereum checks it before the range
  if (crit.addresses.length > LOG_QUERY_LIMIT) throw new ServerError('exceed max addresses or topics per search position');
  if (crit.blockHash !== undefined) {
    const block = chain.blockByHash(crit.blockHash);
    if (block === undefined) throw new ServerError('unknown block');
    return LogIndex.of(chain).find(block.number, block.number, crit, ctx.maxResponse);
  }
  const begin = asInt64(crit.fromBlock);
  const end = asInt64(crit.toBlock);
  if (begin > 0n && end > 0n && begin > end) throw new InvalidParamsError('invalid block range params');
  if (begin === TAG_NUMBER.pending || end === TAG_NUMBER.pending) throw new InvalidParamsError('pending logs are not supported');
  const head = chain.head.number;
  const first = resolveEnd(chain, begin) ?? head;
  const last = resolveEnd(chain, end) ?? head;
  if (first > last) throw new InvalidParamsError('invalid block range params');
  if (last > head) throw new InvalidParamsError('block range extends beyond current head block');
  return LogIndex.of(chain).find(first, last, crit, ctx.maxResponse);
}
