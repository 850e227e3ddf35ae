// Struct-log steps (go-ethereum's default tracer) matched to the call frames they run in (a
// callTracer or erc7562Tracer tree of the same transaction): frames are entered in step order, one
// per CALL-family or CREATE step that did not fail, SELFDESTRUCT frames running no code.

interface WalkedFrame<F> {
  readonly type: string;
  readonly calls?: readonly F[];
}
interface WalkedStep {
  readonly op: string;
  readonly depth: number;
  readonly error?: string;
}

const ENTERS = ['CALL', 'CALLCODE', 'DELEGATECALL', 'STATICCALL', 'CREATE', 'CREATE2'];

/** Every step with the frame it runs in, the frame it opens (if any), and the next step of its frame. */
export function* walkSteps<F extends WalkedFrame<F>, S extends WalkedStep>(
  steps: readonly S[],
  root: F,
): Generator<{ step: S; child: F | undefined; next: S | undefined; frame: F; last: boolean }> {
  const open: { frame: F; calls: number }[] = [{ frame: root, calls: 0 }];
  for (let k = 0; k < steps.length; k++) {
    const step = steps[k]!;
    const here = open[open.length - 1]!;
    let child: F | undefined;
    if (ENTERS.includes(step.op) && step.error === undefined) {
      child = (here.frame.calls ?? []).filter((c) => c.type !== 'SELFDESTRUCT')[here.calls++];
    }
    let j = k + 1;
    while (j < steps.length && steps[j]!.depth > step.depth) j++;
    const next = j < steps.length && steps[j]!.depth === step.depth ? steps[j] : undefined;
    yield { step, child, next, frame: here.frame, last: next === undefined };
    if (k + 1 < steps.length && steps[k + 1]!.depth > step.depth) open.push({ frame: child!, calls: 0 });
    for (let d = step.depth; d > (steps[k + 1]?.depth ?? 0); d--) open.pop();
  }
}
