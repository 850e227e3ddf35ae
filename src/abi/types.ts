// An ABI and, when known, the code of the contract it describes (no I/O here: the browser viewer
// uses it too).
import type { Abi } from 'viem';

export interface Artifact {
  readonly name: string;
  readonly abi: Abi;
  /** Runtime code (deployedBytecode), without 0x, when the artifact has it. */
  readonly deployedCode?: string | undefined;
  /** Byte ranges of immutables in the runtime code (solc's immutableReferences: Foundry's artifact, Hardhat's build-info). */
  readonly immutables?: readonly { start: number; length: number }[] | undefined;
  /** Creation code (bytecode), without 0x, lower case, linked-library placeholders (`__$…$__`) left in, when the artifact has it. */
  readonly creationCode?: string | undefined;
  /** Its state variables (solc's storageLayout), when the artifact has them. */
  readonly storage?: readonly StorageVariable[] | undefined;
}

/** One state variable of solc's storageLayout. */
export interface StorageVariable {
  readonly label: string;
  /** A bigint here; /abi.json carries it as a decimal string, as solc writes it (src/abi/artifactJson.ts). */
  readonly slot: bigint;
  /** The solc type label: `uint256`, `mapping(address => uint256)`, … */
  readonly type: string;
  /** Mappings nested from here: 1 for `mapping(k => v)`, 2 for `mapping(k => mapping(k2 => v))`. */
  readonly mappingDepth: number;
  /** The type of the value at the end of the mappings (the variable's own type when none). */
  readonly valueType: string;
  /** Where that value is a struct, a static or a dynamic array: what lies inside it. */
  readonly inside?: StorageInside | undefined;
}

/** The parts of a struct or array in storage, from solc's storageLayout types. */
export type StorageInside =
  | { readonly kind: 'struct'; readonly members: readonly StorageMember[] }
  /** Elements from the value's own slot (static) or from keccak256 of it (dynamic); `bytes` each, packed below 32. */
  | { readonly kind: 'static' | 'dynamic'; readonly bytes: number; readonly length?: number | undefined; readonly element?: StorageInside | undefined };

export interface StorageMember {
  readonly label: string;
  /** From the struct's first slot (a number: the layout travels as JSON to the viewer). */
  readonly slot: number;
  readonly type: string;
  readonly inside?: StorageInside | undefined;
}
