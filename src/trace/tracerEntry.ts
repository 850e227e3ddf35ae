// The shape every tracer of the registry has (trace/registry.ts): below the renderers, which
// export their entry, and the registry, which lists them.
import type { TSchema } from '@sinclair/typebox';
import type { BlockRecording, TxRecording } from './types.ts';

export interface TracerEntry<Config = unknown> {
  /** Wire name, case-sensitive as in go-ethereum. */
  readonly name: string;
  /** TypeBox schema of `tracerConfig` (absent config is treated as `{}`). */
  readonly configSchema: TSchema;
  /** Cross-field checks the schema cannot express; returns an error message or undefined. */
  readonly check?: (config: Config) => string | undefined;
  /** What the recording must hold beyond the call arena: the state touched (TxRecording.state). */
  readonly needsState?: boolean;
  /**
   * Off unless the server runs with `--all-tracers` (the spec refuses every tracer but callTracer
   * and prestateTracer by default, and that refusal must not change).
   */
  readonly optIn?: boolean;
  /** Renders one transaction's result as an ordered JSON value (keys in the client's order). */
  readonly render: (tx: TxRecording, config: Config, block: BlockRecording) => unknown;
}
