// A block replayed in upstream mode, checked against the node's header: its gas used, receipts root
// and logs bloom. The state is read lazily, so there is no state root of our own to compare; these
// three come with the run, and a replay under other fork rules than the node's (an inferred fork
// that is wrong, a --genesis of another chain) changes them as soon as a transaction notices.
import { bytesToHex, equalsBytes } from '@ethereumjs/util';
import { UpstreamError } from '../errors/upstreamError.ts';
import type { RunCheck } from '../replay/recordings.ts';

/**
 * Throws one line naming the first field that differs and the fork schedule used.
 * @param forks what the schedule rests on (chainConfig.ts UpstreamForks.source).
 * @param genesisGiven whether the schedule is the user's --genesis (the hint then points at it).
 */
export function replayCheck(url: string, forks: string, genesisGiven: boolean): RunCheck {
  return (block, result) => {
    const h = block.header;
    let field: string | undefined;
    if (result.gasUsed !== h.gasUsed) field = `gasUsed ${result.gasUsed} here, ${h.gasUsed} in the header`;
    // before Byzantium a receipt holds a state root, which a lazily read state cannot give
    else if (block.common.gteHardfork('byzantium') && !equalsBytes(result.receiptsRoot, h.receiptTrie)) field = `receiptsRoot ${bytesToHex(result.receiptsRoot)} here, ${bytesToHex(h.receiptTrie)} in the header`;
    else if (!equalsBytes(result.logsBloom, h.logsBloom)) field = 'logsBloom differs from the header';
    if (field === undefined) return;
    throw new UpstreamError(`upstream ${url}: block ${h.number} replayed here disagrees with the node (${field}): ${doubtForks(forks, genesisGiven)}`);
  };
}

/** The end of the line of a replay the node's headers refute: the fork schedule is the first thing to doubt. */
export function doubtForks(forks: string, genesisGiven: boolean): string {
  return `the fork rules used (${forks}) are not the node's? ${genesisGiven ? 'check that file' : "give the chain's genesis.json with --genesis"}`;
}
