// ethereumjs analyses a contract's code (jump destinations, push values, opcode table) on every
// message that jumps; a block calls the same few contracts over and over. The analysis is a pure
// function of the code and of the active opcode table, and the interpreter only reads it, so it is
// kept per (opcode table, code bytes). Part of the recorder's knowledge of ethereumjs internals.

type Analysis = unknown;
interface InterpreterLike {
  _evm: { _opcodeMap: object };
  _getValidJumpDestinations(code: Uint8Array): Analysis;
}

const patched = new WeakSet<object>();

/** Installs the cache on the interpreter class behind `interpreter` (once per class). */
export function cacheJumpAnalysis(interpreter: object): void {
  const proto = Object.getPrototypeOf(interpreter) as InterpreterLike;
  if (patched.has(proto)) return;
  patched.add(proto);
  const analyse = proto._getValidJumpDestinations;
  const byTable = new WeakMap<object, Map<string, Analysis>>();
  proto._getValidJumpDestinations = function (this: InterpreterLike, code: Uint8Array): Analysis {
    const table = this._evm._opcodeMap;
    let byCode = byTable.get(table);
    if (byCode === undefined) byTable.set(table, (byCode = new Map()));
    // Small codes are cheap to analyse; key the rest by content (code arrays are not reused objects).
    if (code.length < 64) return analyse.call(this, code);
    const key = Buffer.from(code.buffer, code.byteOffset, code.byteLength).toString('latin1');
    let analysis = byCode.get(key);
    if (analysis === undefined) {
      analysis = analyse.call(this, code);
      if (byCode.size > 4096) byCode.clear();
      byCode.set(key, analysis);
    }
    return analysis;
  };
}
