// One registry keyed by the wire name (go-ethereum eth/tracers/dir.go): every tracer has the same
// shape, and its config is decoded and checked before anything executes.
import type { TSchema } from '@sinclair/typebox';
import type { BlockRecording, TxRecording } from './types.ts';
import { prestateTracer } from './render/prestateTracer.ts';
import { callTracer } from './render/callTracer.ts';

export interface TracerEntry<Config = unknown> {
  /** Wire name, case-sensitive as in go-ethereum. */
  readonly name: string;
  /** TypeBox schema of `tracerConfig` (absent config is treated as `{}`). */
  readonly configSchema: TSchema;
  /** Cross-field checks the schema cannot express; returns an error message or undefined. */
  readonly check?: (config: Config) => string | undefined;
  /** What the recording must hold beyond the call arena: the state touched (TxRecording.state). */
  readonly needsState?: boolean;
  /** Renders one transaction's result as an ordered JSON value (keys in the client's order). */
  readonly render: (tx: TxRecording, config: Config, block: BlockRecording) => unknown;
}

// Each renderer file exports its entry; add it here (one import, one list item).
const TRACERS: readonly TracerEntry<any>[] = [callTracer, prestateTracer];

const byName = new Map<string, TracerEntry<any>>(TRACERS.map((t) => [t.name, t]));

export function findTracer(name: string): TracerEntry<unknown> | undefined {
  return byName.get(name);
}

/** Supported tracer names, for error messages. */
export function tracerNames(): string[] {
  return [...byName.keys()];
}
