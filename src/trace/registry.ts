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
  /**
   * Off unless the server runs with `--all-tracers` (the spec refuses every tracer but callTracer
   * and prestateTracer by default, and that refusal must not change).
   */
  readonly optIn?: boolean;
  /** Renders one transaction's result as an ordered JSON value (keys in the client's order). */
  readonly render: (tx: TxRecording, config: Config, block: BlockRecording) => unknown;
}

// Each renderer file exports its entry; add it here (one import, one list item).
const TRACERS: readonly TracerEntry<any>[] = [callTracer, prestateTracer];

const byName = new Map<string, TracerEntry<any>>(TRACERS.map((t) => [t.name, t]));

/** The tracer of that wire name; an opt-in one only when `all` (--all-tracers). */
export function findTracer(name: string, all = false): TracerEntry<unknown> | undefined {
  const entry = byName.get(name);
  return entry === undefined || (entry.optIn === true && !all) ? undefined : entry;
}

/** Supported tracer names, for error messages: the opt-in ones too when `all`. */
export function tracerNames(all = false): string[] {
  return TRACERS.filter((t) => all || t.optIn !== true).map((t) => t.name);
}
