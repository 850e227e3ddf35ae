// The shape every tracer of the registry has (trace/registry.ts): below the renderers, which
// export their entry, and the registry, which lists them.
import type { TSchema } from '@sinclair/typebox';
import type { TextBudget } from '../encoding/boundedJson.ts';
import type { BlockRecording, OpcodeStep, StepNeeds, TxRecording } from './types.ts';

interface TracerBase<Config> {
  /** Wire name, case-sensitive as in go-ethereum. */
  readonly name: string;
  /** TypeBox schema of `tracerConfig` (absent config is treated as `{}`). */
  readonly configSchema: TSchema;
  /** Cross-field checks the schema cannot express; returns an error message or undefined. */
  readonly check?: (config: Config) => string | undefined;
  /**
   * Off unless the server runs with `--all-tracers` (the spec refuses every tracer but callTracer
   * and prestateTracer by default, and that refusal must not change).
   */
  readonly optIn?: boolean;
  /**
   * What the recording must hold beyond the call arena: the state touched (TxRecording.state); a
   * function where that depends on the config (muxTracer: whether a part needs it).
   */
  readonly needsState?: boolean | ((config: Config) => boolean);
}

/** A tracer rendered from a transaction's recording (the call arena and the state it touched). */
export interface RecordedTracer<Config = unknown> extends TracerBase<Config> {
  /** Renders one transaction's result as an ordered JSON value (keys in the client's order). */
  readonly render: (tx: TxRecording, config: Config, block: BlockRecording) => unknown;
}

/**
 * A tracer that watches every opcode: made per request, it is handed the steps of each transaction
 * as they run (trace/types.ts StepSink) and renders as it goes, so a run of millions of opcodes is
 * never held; what it writes ahead counts against `budget`, which stops the run once spent.
 */
export interface SteppedTracer<Config = unknown> extends TracerBase<Config> {
  readonly steps: (config: Config, budget: TextBudget) => StepTracer;
  /**
   * For a tracer that can also render from a recording (muxTracer): whether `config` needs the
   * opcodes watched. Absent: always.
   */
  readonly stepsFor?: (config: Config) => boolean;
}

/** One request's stepped tracer, over the transactions it is shown one after another. */
export interface StepTracer {
  readonly needs: StepNeeds;
  /** A transaction starts. */
  begin(): void;
  /** One of its opcodes; may throw (OverBudget) to stop the run. */
  step(step: OpcodeStep): void;
  /**
   * The transaction ended: its result, a JSON value (RenderedJson for text written ahead). `block` has
   * the block's number and hash (its `txs` are not all there yet).
   */
  end(tx: TxRecording, block: BlockRecording): unknown;
}

export type TracerEntry<Config = unknown> = RecordedTracer<Config> | SteppedTracer<Config> | (RecordedTracer<Config> & SteppedTracer<Config>);

/** Whether a tracer, with this config, watches opcodes (and must run with a step sink). */
export function isStepped<Config>(entry: TracerEntry<Config>, config: Config): entry is SteppedTracer<Config> {
  return 'steps' in entry && (entry.stepsFor?.(config) ?? true);
}

/** Whether a tracer, with this config, reads the state the transactions touched (recorded only then). */
export function needsStateFor<Config>(entry: TracerEntry<Config>, config: Config): boolean {
  const needs = entry.needsState;
  return typeof needs === 'function' ? needs(config) : needs === true;
}
