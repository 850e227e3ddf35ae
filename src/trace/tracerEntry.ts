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
  /** What a run must give it with this config: the one question the recorder is asked for it. */
  readonly needs: (config: Config) => TracerNeeds;
}

/** What a tracer needs of a run (as revm-inspectors derives one TracingInspectorConfig per tracer config). */
export interface TracerNeeds {
  /** The state the transactions touched (TxRecording.state), beyond the call arena. */
  readonly state: boolean;
  /** The opcodes watched, each step carrying these; undefined: rendered from the recording alone. */
  readonly steps: StepNeeds | undefined;
}

/** A tracer rendered from the call arena alone. */
export const ARENA_ONLY: TracerNeeds = { state: false, steps: undefined };
/** A tracer rendered from the call arena and the state touched. */
export const ARENA_AND_STATE: TracerNeeds = { state: true, steps: undefined };

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
  /** Made for a run whose `needs(config).steps` are set (a tracer that can also render from a recording, muxTracer, is stepped only then). */
  readonly steps: (config: Config, budget: TextBudget) => StepTracer;
}

/** One request's stepped tracer, over the transactions it is shown one after another. */
export interface StepTracer {
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
  return 'steps' in entry && entry.needs(config).steps !== undefined;
}
