// What a report decodes with besides the ABIs: the contract name of each address an answer names
// (from its code at the head, matched to an artifact) and the candidate keys of mapping slots (the
// addresses themselves). The code is asked of each chain through the reader its caller gives, once
// per address: nothing here knows how a chain is reached.
import type { AbiDecoder } from '../abi/decoder.ts';
import type { Decoding } from './shapes.ts';
import { addressesIn, SlotNamer } from '../abi/slots.ts';

/** The code at `address` at the head of one chain (undefined where the chain cannot say). */
export type CodeReader = (address: string) => Promise<string | undefined>;

/**
 * Contract names of the addresses in `texts`, from their code at the head of the chain, or of each
 * chain in turn when two are compared (`diff`: where the versions' code differs, the side whose code
 * an artifact matches names it); `known` keeps what was asked already.
 */
export async function contractLabels(chains: CodeReader | readonly CodeReader[], decoder: AbiDecoder, texts: readonly (string | undefined)[], known: Map<string, string | undefined>): Promise<Map<string, string>> {
  const sides = typeof chains === 'function' ? [chains] : chains;
  for (const address of addressesIn(texts)) {
    if (known.has(address)) continue;
    let name: string | undefined;
    for (const codeAt of sides) {
      const code = await codeAt(address);
      name = code === undefined ? undefined : decoder.label(code);
      if (name !== undefined) break;
    }
    known.set(address, name);
  }
  const labels = new Map<string, string>();
  for (const [address, name] of known) if (name !== undefined) labels.set(address, name);
  return labels;
}

/** Everything a comparison of `texts` decodes with. */
export async function decodingFor(chains: CodeReader | readonly CodeReader[], decoder: AbiDecoder, texts: readonly (string | undefined)[], known: Map<string, string | undefined>): Promise<Decoding> {
  const labels = await contractLabels(chains, decoder, texts, known);
  return { decoder, labels, slots: new SlotNamer(addressesIn(texts, true)) };
}
