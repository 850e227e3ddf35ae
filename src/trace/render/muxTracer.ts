// go-ethereum's muxTracer (eth/tracers/native/mux.go), behind --all-tracers: several tracers over one
// execution. Its config is an object of tracer name → that tracer's config; its result an object of
// tracer name → that tracer's result, keys sorted (mux.go GetResult marshals a Go map). Each part is
// checked and rendered by its own registry entry, found through `find` (the registry hands it in,
// so this file does not import the registry that lists it).
import { Type } from '@sinclair/typebox';
import { checkTracerConfig } from '../configCheck.ts';
import type { RecordedTracer, TracerEntry } from '../tracerEntry.ts';

export type MuxConfig = Record<string, unknown>;

/** A part's config: none (or null) is `{}`, as eth/tracers/dir.go New gives an empty config. */
const partConfig = (config: unknown): unknown => (config === undefined || config === null ? {} : config);

export function makeMuxTracer(find: (name: string) => TracerEntry<unknown> | undefined, names: () => readonly string[]): RecordedTracer<MuxConfig> {
  return {
    name: 'muxTracer',
    configSchema: Type.Record(Type.String(), Type.Unknown()),
    // a part may be prestateTracer, which reads the state the transaction touched
    needsState: true,
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
    render(tx, config, block) {
      const out: Record<string, unknown> = {};
      // every named tracer renders from the recording (only the unnamed struct logger watches opcodes)
      for (const name of Object.keys(config).sort()) out[name] = (find(name) as RecordedTracer<unknown>).render(tx, partConfig(config[name]), block);
      return out;
    },
  };
}
