// The artifacts as the viewer receives them (serve's GET /abi.json): JSON has no bigint, so a state
// variable's slot travels as the decimal string solc writes and becomes a bigint again on arrival.
// The server writes with artifactsJson, the viewer reads with artifactsFromJson: one wire shape.
import type { Artifact, StorageVariable } from './types.ts';

type WireVariable = Omit<StorageVariable, 'slot'> & { readonly slot: string };
type WireArtifact = Omit<Artifact, 'storage'> & { readonly storage?: readonly WireVariable[] | undefined };

export function artifactsJson(artifacts: readonly Artifact[]): string {
  const wire: WireArtifact[] = artifacts.map(({ storage, ...rest }) => (storage === undefined ? rest : { ...rest, storage: storage.map((v) => ({ ...v, slot: v.slot.toString() })) }));
  return JSON.stringify(wire);
}

/** What artifactsJson wrote, parsed (anything but an array reads as no artifacts). */
export function artifactsFromJson(json: unknown): Artifact[] {
  if (!Array.isArray(json)) return [];
  return (json as WireArtifact[]).map(({ storage, ...rest }) => (storage === undefined ? rest : { ...rest, storage: storage.map((v) => ({ ...v, slot: BigInt(v.slot) })) }));
}
