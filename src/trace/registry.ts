// One registry keyed by the wire name (go-ethereum eth/tracers/dir.go): every tracer has the same
// shape, and its config is decoded and checked before anything executes. The struct logger is the
// tracer of a request that names none (eth/tracers/api.go traceTx), so it has no wire name here.
import type { TracerEntry } from './tracerEntry.ts';
import { prestateTracer } from './render/prestateTracer.ts';
import { callTracer } from './render/callTracer.ts';
import { fourByteTracer } from './render/fourByteTracer.ts';
import { noopTracer } from './render/noopTracer.ts';
import { flatCallTracer } from './render/flatCallTracer.ts';
import { makeMuxTracer } from './render/muxTracer.ts';
import { erc7562Tracer } from './render/erc7562Tracer.ts';
import { structLogger, type StructLogConfig } from './render/structLogger.ts';

export type { TracerEntry } from './tracerEntry.ts';
export type { StructLogConfig } from './render/structLogger.ts';

// Each renderer file exports its entry; add it here (one import, one list item).
// muxTracer composes the others: it finds its parts here (opt-in ones included: it is opt-in itself).
const muxTracer = makeMuxTracer((name) => byName.get(name), () => tracerNames(true));
const TRACERS: readonly TracerEntry<any>[] = [callTracer, prestateTracer, fourByteTracer, noopTracer, flatCallTracer, muxTracer, erc7562Tracer];

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

/** The tracer of a request that names none: the struct logger when `all` (--all-tracers), else none. */
export function defaultTracer(all = false): TracerEntry<StructLogConfig> | undefined {
  return all ? structLogger : undefined;
}
