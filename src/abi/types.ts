// An ABI and, when known, the runtime code of the contract it describes (no I/O here: the browser
// viewer uses it too).
import type { Abi } from 'viem';

export interface Artifact {
  readonly name: string;
  readonly abi: Abi;
  /** Runtime code (deployedBytecode), without 0x, when the artifact has it. */
  readonly deployedCode?: string | undefined;
  /** Byte ranges of immutables in the runtime code (Foundry's immutableReferences). */
  readonly immutables?: readonly { start: number; length: number }[] | undefined;
}
