// Cooperative yielding: ethereumjs awaits only microtasks, so a long replay or call would hold the
// event loop for its whole run (no /health, no "still loading" answer, no signal). Work that may run
// long calls maybeYield() at cheap points; once SLICE_MS have passed since the last yield it gives
// the event loop a turn (a macrotask), so timers, sockets and signals are served meanwhile.
const SLICE_MS = 40;
let last = performance.now();
let enabled = true;

/** Turns yielding off or on (the benchmark measures what it costs a load). */
export function setYielding(on: boolean): void {
  enabled = on;
}

/** A turn of the event loop now. */
export async function yieldNow(): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
  last = performance.now();
}

/** Whether SLICE_MS have passed since the event loop last had a turn. */
export function sliceUsed(): boolean {
  return enabled && performance.now() - last >= SLICE_MS;
}

/** A turn of the event loop if the current slice is used up; undefined (nothing to await) if not. */
export function maybeYield(): Promise<void> | undefined {
  return sliceUsed() ? yieldNow() : undefined;
}
