// The debugged transactions a server keeps: a few traces (the last ones asked for, whose step
// tables hold their whole run) and, per trace, the window of step details last run again, so that
// stepping in the viewer costs a lookup and not a replay. Capped: a trace of a million steps is
// tens of megabytes.
import type { ChainView } from '../replay/chainView.ts';
import type { Build } from './builds.ts';
import { DebugArtifacts, type DebugTrace, debugTransaction } from './debugTrace.ts';
import { type DetailWindow, detailWindow, type StepDetail } from './stepDetails.ts';

/** Traces kept at once. */
const TRACES = 4;
/** Steps run again on each side of a step asked for. */
const WINDOW = 256;

interface Kept {
  readonly trace: Promise<DebugTrace>;
  window: Promise<DetailWindow> | undefined;
}

export class DebugSessions {
  private artifacts: DebugArtifacts | undefined;
  private readonly kept = new Map<string, Kept>();

  /** @param builds the --abi builds, read when first needed */
  constructor(private readonly chain: ChainView, private readonly builds: () => readonly Build[]) {}

  private get debugArtifacts(): DebugArtifacts {
    this.artifacts ??= new DebugArtifacts(this.builds());
    return this.artifacts;
  }

  private entry(hash: Uint8Array): Kept {
    const key = Buffer.from(hash).toString('hex');
    let kept = this.kept.get(key);
    if (kept !== undefined) {
      // the last asked for is kept longest
      this.kept.delete(key);
      this.kept.set(key, kept);
      return kept;
    }
    kept = { trace: debugTransaction(this.chain, hash, this.debugArtifacts), window: undefined };
    kept.trace.catch(() => this.kept.delete(key));
    this.kept.set(key, kept);
    while (this.kept.size > TRACES) this.kept.delete(this.kept.keys().next().value!);
    return kept;
  }

  /** The transaction's trace (throws DebugError when it is not on the chain). */
  trace(hash: Uint8Array): Promise<DebugTrace> {
    return this.entry(hash).trace;
  }

  /** Step `step`'s stack, memory and storage, and the keccak preimages seen up to it. */
  async detail(hash: Uint8Array, step: number): Promise<{ detail: StepDetail | undefined; preimages: DetailWindow['preimages'] }> {
    const kept = this.entry(hash);
    const trace = await kept.trace;
    const holds = (w: DetailWindow): boolean => step >= w.from && step < w.from + w.details.length;
    let window = kept.window === undefined ? undefined : await kept.window.catch(() => undefined);
    if (window === undefined || !holds(window)) {
      kept.window = detailWindow(this.chain, trace, Math.max(0, step - WINDOW), step + WINDOW);
      window = await kept.window;
    }
    return { detail: window.details[step - window.from], preimages: window.preimages };
  }
}
