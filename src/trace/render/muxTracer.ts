// go-ethereum's muxTracer (eth/tracers/native/mux.go), behind --all-tracers: several tracers over one
// execution. Its config is an object of tracer name → that tracer's config; its result an object of
// tracer name → that tracer's result, keys sorted (mux.go GetResult marshals a Go map). Each part is
// checked and rendered by its own registry entry, found through `find` (the registry hands it in,
// so this file does not import the registry that lists it). With a part that watches opcodes
// (erc7562Tracer) the mux watches them too, handing each step to those parts.
import { Type } from '@sinclair/typebox';
import { checkTracerConfig } from '../configCheck.ts';
import type { TextBudget } from '../../encoding/boundedJson.ts';
import { isStepped, type RecordedTracer, type SteppedTracer, type StepTracer, type TracerEntry, type TracerNeeds } from '../tracerEntry.ts';
import type { StepNeeds } from '../types.ts';

export type MuxConfig = Record<string, unknown>;

/** A part's config: none (or null) is `{}`, as eth/tracers/dir.go New gives an empty config. */
const partConfig = (config: unknown): unknown => (config === undefined || config === null ? {} : config);

export function makeMuxTracer(
  find: (name: string) => TracerEntry<unknown> | undefined,
  names: () => readonly string[],
): RecordedTracer<MuxConfig> & SteppedTracer<MuxConfig> {
  const parts = (config: MuxConfig) => Object.keys(config).sort().map((name) => ({ name, entry: find(name)!, config: partConfig(config[name]) }));
  return {
    name: 'muxTracer',
    configSchema: Type.Record(Type.String(), Type.Unknown()),
    // what any part needs: the state (prestateTracer), the steps with all the watching parts read
    needs: (config) => muxNeeds(parts(config).map((part) => part.entry.needs(part.config))),
    optIn: true,
    check(config) {
      for (const [name, raw] of Object.entries(config)) {
        const entry = find(name);
        // go-ethereum would evaluate an unknown name as JavaScript (dir.go New → jsEval); blocktrace
        // has no JavaScript tracers and refuses it as it refuses an unknown tracer
        if (entry === undefined) return `tracer ${JSON.stringify(name)} is not supported (supported: ${[...names()].sort().join(', ')})`;
        const sub = partConfig(raw);
        const problem = checkTracerConfig(name, entry.configSchema, sub) ?? entry.check?.(sub);
        if (problem !== undefined) return problem;
      }
      return undefined;
    },
    // no part watches opcodes (needs(config).steps is undefined): each renders from the recording
    render(tx, config, block) {
      const out: Record<string, unknown> = {};
      for (const part of parts(config)) out[part.name] = (part.entry as RecordedTracer<unknown>).render(tx, part.config, block);
      return out;
    },
    steps: (config, budget) => muxSteps(parts(config), budget),
  };
}

/** The mux over a run whose opcodes are watched: the watching parts get the steps, the others render from the recording. */
function muxSteps(parts: readonly { name: string; entry: TracerEntry<unknown>; config: unknown }[], budget: TextBudget): StepTracer {
  const each = parts.map((part) => ({ ...part, steps: isStepped(part.entry, part.config) ? part.entry.steps(part.config, budget) : undefined }));
  const watching = each.flatMap((part) => (part.steps === undefined ? [] : [part.steps]));
  return {
    begin: () => watching.forEach((t) => t.begin()),
    step: (step) => watching.forEach((t) => t.step(step)),
    end(tx, block) {
      const out: Record<string, unknown> = {};
      for (const part of each) out[part.name] = part.steps !== undefined ? part.steps.end(tx, block) : (part.entry as RecordedTracer<unknown>).render(tx, part.config, block);
      return out;
    },
  };
}

/** The parts' needs together: the state if any part reads it; the steps if any watches them, with what any of those reads. */
function muxNeeds(parts: readonly TracerNeeds[]): TracerNeeds {
  const watching = parts.flatMap((p) => (p.steps === undefined ? [] : [p.steps]));
  const steps: StepNeeds | undefined = watching.length === 0 ? undefined : {
    stack: watching.some((n) => n.stack),
    memory: watching.some((n) => n.memory),
    returnData: watching.some((n) => n.returnData),
    slotValues: watching.some((n) => n.slotValues),
    codeSizes: watching.some((n) => n.codeSizes),
  };
  return { state: parts.some((p) => p.state), steps };
}
