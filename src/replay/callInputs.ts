// How the recorder keeps the inputs of calls and creates opened by opcodes (trace/inputPatches.ts):
// an input is kept as the last full copy (the base) when it is the same bytes, as the base plus the
// few ranges where it differs, or else becomes the new base.
import { type KeptInput, patched, patchesFrom, SMALL_INPUT } from '../trace/inputPatches.ts';

export class CallInputs {
  private base: Uint8Array | undefined;

  /** Keeps `view` (a view of EVM memory, changed later: never kept itself). */
  keep(view: Uint8Array): KeptInput {
    if (view.length < SMALL_INPUT) return view.slice();
    const base = this.base;
    if (base !== undefined && base.length === view.length) {
      const patches = patchesFrom(base, view);
      if (patches !== undefined) return patches.length === 0 ? base : patched(base, patches);
    }
    this.base = view.slice();
    return this.base;
  }
}
