// What both chains (fixture and upstream) do with recordings: keep one per block hash, read a block's
// frames-only recording where the chain stored one (a fixture chain's load keeps them), make each
// other at most once at a time, run the executions one after another (one VM, one state), and run a
// block with the recorder attached.
import type { Block } from '@ethereumjs/block';
import { type RunBlockResult, type VM, runBlock } from '@ethereumjs/vm';
import { bytesToUnprefixedHex } from '@ethereumjs/util';
import type { BlockRecording, StepSink } from '../trace/types.ts';
import type { ChainBlock, RecordOptions } from './chainView.ts';
import { kzgMissed, preloadKzg } from './kzg.ts';
import type { Recorder } from './recorder.ts';
import { blockRecording, cutAfter, runOptions } from './runOptions.ts';
import { unwind } from './unwind.ts';

export class RecordingStore {
  private readonly recordings = new Map<string, Promise<BlockRecording>>();
  private queue: Promise<unknown> = Promise.resolve();

  /**
   * @param limit recordings kept; the oldest is dropped first.
   * @param stored a block's frames-only recording where one is at hand without running the block
   *   (kept from the load), else undefined.
   */
  constructor(
    private readonly limit = Number.POSITIVE_INFINITY,
    private stored?: (block: ChainBlock) => BlockRecording | undefined,
  ) {}

  /**
   * The block's recording: the kept one, or `make(state)` run after every execution before it. A
   * recording with state serves a request without; one without comes from `stored` where it has the
   * block, else is made for such requests alone. A run whose steps go to a sink is made for its
   * request alone and never kept (its steps are the point, and they are not in a recording).
   */
  get(block: ChainBlock, options: RecordOptions | undefined, make: (state: boolean, steps?: StepSink) => Promise<BlockRecording>): Promise<BlockRecording> {
    const state = options?.state === true;
    const steps = options?.steps;
    if (steps !== undefined) return this.exclusive(() => make(state, steps));
    const hash = bytesToUnprefixedHex(block.hash);
    const withState = this.recordings.get(`${hash}+state`);
    if (withState !== undefined || state) return this.keep(`${hash}+state`, withState, () => make(true));
    const kept = this.recordings.get(hash);
    if (kept !== undefined) return kept;
    const stored = this.fromStore(block);
    if (stored !== undefined) return this.remember(hash, Promise.resolve(stored));
    return this.keep(hash, undefined, () => make(false));
  }

  /** The stored recording of `block`; one that cannot be read is made again instead (undefined). */
  private fromStore(block: ChainBlock): BlockRecording | undefined {
    try {
      return this.stored?.(block);
    } catch {
      return undefined;
    }
  }

  private keep(key: string, kept: Promise<BlockRecording> | undefined, make: () => Promise<BlockRecording>): Promise<BlockRecording> {
    if (kept !== undefined) return kept;
    const next = this.queue.then(make, make);
    this.queue = next.catch(() => undefined);
    this.remember(key, next);
    // a failed recording is not kept: the next request tries again
    next.catch(() => {
      if (this.recordings.get(key) === next) this.recordings.delete(key);
    });
    return next;
  }

  private remember(key: string, recording: Promise<BlockRecording>): Promise<BlockRecording> {
    this.recordings.set(key, recording);
    if (this.recordings.size > this.limit) this.recordings.delete(this.recordings.keys().next().value!);
    return recording;
  }

  /** Forgets the recordings made or read so far; with `stored`, also where the stored ones were (each block is run again). */
  clear(stored = false): void {
    this.recordings.clear();
    if (stored) this.stored = undefined;
  }

  /** Runs `work` after every execution before it, alone on the VM (traced calls). */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }
}

/** Looks at a whole block's run (totals against its header) and throws to refuse its recording. */
export type RunCheck = (block: Block, result: RunBlockResult) => void;

/**
 * Runs `block` from `root` (or from the state as it stands) with the recorder attached. The block's
 * post-state root is already known (checked at load, or the node's own): recomputing it (flushing
 * and hashing the trie) is most of a block's cost after execution, so the run reports `knownRoot`
 * instead; the unflushed changes are dropped by the next run, which starts from a stored root.
 * `check` sees the run's totals when the whole block ran (a run cut after a watched transaction has
 * none to compare).
 */
export async function recordRun(
  vm: VM, recorder: Recorder, block: Block, root: Uint8Array | undefined, knownRoot: Uint8Array, withState: boolean, steps?: StepSink, check?: RunCheck,
): Promise<BlockRecording> {
  // a sink sees the steps as they run, so its run cannot be run again: the setup is loaded first
  if (steps !== undefined) await preloadKzg();
  let run = await recordOnce(vm, recorder, block, root, knownRoot, withState, steps);
  if (kzgMissed() && steps === undefined) {
    await preloadKzg();
    run = await recordOnce(vm, recorder, block, root, knownRoot, withState);
  }
  if (check !== undefined && run.totals !== undefined) check(block, run.totals);
  return run.recording;
}

/** The recording, and the run's totals when the whole block ran. */
async function recordOnce(
  vm: VM, recorder: Recorder, whole: Block, root: Uint8Array | undefined, knownRoot: Uint8Array, withState: boolean, steps?: StepSink,
): Promise<{ recording: BlockRecording; totals: RunBlockResult | undefined }> {
  // a sink that watches one transaction needs no run of those after it
  const block = steps?.only === undefined ? whole : cutAfter(whole, steps.only);
  recorder.start(block, withState, steps);
  const state = vm.stateManager;
  const getStateRoot = state.getStateRoot;
  state.getStateRoot = async () => knownRoot;
  let txs;
  let result: RunBlockResult;
  try {
    result = await runBlock(vm, runOptions(block, root));
  } catch (error) {
    await unwind(vm);
    throw error;
  } finally {
    state.getStateRoot = getStateRoot;
    // finish() rethrows what the recorder hit, so a broken recording is never served.
    txs = recorder.finish();
  }
  return { recording: blockRecording(block, txs), totals: block === whole ? result : undefined };
}
