// Building an EVM builds its opcode table from its Common (ethereumjs getOpcodesForHF: a third of a
// warm eth_call), and every EVM adds a 'hardforkChanged' listener to that Common that nothing removes.
// The table is a pure function of the Common's fork and activated EIPs, and nothing changes a table
// in place (opcodeHooks.ts copies before it hooks), so the EVMs made for messages share one per
// Common and fork; and a message's EVM takes its listener off when the message is done, or every
// eth_call on a block would keep its EVM (and the state it ran on) alive through the block's Common.
import { type EVM, type EVMOpts, createEVM } from '@ethereumjs/evm';
import type { Common } from '@ethereumjs/common';

interface TableHolder {
  common: Common;
  _customOpcodes?: unknown;
  _opcodes: unknown;
  _dynamicGasHandlers: unknown;
  _handlers: unknown;
  _opcodeMap: unknown;
}
type Table = Pick<TableHolder, '_opcodes' | '_dynamicGasHandlers' | '_handlers' | '_opcodeMap'>;

const tables = new WeakMap<Common, Map<string, Table>>();
let installed = false;

/** Makes EVM.getActiveOpcodes answer from a table per (Common, fork, EIPs) once built (without custom opcodes). */
function shareTables(evm: EVM): void {
  if (installed) return;
  installed = true;
  const proto = Object.getPrototypeOf(evm) as { getActiveOpcodes(this: TableHolder): unknown };
  const build = proto.getActiveOpcodes;
  proto.getActiveOpcodes = function (this: TableHolder) {
    if (this._customOpcodes !== undefined) return build.call(this);
    let byFork = tables.get(this.common);
    if (byFork === undefined) tables.set(this.common, (byFork = new Map()));
    const key = `${this.common.hardfork()} ${this.common.eips().join(',')}`;
    const table = byFork.get(key);
    if (table === undefined) {
      const opcodes = build.call(this);
      byFork.set(key, { _opcodes: this._opcodes, _dynamicGasHandlers: this._dynamicGasHandlers, _handlers: this._handlers, _opcodeMap: this._opcodeMap });
      return opcodes;
    }
    Object.assign(this, table);
    return table._opcodes;
  };
}

/**
 * An EVM for one message on `opts.common`, and the function that detaches it from that Common once
 * the message is done.
 */
export async function messageEvm(opts: EVMOpts & { common: Common }): Promise<{ evm: EVM; release: () => void }> {
  const before = new Set(opts.common.events.listeners('hardforkChanged'));
  const evm = await createEVM(opts);
  shareTables(evm);
  const added = opts.common.events.listeners('hardforkChanged').filter((l) => !before.has(l));
  return { evm, release: () => added.forEach((l) => opts.common.events.off('hardforkChanged', l)) };
}
