// toMatchGasSnapshot: gas used, one file per test file (`__traces__/TEST_FILE.gas`), a line per
// snapshot in `forge snapshot`'s form, `NAME (gas: 21000)`, sorted by name. A value within the
// tolerance (absolute gas, or `'5%'` of the recorded value) passes and leaves the file alone; the
// runner's update flag writes the new value; in CI a missing one fails.
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { call } from '../rpc/inProcess.ts';
import { contextOf } from './contexts.ts';
import { writeWhole } from './files.ts';
import type { GasSnapshotOptions } from './types/index.d.ts';
import { markGasSeen, type MatcherOutcome, noted, type RunnerState, snapshotName, tracesDir } from './runner.ts';

export type { GasSnapshotOptions };

/** A transaction of a chain from openChain, a receipt's `{ gasUsed }` (viem, ethers), or the gas itself. */
export type GasReceived = { readonly chain: object; readonly tx: string } | { readonly gasUsed: bigint | number | string } | bigint | number;

const MATCHER = 'toMatchGasSnapshot';
const LINE = /^(.*) \(gas: (\d+)\)$/;

/** The entries of a gas file, in its order; an Error naming the file and line it cannot read. */
export function readGasFile(file: string): Map<string, bigint> {
  const entries = new Map<string, bigint>();
  if (!existsSync(file)) return entries;
  readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    const match = LINE.exec(line);
    if (match === null) throw new Error(`${MATCHER}: ${file}:${i + 1} is not \`NAME (gas: N)\` (edited by hand?): restore it, or delete the file to have it written anew`);
    entries.set(match[1]!, BigInt(match[2]!));
  });
  return entries;
}

const gasText = (entries: ReadonlyMap<string, bigint>): string =>
  [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([name, gas]) => `${name} (gas: ${gas})\n`).join('');

function toGas(value: unknown): bigint | undefined {
  if (typeof value === 'bigint') return value >= 0n ? value : undefined;
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? BigInt(value) : undefined;
  if (typeof value === 'string' && /^(0x[0-9a-fA-F]+|\d+)$/.test(value)) return BigInt(value);
  return undefined;
}

/** The gas a received value stands for, and a name for it when the test gives none. */
async function gasOf(received: unknown): Promise<{ gas: bigint; fallback: string }> {
  const direct = toGas(received);
  if (direct !== undefined) return { gas: direct, fallback: 'gas' };
  const value = (typeof received === 'object' && received !== null ? received : {}) as Record<string, unknown>;
  const ctx = contextOf(value.chain);
  if (ctx !== undefined && typeof value.tx === 'string') {
    const receipt = await call<{ gasUsed: string } | null>(ctx(), 'eth_getTransactionReceipt', [value.tx]).catch((err: Error) => {
      throw new Error(`${MATCHER}: eth_getTransactionReceipt ${value.tx}: ${err.message}`);
    });
    if (receipt === null) throw new Error(`${MATCHER}: transaction ${value.tx} is not on the chain (no snapshot written)`);
    return { gas: BigInt(receipt.gasUsed), fallback: `tx ${value.tx.slice(0, 10)}` };
  }
  const used = toGas(value.gasUsed);
  if (used !== undefined) return { gas: used, fallback: 'gasUsed' };
  throw new TypeError(`${MATCHER}: expect() takes { chain, tx } with a chain from openChain, a receipt's { gasUsed }, or the gas as a bigint or number`);
}

/** The gas a value may move by: absolute, or a share of `recorded`; a TypeError for anything else. */
function allowance(tolerance: GasSnapshotOptions['tolerance'], recorded: bigint): number {
  if (tolerance === undefined) return 0;
  if (typeof tolerance === 'number' && tolerance >= 0 && Number.isFinite(tolerance)) return tolerance;
  const share = typeof tolerance === 'string' ? /^(\d+(?:\.\d+)?)%$/.exec(tolerance) : null;
  if (share === null) throw new TypeError(`${MATCHER}: tolerance is gas (500) or a share of the recorded value ('2%'), not ${JSON.stringify(tolerance)}`);
  return (Number(recorded) * Number(share[1])) / 100;
}

const change = (recorded: bigint, got: bigint): string => {
  const delta = got - recorded;
  const percent = recorded === 0n ? '' : `, ${delta >= 0n ? '+' : ''}${((Number(delta) / Number(recorded)) * 100).toFixed(2)}%`;
  return `${recorded} → ${got} (${delta >= 0n ? '+' : ''}${delta}${percent})`;
};

async function judge(state: RunnerState, received: unknown, name?: string, options: GasSnapshotOptions = {}): Promise<MatcherOutcome> {
  const { gas, fallback } = await gasOf(received);
  const snapshot = snapshotName(state, MATCHER, name, fallback);
  if (snapshot.includes('\n')) throw new TypeError(`${MATCHER}: a gas snapshot's name is one line`);
  const file = join(tracesDir(state.testPath), `${basename(state.testPath)}.gas`);
  const entries = readGasFile(file);
  const recorded = entries.get(snapshot);
  const slack = allowance(options.tolerance, recorded ?? 0n);
  markGasSeen(state.testPath, file, snapshot);
  const save = (): void => {
    entries.set(snapshot, gas);
    writeWhole(file, gasText(entries));
  };
  if (recorded === undefined) {
    if (state.update === 'none') {
      return { pass: false, message: () => `gas snapshot ${JSON.stringify(snapshot)} is missing from ${file}, and in CI a missing snapshot is not written: run the tests without CI=true and commit it` };
    }
    save();
    return { pass: true, message: () => `gas snapshot ${JSON.stringify(snapshot)} written` };
  }
  if (recorded === gas) return { pass: true, message: () => `gas snapshot ${JSON.stringify(snapshot)} matches (${gas})` };
  if (state.update === 'all') {
    save();
    return { pass: true, message: () => `gas snapshot ${JSON.stringify(snapshot)} rewritten` };
  }
  const within = Math.abs(Number(gas - recorded)) <= slack;
  const tolerance = options.tolerance === undefined ? 'no tolerance' : `tolerance ${options.tolerance}${typeof options.tolerance === 'number' ? ' gas' : ''}`;
  return {
    pass: within,
    message: () => `gas of ${JSON.stringify(snapshot)}: ${change(recorded, gas)}, ${within ? 'within' : 'past'} its ${tolerance}  (${file})\n  (\`${state.updateFlag}\` accepts the new value)`,
  };
}

/** The gas of `received` against its line in the test file's gas file, within `options.tolerance`. */
export function gasSnapshotMatcher(state: RunnerState, received: unknown, name?: string, options: GasSnapshotOptions = {}): Promise<MatcherOutcome> {
  return noted(state.testPath, () => judge(state, received, name, options));
}
