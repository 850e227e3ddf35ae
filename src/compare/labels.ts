// What a report decodes with besides the ABIs: the contract name of each address an answer names
// (from its code at the head, matched to an artifact) and the candidate keys of mapping slots (the
// addresses themselves). Asked of the chain through its dispatcher, once per address.
import type { AbiDecoder } from '../abi/decoder.ts';
import type { RpcContext } from '../rpc/context.ts';
import { dispatch } from '../rpc/dispatch.ts';
import type { Decoding } from './shapes.ts';
import { addressesIn, SlotNamer } from '../abi/slots.ts';

/**
 * Contract names of the addresses in `texts`, from their code at the head of the chain, or of each
 * chain in turn when two are compared (`diff`: where the versions' code differs, the side whose code
 * an artifact matches names it); `known` keeps what was asked already.
 */
export async function contractLabels(chains: RpcContext | readonly RpcContext[], decoder: AbiDecoder, texts: readonly (string | undefined)[], known: Map<string, string | undefined>): Promise<Map<string, string>> {
  const sides = Array.isArray(chains) ? chains : [chains as RpcContext];
  for (const address of addressesIn(texts)) {
    if (known.has(address)) continue;
    let name: string | undefined;
    for (const ctx of sides) {
      const answer = await dispatch(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getCode', params: [address, 'latest'] }), ctx);
      const code = answer === undefined ? undefined : (JSON.parse(answer) as { result?: string }).result;
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
export async function decodingFor(chains: RpcContext | readonly RpcContext[], decoder: AbiDecoder, texts: readonly (string | undefined)[], known: Map<string, string | undefined>): Promise<Decoding> {
  const labels = await contractLabels(chains, decoder, texts, known);
  return { decoder, labels, slots: new SlotNamer(addressesIn(texts, true)) };
}
